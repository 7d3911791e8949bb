/**
 * Tree retrieval against a brute-force scan at several sizes, on synthetic clustered unit
 * vectors (64 topics, 40 sub-topics each, Gaussian noise; seeded). The brute force scans every
 * leaf centroid packed in one block with the SIMD kernel the engine's exact scans use (the
 * fastest exact scan it has), so the speed-up is honest.
 */
import { MemoryTree } from '../electron/engine/core/tree/index.js';
import { VectorBlock } from '../electron/engine/core/simd/vector-block.js';
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
    const packed = new VectorBlock(dim, n);
    const ids: string[] = [];
    const t0 = performance.now();
    for (let i = 0; i < n; i++) {
      const topic = i % 64;
      const v = normalize(subs[topic]![Math.floor(rand() * 40)]!.map((x) => x + gauss() * 0.03));
      const leaf = tree.addLeaf(`topic-${topic}`, v, { prohibition: `pattern ${i}`, exemption: '' });
      packed.push(leaf.centroid);
      ids.push(leaf.id);
    }
    tree.prepareScans();
    const buildMs = performance.now() - t0;
    const qs = Array.from({ length: queries }, () => {
      const j = Math.floor(rand() * n);
      return normalize(packed.row(j).map((x) => x + gauss() * 0.02));
    });
    // both sides warmed up first (JIT), on queries of their own
    for (const q of qs.slice(0, 30)) {
      tree.retrieve(q.map((v) => -v), { topCategories: 3, beam: 4 });
      packed.best(q.map((v) => -v));
    }
    let t = performance.now();
    const fromTree = qs.map((q) => tree.retrieve(q, { topCategories: 3, beam: 4 }).leaves[0]?.leafId);
    const treeMs = (performance.now() - t) / qs.length;
    t = performance.now();
    const fromBrute = qs.map((q) => ids[packed.best(q)!.index]);
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
