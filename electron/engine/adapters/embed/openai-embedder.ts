/**
 * An Embedder over any OpenAI-compatible embeddings endpoint (OpenAI, Ollama, vLLM, llama.cpp).
 * Vectors are normalised to unit length here, since not every server does.
 */
import OpenAI from 'openai';
import type { Embedder } from '../../ports.js';
import { EngineError } from '../../../../shared/errors.js';

/** Connection settings. */
export interface OpenAiEmbedderOptions {
  baseURL: string;
  model: string;
  dim: number;
  apiKey?: string;
  timeoutMs?: number;
}

export class OpenAiEmbedder implements Embedder {
  readonly id: string;
  readonly dim: number;
  private readonly client: OpenAI;
  private readonly model: string;

  constructor(opts: OpenAiEmbedderOptions) {
    this.client = new OpenAI({ baseURL: opts.baseURL, apiKey: opts.apiKey ?? 'none', timeout: opts.timeoutMs ?? 10_000, maxRetries: 2 });
    this.model = opts.model;
    this.dim = opts.dim;
    this.id = `openai-${opts.model}`;
  }

  async embed(texts: string[]): Promise<Float32Array[]> {
    if (texts.length === 0) return [];
    let res;
    try {
      res = await this.client.embeddings.create({ model: this.model, input: texts.map((t) => (t.trim() === '' ? ' ' : t)) });
    } catch (e) {
      throw new EngineError('EMBEDDER_FAILED', `embeddings endpoint failed: ${(e as Error).message}`);
    }
    const rows = [...res.data].sort((a, b) => a.index - b.index);
    if (rows.length !== texts.length) throw new EngineError('EMBEDDER_FAILED', `endpoint returned ${rows.length} vectors for ${texts.length} texts`);
    return rows.map((r) => {
      if (!Array.isArray(r.embedding) || r.embedding.length !== this.dim) {
        throw new EngineError('EMBEDDER_FAILED', `endpoint returned a ${Array.isArray(r.embedding) ? r.embedding.length : 'non-array'}-d vector; expected ${this.dim}`);
      }
      const v = Float32Array.from(r.embedding);
      const norm = Math.hypot(...v) || 1;
      for (let i = 0; i < v.length; i++) v[i]! /= norm;
      return v;
    });
  }
}
