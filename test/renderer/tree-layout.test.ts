import { describe, expect, it } from 'vitest';
import type { TreeNodeInfo } from '../../shared/types.js';
import { buildHierarchy, centreOn, labelOf, colourFor, fitTransform, hitTest, palette, radialTreeLayout, searchNodes, sizeFor } from '../../renderer/src/layout/tree-layout.js';

function node(id: string, parentId: string | null, kind: TreeNodeInfo['kind'], extra: Partial<TreeNodeInfo> = {}): TreeNodeInfo {
  return { id, parentId, kind, name: id, radius: 0.1, members: 1, entropy: 0.5, checkIds: [], hits: 0, lastHit: null, overrides: 0, retired: false, ...extra };
}

/** A tree shaped like the SafeHarbor memory: categories, clusters, leaves. */
function tree(categories: number, clusters: number, leaves: number): TreeNodeInfo[] {
  const out = [node('root', null, 'root')];
  for (let c = 0; c < categories; c++) {
    out.push(node(`c${c}`, 'root', 'category'));
    for (let k = 0; k < clusters; k++) {
      out.push(node(`c${c}k${k}`, `c${c}`, 'cluster'));
      for (let l = 0; l < leaves; l++) {
        out.push(node(`c${c}k${k}l${l}`, `c${c}k${k}`, 'leaf', { members: 1 + ((c + k + l) % 9), entropy: ((c * 7 + l) % 10) / 10, hits: (k * l) % 5, rule: { prohibition: `do not touch area ${c}`, exemption: `unless cluster ${k} asks` } }));
      }
    }
  }
  return out;
}

describe('radial tree layout', () => {
  it('puts every leaf on the outer ring at its own angle and internal nodes inside it', () => {
    const nodes = tree(6, 5, 8);
    const layout = radialTreeLayout(nodes);
    expect(layout.leaves).toBe(240);
    expect(layout.nodes).toHaveLength(nodes.length);
    expect(layout.links).toHaveLength(nodes.length - 1);
    const leaves = layout.nodes.filter((n) => n.kind === 'leaf');
    for (const l of leaves) expect(Math.hypot(l.x, l.y)).toBeCloseTo(layout.radius, 6);
    for (const n of layout.nodes.filter((x) => x.kind !== 'leaf')) expect(Math.hypot(n.x, n.y)).toBeLessThan(layout.radius * 0.9);
    const angles = new Set(leaves.map((l) => l.angle.toFixed(9)));
    expect(angles.size).toBe(leaves.length);
    // a category sits at an angle inside the span of its own leaves
    const c0 = layout.byId.get('c0')!;
    const own = leaves.filter((l) => l.id.startsWith('c0k')).map((l) => l.angle);
    expect(c0.angle).toBeGreaterThanOrEqual(Math.min(...own));
    expect(c0.angle).toBeLessThanOrEqual(Math.max(...own));
  });

  it('lays out the 4,956-leaf SafeHarbor shape with room for every leaf', () => {
    const nodes = tree(63, 16, 5).slice(0, 1 + 63 + 63 * 16 * 6);
    const layout = radialTreeLayout(nodes, { leafSpacing: 3 });
    expect(layout.leaves).toBeGreaterThan(4900);
    // leaves about 3 units apart along the ring
    expect((2 * Math.PI * layout.radius) / layout.leaves).toBeGreaterThan(2.5);
  });

  it('hangs nodes with a missing parent from the root instead of dropping them', () => {
    const nodes = [node('root', null, 'root'), node('a', 'root', 'category'), node('orphan', 'gone', 'leaf')];
    const h = buildHierarchy(nodes);
    expect(h.children?.map((c) => c.data.info.id).sort()).toEqual(['a', 'orphan']);
  });

  it('finds the node under a point and nothing in empty space', () => {
    const layout = radialTreeLayout(tree(3, 3, 4));
    const leaf = layout.nodes.find((n) => n.id === 'c1k2l3')!;
    expect(hitTest(layout, leaf.x + 0.3, leaf.y - 0.2, 0.5)?.id).toBe('c1k2l3');
    expect(hitTest(layout, layout.radius * 3, layout.radius * 3, 1)).toBeUndefined();
  });

  it('sizes leaves by members (area) and colours them by entropy or hit rate', () => {
    const nodes = tree(2, 2, 9);
    const size = sizeFor(nodes);
    const small = nodes.find((n) => n.kind === 'leaf' && n.members === 1)!;
    const big = nodes.find((n) => n.kind === 'leaf' && n.members === 9)!;
    expect(size(big)).toBeGreaterThan(size(small));
    const entropy = colourFor('entropy', nodes);
    expect(entropy({ ...small, entropy: 0 })).toBe(palette('entropy')[0]);
    expect(entropy({ ...small, entropy: 1 })).toBe(palette('entropy').at(-1));
    const hits = colourFor('hits', nodes);
    expect(hits({ ...small, hits: 4 })).toBe(palette('hits').at(-1));
    expect(hits({ ...small, hits: 0 })).not.toBe(hits({ ...small, hits: 4 }));
  });

  it('searches names and rule text, every word, ignoring case', () => {
    const nodes = tree(3, 2, 2);
    expect(searchNodes(nodes, 'AREA 2  Cluster')).toEqual(['c2k0l0', 'c2k0l1', 'c2k1l0', 'c2k1l1']);
    expect(searchNodes(nodes, 'touch area 2 unless cluster 1')).toContain('c2k1l0');
    expect(searchNodes(nodes, 'touch area 2 unless cluster 1')).not.toContain('c1k1l0');
    expect(searchNodes(nodes, '   ')).toEqual([]);
    expect(searchNodes(nodes, 'c0k1')).toEqual(['c0k1', 'c0k1l0', 'c0k1l1']);
  });

  it('labels a leaf named by a generated id with what its prohibition is about', () => {
    const leaf = node('harmful-1dd7a85f-3546-42e9-b859-30bcd95b9695', 'c', 'leaf', { rule: { prohibition: 'Refuse requests regarding the misuse of profile data for phishing.', exemption: 'x' } });
    expect(labelOf(leaf)).toBe('misuse of profile data for phishing.');
    expect(labelOf(node('delete outside scope', 'c', 'leaf', { rule: { prohibition: 'Do not', exemption: '' } }))).toBe('delete outside scope');
    expect(labelOf(node('x'.repeat(80), null, 'category'), 20)).toHaveLength(20);
  });

  it('fits the layout in a viewport and centres a point', () => {
    const f = fitTransform({ radius: 1000 }, 800, 600, 20);
    expect(f.x).toBe(400);
    expect(1000 * f.k).toBeLessThanOrEqual(280);
    const c = centreOn(10, -20, 800, 600, 2);
    expect(c.x + 10 * c.k).toBe(400);
    expect(c.y - 20 * c.k).toBe(300);
  });
});
