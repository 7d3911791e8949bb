/**
 * The SafeHarbor safety projector (paper 3.4): a 2-layer MLP x -> z with two learned prototypes
 * mu_benign and mu_harm; p_harm = softmax(-d(z, mu_harm), -d(z, mu_benign))[harm], which is
 * sigmoid(d_benign - d_harm). Trained here with plain gradients (no framework) on BCE plus a
 * margin centre loss: pull each sample to its own centre, push the other centre beyond margin m.
 */

/** Learned parameters, row-major. w1: [inDim x hidden], w2: [hidden x outDim]. */
export interface ProjectorWeights {
  inDim: number;
  hidden: number;
  outDim: number;
  w1: Float32Array;
  b1: Float32Array;
  w2: Float32Array;
  b2: Float32Array;
  muBenign: Float32Array;
  muHarm: Float32Array;
}

/** Training options; defaults suit a few hundred to a few thousand examples. */
export interface TrainOptions {
  hidden?: number;
  outDim?: number;
  epochs?: number;
  batchSize?: number;
  lr?: number;
  /** Weight of the centre loss against BCE. */
  lambda?: number;
  /** Margin the opposing centre is pushed beyond. */
  margin?: number;
  weightDecay?: number;
  seed?: number;
  onEpoch?: (epoch: number, loss: number) => void;
}

/** One labelled training example: an embedding and 1 = harmful, 0 = benign. */
export interface TrainExample {
  x: Float32Array;
  y: 0 | 1;
}

const EPS = 1e-6;

/** Deterministic PRNG (mulberry32) so a training run is reproducible. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function gaussian(rand: () => number): number {
  const u = Math.max(rand(), 1e-12);
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rand());
}

/** Fresh weights with He initialisation and prototypes placed apart. */
export function initWeights(inDim: number, hidden: number, outDim: number, seed: number): ProjectorWeights {
  const rand = rng(seed);
  const w1 = new Float32Array(inDim * hidden);
  const s1 = Math.sqrt(2 / inDim);
  for (let i = 0; i < w1.length; i++) w1[i] = gaussian(rand) * s1;
  const w2 = new Float32Array(hidden * outDim);
  const s2 = Math.sqrt(2 / hidden);
  for (let i = 0; i < w2.length; i++) w2[i] = gaussian(rand) * s2;
  const muBenign = new Float32Array(outDim);
  const muHarm = new Float32Array(outDim);
  for (let i = 0; i < outDim; i++) {
    muBenign[i] = gaussian(rand) * 0.5;
    muHarm[i] = gaussian(rand) * 0.5;
  }
  return { inDim, hidden, outDim, w1, b1: new Float32Array(hidden), w2, b2: new Float32Array(outDim), muBenign, muHarm };
}

/** Forward pass for one input; `h` and `z` are caller-provided scratch buffers. */
function forward(w: ProjectorWeights, x: Float32Array, h: Float32Array, z: Float32Array): void {
  const { inDim, hidden, outDim, w1, b1, w2, b2 } = w;
  h.set(b1);
  for (let i = 0; i < inDim; i++) {
    const xi = x[i]!;
    if (xi === 0) continue;
    const row = i * hidden;
    for (let j = 0; j < hidden; j++) h[j]! += xi * w1[row + j]!;
  }
  for (let j = 0; j < hidden; j++) if (h[j]! < 0) h[j] = 0;
  z.set(b2);
  for (let j = 0; j < hidden; j++) {
    const hj = h[j]!;
    if (hj === 0) continue;
    const row = j * outDim;
    for (let k = 0; k < outDim; k++) z[k]! += hj * w2[row + k]!;
  }
}

function dist(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) {
    const d = a[i]! - b[i]!;
    s += d * d;
  }
  return Math.sqrt(s + EPS);
}

/** p_harm and z for one embedding, computed in plain TypeScript (the reference the ONNX export must match). */
export function projectOne(w: ProjectorWeights, x: Float32Array): { pHarm: number; z: Float32Array } {
  const h = new Float32Array(w.hidden);
  const z = new Float32Array(w.outDim);
  forward(w, x, h, z);
  const dH = dist(z, w.muHarm);
  const dB = dist(z, w.muBenign);
  return { pHarm: 1 / (1 + Math.exp(-(dB - dH))), z };
}

/** Adam state for one parameter tensor. */
class Adam {
  private m: Float32Array;
  private v: Float32Array;
  constructor(size: number) {
    this.m = new Float32Array(size);
    this.v = new Float32Array(size);
  }
  step(p: Float32Array, g: Float32Array, lr: number, t: number, decay: number): void {
    const b1 = 0.9;
    const b2 = 0.999;
    const c1 = 1 - Math.pow(b1, t);
    const c2 = 1 - Math.pow(b2, t);
    for (let i = 0; i < p.length; i++) {
      const gi = g[i]! + decay * p[i]!;
      this.m[i] = b1 * this.m[i]! + (1 - b1) * gi;
      this.v[i] = b2 * this.v[i]! + (1 - b2) * gi * gi;
      p[i]! -= (lr * (this.m[i]! / c1)) / (Math.sqrt(this.v[i]! / c2) + 1e-8);
    }
  }
}

/**
 * Trains the projector. Classes are balanced by weighting so a skewed seed set does not bias
 * p_harm. Returns the weights and the final mean loss.
 */
