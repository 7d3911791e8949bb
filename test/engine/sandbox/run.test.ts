import { describe, expect, it, beforeAll, afterAll } from 'vitest';
import { runInEpisode, type DockerSandbox } from '../../../electron/engine/adapters/sandbox/index.js';
import { connectTestEngine } from './engine.js';

describe('running an allowed action', () => {
  let sandbox: DockerSandbox;
  beforeAll(async () => {
    sandbox = await connectTestEngine();
  });
  afterAll(async () => {
    await sandbox?.closeAll();
  });

  it('returns the transcript of the command as the given identity, and its effect stays in the episode', async () => {
    const ep = await sandbox.openEpisode({ user: 'user', setup: 'mkdir -p /hello && echo data > /hello/f && mkdir -p /good' });
    try {
      const t = await runInEpisode(ep, 'mv /good /hello && ls /hello', 'root');
      expect(t).toMatchObject({ command: 'mv /good /hello && ls /hello', user: 'root', stdout: 'f\ngood\n', stderr: '', exitCode: 0, timedOut: false, truncated: false });
      expect(t.error).toBeUndefined();
      expect(t.lingering).toBe(0);
      const background = await runInEpisode(ep, 'sleep 300 & echo started >&2', 'user');
      expect(background).toMatchObject({ stderr: 'started\n', exitCode: 0, lingering: 1 });
      const denied = await runInEpisode(ep, 'rm -r /hello', 'user');
      expect(denied.exitCode).not.toBe(0);
      expect(denied.stderr).toMatch(/Permission denied/);
    } finally {
      await ep.close();
    }
  });

  it('runs in the given working directory, and not at all when it is missing', async () => {
    const ep = await sandbox.openEpisode({ user: 'user', setup: 'mkdir -p /home/user/work && chown user /home/user/work' });
    try {
      expect((await runInEpisode(ep, 'pwd; touch made', 'user', { cwd: '/home/user/work' })).stdout).toBe('/home/user/work\n');
      const missing = await runInEpisode(ep, 'touch should-not-exist', 'user', { cwd: '/nowhere' });
      expect(missing.exitCode).toBe(125);
      const listing = (await ep.exec('ls -A /home/user /home/user/work')).stdout;
      expect(listing).toContain('made');
      expect(listing).not.toContain('should-not-exist');
    } finally {
      await ep.close();
    }
  });

  it('records a time-out and an ended episode as values, never as exceptions', async () => {
    const ep = await sandbox.openEpisode({ user: 'user' });
    const slow = await runInEpisode(ep, 'sleep 1000', 'user', { timeoutMs: 500 });
    expect(slow).toMatchObject({ timedOut: true, exitCode: 137 });
    expect(slow.error).toMatch(/time-out/);
    await ep.close();
    const gone = await runInEpisode(ep, 'echo hi', 'user');
    expect(gone).toMatchObject({ exitCode: null, timedOut: false, stdout: '' });
    expect(gone.error).toMatch(/has ended/);
  });
});
