/**
 * The console contract over its WebSocket at review-queue scale: a call's round trip, listing
 * 1,000 pending asks, and finding the asks similar to one of them (first call embeds the queue,
 * later calls reuse the vectors).
 */
import WebSocket from 'ws';
import { openEngine } from '../electron/engine/create-engine.js';
import { quantile } from '../electron/engine/core/eval/metrics.js';
import { startConsoleServer } from '../electron/server/console/server.js';
import type { WireResponse } from '../shared/contract.js';

/** Runs the benchmark with `pending` queued asks. */
export async function benchConsoleApi(opts: { pending?: number; calls?: number } = {}): Promise<Record<string, unknown>> {
  const pending = opts.pending ?? 1000;
  const calls = opts.calls ?? 200;
  const engine = await openEngine({ ephemeral: true });
  const server = await startConsoleServer({ engine, token: 'bench', watchStore: false });
  const ws = new WebSocket(`ws://127.0.0.1:${server.port}/ws?token=bench`);
  try {
    await new Promise((resolve, reject) => {
      ws.once('open', resolve);
      ws.once('error', reject);
    });
    let next = 1;
    const waiting = new Map<number, (m: WireResponse) => void>();
    ws.on('message', (d) => {
      const m = JSON.parse(d.toString()) as WireResponse & { event?: string };
      if (m.event) return;
      waiting.get(m.id)?.(m);
      waiting.delete(m.id);
    });
    const call = (method: string, params: unknown): Promise<WireResponse> => {
      const id = next++;
      return new Promise((resolve) => {
        waiting.set(id, resolve);
        ws.send(JSON.stringify({ id, method, params }));
      });
    };
    const timed = async (method: string, params: unknown): Promise<{ ms: number; bytes: number }> => {
      const t0 = performance.now();
      const r = await call(method, params);
      if ('error' in r) throw new Error(`${method}: ${r.error.message}`);
      return { ms: performance.now() - t0, bytes: JSON.stringify(r.result).length };
    };

    const rt: number[] = [];
    for (let i = 0; i < calls; i++) rt.push((await timed('status.get', {})).ms);

    let firstAsk: string | undefined;
    for (let i = 0; i < pending; i++) {
      // throwing away uncommitted work the request did not mention: a soft check sends each to a human
      const v = await engine.check({ request: `work on the project in /home/u/proj${i % 50}`, action: { type: 'shell', command: `git reset --hard HEAD~${i + 1}` }, context: { cwd: `/home/u/proj${i % 50}` } });
      if (v.decision === 'ask') firstAsk ??= v.id;
    }
    const counts = engine.counts();
    const list = await timed('review.list', { limit: 1000 });
    const similarFirst = firstAsk ? await timed('review.similar', { verdictId: firstAsk, limit: 50 }) : undefined;
    const similarAgain = firstAsk ? await timed('review.similar', { verdictId: firstAsk, limit: 50 }) : undefined;
    return {
      round_trip_ms: { p50: quantile(rt, 0.5), p95: quantile(rt, 0.95) },
      pending_asks: counts.pending,
      review_list_1000: { ms: list.ms, bytes: list.bytes },
      review_similar_first_ms: similarFirst?.ms ?? null,
      review_similar_cached_ms: similarAgain?.ms ?? null,
    };
  } finally {
    ws.close();
    await server.close();
    await engine.close();
  }
}
