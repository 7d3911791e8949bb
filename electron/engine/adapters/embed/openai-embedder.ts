/**
 * An Embedder over any OpenAI-compatible embeddings endpoint (OpenAI, Ollama, vLLM, llama.cpp
 * server). Vectors are asked for as plain floats (not every compatible server speaks base64),
 * checked for width and finiteness, and scaled to unit length here, since not every server does.
 * Every failure (network, time-out, HTTP error, malformed reply) is EngineError('EMBEDDER_FAILED').
 */
import OpenAI from 'openai';
import type { Embedder } from '../../ports.js';
import { EngineError } from '../../../../shared/errors.js';
import { normalizeInPlace } from './vectors.js';

/** Connection settings. */
export interface OpenAiEmbedderOptions {
  /** e.g. http://127.0.0.1:11434/v1 */
  baseURL: string;
  model: string;
  /** Width of the vectors the model returns; a reply of another width is a failure. */
  dim: number;
  apiKey?: string;
  /** Per request; default 10 s. */
  timeoutMs?: number;
  /** Retries on connection errors, 408/409/429 and 5xx; default 1. */
  maxRetries?: number;
  /** Texts per request; default 128. */
  batchSize?: number;
}

/** Embeddings from an OpenAI-compatible HTTP endpoint. */
export class OpenAiEmbedder implements Embedder {
  readonly id: string;
  readonly dim: number;
  private readonly client: OpenAI;
  private readonly model: string;
  private readonly batchSize: number;

  constructor(opts: OpenAiEmbedderOptions) {
    if (!opts.baseURL) throw new EngineError('BAD_INPUT', 'embedder baseURL is required', 'baseURL');
    if (!opts.model) throw new EngineError('BAD_INPUT', 'embedder model is required', 'model');
    if (!Number.isInteger(opts.dim) || opts.dim <= 0) throw new EngineError('BAD_INPUT', 'embedder dim must be a positive integer', 'dim');
    this.client = new OpenAI({ baseURL: opts.baseURL, apiKey: opts.apiKey || 'none', timeout: opts.timeoutMs ?? 10_000, maxRetries: opts.maxRetries ?? 1 });
    this.model = opts.model;
    this.dim = opts.dim;
    this.batchSize = Math.max(1, opts.batchSize ?? 128);
    this.id = `openai:${opts.model}@${opts.baseURL}`;
  }

  async embed(texts: string[]): Promise<Float32Array[]> {
    if (!Array.isArray(texts)) throw new EngineError('BAD_INPUT', 'texts must be an array of strings', 'texts');
    texts.forEach((t, i) => {
      if (typeof t !== 'string') throw new EngineError('BAD_INPUT', `texts[${i}] must be a string`, `texts[${i}]`);
    });
    const out: Float32Array[] = [];
    for (let start = 0; start < texts.length; start += this.batchSize) {
      out.push(...(await this.request(texts.slice(start, start + this.batchSize))));
    }
    return out;
  }

  private async request(texts: string[]): Promise<Float32Array[]> {
    let res: OpenAI.Embeddings.CreateEmbeddingResponse;
    try {
      // most servers refuse an empty input string
      res = await this.client.embeddings.create({ model: this.model, input: texts.map((t) => (t === '' ? ' ' : t)), encoding_format: 'float' });
    } catch (e) {
      const status = (e as { status?: unknown }).status;
      const timedOut = e instanceof OpenAI.APIConnectionTimeoutError;
      const why = timedOut ? 'timed out' : typeof status === 'number' ? `answered HTTP ${status}: ${(e as Error).message}` : `failed: ${(e as Error).message}`;
      throw new EngineError('EMBEDDER_FAILED', `embeddings endpoint ${this.id} ${why}`);
    }
    const data: unknown = (res as { data?: unknown })?.data;
    if (!Array.isArray(data)) throw new EngineError('EMBEDDER_FAILED', `embeddings endpoint ${this.id} replied without a data array`);
    if (data.length !== texts.length) throw new EngineError('EMBEDDER_FAILED', `embeddings endpoint ${this.id} returned ${data.length} vectors for ${texts.length} texts`);
    const rows = new Array<Float32Array | undefined>(texts.length);
    data.forEach((row: unknown, k) => {
      const r = row as { index?: unknown; embedding?: unknown };
      const index = typeof r.index === 'number' ? r.index : k;
      if (!Number.isInteger(index) || index < 0 || index >= texts.length || rows[index]) {
        throw new EngineError('EMBEDDER_FAILED', `embeddings endpoint ${this.id} returned a bad or repeated index ${String(r.index)}`);
      }
      if (!Array.isArray(r.embedding) || !r.embedding.every((x) => typeof x === 'number')) {
        throw new EngineError('EMBEDDER_FAILED', `embeddings endpoint ${this.id} returned a non-numeric embedding at index ${index}`);
      }
      if (r.embedding.length !== this.dim) {
        throw new EngineError('EMBEDDER_FAILED', `embeddings endpoint ${this.id} returned a ${r.embedding.length}-d vector; expected ${this.dim}`);
      }
      rows[index] = normalizeInPlace(Float32Array.from(r.embedding as number[]), this.id);
    });
    return rows as Float32Array[];
  }
}
