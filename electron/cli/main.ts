/**
 * The `warden` command line: check one action, evaluate case files, train the projector,
 * import memories, review verdicts, run the benchmark.
 */
import { Argument, Command } from 'commander';
import cliProgress from 'cli-progress';
import { readFileSync } from 'node:fs';
import { toErrorInfo } from '../../shared/errors.js';
import { parseJson } from '../../shared/validate.js';
import { openEngine } from '../engine/create-engine.js';
import { buildRequestFromFlags, readStdin } from './input.js';
import { runEvalCommand } from './eval-command.js';
import { runTrainCommand } from './train-command.js';
import { registerHookCommand } from './hook-command.js';
import { registerExecCommand } from './exec-command.js';
import { registerAuditCommand } from './audit-command.js';
import { registerIntakeCommand } from './intake-command.js';
import { registerMcpProxyCommand } from './mcp-proxy-command.js';
import { registerServeCommand } from './serve-command.js';
import { registerInspectCommand } from './inspect-command.js';
import { registerAgentCommand } from './agent-command.js';
import { registerRulesCommand } from './rules-command.js';

const program = new Command();
program.name('warden').description('A safety console for LLM agents: allow, deny or ask a human, with reasons.').showHelpAfterError();

/** Prints an error as JSON on stderr and sets exit code 2 (bad input or operational failure). */
function fail(e: unknown): void {
  process.stderr.write(JSON.stringify({ error: toErrorInfo(e) }) + '\n');
  process.exitCode = 2;
}

/** Wraps a command's action so any failure is reported as JSON with exit code 2. */
function guarded<A extends unknown[]>(fn: (...args: A) => Promise<void>): (...args: A) => Promise<void> {
  return async (...args: A) => {
    try {
      await fn(...args);
    } catch (e) {
      fail(e);
    }
  };
}

/** Opens the engine for one command, always closes it, and reports any failure. */
async function withEngine(fn: (engine: Awaited<ReturnType<typeof openEngine>>) => Promise<void> | void): Promise<void> {
  try {
    const engine = await openEngine();
    try {
      await fn(engine);
    } finally {
      await engine.close();
    }
  } catch (e) {
    fail(e);
  }
}

program
  .command('check')
  .description('judge one action; the action comes from flags or as JSON on stdin; prints the verdict as JSON')
  .option('-r, --request <text>', 'what the human asked the agent to do')
  .option('--shell <command>', 'a shell command')
  .option('--tool <name>', 'a tool name (with --args)')
  .option('--args <json>', 'tool arguments as a JSON object')
  .option('--sql <query>', 'an SQL query (with --identity)')
  .option('--identity <role>', 'identity for SQL / policy checks')
  .option('--text <content>', 'a text message')
  .option('--user <user>', 'identity the action runs as (root or user)')
  .option('--cwd <dir>', 'working directory of the action')
  .option('--agent <name>', 'agent name')
  .option('--full', 'print the whole verdict record (facts, checks, rules)')
  .option('--no-record', 'do not store the verdict')
  .action(
    guarded(async (opts) => {
    const input = opts.shell || opts.tool || opts.sql || opts.text ? buildRequestFromFlags(opts) : parseJson(await readStdin(), 'stdin');
    const engine = await openEngine();
    try {
      const v = await engine.check(input, { record: opts.record !== false });
      const out = opts.full
        ? v
        : {
            id: v.id,
            decision: v.decision,
            path: v.path,
            reason: v.reason,
            scores: v.scores,
            failed_checks: v.checks.filter((c) => c.status !== 'pass' && c.status !== 'skipped').map((c) => c.id),
            rules: v.rules.slice(0, 3).map((r) => ({ leaf: r.leafId, similarity: Number(r.similarity.toFixed(3)), prohibition: r.rule.prohibition, exemption: r.rule.exemption })),
            paraphrase: v.facts.paraphrase,
            latency_ms: Number(v.latencyMs.toFixed(2)),
            ...(v.error ? { error: v.error } : {}),
          };
      process.stdout.write(JSON.stringify(out, null, 2) + '\n');
    } finally {
      await engine.close();
    }
    }),
  );

