/**
 * The real Docker-API engine for the sandbox tests: DOCKER_HOST or the default socket when one
 * answers, else the private engine of scripts/docker-engine.sh, started here. No engine is a
 * failure, never a skip.
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { afterAll, beforeAll } from 'vitest';
import { DockerSandbox, sandboxStatus } from '../../../electron/engine/adapters/sandbox/index.js';
import { openEngine } from '../../../electron/engine/create-engine.js';
import type { Engine } from '../../../electron/engine/engine.js';
import { testCache } from '../../helpers/temp-root.js';

const script = fileURLToPath(new URL('../../../scripts/docker-engine.sh', import.meta.url));

/** Makes sure an engine answers (starting the private one if needed) and connects to it. */
export async function connectTestEngine(): Promise<DockerSandbox> {
  if (!(await sandboxStatus()).available) {
    let out: string;
    try {
      out = execFileSync('bash', [script, 'start'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 60_000 });
    } catch (e) {
      const err = e as { stderr?: string; message: string };
      throw new Error(`the sandbox tests need a Docker engine and none could be started: ${err.stderr || err.message}`);
    }
    const host = /DOCKER_HOST=(\S+)/.exec(out)?.[1];
    if (!host) throw new Error(`scripts/docker-engine.sh start printed no DOCKER_HOST: ${out}`);
    process.env['DOCKER_HOST'] = host;
  }
  const sandbox = await DockerSandbox.connect();
  await sandbox.prepare();
  return sandbox;
}

/** A quiet, throw-away guard engine for tests that judge against live episodes, with any config settings given. */
export async function openQuietEngine(config?: Record<string, unknown>): Promise<Engine> {
  process.env['WARDEN_CACHE'] ??= testCache();
  return openEngine({ ephemeral: true, log: { info: () => {}, warn: () => {}, error: () => {} }, ...(config ? { config } : {}) });
}

/**
 * A sandbox connection and a quiet engine shared by one test file: connected before its tests,
 * closed after them. Read `live.sandbox` and `live.engine` inside the tests.
 */
export function liveHarness(config?: Record<string, unknown>): { sandbox: DockerSandbox; engine: Engine } {
  const live = {} as { sandbox: DockerSandbox; engine: Engine };
  beforeAll(async () => {
    live.sandbox = await connectTestEngine();
    live.engine = await openQuietEngine(config);
  }, 120_000);
  afterAll(async () => {
    await live.engine?.close();
    await live.sandbox?.closeAll();
  });
  return live;
}