export function trainProjector(data: TrainExample[], opts: TrainOptions = {}): { weights: ProjectorWeights; loss: number } {
  if (data.length === 0) throw new Error('trainProjector: no examples');
  const inDim = data[0]!.x.length;
  const hidden = opts.hidden ?? 128;
  const outDim = opts.outDim ?? 32;
  const epochs = opts.epochs ?? 60;
  const batchSize = opts.batchSize ?? 32;
  const lr = opts.lr ?? 2e-3;
  const lambda = opts.lambda ?? 0.1;
  const margin = opts.margin ?? 2;
  const decay = opts.weightDecay ?? 1e-4;
  const rand = rng(opts.seed ?? 7);
  const w = initWeights(inDim, hidden, outDim, opts.seed ?? 7);

  const nHarm = data.filter((d) => d.y === 1).length;
  const nBen = data.length - nHarm;
  const classWeight = (y: 0 | 1): number => {
    const n = y === 1 ? nHarm : nBen;
    return n === 0 ? 1 : data.length / (2 * n);
  };

  const g = {
    w1: new Float32Array(w.w1.length),
    b1: new Float32Array(w.b1.length),
    w2: new Float32Array(w.w2.length),
    b2: new Float32Array(w.b2.length),
    muB: new Float32Array(outDim),
    muH: new Float32Array(outDim),
  };
  const opt = {
    w1: new Adam(w.w1.length),
    b1: new Adam(w.b1.length),
    w2: new Adam(w.w2.length),
    b2: new Adam(w.b2.length),
    muB: new Adam(outDim),
    muH: new Adam(outDim),
  };
  const h = new Float32Array(hidden);
  const z = new Float32Array(outDim);
  const dz = new Float32Array(outDim);
  const dh = new Float32Array(hidden);
  const order = data.map((_, i) => i);
  let step = 0;
  let lastLoss = 0;

  for (let epoch = 0; epoch < epochs; epoch++) {
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(rand() * (i + 1));
      [order[i], order[j]] = [order[j]!, order[i]!];
    }
    let epochLoss = 0;
    for (let start = 0; start < order.length; start += batchSize) {
      const batch = order.slice(start, start + batchSize);
      for (const t of Object.values(g)) t.fill(0);
      for (const idx of batch) {
        const { x, y } = data[idx]!;
        const cw = classWeight(y) / batch.length;
        forward(w, x, h, z);
        const dH = dist(z, w.muHarm);
        const dB = dist(z, w.muBenign);
        const p = 1 / (1 + Math.exp(-(dB - dH)));
        epochLoss += -(y * Math.log(p + 1e-9) + (1 - y) * Math.log(1 - p + 1e-9));
        // dBCE/ds with s = dB - dH
        const gs = (p - y) * cw;
        const own = y === 1 ? w.muHarm : w.muBenign;
        const other = y === 1 ? w.muBenign : w.muHarm;
        const gOwn = y === 1 ? g.muH : g.muB;
        const gOther = y === 1 ? g.muB : g.muH;
        const dOwn = y === 1 ? dH : dB;
        const dOther = y === 1 ? dB : dH;
        const push = Math.max(0, margin - dOther);
        epochLoss += lambda * (dOwn * dOwn + push * push);
        for (let k = 0; k < outDim; k++) {
          const zb = z[k]! - w.muBenign[k]!;
          const zh = z[k]! - w.muHarm[k]!;
          // BCE through the two distances
          let gz = gs * (zb / dB - zh / dH);
          g.muB[k]! += gs * (-zb / dB);
          g.muH[k]! += gs * (zh / dH);
          // centre loss: pull to own centre
          const zo = z[k]! - own[k]!;
          gz += lambda * cw * 2 * zo;
          gOwn[k]! -= lambda * cw * 2 * zo;
          // push the other centre beyond the margin
          if (push > 0) {
            const zx = z[k]! - other[k]!;
            const gd = -2 * push * (zx / dOther) * lambda * cw;
            gz += gd;
            gOther[k]! -= gd;
          }
          dz[k] = gz;
        }
        for (let k = 0; k < outDim; k++) g.b2[k]! += dz[k]!;
        dh.fill(0);
        for (let j = 0; j < hidden; j++) {
          const hj = h[j]!;
          const row = j * outDim;
          let acc = 0;
          for (let k = 0; k < outDim; k++) {
            if (hj !== 0) g.w2[row + k]! += hj * dz[k]!;
            acc += w.w2[row + k]! * dz[k]!;
          }
          dh[j] = hj > 0 ? acc : 0;
        }
        for (let j = 0; j < hidden; j++) g.b1[j]! += dh[j]!;
        for (let i = 0; i < inDim; i++) {
          const xi = x[i]!;
          if (xi === 0) continue;
          const row = i * hidden;
          for (let j = 0; j < hidden; j++) if (dh[j] !== 0) g.w1[row + j]! += xi * dh[j]!;
        }
      }
      step++;
      opt.w1.step(w.w1, g.w1, lr, step, decay);
      opt.b1.step(w.b1, g.b1, lr, step, 0);
      opt.w2.step(w.w2, g.w2, lr, step, decay);
      opt.b2.step(w.b2, g.b2, lr, step, 0);
      opt.muB.step(w.muBenign, g.muB, lr, step, 0);
      opt.muH.step(w.muHarm, g.muH, lr, step, 0);
    }
    lastLoss = epochLoss / data.length;
    opts.onEpoch?.(epoch, lastLoss);
  }
  return { weights: w, loss: lastLoss };
}
