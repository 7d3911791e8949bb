import { describe, expect, it, beforeAll, afterAll } from 'vitest';
import type { DockerSandbox } from '../../../electron/engine/adapters/sandbox/index.js';
import type { Engine } from '../../../electron/engine/engine.js';
import { SandboxService } from '../../../electron/engine/gated-run.js';
import { connectTestEngine, openQuietEngine } from './engine.js';

const quiet = { info: () => {}, warn: () => {}, error: () => {} };
let sandbox: DockerSandbox;
let engine: Engine;
let service: SandboxService;
beforeAll(async () => {
  sandbox = await connectTestEngine();
  engine = await openQuietEngine();
  service = new SandboxService(engine, { log: quiet });
}, 120_000);
afterAll(async () => {
  await service?.close();
  await engine?.close();
  await sandbox?.closeAll();
});

describe('sandbox.run: verdict first, run only on allow', () => {
  it('runs an allowed command and stores its transcript with the verdict', async () => {
    const v = await service.run({ request: { request: 'show the notes file', action: { type: 'shell', command: 'cat /srv/notes.txt' } }, setup: 'mkdir -p /srv && echo hello-notes > /srv/notes.txt && chmod 644 /srv/notes.txt' });
    expect(v.decision).toBe('allow');
    expect(v.transcript).toMatchObject({ command: 'cat /srv/notes.txt', exitCode: 0, stdout: 'hello-notes\n' });
    expect(engine.getVerdict(v.id).transcript?.stdout).toBe('hello-notes\n');
  }, 60_000);

  it('never touches the container on a deny: the file the command would delete is still there', async () => {
    const session = 'deny-session';
    const setup = 'mkdir -p /home/user/keep && echo precious > /home/user/keep/data && chown -R 1000:1000 /home/user';
    const denied = await service.run({ request: { request: 'check disk usage', action: { type: 'shell', command: 'rm -rf /home/user' }, context: { session } }, setup, session });
    expect(denied.decision).not.toBe('allow');
    expect(denied.transcript).toBeUndefined();
    expect(engine.getVerdict(denied.id).transcript).toBeUndefined();
    const look = await service.run({ request: { request: 'show my data file', action: { type: 'shell', command: 'cat /home/user/keep/data' }, context: { session } }, session });
    expect(look.decision).toBe('allow');
    expect(look.transcript?.stdout).toBe('precious\n');
  }, 60_000);

  it('keeps one episode per session, so later commands see what earlier ones did', async () => {
    const session = 'state-session';
    const a = await service.run({ request: { request: 'make a scratch file in my home', action: { type: 'shell', command: 'echo step-one > ~/scratch.txt' }, context: { session } }, session });
    expect(a.decision).toBe('allow');
    expect(a.transcript?.exitCode).toBe(0);
    const b = await service.run({ request: { request: 'show the scratch file in my home', action: { type: 'shell', command: 'cat ~/scratch.txt' }, context: { session } }, session });
    expect(b.transcript?.stdout).toBe('step-one\n');
    expect(await service.endSession(session)).toBe(true);
  }, 60_000);

  it('runs a held-back command only after a human approves it', async () => {
    const v = await engine.check({ request: 'check disk usage', action: { type: 'shell', command: 'rm -rf /home/user/old-logs' } });
    expect(v.decision).not.toBe('allow');
    await expect(service.runApproved({ verdictId: v.id })).rejects.toMatchObject({ code: 'CONFLICT' });
    await engine.decide({ verdictId: v.id, outcome: 'approve', reason: 'old logs may go' });
    const ran = await service.runApproved({ verdictId: v.id, setup: 'mkdir -p /home/user/old-logs && chown -R 1000:1000 /home/user' });
    expect(ran.transcript).toMatchObject({ exitCode: 0, command: 'rm -rf /home/user/old-logs' });
    expect(engine.getVerdict(v.id).transcript?.exitCode).toBe(0);
    await expect(service.runApproved({ verdictId: v.id })).rejects.toMatchObject({ code: 'CONFLICT' });
  }, 60_000);

  it('rejects non-shell actions with a clear error', async () => {
    await expect(service.run({ request: { request: 'x', action: { type: 'text', content: 'hi' } } })).rejects.toMatchObject({ code: 'BAD_INPUT', field: 'request.action.type' });
  });
});
