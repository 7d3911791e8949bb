/**
 * Tree retrieval against a brute-force scan at several sizes, on synthetic clustered unit
 * vectors (64 topics, 40 sub-topics each, Gaussian noise; seeded). The brute force scans one
 * packed Float32Array of every leaf centroid: the fastest exact scan, so the speed-up is honest.
 */
import { MemoryTree } from '../electron/engine/core/tree/index.js';
import { rng } from '../electron/engine/core/projector/train.js';

/** One size's figures. */
export interface RetrievalFigures {
  leaves: number;
  build_s: number;
  insert_us_per_leaf: number;
  tree_ms_per_query: number;
  brute_ms_per_query: number;
  speedup_vs_brute: number;
  top1_agreement: number;
}

function normalize(v: Float32Array): Float32Array {
  let n = 0;
  for (const x of v) n += x * x;
  n = Math.sqrt(n);
  return v.map((x) => x / n);
}

/** Measures retrieval at each size. */
export async function benchRetrieval(sizes: number[], dim = 512, queries = 300): Promise<RetrievalFigures[]> {
  const rand = rng(42);
  const gauss = (): number => Math.sqrt(-2 * Math.log(Math.max(rand(), 1e-12))) * Math.cos(2 * Math.PI * rand());
  const topics = Array.from({ length: 64 }, () => normalize(Float32Array.from({ length: dim }, gauss)));
  const subs = topics.map((t) => Array.from({ length: 40 }, () => normalize(t.map((x) => x + gauss() * 0.04))));
  const out: RetrievalFigures[] = [];
  for (const n of sizes) {
    const tree = new MemoryTree(dim);
    const packed = new Float32Array(n * dim);
    const ids: string[] = [];
    const t0 = performance.now();
    for (let i = 0; i < n; i++) {
      const topic = i % 64;
      const v = normalize(subs[topic]![Math.floor(rand() * 40)]!.map((x) => x + gauss() * 0.03));
      const leaf = tree.addLeaf(`topic-${topic}`, v, { prohibition: `pattern ${i}`, exemption: '' });
      packed.set(leaf.centroid, i * dim);
      ids.push(leaf.id);
    }
    const buildMs = performance.now() - t0;
    const qs = Array.from({ length: queries }, () => {
      const j = Math.floor(rand() * n);
      return normalize(packed.slice(j * dim, (j + 1) * dim).map((x) => x + gauss() * 0.02));
    });
    let t = performance.now();
    const fromTree = qs.map((q) => tree.retrieve(q, { topCategories: 3, beam: 4 }).leaves[0]?.leafId);
    const treeMs = (performance.now() - t) / qs.length;
    t = performance.now();
    const fromBrute = qs.map((q) => {
      let best = -Infinity;
      let bi = 0;
      for (let i = 0; i < n; i++) {
        let s = 0;
        const o = i * dim;
        for (let d = 0; d < dim; d++) s += packed[o + d]! * q[d]!;
        if (s > best) {
          best = s;
          bi = i;
        }
      }
      return ids[bi];
    });
    const bruteMs = (performance.now() - t) / qs.length;
    const agree = fromTree.filter((id, i) => id === fromBrute[i]).length / qs.length;
    out.push({
      leaves: n,
      build_s: buildMs / 1000,
      insert_us_per_leaf: (buildMs * 1000) / n,
      tree_ms_per_query: treeMs,
      brute_ms_per_query: bruteMs,
      speedup_vs_brute: bruteMs / treeMs,
      top1_agreement: agree,
    });
  }
  return out;
}
