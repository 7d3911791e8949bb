/**
 * An Embedder over any ONNX sentence encoder run by onnxruntime-node on the CPU: a tokenizer turns
 * each text into ids, the ids are fed in the layout the model wants, and each output row is
 * (pooled if the model gives one vector per token and) scaled to unit length.
 *
 * Two input layouts cover the usual encoders:
 * - `sparse`: USE-lite's own form, `indices` [n, 2] of (row, position) and `values` [n] ids. The
 *   model works out the batch from the largest row index, so every row must have a token.
 * - `padded`: `[batch, length]` ids plus an optional attention mask and token-type ids, as
 *   BERT-style encoders take them.
 */
import ort from 'onnxruntime-node';
import type { Embedder } from '../../ports.js';
import { EngineError } from '../../../../shared/errors.js';
import type { TextTokenizer } from './sentencepiece.js';
import { normalizeInPlace } from './vectors.js';
import type { ModelSession } from './worker-session.js';

/** How token ids are fed to the model. */
export type OnnxInputLayout =
  | { kind: 'sparse'; indices: string; values: string }
  | { kind: 'padded'; ids: string; mask?: string; typeIds?: string; padId?: number };

/** Everything an OnnxEmbedder needs; the session is owned (and released) by the embedder. */
export interface OnnxEmbedderOptions {
  /** Stable id of the model (changes when the vectors would change). */
  id: string;
  dim: number;
  session: ModelSession;
  tokenizer: TextTokenizer;
  input: OnnxInputLayout;
  /** The output holding `[batch, dim]` sentence vectors or `[batch, length, dim]` token vectors (mean-pooled over the mask). */
  output: string;
  /** Tokens past this many are dropped before the model sees them. */
  maxTokens: number;
  /** Texts per model run; long lists are sorted by length and cut into runs of this size. Default 32. */
  batchSize?: number;
  /** How many recent texts keep their vector (the hot path embeds the same text again). Default 512; 0 turns it off. */
  cacheSize?: number;
  /** What an empty text is embedded as (a model fed no tokens gives no row). Default " ". */
  emptyText?: string;
}

const DEFAULT_BATCH = 32;
const DEFAULT_CACHE = 512;

/** Runs a local ONNX sentence encoder. */
export class OnnxEmbedder implements Embedder {
  readonly id: string;
  readonly dim: number;
  private readonly session: ModelSession;
  private readonly tokenizer: TextTokenizer;
  private readonly input: OnnxInputLayout;
  private readonly output: string;
  private readonly maxTokens: number;
  private readonly batchSize: number;
  private readonly cacheSize: number;
  private readonly emptyIds: number[];
  private readonly cache = new Map<string, Float32Array>();
  private closed = false;
  /**
   * Texts waiting for the model. Concurrent callers (an intake server under load) share model
   * runs: while one batch runs, new texts queue up and go together in the next one, so each
   * text costs a fraction of a lone run without any caller waiting for a timer.
   */
  private readonly queue: { ids: number[]; resolve: (v: Float32Array) => void; reject: (e: unknown) => void }[] = [];
  private pumping = false;

  constructor(opts: OnnxEmbedderOptions) {
    this.id = opts.id;
    this.dim = opts.dim;
    this.session = opts.session;
    this.tokenizer = opts.tokenizer;
    this.input = opts.input;
    this.output = opts.output;
    this.maxTokens = opts.maxTokens;
    this.batchSize = Math.max(1, opts.batchSize ?? DEFAULT_BATCH);
    this.cacheSize = Math.max(0, opts.cacheSize ?? DEFAULT_CACHE);
    this.emptyIds = this.tokenizer.encode(opts.emptyText ?? ' ');
    if (this.emptyIds.length === 0) throw new Error('OnnxEmbedder: the empty-text stand-in has no tokens');
    if (!this.session.outputNames.includes(this.output)) throw new Error(`OnnxEmbedder: the model has no output ${this.output} (it has ${this.session.outputNames.join(', ')})`);
  }

  /** Token ids the model sees for one text (empty texts take the stand-in; long ones are cut). */
  tokenize(text: string): number[] {
    const ids = this.tokenizer.encode(text);
    if (ids.length === 0) return this.emptyIds;
    return ids.length > this.maxTokens ? ids.slice(0, this.maxTokens) : ids;
  }

  /**
   * Since the embedder was made: texts answered from the cache, and texts the model ran for (a
   * text repeated within one call runs once).
   */
  readonly stats = { cached: 0, encoded: 0 };

  /**
   * One unit vector per text. `cache: false` neither reads nor fills the cache (a benchmark's
   * reference call on a text the guard is about to embed must not answer for it).
   */
  async embed(texts: string[], opts: { cache?: boolean } = {}): Promise<Float32Array[]> {
    const useCache = opts.cache !== false;
    if (!Array.isArray(texts)) throw new EngineError('BAD_INPUT', 'texts must be an array of strings', 'texts');
    texts.forEach((t, i) => {
      if (typeof t !== 'string') throw new EngineError('BAD_INPUT', `texts[${i}] must be a string`, `texts[${i}]`);
    });
    if (this.closed) throw new EngineError('EMBEDDER_FAILED', `embedder ${this.id} is closed`);
    const out = new Array<Float32Array | undefined>(texts.length);
    const todo: { index: number; ids: number[] }[] = [];
    const firstOf = new Map<string, number>();
    const dupes: [number, number][] = [];
    texts.forEach((t, index) => {
      const hit = useCache ? this.cache.get(t) : undefined;
      if (hit) {
        this.cache.delete(t);
        this.cache.set(t, hit);
        out[index] = hit.slice();
        this.stats.cached++;
        return;
      }
      const first = firstOf.get(t);
      if (first !== undefined) {
        dupes.push([index, first]);
        return;
      }
      firstOf.set(t, index);
      todo.push({ index, ids: this.tokenize(t) });
    });
    const pending = todo.map((c) => this.enqueue(c.ids));
    this.kick();
    this.stats.encoded += todo.length;
    const rows = await Promise.all(pending);
    todo.forEach((c, k) => {
      const v = rows[k]!;
      if (useCache) this.remember(texts[c.index]!, v);
      out[c.index] = v;
    });
    for (const [index, first] of dupes) out[index] = out[first]!.slice();
    return out as Float32Array[];
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.cache.clear();
    await this.session.release();
  }

