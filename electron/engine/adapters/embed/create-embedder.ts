/**
 * One entry point from configuration to an Embedder, so the engine's wiring names a kind
 * (config.json's `embedder`) and never an adapter.
 */
import type { Embedder, Log } from '../../ports.js';
import { createUseLiteEmbedder, type UseLitePrecision } from './use-lite.js';
import { OpenAiEmbedder, type OpenAiEmbedderOptions } from './openai-embedder.js';
import { createOnnxFileEmbedder, type OnnxFileEmbedderOptions } from './onnx-file-embedder.js';

/** Which embedder to build and its settings. */
export type EmbedderSpec =
  | { kind: 'use-lite'; threads?: number; precision?: UseLitePrecision }
  | ({ kind: 'openai' } & OpenAiEmbedderOptions)
  | ({ kind: 'onnx-file' } & OnnxFileEmbedderOptions);

/** Builds the embedder a spec names; `cacheDir` is where USE-lite keeps its converted model. */
export async function createEmbedder(spec: EmbedderSpec, opts: { cacheDir?: string; log?: Log } = {}): Promise<Embedder> {
  switch (spec.kind) {
    case 'use-lite':
      return createUseLiteEmbedder({ ...opts, ...(spec.threads !== undefined ? { threads: spec.threads } : {}), ...(spec.precision ? { precision: spec.precision } : {}) });
    case 'openai': {
      const { kind: _kind, ...rest } = spec;
      return new OpenAiEmbedder(rest);
    }
    case 'onnx-file': {
      const { kind: _kind, ...rest } = spec;
      return createOnnxFileEmbedder(rest);
    }
  }
}