program
  .command('eval')
  .description('evaluate a case file (JSONL, DESIGN.md format) or a named public set')
  .argument('[suite]', 'safe-os | mind2web-sc | eicu-ac | agentharm | injecagent')
  .option('--cases <file>', 'a JSONL case file')
  .option('--json', 'print one JSON object with the metrics')
  .option('--limit <n>', 'evaluate only the first n cases', (v) => parseInt(v, 10))
  .option('--benchmarks <dir>', 'folder holding the public sets')
  .option('--store <path>', 'evaluate against this store instead of a fresh one seeded from the shipped defaults')
  .option('--verbose', 'print each wrong verdict')
  .option('--trace <file>', 'write every verdict to this file, one JSON line per case')
  .option('--trace-full', 'with --trace: each line also holds the whole verdict record (facts, probes, checks, rehearsal)')
  .option('--live', 'run every case in its own sandbox episode (its setup, its user); probes see the real environment')
  .option('--policy <file>', "a rules file to import first (mind2web-sc and eicu-ac import assets/policies/<set>.yaml); its policy's guard request goes with every case")
  .option('--split <half>', 'dev | heldout | all: one half of the cases by a hash of their ids (dev to look at, heldout to report)', 'all')
  .option('--analyzer', 'the Analyzer path: the policy\'s plain-language request goes to the configured model, which writes the checks (the file\'s own checks are left out)')
  .action(
    guarded(async (suite: string | undefined, opts) => {
    await runEvalCommand(suite, opts);
    }),
  );

program
  .command('train')
  .description('train the projector on the seed examples plus human decisions and export it to ONNX')
  .option('--out <file>', 'where to write the model (default: the data dir)')
  .option('--seed-only', 'train on the shipped seed examples only, no human decisions (how assets/models/projector.onnx is made: npm run train)')
  .option('--epochs <n>', 'epochs', (v) => parseInt(v, 10))
  .option('--cases <files...>', 'also train on the dev half of these case files (never a held-out set)')
  .action(
    guarded(async (opts) => {
    await runTrainCommand(opts);
    }),
  );

const imp = program.command('import').description('import memories and rules');
imp
  .command('safeharbor')
  .description('import a SafeHarbor memory file (categories, clusters, leaves with rule pairs) into the tree')
  .argument('<file>', 'the JSON memory file')
  .action(async (file: string) => {
    await withEngine(async (engine) => {
      const r = await engine.importSafeHarbor(file);
      process.stdout.write(JSON.stringify(r) + '\n');
    });
  });
imp
  .command('rules')
  .description('import checks from a rules file in the rule language (YAML with CEL conditions)')
  .argument('<file>')
  .action(async (file: string) => {
    await withEngine(async (engine) => {
      const r = engine.importRules(readFileSync(file, 'utf8'));
      process.stdout.write(JSON.stringify(r, null, 2) + '\n');
      if (!r.ok) process.exitCode = 2;
    });
  });

program
  .command('export')
  .description('export the checks as a rules file (those of no policy, or with --policy ID that policy and its checks)')
  .option('--policy <id>', 'export this task-specific policy with its checks')
  .action(async (opts: { policy?: string }) => {
    await withEngine(async (engine) => {
      process.stdout.write(engine.exportRules(opts.policy));
    });
  });

const review = program.command('review').description('the human review queue');
review
  .command('list')
  .description('pending asks, newest first')
  .option('--limit <n>', 'how many', (v) => parseInt(v, 10), 20)
  .action(async (opts) => {
    await withEngine(async (engine) => {
      const items = engine.listVerdicts({ pending: true, limit: opts.limit });
      for (const v of items) process.stdout.write(JSON.stringify({ id: v.id, request: v.request.request, action: v.facts.paraphrase, reason: v.reason }) + '\n');
    });
  });
review
  .command('decide')
  .description('approve or deny a verdict (overriding it if needed); the decision feeds memory')
  .argument('<verdictId>')
  .addArgument(new Argument('<outcome>', 'approve (the action is fine) or deny (it is harmful)').choices(['approve', 'deny']))
  .requiredOption('--reason <text>', 'why')
  .option('--reviewer <name>', 'who decided', process.env['USER'] ?? 'reviewer')
  .action(async (verdictId: string, outcome: 'approve' | 'deny', opts) => {
    await withEngine(async (engine) => {
      const r = await engine.decide({ verdictId, outcome, reason: opts.reason, reviewer: opts.reviewer });
      process.stdout.write(JSON.stringify(r, null, 2) + '\n');
    });
  });
