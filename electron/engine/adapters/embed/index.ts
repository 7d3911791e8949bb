/**
 * Embedders: the default USE-lite ONNX model, or any OpenAI-compatible embeddings endpoint.
 */
export { createUseLiteEmbedder, ensureUseLiteOnnx, OnnxUseEmbedder, useLiteModelDir } from './use-lite.js';
export { OpenAiEmbedder } from './openai-embedder.js';
