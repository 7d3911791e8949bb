/**
 * Embedders: the default USE-lite model converted to ONNX, any local ONNX sentence encoder, or an
 * OpenAI-compatible embeddings endpoint.
 */
export {
  createUseLiteEmbedder,
  ensureUseLiteOnnx,
  loadUseLiteTokenizer,
  useLiteModelDir,
  defaultModelCacheDir,
  USE_LITE_DIM,
  USE_LITE_MAX_TOKENS,
  USE_LITE_IO,
  type UseLiteEmbedder,
  type UseLiteEmbedderOptions,
  type UseLiteOnnx,
} from './use-lite.js';
export { OnnxEmbedder, type OnnxEmbedderOptions, type OnnxInputLayout } from './onnx-embedder.js';
export { createOnnxFileEmbedder, type OnnxFileEmbedderOptions } from './onnx-file-embedder.js';
export { OpenAiEmbedder, type OpenAiEmbedderOptions } from './openai-embedder.js';
export { createEmbedder, type EmbedderSpec } from './create-embedder.js';
export { SentencePieceTokenizer, parseSentencePieceVocab, type TextTokenizer, type SentencePieceVocab } from './sentencepiece.js';
export { convertTfjsGraph, hashTfjsGraph, ConversionError, CONVERTER_VERSION, type ConvertedModel, type ConvertOptions } from './tfjs-to-onnx.js';
export { normalizeInPlace } from './vectors.js';