  private enqueue(ids: number[]): Promise<Float32Array> {
    return new Promise((resolve, reject) => this.queue.push({ ids, resolve, reject }));
  }

  /**
   * Starts the model on the queue now, within the caller's `embed` call, when no run is under way.
   * Every text of one call is queued first, so they share the run; a run is never held back for
   * a later microtask, because a caller that goes on with synchronous work after `embed` (the
   * verdict path runs its checks while the encoder works) would otherwise hold the texts back
   * until that work is done. Texts that arrive while a run is under way go together in the next.
   */
  private kick(): void {
    if (!this.pumping && this.queue.length > 0) void this.pump();
  }

  /** Runs queued texts in batches until the queue is empty; one pump at a time. */
  private async pump(): Promise<void> {
    this.pumping = true;
    try {
      while (this.queue.length > 0) {
        const batch = this.queue.splice(0, this.batchSize);
        if (this.closed) {
          for (const b of batch) b.reject(new EngineError('EMBEDDER_FAILED', `embedder ${this.id} is closed`));
          continue;
        }
        try {
          const rows = await this.runBatch(batch.map((b) => b.ids));
          batch.forEach((b, k) => b.resolve(rows[k]!));
        } catch (e) {
          for (const b of batch) b.reject(e);
        }
      }
    } finally {
      this.pumping = false;
    }
  }

  private remember(text: string, v: Float32Array): void {
    if (this.cacheSize === 0) return;
    this.cache.set(text, v.slice());
    if (this.cache.size > this.cacheSize) this.cache.delete(this.cache.keys().next().value!);
  }

  private feeds(batch: number[][]): { feeds: Record<string, ort.Tensor>; length: number } {
    const total = batch.reduce((s, ids) => s + ids.length, 0);
    if (this.input.kind === 'sparse') {
      const indices = new BigInt64Array(total * 2);
      const values = new BigInt64Array(total);
      let k = 0;
      batch.forEach((ids, row) => {
        ids.forEach((id, pos) => {
          indices[2 * k] = BigInt(row);
          indices[2 * k + 1] = BigInt(pos);
          values[k++] = BigInt(id);
        });
      });
      return {
        feeds: { [this.input.indices]: new ort.Tensor('int64', indices, [total, 2]), [this.input.values]: new ort.Tensor('int64', values, [total]) },
        length: 0,
      };
    }
    const length = Math.max(...batch.map((ids) => ids.length));
    const ids = new BigInt64Array(batch.length * length).fill(BigInt(this.input.padId ?? 0));
    const mask = new BigInt64Array(batch.length * length);
    batch.forEach((row, r) =>
      row.forEach((id, p) => {
        ids[r * length + p] = BigInt(id);
        mask[r * length + p] = 1n;
      }),
    );
    const dims = [batch.length, length];
    const feeds: Record<string, ort.Tensor> = { [this.input.ids]: new ort.Tensor('int64', ids, dims) };
    if (this.input.mask) feeds[this.input.mask] = new ort.Tensor('int64', mask, dims);
    if (this.input.typeIds) feeds[this.input.typeIds] = new ort.Tensor('int64', new BigInt64Array(batch.length * length), dims);
    return { feeds, length };
  }

  private async runBatch(batch: number[][]): Promise<Float32Array[]> {
    const { feeds, length } = this.feeds(batch);
    let result: Awaited<ReturnType<ModelSession['run']>>;
    try {
      result = await this.session.run(feeds, [this.output]);
    } catch (e) {
      throw new EngineError('EMBEDDER_FAILED', `embedding model ${this.id} failed: ${(e as Error).message}`);
    }
    const t = result[this.output];
    if (!t || !(t.data instanceof Float32Array)) throw new EngineError('EMBEDDER_FAILED', `embedding model ${this.id} gave no float output ${this.output}`);
    const data = t.data;
    const d = this.dim;
    let rows: Float32Array[];
    if (t.dims.length === 2 && t.dims[0] === batch.length && t.dims[1] === d) {
      rows = batch.map((_, r) => data.slice(r * d, (r + 1) * d));
    } else if (t.dims.length === 3 && t.dims[0] === batch.length && t.dims[1] === length && t.dims[2] === d) {
      // one vector per token: average the real (unpadded) tokens of each row
      rows = batch.map((ids, r) => {
        const v = new Float32Array(d);
        for (let p = 0; p < ids.length; p++) {
          const base = (r * length + p) * d;
          for (let j = 0; j < d; j++) v[j]! += data[base + j]!;
        }
        return v;
      });
    } else {
      throw new EngineError('EMBEDDER_FAILED', `embedding model ${this.id} gave an output of shape [${t.dims.join(', ')}] for ${batch.length} texts; expected [${batch.length}, ${d}]`);
    }
    for (const v of rows) normalizeInPlace(v, this.id);
    return rows;
  }
}
