/**
 * `warden intake`: serves the agent intake API on loopback until interrupted, and publishes its
 * address in the data dir so `warden hook`, `warden exec` and `warden mcp-proxy` use the warm
 * engine instead of opening their own.
 */
import type { Command } from 'commander';
import { toErrorInfo } from '../../shared/errors.js';
import { openEngine } from '../engine/create-engine.js';
import { loadConfig } from '../engine/config.js';
import { startIntakeServer } from '../server/intake/intake-server.js';
import { intakeJsonSchemas } from '../server/intake/schema.js';
import { loadOrCreateToken, removeIntakeInfo, tokenPath, writeIntakeInfo } from '../server/intake/token.js';

/** Registers `warden intake`. */
export function registerIntakeCommand(program: Command): void {
  program
    .command('intake')
    .description('serve the agent intake API on 127.0.0.1 with the install token (POST /v1/actions, GET /v1/stream, GET /v1/schema)')
    .option('--port <n>', 'port (default: any free port; the address is printed and written to the data dir)', (v) => parseInt(v, 10))
    .option('--ask-timeout <ms>', 'longest wait for a human on ask; then deny', (v) => parseInt(v, 10))
    .option('--print-schema', 'print the JSON Schemas the API publishes (as in docs/intake.md) and exit')
    .action(async (opts: { port?: number; askTimeout?: number; printSchema?: boolean }) => {
      try {
        if (opts.printSchema) {
          process.stdout.write(JSON.stringify(intakeJsonSchemas(), null, 2) + '\n');
          return;
        }
        const cfg = loadConfig();
        const engine = await openEngine();
        const token = loadOrCreateToken(cfg.dataDir);
        const server = await startIntakeServer(engine, { token, ...(opts.port !== undefined ? { port: opts.port } : {}), ...(opts.askTimeout ? { askTimeoutMs: opts.askTimeout } : {}) });
        writeIntakeInfo(cfg.dataDir, { url: server.url, pid: process.pid, startedAt: Date.now() });
        process.stdout.write(JSON.stringify({ url: server.url, token_file: tokenPath(cfg.dataDir), schema: `${server.url}/v1/schema`, stream: `${server.url}/v1/stream` }) + '\n');
        const stop = async (): Promise<void> => {
          removeIntakeInfo(cfg.dataDir);
          await server.close();
          await engine.close();
          process.exit(0);
        };
        process.once('SIGINT', () => void stop());
        process.once('SIGTERM', () => void stop());
      } catch (e) {
        process.stderr.write(JSON.stringify({ error: toErrorInfo(e) }) + '\n');
        process.exitCode = 2;
      }
    });
}
