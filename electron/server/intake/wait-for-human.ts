/**
 * Waiting for a human decision on an ask: the engine's event when the reviewer works in this
 * process, and a look at the store every `pollMs` when they decide from another (the CLI, the
 * app). Nobody deciding in time is the caller's deny.
 */
import type { ReviewDecision } from '../../../shared/types.js';
import type { Engine } from '../../engine/engine.js';

/** Resolves with the decision, or undefined on time-out or abort. */
export function waitForHuman(engine: Engine, verdictId: string, opts: { timeoutMs: number; pollMs?: number; signal?: AbortSignal }): Promise<ReviewDecision | undefined> {
  return new Promise((resolve) => {
    let done = false;
    const finish = (r: ReviewDecision | undefined): void => {
      if (done) return;
      done = true;
      off();
      clearInterval(poll);
      clearTimeout(timer);
      opts.signal?.removeEventListener('abort', onAbort);
      resolve(r);
    };
    const look = (): void => {
      try {
        const review = engine.store.getVerdict(verdictId)?.review;
        if (review) finish(review);
      } catch {
        // a busy or closing store: try again on the next tick, the time-out still bounds the wait
      }
    };
    const off = engine.on('review.decided', (r) => {
      if (r.verdictId === verdictId) finish(r);
    });
    const poll = setInterval(look, opts.pollMs ?? 250);
    const timer = setTimeout(() => finish(undefined), opts.timeoutMs);
    const onAbort = (): void => finish(undefined);
    if (opts.signal?.aborted) return finish(undefined);
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    look();
  });
}
