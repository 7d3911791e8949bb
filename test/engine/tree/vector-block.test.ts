import { describe, expect, it } from 'vitest';
import { VectorBlock } from '../../../electron/engine/core/simd/vector-block.js';
import { DOTS_WASM_BASE64 } from '../../../electron/engine/core/simd/dots-wasm.js';
import { BenignIndex } from '../../../electron/engine/core/benign-index.js';
import { MemoryTree, dot } from '../../../electron/engine/core/tree/index.js';
import { rng } from '../../../electron/engine/core/projector/train.js';
// @ts-expect-error: a plain ES module script without type declarations
import { assembleKernel } from '../../../scripts/build-wasm.mjs';

const rand = rng(11);
function unit(dim: number): Float32Array {
  const v = Float32Array.from({ length: dim }, () => rand() - 0.5);
  const n = Math.hypot(...v);
  return v.map((x) => x / n);
}

describe('the SIMD scan', () => {
  it('carries the kernel its .wat source assembles to', async () => {
    const bytes = (await assembleKernel()) as Uint8Array;
    expect(Buffer.from(bytes).toString('base64')).toBe(DOTS_WASM_BASE64);
  });

  it.each([512, 20, 3])('gives the dot product of every row, at %i dimensions, across growth', (dim) => {
    const block = new VectorBlock(dim, 2);
    const rows = Array.from({ length: 300 }, () => unit(dim));
    for (const r of rows) block.push(r);
    const x = unit(dim);
    const d = block.dots(x);
    expect(d.length).toBe(300);
    for (let i = 0; i < rows.length; i++) expect(d[i]).toBeCloseTo(dot(rows[i]!, x), 5);
    expect(Array.from(block.row(123))).toEqual(Array.from(rows[123]!));
  });

  it('finds the most similar row after rows are overwritten, moved and dropped', () => {
    const block = new VectorBlock(32);
    const rows = Array.from({ length: 10 }, () => unit(32));
    for (const r of rows) block.push(r);
    const x = rows[7]!;
    expect(block.best(x)?.index).toBe(7);
    block.copyRow(9, 7);
    block.truncate(9);
    expect(block.length).toBe(9);
    expect(block.best(x)!.score).toBeLessThan(0.999);
    block.set(2, x);
    expect(block.best(x)).toEqual({ index: 2, score: expect.closeTo(1, 5) as number });
    expect(() => block.push(unit(31))).toThrow(/32-d/);
    expect(() => block.set(9, x)).toThrow(RangeError);
  });

  it('keeps the benign index exact through adds, replacements and removals', () => {
    const index = new BenignIndex(64);
    const vs = Array.from({ length: 40 }, () => unit(64));
    vs.forEach((v, i) => index.add(`b${i}`, v, `text ${i}`));
    index.remove('b3');
    index.add('b5', vs[3]!, 'replaced');
    for (const q of [vs[3]!, vs[39]!, unit(64)]) {
      let best = { id: '', s: -Infinity };
      vs.forEach((v, i) => {
        if (i === 3) return;
        const s = dot(i === 5 ? vs[3]! : v, q);
        if (s > best.s) best = { id: `b${i}`, s };
      });
      const hit = index.nearest(q)!;
      expect(hit.id).toBe(best.id);
      expect(hit.similarity).toBeCloseTo(best.s, 5);
    }
    expect(index.nearest(vs[3]!)?.text).toBe('replaced');
  });

  it('scores a leaf against its current members after merges and a revert', () => {
    const tree = new MemoryTree(16);
    const base = unit(16);
    const opts = { label: 1 as const, text: 'x', source: 'test', theta: 2, oodFloor: -1, category: 'integrity' };
    const first = tree.insert(base, opts);
    const x = unit(16);
    const sims = (): number[] => Array.from(tree.memberSimilarities(first.leafId, x));
    const expected = (): number[] => tree.leafMembers(first.leafId).map((m) => dot(m.vector, x));
    expect(sims()).toEqual(expected().map((s) => expect.closeTo(s, 5) as number));
    const second = tree.insert(base.map((v, i) => v + (i === 0 ? 0.01 : 0)), opts);
    expect(second.leafId).toBe(first.leafId);
    expect(sims()).toHaveLength(2);
    tree.revert(second.undo);
    expect(sims()).toEqual(expected().map((s) => expect.closeTo(s, 5) as number));
    expect(sims()).toHaveLength(1);
  });

  it('routes on current centroids while inserts merge, split and regroup between retrievals', () => {
    const tree = new MemoryTree(32);
    const centres = Array.from({ length: 6 }, () => unit(32));
    const opts = { label: 1 as const, text: 'x', source: 'test', theta: 0.2, oodFloor: 0.3 };
    for (let i = 0; i < 300; i++) {
      const c = centres[i % 6]!;
      const v = c.map((x) => x + (rand() - 0.5) * 0.3);
      tree.insert(v.map((x) => x / Math.hypot(...v)), { ...opts, category: i % 2 ? 'integrity' : 'availability' });
      const q = unit(32);
      const hits = tree.retrieve(q).leaves;
      // both categories hold leaves from the second insert on, and each gives its best leaf
      expect(hits).toHaveLength(Math.min(i + 1, 2));
      for (const hit of hits) expect(hit.similarity).toBeCloseTo(dot(tree.node(hit.leafId)!.centroid, q), 5);
    }
    expect(tree.size.leaves).toBeGreaterThan(40);
    expect(tree.size.nodes - tree.size.leaves).toBeGreaterThan(4);
  });
});