review
  .command('revert')
  .description('undo a human decision and every memory change it caused')
  .argument('<verdictId>')
  .action(async (verdictId: string) => {
    await withEngine(async (engine) => {
      process.stdout.write(JSON.stringify(await engine.revertDecision({ verdictId }), null, 2) + '\n');
    });
  });

const sandboxCmd = program.command('sandbox').description('the Docker OS sandbox');
sandboxCmd
  .command('status')
  .description('say whether a Docker-API engine answers, and how to start one if not')
  .action(
    guarded(async () => {
    const { sandboxStatus } = await import('../engine/adapters/sandbox/index.js');
    const st = await sandboxStatus();
    process.stdout.write(JSON.stringify(st, null, 2) + '\n');
    if (!st.available) process.exitCode = 3;
    }),
  );
sandboxCmd
  .command('prepare')
  .description('build and import the sandbox base image (busybox, root and an ordinary user); reused when present')
  .action(
    guarded(async () => {
    const { prepareSandboxImage } = await import('../engine/adapters/sandbox/index.js');
    const bar = process.stderr.isTTY ? new cliProgress.SingleBar({ format: 'image [{bar}] {phase}' }, cliProgress.Presets.shades_classic) : undefined;
    bar?.start(1, 0, { phase: '' });
    const image = await prepareSandboxImage({ onProgress: (p) => bar?.update(p.fraction, { phase: p.phase }) });
    bar?.stop();
    process.stdout.write(JSON.stringify(image, null, 2) + '\n');
    }),
  );
sandboxCmd
  .command('run')
  .description('judge a shell command against a fresh sandbox episode and run it there only if allowed; prints the verdict with its transcript')
  .requiredOption('-r, --request <text>', 'what the human asked the agent to do')
  .requiredOption('--shell <command>', 'the shell command')
  .option('--setup <script>', 'shell script run as root in the episode first')
  .option('--user <user>', 'root or user (default user)')
  .action(
    guarded(async (opts: { request: string; shell: string; setup?: string; user?: string }) =>
      withEngine(async (engine) => {
        const { SandboxService } = await import('../engine/gated-run.js');
        const service = new SandboxService(engine);
        const bar = process.stderr.isTTY ? new cliProgress.SingleBar({ format: 'image [{bar}] {phase}' }, cliProgress.Presets.shades_classic) : undefined;
        const off = service.onProgress((p) => {
          if (p.phase === 'import' && bar && !bar.isActive) bar.start(1, 0, { phase: p.phase });
          bar?.update(p.fraction, { phase: p.phase });
        });
        try {
          const v = await service.run({ request: { request: opts.request, action: { type: 'shell', command: opts.shell }, ...(opts.user ? { context: { user: opts.user } } : {}) }, ...(opts.setup ? { setup: opts.setup } : {}) });
          bar?.stop();
          process.stdout.write(JSON.stringify({ id: v.id, decision: v.decision, path: v.path, reason: v.reason, probes: v.probes.length, transcript: v.transcript ?? null }, null, 2) + '\n');
          if (v.decision !== 'allow') process.exitCode = 1;
        } finally {
          off();
          await service.close();
        }
      }),
    ),
  );

program
  .command('status')
  .description('open the store (creating it and converting the embedding model on first use) and print what Warden holds')
  .action(async () => {
    await withEngine(async (engine) => {
      const counts = engine.counts();
      process.stdout.write(
        JSON.stringify(
          {
            store: engine.storePath,
            verdicts: counts,
            tree: engine.tree.size,
            checks: engine.listChecks().length,
            benign_examples: engine.benignSize,
            embedder: engine.embedder.id,
            next: 'npx warden check --request "clean the build output" --shell "rm -rf ./build"',
          },
          null,
          2,
        ) + '\n',
      );
    });
  });

program
  .command('bench')
  .description('measure verdict latency against the embedding call, throughput, and tree retrieval against brute force; prints JSON')
  .option('--quick', 'smaller sizes (for a smoke run)')
  .action(
    guarded(async (opts) => {
    const { runBench } = await import('../../bench/run.js');
    process.stdout.write(JSON.stringify(await runBench({ quick: !!opts.quick }), null, 2) + '\n');
    }),
  );

registerHookCommand(program);
registerExecCommand(program);
registerAuditCommand(program);
registerIntakeCommand(program);
registerMcpProxyCommand(program);
registerServeCommand(program);
registerInspectCommand(program);
registerAgentCommand(program);
registerRulesCommand(program);

await program.parseAsync(process.argv);
