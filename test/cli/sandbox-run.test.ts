import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DockerSandbox } from '../../electron/engine/adapters/sandbox/index.js';
import { connectTestEngine } from '../engine/sandbox/engine.js';
import { testCache } from '../helpers/temp-root.js';

const bin = join(process.cwd(), 'bin', 'warden.js');
let sandbox: DockerSandbox;
beforeAll(async () => {
  sandbox = await connectTestEngine();
}, 120_000);
afterAll(async () => {
  await sandbox?.closeAll();
});

describe('warden sandbox run', () => {
  const env = () => ({ ...process.env, WARDEN_HOME: mkdtempSync(join(tmpdir(), 'warden-cli-sb-')), WARDEN_CACHE: testCache() });

  it('runs an allowed command in a fresh episode and prints its transcript', () => {
    const r = spawnSync('node', [bin, 'sandbox', 'run', '-r', 'show the greeting in /srv/hello.txt', '--shell', 'cat /srv/hello.txt', '--setup', 'mkdir -p /srv && echo hello > /srv/hello.txt'], { env: env(), encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out).toMatchObject({ decision: 'allow', transcript: { exitCode: 0, stdout: 'hello\n' } });
  }, 60_000);

  it('does not run a denied command and exits 1', () => {
    const r = spawnSync('node', [bin, 'sandbox', 'run', '-r', 'check the disk', '--shell', 'rm -rf /home/user'], { env: env(), encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(1);
    expect(JSON.parse(r.stdout)).toMatchObject({ decision: 'deny', transcript: null });
  }, 60_000);
});
