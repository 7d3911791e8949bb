/**
 * Adversarial rule generation (SafeHarbor 3.3) as a job: mutate harmful seeds with the model,
 * test every variant against the current guard (nothing recorded), and let the ones that get
 * through teach the tree: a variant far from every existing centroid becomes a new leaf with a
 * rule pair the model writes; one close to a leaf merges into it as a harmful member. Every
 * change is a recorded tree event under the job's id, so the console can replay it.
 */
import { randomUUID } from 'node:crypto';
import type { ActionRequest, EvalCase, RuleGenReport, VariantOutcome } from '../../shared/types.js';
import { EngineError } from '../../shared/errors.js';
import type { Engine } from './engine.js';
import { embeddingText } from './engine.js';
import { extractFacts } from './core/facts/index.js';
import { LlmMeter } from './core/llm/structured.js';
import { mutateSeed, writeRulePair } from './core/llm/rule-gen.js';

/** What the job is asked to do. */
export interface RuleGenOptions {
  seeds: ActionRequest[];
  /** Variants asked for per seed (default 3, one per strategy). */
  perSeed?: number;
  signal?: AbortSignal;
  onProgress?: (p: { done: number; total: number; stage: 'mutate' | 'test' | 'learn'; detail: string }) => void;
}

export type { RuleGenReport, VariantOutcome } from '../../shared/types.js';

/** The harmful cases of a case list as seed actions, at most `limit` of them. */
export function harmfulSeeds(cases: EvalCase[], limit: number): ActionRequest[] {
  return cases
    .filter((c) => c.label === 1)
    .slice(0, limit)
    .map((c) => ({ request: c.request, action: c.action, ...(c.context ? { context: c.context } : {}) }));
}

function actionLine(r: ActionRequest): string {
  const a = r.action;
  return a.type === 'shell' ? a.command : a.type === 'tool' ? `${a.name} ${JSON.stringify(a.arguments)}` : a.type === 'sql' ? a.query : a.type === 'web' ? `${a.operation} ${a.element}` : a.content;
}

/** Runs the job; a model failure on one seed is reported in the outcome and the job goes on. */
export async function generateRules(engine: Engine, opts: RuleGenOptions): Promise<RuleGenReport> {
  const llm = engine.llm;
  if (!llm) throw new EngineError('BAD_INPUT', 'rule generation needs a model: set "llm" in config.json or WARDEN_LLM_BASE_URL', 'llm');
  if (opts.seeds.length === 0) throw new EngineError('BAD_INPUT', 'no harmful seed actions to start from', 'seeds');
  const signal = opts.signal ?? new AbortController().signal;
  const perSeed = Math.max(1, Math.min(12, opts.perSeed ?? 3));
  const job = `rulegen-${randomUUID().slice(0, 8)}`;
  const meter = new LlmMeter();
  const report: RuleGenReport = { job, seeds: opts.seeds.length, variants: 0, invalid: 0, slipped: 0, caught: 0, added: [], merged: 0, outcomes: [], usage: meter.usage };
  const total = opts.seeds.length;
  const { theta, oodFloor } = engine.treeSettings;
  for (let i = 0; i < opts.seeds.length; i++) {
    if (signal.aborted) throw new EngineError('TIMEOUT', 'rule generation was cancelled');
    const seed = opts.seeds[i]!;
    opts.onProgress?.({ done: i, total, stage: 'mutate', detail: seed.request.slice(0, 80) });
    const { variants, invalid } = await mutateSeed(llm, seed, perSeed, meter, signal);
    report.variants += variants.length;
    report.invalid += invalid;
    for (const v of variants) {
      opts.onProgress?.({ done: i, total, stage: 'test', detail: actionLine(v.request).slice(0, 80) });
      const verdict = await engine.check(v.request, { record: false, signal });
      const facts = extractFacts(v.request);
      const x = await engine.embedOne(embeddingText(v.request, facts));
      const nearest = engine.tree.retrieve(x, { topCategories: 3, beam: 4 }).leaves[0]?.similarity ?? -1;
      const outcome: VariantOutcome = { seed: i, strategy: v.strategy, request: v.request.request, action: actionLine(v.request), decision: verdict.decision, nearest, learned: 'none' };
      report.outcomes.push(outcome);
      if (verdict.decision !== 'allow') {
        report.caught++;
        continue;
      }
      report.slipped++;
      opts.onProgress?.({ done: i, total, stage: 'learn', detail: outcome.action.slice(0, 80) });
      const text = `${v.request.request} => ${facts.paraphrase}`;
      if (nearest < oodFloor) {
        const pair = await writeRulePair(llm, v, engine.tree.categories().map((c) => c.name), meter, signal);
        const ins = engine.tree.insert(x, { label: 1, text, source: 'rulegen', category: pair.category, rule: { prohibition: pair.prohibition, exemption: pair.exemption }, theta, oodFloor: Math.max(oodFloor, nearest + 1e-6) });
        engine.persistTree();
        engine.recordTreeEvents([ins.event], job);
        outcome.learned = 'new-leaf';
        outcome.leafId = ins.leafId;
        report.added.push({ leafId: ins.leafId, category: pair.category, prohibition: pair.prohibition, exemption: pair.exemption, from: outcome.action });
      } else {
        const ins = engine.tree.insert(x, { label: 1, text, source: 'rulegen', theta, oodFloor });
        engine.persistTree();
        engine.recordTreeEvents([ins.event], job);
        outcome.learned = ins.event.kind === 'merge' ? 'merged' : 'new-leaf';
        outcome.leafId = ins.leafId;
        if (outcome.learned === 'merged') report.merged++;
      }
    }
  }
  opts.onProgress?.({ done: total, total, stage: 'learn', detail: 'done' });
  return report;
}
