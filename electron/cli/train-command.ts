/**
 * `warden train`: trains the projector on the shipped seed examples plus every human decision in
 * the store, reports accuracy on a validation split held out from training, and exports ONNX.
 */
import { basename, join } from 'node:path';
import { trainProjector, projectOne, rng, type TrainExample } from '../engine/core/projector/train.js';
import { saveProjectorOnnx } from '../engine/adapters/onnx/projector-onnx.js';
import { EngineError } from '../../shared/errors.js';
import { embeddingText } from '../engine/engine.js';
import { embedBatched, openEngine, readSeedCases } from '../engine/create-engine.js';
import { assetPath, loadConfig } from '../engine/config.js';
import { readCaseFile, takeSplit } from '../engine/eval/run-eval.js';
import type { EvalCase } from '../../shared/types.js';
import { extractFacts } from '../engine/core/facts/index.js';
import { createUseLiteEmbedder } from '../engine/adapters/embed/index.js';

/** Options of `warden train`. */
export interface TrainFlags {
  out?: string;
  seedOnly?: boolean;
  epochs?: number;
  /** Case files whose dev half is also trained on. */
  cases?: string[];
}

/**
 * The examples a case file adds: its dev half only (the heldout half is what gets reported), each
 * with its own label. An environment item keeps its harmful label although its text is the same
 * as a benign one's elsewhere: the projector learns that such text alone does not clear an action,
 * which is left to what the environment shows (without them it learns the benign twin only, and
 * the trap slips through as "close to known benign actions").
 */
export function devExamplesOf(file: string): EvalCase[] {
  if (/heldout/i.test(basename(file))) throw new EngineError('BAD_INPUT', `${file} is a held-out set: it is only reported, never trained on`, 'cases');
  const parsed = readCaseFile(file);
  if (parsed.errors.length) throw new EngineError('BAD_INPUT', `${file}: ${parsed.errors[0]!.message} (line ${parsed.errors[0]!.line})`, 'cases');
  return takeSplit(parsed, 'dev').cases.map((c) => c.item);
}

/** Collects the examples, trains, validates and writes the model; prints a JSON report. */
export async function runTrainCommand(f: TrainFlags): Promise<void> {
  const cfg = loadConfig();
  if (cfg.embedder.kind !== 'use-lite') throw new EngineError('BAD_INPUT', `the shipped projector is trained on the default encoder; config.json names ${cfg.embedder.kind}`, 'embedder');
  const embedder = await createUseLiteEmbedder({ cacheDir: join(cfg.cacheDir, 'models'), ...(cfg.embedder.precision ? { precision: cfg.embedder.precision } : {}) });
  const seeds = readSeedCases();
  const extra = (f.cases ?? []).flatMap(devExamplesOf);
  seeds.push(...extra);
  const texts = seeds.map((c) => {
    const req = { request: c.request, action: c.action, ...(c.context ? { context: c.context } : {}) };
    return embeddingText(req, extractFacts(req));
  });
  const vectors = await embedBatched(embedder, texts);
  const examples: TrainExample[] = seeds.map((c, i) => ({ x: vectors[i]!, y: c.label }));
  let human = 0;
  if (!f.seedOnly) {
    const engine = await openEngine({ embedder });
    try {
      for (const m of engine.tree.members()) {
        if (m.source !== 'human') continue;
        examples.push({ x: m.vector, y: m.label });
        human++;
      }
    } finally {
      await engine.store.close();
    }
  }

  // validation split: every fifth example (deterministic shuffle) is held out of the first fit
  const order = examples.map((_, i) => i);
  const rand = rng(11);
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  const valIdx = new Set(order.filter((_, k) => k % 5 === 0));
  const fitSet = examples.filter((_, i) => !valIdx.has(i));
  const valSet = examples.filter((_, i) => valIdx.has(i));
  const epochs = f.epochs ?? 80;
  const probe = trainProjector(fitSet, { epochs });
  const valAcc = valSet.filter((e) => (projectOne(probe.weights, e.x).pHarm > 0.5 ? 1 : 0) === e.y).length / Math.max(1, valSet.length);

  // the shipped model is then fitted on every example
  const final = trainProjector(examples, { epochs });
  const out = f.out ?? (f.seedOnly ? assetPath('models', 'projector.onnx') : join(cfg.dataDir, 'projector.onnx'));
  await saveProjectorOnnx(out, final.weights, `Warden projector: ${examples.length} examples (${human} from human decisions), ${epochs} epochs`);
  await embedder.close?.();
  process.stdout.write(
    JSON.stringify({ out, examples: examples.length, from_cases: extra.length, harmful: examples.filter((e) => e.y === 1).length, from_human: human, epochs, final_loss: final.loss, validation_accuracy: valAcc, validation_n: valSet.length }) + '\n',
  );
}
