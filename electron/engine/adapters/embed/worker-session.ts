/**
 * An onnxruntime session that runs in a worker thread. onnxruntime-node's `run` computes on the
 * calling thread, so an encoder run in the main thread stalls every other verdict in flight;
 * in a worker, the main thread parses, retrieves, checks and records other verdicts while the
 * encoder works. The worker's code is a short CommonJS string handed to `eval`, so it needs no
 * TypeScript loader and no extra file in a packaged app.
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type ort from 'onnxruntime-node';
import { EngineError } from '../../../../shared/errors.js';

/** The part of an onnxruntime session the embedders use; ort.InferenceSession has this shape. */
export interface ModelSession {
  readonly outputNames: readonly string[];
  run(feeds: Record<string, ort.Tensor>, fetches: string[]): Promise<Record<string, { data: unknown; dims: readonly number[] }>>;
  release(): Promise<void>;
}

const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const ort = require(workerData.ortPath);
let session;
parentPort.on('message', async (m) => {
  try {
    if (m.type === 'init') {
      session = await ort.InferenceSession.create(m.modelPath, m.options);
      parentPort.postMessage({ id: m.id, outputNames: session.outputNames });
    } else if (m.type === 'run') {
      const feeds = {};
      for (const [k, t] of Object.entries(m.feeds)) feeds[k] = new ort.Tensor(t.type, t.data, t.dims);
      const out = await session.run(feeds, m.fetches);
      const result = {};
      for (const [k, t] of Object.entries(out)) result[k] = { data: t.data, dims: t.dims };
      parentPort.postMessage({ id: m.id, result });
    } else if (m.type === 'release') {
      if (session) await session.release();
      session = undefined;
      parentPort.postMessage({ id: m.id });
    }
  } catch (e) {
    parentPort.postMessage({ id: m.id, error: String((e && e.message) || e) });
  }
});
`;

interface Reply {
  id: number;
  error?: string;
  outputNames?: string[];
  result?: Record<string, { data: unknown; dims: number[] }>;
}

/** A model session living in its own worker thread. */
export class WorkerSession implements ModelSession {
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (r: Reply) => void; reject: (e: Error) => void }>();
  private dead: Error | undefined;

  private constructor(
    private readonly worker: Worker,
    readonly outputNames: readonly string[],
  ) {}

  /** Starts a worker and loads the model there; throws EMBEDDER_FAILED when it does not load. */
  static async create(modelPath: string, options: ort.InferenceSession.SessionOptions): Promise<WorkerSession> {
    const ortPath = createRequire(import.meta.url).resolve('onnxruntime-node');
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { ortPath } });
    worker.unref();
    const first = new Promise<Reply>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
    });
    worker.postMessage({ type: 'init', id: 0, modelPath, options });
    let reply: Reply;
    try {
      reply = await first;
    } catch (e) {
      await worker.terminate();
      throw new EngineError('EMBEDDER_FAILED', `the encoder worker did not start: ${(e as Error).message}`);
    }
    if (reply.error) {
      await worker.terminate();
      throw new EngineError('EMBEDDER_FAILED', `the encoder did not load in its worker: ${reply.error}`);
    }
    const session = new WorkerSession(worker, reply.outputNames ?? []);
    worker.on('message', (r: Reply) => session.settle(r));
    worker.on('error', (e) => session.fail(e));
    worker.on('exit', (code) => session.fail(new Error(`the encoder worker exited (code ${code})`)));
    return session;
  }

  async run(feeds: Record<string, ort.Tensor>, fetches: string[]): Promise<Record<string, { data: unknown; dims: readonly number[] }>> {
    const plain: Record<string, { type: string; data: unknown; dims: readonly number[] }> = {};
    for (const [k, t] of Object.entries(feeds)) plain[k] = { type: t.type, data: t.data, dims: t.dims };
    const reply = await this.call({ type: 'run', feeds: plain, fetches });
    return reply.result ?? {};
  }

  async release(): Promise<void> {
    if (this.dead) return;
    try {
      await this.call({ type: 'release' });
    } finally {
      this.dead = new Error('the encoder was released');
      await this.worker.terminate();
    }
  }

  private call(msg: Record<string, unknown>): Promise<Reply> {
    if (this.dead) return Promise.reject(this.dead);
    const id = this.nextId++;
    return new Promise<Reply>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      if (this.pending.size === 1) this.worker.ref();
      this.worker.postMessage({ ...msg, id });
    }).then((r) => {
      if (r.error) throw new Error(r.error);
      return r;
    });
  }

  private settle(r: Reply): void {
    const p = this.pending.get(r.id);
    if (!p) return;
    this.pending.delete(r.id);
    // an idle worker must not keep the process alive
    if (this.pending.size === 0) this.worker.unref();
    p.resolve(r);
  }

  private fail(e: Error): void {
    this.dead ??= e;
    for (const p of this.pending.values()) p.reject(e);
    this.pending.clear();
  }
}
