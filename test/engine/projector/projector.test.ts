import { describe, expect, it } from 'vitest';
import { trainProjector, projectOne, rng, type TrainExample } from '../../../electron/engine/core/projector/train.js';
import { exportProjectorOnnx, OnnxProjector } from '../../../electron/engine/adapters/onnx/projector-onnx.js';

/** Two noisy clusters on the unit sphere: class 1 around one direction, class 0 around another. */
function clusters(n: number, dim: number, seed: number, noiseSeed = seed): TrainExample[] {
  const dirs = rng(seed);
  const a = Float32Array.from({ length: dim }, () => dirs() - 0.5);
  const b = Float32Array.from({ length: dim }, () => dirs() - 0.5);
  const rand = rng(noiseSeed * 7919);
  const out: TrainExample[] = [];
  for (let i = 0; i < n; i++) {
    const y = (i % 2) as 0 | 1;
    const base = y === 1 ? a : b;
    const x = Float32Array.from(base, (v) => v + (rand() - 0.5) * 0.6);
    const norm = Math.hypot(...x);
    out.push({ x: x.map((v) => v / norm), y });
  }
  return out;
}

describe('safety projector', () => {
  it('learns to separate harmful from benign and keeps unseen items on the right side', () => {
    const train = clusters(200, 64, 1);
    const test = clusters(100, 64, 1, 2);
    const { weights } = trainProjector(train, { hidden: 32, outDim: 8, epochs: 30 });
    const correct = test.filter((t) => (projectOne(weights, t.x).pHarm > 0.5 ? 1 : 0) === t.y).length;
    expect(correct / test.length).toBeGreaterThan(0.95);
  });

  it('pulls samples towards their own prototype (centre loss shapes the latent space)', () => {
    const train = clusters(200, 64, 3);
    const { weights } = trainProjector(train, { hidden: 32, outDim: 8, epochs: 30, lambda: 0.5, margin: 2 });
    const d = (z: Float32Array, mu: Float32Array) => Math.hypot(...z.map((v, i) => v - mu[i]!));
    let own = 0;
    let other = 0;
    for (const t of train) {
      const { z } = projectOne(weights, t.x);
      own += d(z, t.y === 1 ? weights.muHarm : weights.muBenign);
      other += d(z, t.y === 1 ? weights.muBenign : weights.muHarm);
    }
    expect(own / train.length).toBeLessThan(other / train.length);
    expect(other / train.length).toBeGreaterThan(1.5);
  });

  it('the ONNX export scores exactly like the reference forward pass', async () => {
    const train = clusters(60, 48, 4);
    const { weights } = trainProjector(train, { hidden: 16, outDim: 8, epochs: 5 });
    const projector = await OnnxProjector.load(exportProjectorOnnx(weights));
    const xs = train.slice(0, 10).map((t) => t.x);
    const scored = await projector.score(xs);
    xs.forEach((x, i) => {
      const ref = projectOne(weights, x);
      expect(Math.abs(scored[i]!.pHarm - ref.pHarm)).toBeLessThan(1e-4);
      ref.z.forEach((v, k) => expect(Math.abs(scored[i]!.z[k]! - v)).toBeLessThan(1e-4));
    });
    await projector.close();
  });

  it('rejects an input of the wrong width with a clear error', async () => {
    const { weights } = trainProjector(clusters(20, 16, 5), { hidden: 8, outDim: 4, epochs: 1 });
    const projector = await OnnxProjector.load(exportProjectorOnnx(weights));
    await expect(projector.score([new Float32Array(3)])).rejects.toMatchObject({ code: 'EMBEDDER_FAILED' });
  });
});
