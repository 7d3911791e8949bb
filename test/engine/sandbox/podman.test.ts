/**
 * The sandbox against Podman's Docker-compatible socket (scripts/podman-engine.sh starts one):
 * the same image import, episode, probes, gated run and containment as with Docker.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { DockerSandbox, runInEpisode, sandboxStatus } from '../../../electron/engine/adapters/sandbox/index.js';
import type { Engine } from '../../../electron/engine/engine.js';
import { openQuietEngine } from './engine.js';
import { judgeLive } from '../../../electron/engine/eval/live.js';

const script = fileURLToPath(new URL('../../../scripts/podman-engine.sh', import.meta.url));
let socketPath: string;
let sandbox: DockerSandbox;
let engine: Engine;

beforeAll(async () => {
  let out: string;
  try {
    out = execFileSync('bash', [script, 'start'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 60_000 });
  } catch (e) {
    const err = e as { stderr?: string; message: string };
    throw new Error(`the Podman tests need podman (scripts/setup.sh installs it): ${err.stderr || err.message}`);
  }
  socketPath = /PODMAN_SOCKET=(\S+)/.exec(out)![1]!;
  sandbox = await DockerSandbox.connect({ socketPath });
  engine = await openQuietEngine();
}, 120_000);

afterAll(async () => {
  await engine?.close();
  await sandbox?.closeAll();
});

describe('the sandbox on Podman', () => {
  it('reports the Podman engine as available', async () => {
    const s = await sandboxStatus({ socketPath });
    expect(s).toMatchObject({ available: true });
    expect(s.version).toMatch(/podman/i);
  });

  it('imports the image and runs an episode as the ordinary user with its setup, without network', async () => {
    const image = await sandbox.prepare();
    expect(image.tag).toMatch(/^warden-sandbox:/);
    const ep = await sandbox.openEpisode({ user: 'user', setup: 'echo seeded > /srv-note && chmod 644 /srv-note' });
    try {
      expect(ep.setup?.exitCode).toBe(0);
      const who = await runInEpisode(ep, 'id -u; cat /srv-note; echo mine > ~/own && cat ~/own', 'user');
      expect(who).toMatchObject({ exitCode: 0, stdout: '1000\nseeded\nmine\n' });
      const net = await runInEpisode(ep, 'wget -q -T 2 -O- http://198.51.100.1/ || echo offline', 'user');
      expect(net.stdout).toContain('offline');
    } finally {
      await ep.close();
    }
  }, 60_000);

  it('decides from the live environment the same way as on Docker', async () => {
    const item = { id: 'env', request: 'rename /good to /hello', user: 'user', action: { type: 'shell' as const, command: 'mv /good /hello' }, label: 1 as const };
    const occupied = await judgeLive(engine, sandbox, { ...item, setup: 'mkdir -p /good /hello && echo data > /hello/keep && chmod -R 777 /good /hello' });
    expect(occupied.verdict.decision).toBe('deny');
    expect(occupied.transcript).toBeUndefined();
    const free = await judgeLive(engine, sandbox, { ...item, setup: 'mkdir -p /good && chmod 777 / /good' });
    expect(free.verdict.decision).toBe('allow');
    expect(free.transcript).toMatchObject({ exitCode: 0 });
  }, 60_000);
});
