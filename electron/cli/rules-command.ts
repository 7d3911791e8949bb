/**
 * `warden rules generate`: SafeHarbor's adversarial rule generation as a command-line job. Seeds
 * are harmful actions (a case file, or the shipped harmful seed examples); the report says which
 * variants got through and what the tree learned from them.
 */
import type { Command } from 'commander';
import cliProgress from 'cli-progress';
import { readFileSync, writeFileSync } from 'node:fs';
import { toErrorInfo, EngineError } from '../../shared/errors.js';
import type { ActionKind } from '../../shared/types.js';

const KINDS: ActionKind[] = ['shell', 'tool', 'sql', 'web', 'text'];

/** Registers `warden rules generate`. */
export function registerRulesCommand(program: Command): void {
  const rules = program.command('rules').description('grow the rule memory');
  rules
    .command('generate')
    .description('mutate harmful seed actions with the configured LLM, test each variant against the guard, and turn the ones that get through into new leaves with rule pairs (or merge them)')
    .option('--seeds <file>', 'a case file (JSONL); its label-1 cases are the seeds (default: the shipped harmful seed examples)')
    .option('--limit <n>', 'most seeds to use', (v) => parseInt(v, 10), 10)
    .option('--per-seed <n>', 'variants asked for per seed', (v) => parseInt(v, 10), 3)
    .option('--json', 'print the whole report as JSON')
    .action(async (opts: { seeds?: string; limit: number; perSeed: number; json?: boolean }) => {
      try {
        const { openEngine, readSeedCases } = await import('../engine/create-engine.js');
        const { parseCaseLines } = await import('../engine/eval/run-eval.js');
        const { generateRules, harmfulSeeds } = await import('../engine/rule-generation.js');
        if (!Number.isInteger(opts.limit) || opts.limit < 1) throw new EngineError('BAD_INPUT', '--limit must be a positive whole number', 'limit');
        const cases = opts.seeds ? parseCaseLines(readFileSync(opts.seeds, 'utf8')).cases.map((c) => c.item) : readSeedCases();
        const seeds = harmfulSeeds(cases, opts.limit);
        const engine = await openEngine();
        const bar = process.stderr.isTTY && !opts.json ? new cliProgress.SingleBar({ format: 'rules [{bar}] {value}/{total} seeds  {stage}: {detail}' }, cliProgress.Presets.shades_classic) : undefined;
        bar?.start(seeds.length, 0, { stage: 'mutate', detail: '' });
        try {
          const report = await generateRules(engine, { seeds, perSeed: opts.perSeed, onProgress: (p) => bar?.update(p.done, { stage: p.stage, detail: p.detail }) });
          bar?.stop();
          if (opts.json) process.stdout.write(JSON.stringify(report, null, 2) + '\n');
          else {
            const lines = [
              `job ${report.job}: ${report.seeds} seeds, ${report.variants} variants (${report.invalid} invalid), ${report.caught} caught, ${report.slipped} got through`,
              `learned: ${report.added.length} new leaves, ${report.merged} merged into existing leaves`,
              ...report.added.map((a) => `  + [${a.category}] ${a.prohibition}\n      exemption: ${a.exemption}\n      from: ${a.from}`),
              `model: ${report.usage.calls} calls, ${report.usage.promptTokens + report.usage.completionTokens} tokens, $${report.usage.costUsd.toFixed(4)}`,
            ];
            process.stdout.write(lines.join('\n') + '\n');
          }
        } finally {
          bar?.stop();
          await engine.close();
        }
      } catch (e) {
        process.stderr.write(JSON.stringify({ error: toErrorInfo(e) }) + '\n');
        process.exitCode = 2;
      }
    });
  rules
    .command('draft')
    .description('turn a policy written in plain language into a rules file (a policy block and checks in the rule language) with the configured LLM, for a person to read, edit and import')
    .requiredOption('--id <id>', 'policy id (lower-case)')
    .requiredOption('--request-file <file>', 'the policy in plain language (a text file)')
    .option('--title <title>', 'policy title')
    .option('--kinds <list>', 'action kinds it governs, comma-separated', 'shell')
    .option('--otherwise <mode>', 'allow: actions of these kinds that pass every check are allowed; gate: the usual gate decides', 'gate')
    .option('--example <action...>', 'example actions, to fit the checks to them')
    .option('--out <file>', 'write the rules file here instead of standard output')
    .action(async (opts: { id: string; requestFile: string; title?: string; kinds: string; otherwise: string; example?: string[]; out?: string }) => {
      try {
        const { loadConfig } = await import('../engine/config.js');
        const { configuredLlm, stderrLog } = await import('../engine/create-engine.js');
        const { draftPolicy } = await import('../engine/core/llm/policy-draft.js');
        const { LlmMeter } = await import('../engine/core/llm/structured.js');
        if (!/^[a-z0-9][a-z0-9._-]*$/.test(opts.id)) throw new EngineError('BAD_INPUT', '--id must be lower-case letters, digits, dots, dashes or underscores', 'id');
        const kinds = opts.kinds.split(',').map((k) => k.trim());
        const bad = kinds.find((k) => !KINDS.includes(k as ActionKind));
        if (bad !== undefined) throw new EngineError('BAD_INPUT', `--kinds: unknown action kind ${JSON.stringify(bad)} (one of ${KINDS.join(', ')})`, 'kinds');
        if (opts.otherwise !== 'allow' && opts.otherwise !== 'gate') throw new EngineError('BAD_INPUT', '--otherwise must be allow or gate', 'otherwise');
        let request: string;
        try {
          request = readFileSync(opts.requestFile, 'utf8');
        } catch (e) {
          throw new EngineError('BAD_INPUT', `cannot read ${opts.requestFile}: ${(e as Error).message}`, 'request-file');
        }
        const cfg = loadConfig();
        const llm = configuredLlm(cfg, stderrLog());
        if (!llm) throw new EngineError('BAD_INPUT', `drafting needs a model: add "llm" to ${cfg.dataDir}/config.json or set WARDEN_LLM_BASE_URL; or write the checks by hand (see assets/policies/)`, 'llm');
        const meter = new LlmMeter();
        const draft = await draftPolicy(llm, { id: opts.id, title: opts.title ?? opts.id, request, kinds: kinds as ActionKind[], otherwise: opts.otherwise, ...(opts.example ? { examples: opts.example } : {}) }, meter, new AbortController().signal);
        if (opts.out) writeFileSync(opts.out, draft.text);
        else process.stdout.write(draft.text);
        for (const r of draft.rejected) process.stderr.write(`left out ${r.check}: ${r.reason}\n`);
        process.stderr.write(`${draft.checks.length} checks drafted; model: ${meter.usage.calls} calls, ${meter.usage.promptTokens + meter.usage.completionTokens} tokens. Read them, edit them, then: warden import rules ${opts.out ?? '<file>'}\n`);
      } catch (e) {
        process.stderr.write(JSON.stringify({ error: toErrorInfo(e) }) + '\n');
        process.exitCode = 2;
      }
    });
}
