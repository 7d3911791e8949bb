/**
 * `warden eval`: a case file or a named public set, against a fresh store seeded from the
 * shipped defaults (so runs are reproducible and the user's memory is untouched) unless --store.
 * A set with a default policy (assets/policies/<set>.yaml), or any run given --policy FILE, first
 * imports that rules file; its policy's guard request goes with every case that has none.
 * --split picks one half of the cases by a hash of their ids (dev to look at, heldout to report).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import cliProgress from 'cli-progress';
import { EngineError } from '../../shared/errors.js';
import type { EvalCase, Verdict } from '../../shared/types.js';
import { openEngine } from '../engine/create-engine.js';
import { readCaseFile, runEval, takeSplit, withGuardRequest, type CaseFile, type Split } from '../engine/eval/run-eval.js';
import { DEFAULT_POLICY_FILES, loadBenchmark, type BenchmarkName } from '../engine/eval/adapters/index.js';
import { parseRuleFile, serializeRuleFile } from '../engine/core/checks/index.js';
import { assetPath } from '../engine/config.js';
import type { Engine } from '../engine/engine.js';
import { judgeLive } from '../engine/eval/live.js';
import { DockerSandbox } from '../engine/adapters/sandbox/index.js';

const SUITES: BenchmarkName[] = ['safe-os', 'mind2web-sc', 'eicu-ac', 'agentharm', 'injecagent'];

/** Options of `warden eval`. */
export interface EvalFlags {
  cases?: string;
  json?: boolean;
  limit?: number;
  benchmarks?: string;
  store?: string;
  verbose?: boolean;
  /** A file to write every verdict to, one JSON line per case (id, label, decision, path, reason, scores, failed checks). */
  trace?: string;
  /** With trace: each line also holds the whole verdict record. */
  traceFull?: boolean;
  live?: boolean;
  /** A rules file to import first (instead of the set's default policy). */
  policy?: string;
  split?: string;
  /** The Analyzer path: the policy's plain-language request goes to the model, which writes the checks. */
  analyzer?: boolean;
}

const SPLITS = ['dev', 'heldout', 'all'] as const;

/** The rules file a run imports: --policy, else the set's default policy, else none. */
function policyFileFor(suite: string | undefined, f: EvalFlags): string | undefined {
  if (f.policy) return f.policy;
  const name = suite ? DEFAULT_POLICY_FILES[suite as BenchmarkName] : undefined;
  return name ? assetPath('policies', name) : undefined;
}

/**
 * Imports the rules file into the evaluation's engine; returns its policy's id and guard request,
 * if it has a policy. On the Analyzer path only the policy block goes in (its data feeds the
 * tools), and the checks are left for the model to write from the request.
 */
function importPolicyFile(engine: Engine, path: string, analyzerPath = false): { id: string; request: string } | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new EngineError('BAD_INPUT', `cannot read policy file ${path}: ${(e as Error).message}`, 'policy');
  }
  const parsed = parseRuleFile(text);
  if (analyzerPath && parsed.ok) {
    if (!parsed.policy) throw new EngineError('BAD_INPUT', `${path} has no policy block, so there is no plain-language request for the Analyzer`, 'policy');
    text = serializeRuleFile([], parsed.policy);
  }
  const r = engine.importRules(text);
  if (!r.ok) throw new EngineError('BAD_INPUT', `${path}: ${r.issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`, 'policy');
  return parsed.ok && parsed.policy ? { id: parsed.policy.id, request: parsed.policy.request } : undefined;
}

/** AGrail's Safe-OS subsets: attack success for the harmful ones, benign accuracy for the benign one. */
function safeOsSubsets(byCategory: Record<string, { n: number; correct: number; attack_success_rate: number | null }>): Record<string, unknown> | undefined {
  const names = ['system_sabotage', 'environment', 'prompt_injection', 'benign'];
  // a case file whose only category is the default `benign` is not Safe-OS
  if (!names.slice(0, 3).some((n) => byCategory[n])) return undefined;
  const out: Record<string, unknown> = {};
  for (const n of names) {
    const c = byCategory[n];
    if (!c) continue;
    out[n] = n === 'benign' ? { n: c.n, benign_accuracy: c.n ? c.correct / c.n : 0 } : { n: c.n, attack_success_rate: c.attack_success_rate };
  }
  return out;
}

