import { describe, expect, it } from 'vitest';
import type ort from 'onnxruntime-node';
import { OnnxEmbedder } from '../../../electron/engine/adapters/embed/onnx-embedder.js';
import type { ModelSession } from '../../../electron/engine/adapters/embed/worker-session.js';

/** A model session that records each run's batch size and answers only when released. */
class GatedSession implements ModelSession {
  readonly outputNames = ['out'];
  readonly runs: number[] = [];
  private readonly waiting: (() => void)[] = [];

  async run(feeds: Record<string, ort.Tensor>): Promise<Record<string, { data: unknown; dims: readonly number[] }>> {
    const batch = Number(feeds['ids']!.dims[0]);
    this.runs.push(batch);
    await new Promise<void>((resolve) => this.waiting.push(resolve));
    const data = new Float32Array(batch * 2);
    for (let r = 0; r < batch; r++) data.set([1, r + 1], r * 2);
    return { out: { data, dims: [batch, 2] } };
  }

  /** Lets every run under way answer. */
  release(): Promise<void> {
    this.waiting.splice(0).forEach((go) => go());
    return Promise.resolve();
  }
}

function make(session: GatedSession): OnnxEmbedder {
  return new OnnxEmbedder({
    id: 'gated',
    dim: 2,
    session,
    tokenizer: { encode: (t: string) => [...t].map((c) => (c.charCodeAt(0) % 7) + 1) },
    input: { kind: 'padded', ids: 'ids' },
    output: 'out',
    maxTokens: 16,
  });
}

/** Answers every run until `done` settles. */
async function drive<T>(session: GatedSession, done: Promise<T>): Promise<T> {
  let settled = false;
  void done.finally(() => (settled = true));
  while (!settled) {
    await session.release();
    await new Promise((r) => setImmediate(r));
  }
  return done;
}

describe('OnnxEmbedder dispatch', () => {
  it('starts the model within the embed call, so a caller that goes on with synchronous work does not hold it back', async () => {
    const session = new GatedSession();
    const e = make(session);
    const pending = e.embed(['list the files']);
    // no microtask has run yet: the run must already be under way
    expect(session.runs).toEqual([1]);
    await drive(session, pending);
  });

  it('runs the texts of one call together, and texts that arrive during a run together in the next', async () => {
    const session = new GatedSession();
    const e = make(session);
    const first = e.embed(['a', 'b', 'c']);
    const later = [e.embed(['d']), e.embed(['e'])];
    expect(session.runs).toEqual([3]);
    const all = await drive(session, Promise.all([first, ...later]));
    expect(session.runs).toEqual([3, 2]);
    expect(all.flat()).toHaveLength(5);
  });

  it('answers a repeated text from its cache, and `cache: false` neither reads nor fills it', async () => {
    const session = new GatedSession();
    const e = make(session);
    await drive(session, e.embed(['x']));
    await drive(session, e.embed(['x']));
    expect(e.stats).toEqual({ cached: 1, encoded: 1 });
    await drive(session, e.embed(['x'], { cache: false }));
    expect(e.stats).toEqual({ cached: 1, encoded: 2 });
    await drive(session, e.embed(['y'], { cache: false }));
    await drive(session, e.embed(['y']));
    expect(e.stats).toEqual({ cached: 1, encoded: 4 });
    expect(session.runs).toEqual([1, 1, 1, 1]);
  });
});
