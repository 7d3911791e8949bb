import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openEngine } from '../../electron/engine/create-engine.js';
import type { Engine } from '../../electron/engine/engine.js';
import { startIntakeServer, type IntakeServer } from '../../electron/server/intake/intake-server.js';
import { intakeInfoPath, loadOrCreateToken, writeIntakeInfo } from '../../electron/server/intake/token.js';
import { connectTestEngine } from '../engine/sandbox/engine.js';
import { testCache } from '../helpers/temp-root.js';

const bin = join(process.cwd(), 'bin', 'warden.js');
let engine: Engine;
let dataDir: string;
let server: IntakeServer;
// a home for the child processes: a harmful command run by mistake could only hurt this folder
let fakeHome: string;

function warden(args: string[], opts: { cwd?: string } = {}): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn('node', [bin, ...args], { env: { ...process.env, WARDEN_HOME: dataDir, HOME: fakeHome, WARDEN_CACHE: testCache() }, cwd: opts.cwd ?? fakeHome });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    child.on('close', (status) => resolve({ status, stdout, stderr }));
    child.stdin.end();
  });
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'warden-exec-'));
  fakeHome = mkdtempSync(join(tmpdir(), 'warden-exec-home-'));
  writeFileSync(join(fakeHome, 'keep.txt'), 'still here');
  engine = await openEngine({ dataDir });
});

afterAll(async () => {
  rmSync(intakeInfoPath(dataDir), { force: true });
  await server?.close();
  await engine?.close();
});

describe('warden exec', () => {
  it('without an intake, judges in its own engine, runs an allowed command and records its exit code', async () => {
    const r = await warden(['exec', '--', 'echo', 'hello from exec']);
    expect(r).toMatchObject({ status: 0, stdout: 'hello from exec\n' });
    const v = engine.store.listVerdicts({ limit: 1 })[0]!;
    expect(v).toMatchObject({ decision: 'allow', request: { action: { command: "echo 'hello from exec'" }, context: { agent: 'warden-exec' } }, transcript: { exitCode: 0 } });
  });

  describe('through a running intake', () => {
    beforeAll(async () => {
      server = await startIntakeServer(engine, { token: loadOrCreateToken(dataDir) });
      writeIntakeInfo(dataDir, { url: server.url, pid: process.pid, startedAt: Date.now() });
    });

    it("passes the command's own exit code through", async () => {
      const r = await warden(['exec', '--', 'ls', join(fakeHome, 'no-such-dir')]);
      expect(r.status).toBe(2);
      expect(r.stderr).toMatch(/No such file/);
    });

    it('denies a harmful command: nothing runs, exit 126, the reason on stderr, the verdict recorded', async () => {
      const r = await warden(['exec', '--', 'rm -rf ~']);
      expect(r.status).toBe(126);
      expect(r.stderr).toMatch(/^warden: denied: check: .*home directory/im);
      expect(existsSync(join(fakeHome, 'keep.txt'))).toBe(true);
      expect(engine.listVerdicts({ limit: 1 })[0]).toMatchObject({ decision: 'deny', request: { action: { command: 'rm -rf ~' } } });
    });

    it('on ask with nobody deciding, denies when the wait runs out', async () => {
      // throwing away uncommitted work the request did not mention always asks (a soft check)
      const r = await warden(['exec', '--timeout', '300', '--', 'git', 'clean', '-fdx']);
      expect(r.status, r.stderr).toBe(126);
      expect(r.stderr).toMatch(/no human decided/);
    });

    it('on ask, runs the command once a human approves', async () => {
      const off = engine.on('verdict.created', (v) => {
        if (v.decision === 'ask') void engine.decide({ verdictId: v.id, outcome: 'approve', reason: 'fine here', reviewer: 'bob' });
      });
      try {
        const r = await warden(['exec', '--', 'git reset --hard 2>/dev/null; exit 5']);
        expect(r.status, r.stderr).toBe(5);
        expect(engine.listVerdicts({ limit: 1 })[0]).toMatchObject({ decision: 'ask', review: { outcome: 'approve', reviewer: 'bob' } });
      } finally {
        off();
      }
    });
  });
});

describe('warden exec --sandbox', () => {
  // the real engine, started when none answers (a missing engine fails the test, never skips it)
  beforeAll(async () => {
    const sb = await connectTestEngine();
    await sb.closeAll();
  }, 120_000);

  it('runs an allowed command in an episode and denies a harmful one without running it', async () => {
    const ok = await warden(['exec', '--sandbox', '--', 'echo inside the sandbox']);
    expect(ok).toMatchObject({ status: 0, stdout: 'inside the sandbox\n' });
    expect(engine.store.listVerdicts({ limit: 1 })[0]!.transcript).toMatchObject({ exitCode: 0, stdout: 'inside the sandbox\n' });
    const no = await warden(['exec', '--sandbox', '--', 'rm -rf /']);
    expect(no.status).toBe(126);
  });
});