function pct(x: number): string {
  return (100 * x).toFixed(1) + '%';
}

/** Runs the command and prints the metrics. */
export async function runEvalCommand(suite: string | undefined, f: EvalFlags): Promise<void> {
  let file: CaseFile;
  if (f.cases) file = readCaseFile(f.cases);
  else if (suite) {
    if (!SUITES.includes(suite as BenchmarkName)) throw new EngineError('BAD_INPUT', `unknown suite ${suite}; one of ${SUITES.join(', ')}`, 'suite');
    const items: EvalCase[] = await loadBenchmark(suite as BenchmarkName, f.benchmarks);
    file = { cases: items.map((item, i) => ({ line: i + 1, item })), errors: [] };
  } else throw new EngineError('BAD_INPUT', 'give --cases FILE or a suite name', 'cases');
  const split = (f.split ?? 'all') as Split | 'all';
  if (!SPLITS.includes(split)) throw new EngineError('BAD_INPUT', `unknown split ${f.split}; one of ${SPLITS.join(', ')}`, 'split');
  file = takeSplit(file, split);
  if (f.limit !== undefined && f.limit > 0) file.cases = file.cases.slice(0, f.limit);

  // a trace file that cannot be written is found out before a long run, not after it
  if (f.trace) {
    try {
      writeFileSync(f.trace, '');
    } catch (e) {
      throw new EngineError('BAD_INPUT', `--trace ${f.trace}: the file cannot be written (${(e as Error).message})`, 'trace');
    }
  }
  const engine = await openEngine(f.store ? { dbPath: f.store } : { ephemeral: true });
  const policyFile = policyFileFor(suite, f);
  let policy: { id: string; request: string } | undefined;
  try {
    if (f.analyzer && !engine.llm) throw new EngineError('BAD_INPUT', 'the Analyzer path needs a model: set "llm" in config.json or WARDEN_LLM_BASE_URL', 'analyzer');
    policy = policyFile ? importPolicyFile(engine, policyFile, !!f.analyzer) : undefined;
  } catch (e) {
    await engine.close();
    throw e;
  }
  if (policy) file = withGuardRequest(file, policy.request);
  const sandbox = f.live ? await DockerSandbox.connect() : undefined;
  const bar = process.stderr.isTTY && !f.json ? new cliProgress.SingleBar({ format: 'eval [{bar}] {value}/{total} {eta_formatted}' }, cliProgress.Presets.shades_classic) : undefined;
  try {
    bar?.start(file.cases.length, 0);
    const { metrics, results } = await runEval(engine, file, {
      onProgress: (d) => bar?.update(d),
      ...(sandbox ? { judgeCase: async (c: EvalCase) => (await judgeLive(engine, sandbox, c)).verdict } : {}),
    });
    const subsets = safeOsSubsets(metrics.by_category);
    const note = suite === 'safe-os' ? 'benign Safe-OS items carry only an answer; their commands are the hand-written references in electron/engine/eval/adapters/safe-os-benign-reference.json' : undefined;
    bar?.stop();
    // a verdict is right when it lets a benign case through and stops a harmful one
    const right = (r: (typeof results)[number]): boolean => (r.verdict.decision !== 'allow') === (r.item.label === 1);
    if (f.trace) {
      const lines = results.map((r) =>
        JSON.stringify({
          id: r.item.id,
          label: r.item.label,
          category: r.item.category ?? null,
          decision: r.verdict.decision,
          path: r.verdict.path,
          reason: r.verdict.reason,
          p_harm: r.verdict.scores.pHarm,
          s_benign: r.verdict.scores.sBenign,
          failed_checks: r.verdict.checks.filter((c) => c.status === 'fail' || c.status === 'error').map((c) => c.id),
          correct: right(r),
          ...rehearsalOf(r.verdict),
          ...(f.traceFull ? { verdict: r.verdict } : {}),
        }),
      );
      writeFileSync(f.trace, lines.join('\n') + (lines.length ? '\n' : ''));
    }
    const wrong = f.verbose
      ? results
          .filter((r) => !right(r))
          .map((r) => `WRONG ${r.item.id} label=${r.item.label} ${r.verdict.decision}/${r.verdict.path}: ${r.verdict.reason} :: ${JSON.stringify(r.item.action)}`)
      : [];
    if (f.json) {
      // the JSON object stays alone on stdout; the wrong verdicts go to stderr
      if (wrong.length) process.stderr.write(wrong.join('\n') + '\n');
      process.stdout.write(JSON.stringify({ suite: suite ?? f.cases, split, ...(policyFile ? { policy: policy?.id ?? null, policy_file: policyFile, policy_path: f.analyzer ? 'analyzer' : 'rules' } : {}), live: !!sandbox, ...metrics, ...(subsets ? { subsets } : {}), ...(note ? { note } : {}) }) + '\n');
      return;
    }
    const m = metrics;
    const lines = [
      ...(split !== 'all' || policyFile ? [`split ${split}${policyFile ? `  policy ${policy?.id ?? '(none)'} from ${policyFile}` : ''}`] : []),
      `cases ${m.n}  accuracy ${pct(m.accuracy)}  precision ${pct(m.precision)}  recall ${pct(m.recall)}  F1 ${pct(m.f1)}`,
      `benign pass rate ${pct(m.benign_pass_rate)}  attack success rate ${pct(m.attack_success_rate)}`,
      `latency p50 ${m.latency_ms.p50.toFixed(2)} ms  p95 ${m.latency_ms.p95.toFixed(2)} ms`,
      `decided by: ${Object.entries(m.by_path).map(([k, v]) => `${k} ${v}`).join(', ')}`,
      ...(m.llm
        ? [
            `model: ${m.llm.calls} calls (${m.llm.cached_calls} cached) for ${m.llm.verdicts} verdicts, ${m.llm.prompt_tokens} prompt + ${m.llm.completion_tokens} completion tokens, $${m.llm.cost_usd.toFixed(4)}; per verdict ${m.llm.tokens_per_verdict.mean.toFixed(0)} tokens, model time p50 ${m.llm.model_latency_ms_per_verdict.p50.toFixed(0)} ms`,
          ]
        : []),
      `decisions: allow ${m.by_decision.allow}, deny ${m.by_decision.deny}, ask ${m.by_decision.ask}`,
      ...Object.entries(m.by_category).map(([k, v]) => `  ${k}: ${v.correct}/${v.n} correct${v.attack_success_rate === null ? '' : `, attack success ${pct(v.attack_success_rate)}`}`),
      ...m.errors.map((e) => `line ${e.line}: ${e.message}`),
      ...(subsets ? [`Safe-OS subsets${sandbox ? ' (live)' : ''}: ${JSON.stringify(subsets)}`] : []),
      ...(note ? [note] : []),
    ];
    lines.push(...wrong);
    process.stdout.write(lines.join('\n') + '\n');
  } finally {
    bar?.stop();
    await sandbox?.closeAll();
    await engine.close();
  }
}

/** What a verdict's rehearsal found, for a trace line (nothing when none ran). */
function rehearsalOf(v: Verdict): { rehearsal?: { unnamed: string[]; kills: string[]; failed: string; ms: number } } {
  const p = v.probes.find((x) => x.probe === 'rehearsal');
  const value = p?.value as { durationMs?: number; reading?: { unnamed: string[]; kills: string[]; failed: string } } | undefined;
  if (!value?.reading) return {};
  return { rehearsal: { ...value.reading, ms: Math.round(value.durationMs ?? 0) } };
}
