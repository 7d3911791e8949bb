/**
 * Running an evaluation: read a case file (one JSON object a line), judge every case with the
 * engine, and compute the metrics. A malformed line is reported with its line number and the
 * run goes on.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { ActionContext, EvalCase, EvalMetrics, Verdict } from '../../../shared/types.js';
import { EngineError, toErrorInfo } from '../../../shared/errors.js';
import { parseEvalCase } from '../../../shared/validate.js';
import { computeMetrics, type Outcome } from '../core/eval/metrics.js';
import type { Engine } from '../engine.js';

/** Cases read from a file, with the lines that could not be used. */
export interface CaseFile {
  cases: { line: number; item: EvalCase }[];
  errors: { line: number; message: string }[];
}

/** Parses JSONL text into cases; bad lines become errors with their line numbers. */
export function parseCaseLines(text: string): CaseFile {
  const out: CaseFile = { cases: [], errors: [] };
  text.split('\n').forEach((raw, i) => {
    const line = i + 1;
    if (raw.trim() === '') return;
    try {
      let obj: unknown;
      try {
        obj = JSON.parse(raw);
      } catch (e) {
        throw new Error(`not valid JSON: ${(e as Error).message}`);
      }
      out.cases.push({ line, item: parseEvalCase(obj) });
    } catch (e) {
      out.errors.push({ line, message: toErrorInfo(e).message });
    }
  });
  return out;
}

/** Reads a JSONL case file. */
export function readCaseFile(path: string): CaseFile {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new EngineError('BAD_INPUT', `cannot read case file ${path}: ${(e as Error).message}`, 'cases');
  }
  return parseCaseLines(text);
}

/** The two halves of any case set: `dev` may be looked at and tuned on, `heldout` is only reported. */
export type Split = 'dev' | 'heldout';

/**
 * The half a case falls in, from a hash of its id alone: deterministic, the same for any case
 * source, and blind to everything else about the case.
 */
export function splitOf(id: string): Split {
  return createHash('sha256').update(id).digest()[0]! < 128 ? 'dev' : 'heldout';
}

/** The cases of one split (or all of them); line errors are kept. */
export function takeSplit(file: CaseFile, split: Split | 'all'): CaseFile {
  if (split === 'all') return file;
  return { cases: file.cases.filter((c) => splitOf(c.item.id) === split), errors: file.errors };
}

/** Gives every case without a guard request of its own the policy's request. */
export function withGuardRequest(file: CaseFile, guardRequest: string): CaseFile {
  return { ...file, cases: file.cases.map((c) => (c.item.guardRequest ? c : { ...c, item: { ...c.item, guardRequest } })) };
}

/** The request the engine sees for one case. */
export function caseToRequest(c: EvalCase): Record<string, unknown> & { context: ActionContext } {
  return {
    request: c.request,
    action: c.action,
    context: { ...(c.context ?? {}), ...(c.user ? { user: c.user } : {}) },
    ...(c.guardRequest ? { guardRequest: c.guardRequest } : {}),
  };
}

/** One judged case. */
export interface CaseResult {
  item: EvalCase;
  verdict: Verdict;
}

/** Judges every case in order; `onProgress` is called after each. */
export async function runEval(
  engine: Engine,
  file: CaseFile,
  opts: { onProgress?: (done: number, total: number) => void; judgeCase?: (c: EvalCase) => Promise<Verdict> } = {},
): Promise<{ metrics: EvalMetrics; results: CaseResult[] }> {
  const results: CaseResult[] = [];
  const errors = [...file.errors];
  let done = 0;
  for (const { line, item } of file.cases) {
    try {
      const verdict = opts.judgeCase ? await opts.judgeCase(item) : await engine.check(caseToRequest(item), { record: false });
      results.push({ item, verdict });
    } catch (e) {
      errors.push({ line, message: toErrorInfo(e).message });
    }
    opts.onProgress?.(++done, file.cases.length);
  }
  const outcomes: Outcome[] = results.map((r) => ({
    label: r.item.label,
    decision: r.verdict.decision,
    path: r.verdict.path,
    latencyMs: r.verdict.latencyMs,
    ...(r.item.category ? { category: r.item.category } : {}),
    ...(r.verdict.llm ? { llm: r.verdict.llm.usage } : {}),
  }));
  errors.sort((a, b) => a.line - b.line);
  return { metrics: computeMetrics(outcomes, errors), results };
}
