/**
 * `warden mcp-proxy -- <server command...>`: put Warden between an MCP client and an MCP server.
 * Register this command as the server in the client's configuration; every tools/call is judged
 * as a `tool` action (denied calls come back as tool errors with the reason), everything else
 * passes through untouched.
 */
import type { Command } from 'commander';
import { basename } from 'node:path';
import { toErrorInfo } from '../../shared/errors.js';
import { stderrLog } from '../engine/create-engine.js';
import { connectGuard, type Guard } from '../server/intake/guard-client.js';
import { startMcpProxy } from '../server/mcp-proxy/mcp-proxy.js';

/** Registers `warden mcp-proxy`. */
export function registerMcpProxyCommand(program: Command): void {
  program
    .command('mcp-proxy')
    .description('run an MCP server behind Warden: every tools/call is judged first; everything else is forwarded')
    .option('-r, --request <text>', 'what the human asked for (default: $WARDEN_REQUEST, else "use the <name> MCP server (<its arguments>)", so the paths the server was given are in scope)')
    .option('--name <name>', 'server name shown in verdicts (default: the command name)')
    .option('--ask-timeout <ms>', 'longest wait for a reviewer on ask; then deny (MCP clients time out requests after 60 s)', (v) => parseInt(v, 10), 50_000)
    .argument('<command...>', 'the MCP server command and its arguments, after --')
    .action(async (argv: string[], opts: { request?: string; name?: string; askTimeout: number }) => {
      const log = stderrLog();
      try {
        const [command, ...args] = argv;
        // `node server.js`, `npx @scope/server`: the server is the first argument, not the launcher
        const launcher = /^(node|nodejs|npx|bunx|bun|deno|uvx|uv|python3?|pipx)$/.test(basename(command!)) && args[0] && !args[0].startsWith('-');
        const name = opts.name ?? basename(launcher ? args[0]! : command!);
        // the server's own arguments (the folders it may use) put those paths in scope; where the
        // server is installed says nothing about the task, so its path stays out of the request
        const serverArgs = launcher ? args.slice(1) : args;
        const request = opts.request ?? process.env['WARDEN_REQUEST'] ?? `use the ${name} MCP server${serverArgs.length ? ` (${serverArgs.join(' ')})` : ''}`;
        // the engine warms up while the client and the server say hello
        const guard: Promise<Guard> = connectGuard();
        guard.catch(() => undefined);
        const env = Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined));
        const proxy = await startMcpProxy({
          upstream: { command: command!, args, env, stderr: 'inherit' },
          log,
          judge: async (call) => {
            const g = await guard;
            const a = await g.submit(
              { request, action: { type: 'tool', name: call.name, arguments: call.arguments }, context: { agent: `mcp:${name}`, cwd: process.cwd() } },
              { wait: true, timeoutMs: opts.askTimeout },
            );
            return { allow: a.decision === 'allow', reason: `${a.path}: ${a.reason} (verdict ${a.id})` };
          },
        });
        const stop = (): void => void proxy.close();
        process.once('SIGINT', stop);
        process.once('SIGTERM', stop);
        await proxy.closed;
        await (await guard.catch(() => undefined))?.close();
        process.exit(0);
      } catch (e) {
        process.stderr.write(JSON.stringify({ error: toErrorInfo(e) }) + '\n');
        process.exitCode = 2;
      }
    });
}
