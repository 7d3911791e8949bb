/**
 * One action in, one answer out, the same for every intake surface (HTTP, hook, exec, MCP
 * proxy): the engine's verdict, and for an ask, a wait for a human that ends in deny when nobody
 * decides in time.
 */
import type { Verdict } from '../../../shared/types.js';
import type { Engine } from '../../engine/engine.js';
import type { Prober } from '../../engine/ports.js';
import type { IntakeAnswer } from './schema.js';
import { waitForHuman } from './wait-for-human.js';

/** How one submission behaves. */
export interface AnswerOptions {
  /** Wait for a human when the guard asks (default true); false answers ask at once. */
  wait?: boolean;
  /** Longest wait for the human; then deny. */
  timeoutMs: number;
  full?: boolean;
  signal?: AbortSignal;
  prober?: Prober;
}

/** The answer a verdict gives before any human has looked at it. */
export function answerOf(v: Verdict, full = false): IntakeAnswer {
  const a: IntakeAnswer = { id: v.id, decision: v.decision, path: v.path, reason: v.reason, pending: v.decision === 'ask' && !v.review };
  if (full) a.verdict = v;
  return a;
}

/** Judges `input` (throws BAD_INPUT for a malformed request) and waits for a human on ask. */
export async function submitAction(engine: Engine, input: unknown, opts: AnswerOptions): Promise<IntakeAnswer> {
  const v = await engine.check(input, { ...(opts.signal ? { signal: opts.signal } : {}), ...(opts.prober ? { prober: opts.prober } : {}) });
  if (v.decision !== 'ask' || opts.wait === false) return answerOf(v, opts.full);
  const review = await waitForHuman(engine, v.id, { timeoutMs: opts.timeoutMs, ...(opts.signal ? { signal: opts.signal } : {}) });
  const full = opts.full ? { verdict: review ? { ...v, review } : v } : {};
  if (!review) {
    return { id: v.id, decision: 'deny', path: v.path, reason: `no human decided within ${Math.round(opts.timeoutMs / 1000)} s; denied (${v.reason})`, pending: false, timedOut: true, ...full };
  }
  return {
    id: v.id,
    decision: review.outcome === 'approve' ? 'allow' : 'deny',
    path: 'human',
    reason: `${review.reviewer} ${review.outcome === 'approve' ? 'approved' : 'denied'}: ${review.reason}`,
    pending: false,
    human: { outcome: review.outcome, reason: review.reason, reviewer: review.reviewer },
    ...full,
  };
}
