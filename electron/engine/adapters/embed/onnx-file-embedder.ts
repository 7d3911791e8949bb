/**
 * Any local ONNX sentence encoder with a sentencepiece vocabulary file (`[piece, score][]` JSON,
 * as USE-lite's vocab.json): the pluggable alternative to the default model, for an
 * administrator who has such a model on disk. Models with another tokenizer plug in through
 * OnnxEmbedder directly, with their own TextTokenizer.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import ort from 'onnxruntime-node';
import { EngineError } from '../../../../shared/errors.js';
import { OnnxEmbedder, type OnnxInputLayout } from './onnx-embedder.js';
import { parseSentencePieceVocab, SentencePieceTokenizer } from './sentencepiece.js';

/** Where the model and its vocabulary are, and how to feed it. */
export interface OnnxFileEmbedderOptions {
  modelPath: string;
  /** A `[piece, score][]` JSON sentencepiece vocabulary. */
  vocabPath: string;
  dim: number;
  input: OnnxInputLayout;
  output: string;
  /** Default 128. */
  maxTokens?: number;
  /** Leading vocabulary entries never produced by matching (unknown, control ids); default 6. */
  reservedTokens?: number;
  /** onnxruntime intra-op threads; default 2. */
  threads?: number;
  batchSize?: number;
  cacheSize?: number;
}

/** Loads a local ONNX sentence encoder; a missing or unloadable file is MODEL_MISSING. */
export async function createOnnxFileEmbedder(opts: OnnxFileEmbedderOptions): Promise<OnnxEmbedder> {
  let modelBytes: Buffer;
  let vocabJson: unknown;
  try {
    modelBytes = await readFile(opts.modelPath);
    vocabJson = JSON.parse(await readFile(opts.vocabPath, 'utf8'));
  } catch (e) {
    throw new EngineError('MODEL_MISSING', `embedding model files are not readable: ${(e as Error).message}`);
  }
  let tokenizer: SentencePieceTokenizer;
  let session: ort.InferenceSession;
  try {
    tokenizer = new SentencePieceTokenizer(parseSentencePieceVocab(vocabJson, opts.vocabPath), opts.reservedTokens ?? 6);
    session = await ort.InferenceSession.create(modelBytes, {
      intraOpNumThreads: opts.threads ?? 2,
      interOpNumThreads: 1,
      graphOptimizationLevel: 'all',
      logSeverityLevel: 3,
    });
  } catch (e) {
    throw new EngineError('MODEL_MISSING', `embedding model ${opts.modelPath} does not load: ${(e as Error).message}`);
  }
  const hash = createHash('sha256').update(modelBytes).update(JSON.stringify(vocabJson)).digest('hex').slice(0, 16);
  try {
    return new OnnxEmbedder({
      id: `onnx:${basename(opts.modelPath)}-${hash}`,
      dim: opts.dim,
      session,
      tokenizer,
      input: opts.input,
      output: opts.output,
      maxTokens: opts.maxTokens ?? 128,
      ...(opts.batchSize !== undefined ? { batchSize: opts.batchSize } : {}),
      ...(opts.cacheSize !== undefined ? { cacheSize: opts.cacheSize } : {}),
    });
  } catch (e) {
    await session.release();
    throw new EngineError('MODEL_MISSING', `embedding model ${opts.modelPath} does not fit its options: ${(e as Error).message}`);
  }
}
