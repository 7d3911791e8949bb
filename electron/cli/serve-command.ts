/**
 * `warden serve`: the headless console. The first line of stdout is the console's URL with the
 * install's token, so a script (or a person) can open it; it serves until SIGINT or SIGTERM and
 * closes the engine cleanly.
 */
import { InvalidArgumentError, type Command } from 'commander';
import { toErrorInfo } from '../../shared/errors.js';
import { openEngine, stderrLog } from '../engine/create-engine.js';
import { loadConfig } from '../engine/config.js';
import { createHandlers } from '../engine/api/handlers.js';
import { startConsoleServer } from '../server/console/server.js';
import { consoleTokenPath, loadOrCreateConsoleToken } from '../server/console/console-token.js';

/** Registers `warden serve`. */
export function registerServeCommand(program: Command): void {
  program
    .command('serve')
    .description('serve the console on 127.0.0.1 (the first line printed is its URL, token included); stops on Ctrl-C')
    .option('--port <n>', 'port (default: any free port)', (v) => {
      const n = Number(v);
      if (!Number.isInteger(n) || n < 0 || n > 65535) throw new InvalidArgumentError(`--port must be an integer between 0 and 65535, not ${v}`);
      return n;
    })
    .action(async (opts: { port?: number }) => {
      try {
        const cfg = loadConfig();
        const log = stderrLog();
        const engine = await openEngine({ log });
        const handlers = createHandlers({ engine, log, gate: cfg.gateConfig, ...(cfg.llm ? { llm: { model: cfg.llm.model, baseURL: cfg.llm.baseURL } } : {}) });
        const token = loadOrCreateConsoleToken(cfg.dataDir);
        const server = await startConsoleServer({ handlers, token, log, ...(opts.port !== undefined ? { port: opts.port } : {}) });
        const stopWatch = handlers.watchStore();
        process.stdout.write(`${server.url}\n`);
        process.stderr.write(`Warden console: open the address above in a browser (token file ${consoleTokenPath(cfg.dataDir)}); Ctrl-C stops it.\n`);
        let stopping = false;
        const stop = async (): Promise<void> => {
          if (stopping) return;
          stopping = true;
          stopWatch();
          await server.close();
          handlers.close();
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
