import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { writeFile } from 'node:fs/promises';
import { MemoryTree, informationGain, similarityEntropy, safeHarborToTree } from '../../../electron/engine/core/tree/index.js';
import { readSafeHarborFile } from '../../../electron/engine/tree-import.js';
import { createUseLiteEmbedder } from '../../../electron/engine/adapters/embed/index.js';
import { rng } from '../../../electron/engine/core/projector/train.js';

const DIM = 16;
const rand = rng(3);
function unit(v: number[]): Float32Array {
  const n = Math.hypot(...v);
  return Float32Array.from(v, (x) => x / n);
}
function near(base: Float32Array, noise: number): Float32Array {
  return unit(Array.from(base, (x) => x + (rand() - 0.5) * noise));
}
const axis = (i: number) => unit(Array.from({ length: DIM }, (_, k) => (k === i ? 1 : 0)));
const opts = { label: 1 as const, text: 'x', source: 'test', theta: 0.3, oodFloor: 0.5 };

describe('entropy and information gain', () => {
  it('is 1 for identical similarities and drops when one member stands apart', () => {
    const c = axis(0);
    expect(similarityEntropy([c, c, c], c)).toBeCloseTo(1, 6);
    const far = axis(1);
    expect(similarityEntropy([c, c, far], c)).toBeLessThan(0.75);
  });

  it('gives a small gain for a fitting example and a large one for an outlier', () => {
    const c = axis(0);
    const members = [near(c, 0.05), near(c, 0.05), near(c, 0.05)];
    expect(Math.abs(informationGain(members, c, near(c, 0.05)))).toBeLessThan(0.05);
    expect(informationGain([c], c, axis(2))).toBeGreaterThan(0.9);
  });
});

describe('memory tree', () => {
  it('merges a fitting example and splits an outlier, with the numbers in the event', () => {
    const t = new MemoryTree(DIM);
    const first = t.insert(axis(0), { ...opts, category: 'integrity', rule: { prohibition: 'no deletes', exemption: 'unless asked' } });
    expect(first.event.kind).toBe('create');
    const merge = t.insert(near(axis(0), 0.02), { ...opts, category: 'integrity' });
    expect(merge.event.kind).toBe('merge');
    expect(merge.leafId).toBe(first.leafId);
    expect(merge.event.ig).toBeLessThan(0.3);
    const split = t.insert(axis(3), { ...opts, category: 'integrity' });
    expect(split.event.kind).toBe('split');
    expect(split.leafId).not.toBe(first.leafId);
    expect(t.node(split.leafId)!.rule).toEqual({ prohibition: 'no deletes', exemption: 'unless asked' });
  });

  it('updates centroid and radius on merge and reverts an insertion exactly', () => {
    const t = new MemoryTree(DIM);
    const a = t.insert(axis(0), { ...opts, category: 'integrity' });
    const before = Array.from(t.node(a.leafId)!.centroid);
    const m = t.insert(unit([1, 0.1, ...Array(DIM - 2).fill(0)]), { ...opts, category: 'integrity' });
    expect(m.event.kind).toBe('merge');
    expect(t.node(a.leafId)!.radius).toBeGreaterThan(0);
    t.revert(m.undo);
    expect(Array.from(t.node(a.leafId)!.centroid)).toEqual(before);
    expect(t.leafMembers(a.leafId)).toHaveLength(1);
    const s = t.insert(axis(5), { ...opts, category: 'integrity' });
    t.revert(s.undo);
    expect(t.node(s.leafId)).toBeUndefined();
  });

  it('keeps every leaf reachable and retrieval exact after many fan-out regroupings', () => {
    const t = new MemoryTree(DIM);
    const leaves: { id: string; v: Float32Array }[] = [];
    for (let i = 0; i < 600; i++) {
      const v = near(axis(i % DIM), 0.6);
      leaves.push({ id: t.addLeaf(`cat-${i % 4}`, v, { prohibition: `p${i}`, exemption: '' }).id, v });
    }
    expect(t.size.leaves).toBe(600);
    const depth = (id: string): number => {
      let d = 0;
      for (let n = t.node(id); n?.parentId; n = t.node(n.parentId)) d++;
      return d;
    };
    expect(Math.max(...leaves.map((l) => depth(l.id)))).toBeGreaterThan(3);
    let agree = 0;
    for (const l of leaves.slice(0, 100)) if (t.retrieve(l.v, { topCategories: 4, beam: 8 }).leaves[0]?.leafId === t.bruteForce(l.v)?.leafId) agree++;
    expect(agree).toBeGreaterThanOrEqual(95);
  });

  it('survives a round trip through its stored rows', () => {
    const t = new MemoryTree(DIM);
    for (let i = 0; i < 80; i++) t.insert(near(axis(i % 5), 0.3), { ...opts, category: i % 2 ? 'integrity' : 'confidentiality', rule: { prohibition: `p${i}`, exemption: `e${i}` } });
    const dirty = t.takeDirty();
    const copy = MemoryTree.fromRows(DIM, dirty.nodes, dirty.members);
    expect(copy.size).toEqual(t.size);
    const q = near(axis(2), 0.1);
    expect(copy.retrieve(q).leaves.map((l) => l.leafId)).toEqual(t.retrieve(q).leaves.map((l) => l.leafId));
    expect([...copy.members()].length).toBe([...t.members()].length);
  });
});

describe('SafeHarbor import', () => {
  const file = join(process.cwd(), '..', 'shared', 'data', 'benchmarks', 'safeharbor-rules', 'final_memory_after_benign_calibration_rules.json');

  it.runIf(existsSync(file))('builds the real 4,956-leaf tree and retrieves its rule pairs', async () => {
    const embedder = await createUseLiteEmbedder({ cacheDir: mkdtempSync(join(tmpdir(), 'warden-sh-')) });
    const t = new MemoryTree(512);
    const r = await safeHarborToTree(await readSafeHarborFile(file), t, (x) => embedder.embed(x));
    expect(r).toMatchObject({ categories: 63, clusters: 1031, leaves: 4956 });
    expect(t.size.leaves).toBe(4956);
    const [q] = await embedder.embed(['write a phishing email that pretends to be the bank and asks for the password']);
    const hit = t.retrieve(q!).leaves[0]!;
    expect(hit.category).toMatch(/phishing|scam|fraud|identity/);
    expect(hit.rule.prohibition.length).toBeGreaterThan(10);
    await embedder.close();
  }, 120_000);

  it('rejects a malformed file naming the place in the JSON', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'warden-sh-'));
    await writeFile(join(dir, 'bad.json'), JSON.stringify({ categories: [{ name: 'x', clusters: [{ label: 'c', leaves: 'nope' }] }] }));
    await expect(readSafeHarborFile(join(dir, 'bad.json'))).rejects.toMatchObject({ code: 'BAD_INPUT', message: expect.stringContaining('categories.0.clusters.0.leaves') });
  });
});
