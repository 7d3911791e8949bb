/**
 * The SafeHarbor memory tree (paper 3.2-3.5): root -> categories -> cluster nodes (as many levels
 * as growth needs) -> leaves. Internal nodes only route; a leaf holds a contrastive rule pair, its
 * checks, its counters and the examples (members) that formed it.
 *
 * Insertion follows the paper's Algorithm 1 with one reading made explicit: the information gain
 * of a new example x at its nearest leaf is the drop in normalised entropy of the members'
 * similarity distribution, IG = H(members) - H(members + x), with p_i = softmax(sim(e_i, c) / T).
 * An x that fits the leaf leaves the distribution as balanced as before (IG near 0: merge); an x
 * that does not breaks it (IG large: split into a new leaf). Far-away x also split through the
 * out-of-distribution similarity floor.
 *
 * Depth: when an internal node has more than FANOUT children, its children are regrouped by
 * spherical k-means under new cluster nodes, so routing stays logarithmic in the number of leaves.
 */
import type { RulePair, TreeEvent, TreeNodeInfo, TreeNodeKind } from '../../../../shared/types.js';
import { VectorBlock } from '../simd/vector-block.js';

/** An example stored in a leaf. */
export interface LeafMember {
  id: string;
  vector: Float32Array;
  /** 1 = harmful, 0 = benign (an exemption example). */
  label: 0 | 1;
  text: string;
  source: string;
  at?: number;
  extra?: unknown;
}

/** A node as the tree holds it: the console's fields plus what routing and learning need. */
export interface TreeNode extends Pick<TreeNodeInfo, 'id' | 'parentId' | 'kind' | 'name' | 'radius' | 'rule' | 'checkIds' | 'hits' | 'lastHit' | 'overrides' | 'retired'> {
  centroid: Float32Array;
  /** Pseudo-count behind the centroid (members, or 1 for an imported leaf without examples). */
  weight: number;
  children: string[];
  members: LeafMember[];
  description?: string;
  /** Internal nodes: unnormalised sum of the leaf centroids below (for routing). */
  sum?: Float32Array;
  leafCount: number;
}

/** A tree event before the store numbers and dates it. */
export type TreeEventDraft = Omit<TreeEvent, 'id' | 'at'>;

/** Options of one insertion. */
export interface InsertOptions {
  label: 0 | 1;
  text: string;
  source: string;
  extra?: unknown;
  /** Category name; created if missing. Default: the nearest category. */
  category?: string;
  /** Rule pair for a leaf this insertion creates (default: copied from the nearest leaf). */
  rule?: RulePair;
  theta: number;
  oodFloor: number;
  at?: number;
}

/** What undoing an insertion needs. */
export interface InsertUndo {
  memberId: string;
  leafId: string;
  createdLeaf: boolean;
}

/** One retrieved leaf. */
export interface RetrievedLeaf {
  leafId: string;
  category: string;
  similarity: number;
  rule: RulePair;
  checkIds: string[];
}

const FANOUT = 32;
const TEMPERATURE = 0.1;
const ROOT = 'root';

/**
 * Dot product of two equal-length vectors. Four running sums let V8 keep independent additions in
 * flight: about twice as fast as one sum on 512-d vectors, and the hot path takes hundreds a verdict.
 */
export function dot(a: Float32Array, b: Float32Array): number {
  return dotAt(a, 0, b, a.length);
}

/** Dot product of `b` with the `n` values of `a` starting at `offset` (a row of a packed matrix). */
export function dotAt(a: Float32Array, offset: number, b: Float32Array, n: number): number {
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  const end = n - (n % 4);
  let i = 0;
  for (; i < end; i += 4) {
    s0 += a[offset + i]! * b[i]!;
    s1 += a[offset + i + 1]! * b[i + 1]!;
    s2 += a[offset + i + 2]! * b[i + 2]!;
    s3 += a[offset + i + 3]! * b[i + 3]!;
  }
  for (; i < n; i++) s0 += a[offset + i]! * b[i]!;
  return s0 + s1 + (s2 + s3);
}

function normalize(v: Float32Array): Float32Array {
  let n = 0;
  for (let i = 0; i < v.length; i++) n += v[i]! * v[i]!;
  n = Math.sqrt(n);
  const out = new Float32Array(v.length);
  if (n > 0) for (let i = 0; i < v.length; i++) out[i] = v[i]! / n;
  return out;
}

/** Normalised entropy of softmax(sim(e_i, c) / T) over the vectors; 1 for fewer than two. */
export function similarityEntropy(vectors: Float32Array[], c: Float32Array, temperature = TEMPERATURE): number {
  const n = vectors.length;
  if (n < 2) return 1;
  const logits = vectors.map((v) => dot(v, c) / temperature);
  const max = Math.max(...logits);
  const exps = logits.map((l) => Math.exp(l - max));
  const z = exps.reduce((a, b) => a + b, 0);
  let h = 0;
  for (const e of exps) {
    const p = e / z;
    if (p > 0) h -= p * Math.log(p);
  }
  return h / Math.log(n);
}

/** Information gain of adding x to a leaf: entropy before minus entropy after, both against the leaf's centroid. */
export function informationGain(members: Float32Array[], centroid: Float32Array, x: Float32Array): number {
  const before = members.length ? members : [centroid];
  return similarityEntropy(before, centroid) - similarityEntropy([...before, x], centroid);
}

let idCounter = 0;
function newId(prefix: string): string {
  idCounter = (idCounter + 1) % 1_000_000;
  return `${prefix}-${Date.now().toString(36)}-${idCounter.toString(36)}-${Math.floor(Math.random() * 1e6).toString(36)}`;
}

export class MemoryTree {
  readonly dim: number;
  private nodes = new Map<string, TreeNode>();
  private dirtyNodes = new Set<string>();
  private deletedNodes = new Set<string>();
  private dirtyMembers = new Map<string, string>();
  private deletedMembers = new Set<string>();
  /**
   * Each leaf's member vectors packed for scanning, built on first use. A leaf's member list only
   * grows by push or is replaced whole, so the list and its length tell whether a block is current.
   */
  private memberBlocks = new WeakMap<TreeNode, { members: LeafMember[]; block: VectorBlock }>();
  /**
   * Each routing node's children's centroids packed for scanning, built on first use. A child
   * list only grows by push or is replaced whole, and centroids are replaced, never changed in
   * place: the same list, length and centroid objects tell that a block is current.
   */
  private childBlocks = new WeakMap<TreeNode, { children: string[]; kids: TreeNode[]; centroids: Float32Array[]; block: VectorBlock }>();

  constructor(dim: number) {
    this.dim = dim;
    this.nodes.set(ROOT, this.blank(ROOT, null, 'root', 'root'));
    this.dirtyNodes.add(ROOT);
    for (const [name, description] of [
      ['confidentiality', 'secrets, private data and where they go'],
      ['integrity', 'files, system state, privileges and what runs'],
      ['availability', 'processes, disks and resources'],
    ] as const) {
      this.addCategory(name, description);
    }
  }

  private blank(id: string, parentId: string | null, kind: TreeNodeKind, name: string): TreeNode {
    return {
      id,
      parentId,
      kind,
      name,
      centroid: new Float32Array(this.dim),
      radius: 0,
      weight: 0,
      children: [],
      members: [],
      checkIds: [],
      hits: 0,
      lastHit: null,
      overrides: 0,
      retired: false,
      leafCount: 0,
      ...(kind === 'leaf' ? {} : { sum: new Float32Array(this.dim) }),
    };
  }

  // ------------------------------------------------------------ reading

  get size(): { nodes: number; leaves: number; categories: number } {
    let leaves = 0;
    let categories = 0;
    for (const n of this.nodes.values()) {
      if (n.kind === 'leaf') leaves++;
      if (n.kind === 'category') categories++;
    }
    return { nodes: this.nodes.size, leaves, categories };
  }

  node(id: string): TreeNode | undefined {
    return this.nodes.get(id);
  }

  categories(): TreeNode[] {
    return this.nodes.get(ROOT)!.children.map((id) => this.nodes.get(id)!);
  }

  categoryByName(name: string): TreeNode | undefined {
    return this.categories().find((c) => c.name === name);
  }

  leafMembers(leafId: string): LeafMember[] {
    return this.nodes.get(leafId)?.members ?? [];
  }

  /** The similarity of `x` to each member of a leaf, in the order of `leafMembers`. */
  memberSimilarities(leafId: string, x: Float32Array): Float32Array {
    const leaf = this.nodes.get(leafId);
    if (!leaf || leaf.members.length === 0) return new Float32Array(0);
    let packed = this.memberBlocks.get(leaf);
    if (!packed || packed.members !== leaf.members) {
      packed = { members: leaf.members, block: new VectorBlock(this.dim, leaf.members.length) };
      this.memberBlocks.set(leaf, packed);
    }
    for (let i = packed.block.length; i < leaf.members.length; i++) packed.block.push(leaf.members[i]!.vector);
    return packed.block.dots(x);
  }

  *members(): Iterable<LeafMember> {
    for (const n of this.nodes.values()) if (n.kind === 'leaf') yield* n.members;
  }

  *leaves(): Iterable<TreeNode> {
    for (const n of this.nodes.values()) if (n.kind === 'leaf') yield n;
  }

  /** The category a node belongs to. */
  categoryOf(id: string): TreeNode | undefined {
    let n = this.nodes.get(id);
    while (n && n.kind !== 'category') n = n.parentId ? this.nodes.get(n.parentId) : undefined;
    return n;
  }

  // ------------------------------------------------------------ routing

  /** A node's children and the similarity of `x` to each one's centroid (valid until the next scan). */
  private childSimilarities(node: TreeNode, x: Float32Array): { kids: TreeNode[]; sims: Float32Array } {
    let packed = this.childBlocks.get(node);
    let current = !!packed && packed.children === node.children && packed.kids.length === node.children.length;
    for (let i = 0; current && i < packed!.kids.length; i++) current = packed!.centroids[i] === packed!.kids[i]!.centroid;
    if (!packed || !current) {
      const kids = node.children.map((id) => this.nodes.get(id)!);
      packed ??= { children: node.children, kids, centroids: [], block: new VectorBlock(this.dim, kids.length) };
      packed.children = node.children;
      packed.kids = kids;
      packed.centroids = kids.map((k) => k.centroid);
      packed.block.truncate(0);
      for (const c of packed.centroids) packed.block.push(c);
      this.childBlocks.set(node, packed);
    }
    return { kids: packed.kids, sims: packed.block.scan(x) };
  }

  /**
   * Packs every routing node's children for scanning now rather than on each node's first visit
   * (after a load or a bulk build, so the first retrievals do not pay for it).
   */
  prepareScans(): void {
    const x = new Float32Array(this.dim);
    for (const n of this.nodes.values()) if (n.kind !== 'leaf' && n.children.length > 0) this.childSimilarities(n, x);
  }

  /** Best leaf under `start` by beam search (beam 1 = greedy descent). */
  private descend(start: TreeNode, x: Float32Array, beam: number): { leaf: TreeNode; similarity: number } | undefined {
    let frontier: TreeNode[] = [start];
    let best: { leaf: TreeNode; similarity: number } | undefined;
    while (frontier.length) {
      const next: { n: TreeNode; s: number }[] = [];
      for (const f of frontier) {
        const { kids, sims } = this.childSimilarities(f, x);
        for (let i = 0; i < kids.length; i++) {
          const c = kids[i]!;
          const s = sims[i]!;
          if (c.kind === 'leaf') {
            if (c.retired) continue;
            if (!best || s > best.similarity) best = { leaf: c, similarity: s };
          } else if (c.leafCount > 0) next.push({ n: c, s });
        }
      }
      next.sort((a, b) => b.s - a.s);
      frontier = next.slice(0, beam).map((e) => e.n);
    }
    return best;
  }

  /** SafeHarbor retrieval: top categories by centroid, then the best leaf in each (beam search). */
  retrieve(x: Float32Array, opts: { topCategories?: number; beam?: number } = {}): { leaves: RetrievedLeaf[] } {
    const k = opts.topCategories ?? 3;
    const beam = opts.beam ?? 4;
    const { kids, sims } = this.childSimilarities(this.nodes.get(ROOT)!, x);
    const cats = kids
      .map((c, i) => ({ c, s: sims[i]! }))
      .filter((e) => e.c.leafCount > 0)
      .sort((a, b) => b.s - a.s)
      .slice(0, k);
    const out: RetrievedLeaf[] = [];
    for (const { c } of cats) {
      const hit = this.descend(c, x, beam);
      if (hit?.leaf.rule) out.push({ leafId: hit.leaf.id, category: c.name, similarity: hit.similarity, rule: hit.leaf.rule, checkIds: hit.leaf.checkIds });
    }
    out.sort((a, b) => b.similarity - a.similarity);
    return { leaves: out };
  }

  /** Exact nearest leaf by scanning every leaf (the benchmark's reference). */
  bruteForce(x: Float32Array): { leafId: string; similarity: number } | undefined {
    let best: { leafId: string; similarity: number } | undefined;
    for (const n of this.nodes.values()) {
      if (n.kind !== 'leaf' || n.retired) continue;
      const s = dot(n.centroid, x);
      if (!best || s > best.similarity) best = { leafId: n.id, similarity: s };
    }
    return best;
  }

  // ------------------------------------------------------------ growth

  /** Adds an administrator's (or import's) category. */
  addCategory(name: string, description = ''): TreeNode {
    const existing = this.categoryByName(name);
    if (existing) return existing;
    const n = this.blank(newId('cat'), ROOT, 'category', name);
    n.description = description;
    this.nodes.set(n.id, n);
    this.nodes.get(ROOT)!.children.push(n.id);
    this.touch(n.id, ROOT);
    return n;
  }

  /** Adjusts routing sums from `fromId` up to the root by `delta` leaf-centroid and leaf count. */
  private propagate(fromId: string | null, delta: Float32Array | undefined, leafDelta: number): void {
    let id = fromId;
    while (id) {
      const n = this.nodes.get(id)!;
      if (n.sum && delta) {
        for (let i = 0; i < this.dim; i++) n.sum[i]! += delta[i]!;
        n.centroid = normalize(n.sum);
      }
      n.leafCount += leafDelta;
      this.touch(id);
      id = n.parentId;
    }
  }

  private touch(...ids: string[]): void {
    for (const id of ids) {
      this.dirtyNodes.add(id);
      this.deletedNodes.delete(id);
    }
  }

  /** Adds a leaf with a given centroid under the nearest leaf-holding node of a category. */
  addLeaf(categoryName: string, centroid: Float32Array, rule: RulePair, opts: { name?: string; weight?: number; checkIds?: string[]; id?: string } = {}): TreeNode {
    const cat = this.categoryByName(categoryName) ?? this.addCategory(categoryName);
    const near = this.descend(cat, centroid, 1);
    const parent = near ? this.nodes.get(near.leaf.parentId!)! : cat;
    return this.attachLeaf(parent, normalize(centroid), rule, opts);
  }

  private attachLeaf(parent: TreeNode, centroid: Float32Array, rule: RulePair, opts: { name?: string; weight?: number; checkIds?: string[]; id?: string }): TreeNode {
    const leaf = this.blank(opts.id ?? newId('leaf'), parent.id, 'leaf', opts.name ?? '');
    leaf.centroid = centroid;
    leaf.weight = opts.weight ?? 1;
    leaf.rule = { ...rule };
    leaf.checkIds = opts.checkIds ?? [];
    leaf.leafCount = 1;
    this.nodes.set(leaf.id, leaf);
    parent.children.push(leaf.id);
    this.touch(leaf.id);
    this.propagate(parent.id, centroid, 1);
    if (parent.children.length > FANOUT) this.regroup(parent);
    return leaf;
  }

  /** Pushes an over-full node's children down into k new cluster nodes (spherical k-means). */
  private regroup(node: TreeNode): void {
    const kids = node.children.map((id) => this.nodes.get(id)!);
    const k = 4;
    const vecs = kids.map((c) => (c.kind === 'leaf' ? c.centroid : normalize(c.sum!)));
    // deterministic farthest-point seeding
    const seeds: Float32Array[] = [vecs[0]!];
    while (seeds.length < k) {
      let far = 0;
      let farS = Infinity;
      vecs.forEach((v, i) => {
        const s = Math.max(...seeds.map((c) => dot(c, v)));
        if (s < farS) {
          farS = s;
          far = i;
        }
      });
      seeds.push(vecs[far]!);
    }
    let assign = new Array<number>(vecs.length).fill(0);
    let centers = seeds;
    for (let iter = 0; iter < 6; iter++) {
      assign = vecs.map((v) => {
        let b = 0;
        let bs = -Infinity;
        centers.forEach((c, j) => {
          const s = dot(c, v);
          if (s > bs) {
            bs = s;
            b = j;
          }
        });
        return b;
      });
      centers = centers.map((c, j) => {
        const acc = new Float32Array(this.dim);
        let any = false;
        vecs.forEach((v, i) => {
          if (assign[i] === j) {
            any = true;
            for (let d = 0; d < this.dim; d++) acc[d]! += v[d]!;
          }
        });
        return any ? normalize(acc) : c;
      });
    }
    const groups = centers.map((_, j) => kids.filter((_, i) => assign[i] === j)).filter((g) => g.length > 0);
    if (groups.length < 2) return;
    node.children = [];
    for (const g of groups) {
      const cl = this.blank(newId('cluster'), node.id, 'cluster', `${node.name || node.kind} / ${this.nodes.size}`);
      for (const child of g) {
        child.parentId = cl.id;
        cl.children.push(child.id);
        cl.leafCount += child.leafCount;
        const v = child.kind === 'leaf' ? child.centroid : child.sum!;
        for (let d = 0; d < this.dim; d++) cl.sum![d]! += v[d]!;
        this.touch(child.id);
      }
      cl.centroid = normalize(cl.sum!);
      this.nodes.set(cl.id, cl);
      node.children.push(cl.id);
      this.touch(cl.id);
    }
    this.touch(node.id);
  }

  private recomputeLeaf(leaf: TreeNode): Float32Array {
    const before = leaf.centroid;
    if (leaf.members.length > 0) {
      const acc = new Float32Array(this.dim);
      for (const m of leaf.members) for (let i = 0; i < this.dim; i++) acc[i]! += m.vector[i]!;
      leaf.centroid = normalize(acc);
      leaf.radius = Math.max(...leaf.members.map((m) => 1 - dot(m.vector, leaf.centroid)));
      leaf.weight = leaf.members.length;
    }
    const delta = new Float32Array(this.dim);
    for (let i = 0; i < this.dim; i++) delta[i] = leaf.centroid[i]! - before[i]!;
    return delta;
  }

  /**
   * Inserts an example (SafeHarbor Algorithm 1): merge into the nearest leaf of its category when
   * the information gain is small and it is not out of distribution, else split off a new leaf.
   */
  insert(x: Float32Array, opts: InsertOptions): { event: TreeEventDraft; leafId: string; undo: InsertUndo } {
    const cat = opts.category ? (this.categoryByName(opts.category) ?? this.addCategory(opts.category)) : this.nearestCategory(x);
    const member: LeafMember = { id: newId('m'), vector: x, label: opts.label, text: opts.text, source: opts.source, ...(opts.at !== undefined ? { at: opts.at } : {}), ...(opts.extra !== undefined ? { extra: opts.extra } : {}) };
    const near = this.descend(cat, x, 4);
    if (!near) {
      const leaf = this.attachLeaf(cat, normalize(x), opts.rule ?? { prohibition: '', exemption: '' }, { name: opts.text.slice(0, 80) });
      leaf.members.push(member);
      this.recomputeLeaf(leaf);
      this.dirtyMembers.set(member.id, leaf.id);
      return {
        event: { kind: 'create', nodeId: leaf.id, parentId: leaf.parentId, theta: opts.theta, detail: `first leaf of ${cat.name}: ${opts.text.slice(0, 120)}` },
        leafId: leaf.id,
        undo: { memberId: member.id, leafId: leaf.id, createdLeaf: true },
      };
    }
    const ig = informationGain(
      near.leaf.members.map((m) => m.vector),
      near.leaf.centroid,
      x,
    );
    const split = ig > opts.theta || near.similarity < opts.oodFloor;
    if (split) {
      const parent = this.nodes.get(near.leaf.parentId!)!;
      const leaf = this.attachLeaf(parent, normalize(x), opts.rule ?? { ...(near.leaf.rule ?? { prohibition: '', exemption: '' }) }, { name: opts.text.slice(0, 80) });
      leaf.members.push(member);
      this.recomputeLeaf(leaf);
      this.dirtyMembers.set(member.id, leaf.id);
      return {
        event: {
          kind: 'split',
          nodeId: leaf.id,
          parentId: leaf.parentId,
          ig,
          theta: opts.theta,
          similarity: near.similarity,
          detail: `${near.similarity < opts.oodFloor ? 'out of distribution' : 'information gain above threshold'}; split from ${near.leaf.id}: ${opts.text.slice(0, 120)}`,
        },
        leafId: leaf.id,
        undo: { memberId: member.id, leafId: leaf.id, createdLeaf: true },
      };
    }
    const leaf = near.leaf;
    if (leaf.members.length === 0 && leaf.weight > 0) {
      // an imported leaf without examples: its centroid counts as one pseudo-member
      leaf.members.push({ id: newId('m'), vector: leaf.centroid, label: 1, text: leaf.rule?.prohibition ?? '', source: 'centroid' });
      this.dirtyMembers.set(leaf.members[0]!.id, leaf.id);
    }
    leaf.members.push(member);
    this.dirtyMembers.set(member.id, leaf.id);
    const delta = this.recomputeLeaf(leaf);
    this.touch(leaf.id);
    this.propagate(leaf.parentId, delta, 0);
    return {
      event: { kind: 'merge', nodeId: leaf.id, parentId: leaf.parentId, ig, theta: opts.theta, similarity: near.similarity, detail: `merged into ${leaf.id}: ${opts.text.slice(0, 120)}` },
      leafId: leaf.id,
      undo: { memberId: member.id, leafId: leaf.id, createdLeaf: false },
    };
  }

  private nearestCategory(x: Float32Array): TreeNode {
    const cats = this.categories();
    let best = cats[0]!;
    let bs = -Infinity;
    for (const c of cats) {
      const s = c.leafCount > 0 ? dot(c.centroid, x) : -1;
      if (s > bs) {
        bs = s;
        best = c;
      }
    }
    return best;
  }

  /** Undoes an insertion exactly: the member goes, and a leaf the insertion created goes with it. */
  revert(undoIn: unknown): void {
    const undo = undoIn as InsertUndo;
    const leaf = this.nodes.get(undo.leafId);
    if (!leaf) return;
    leaf.members = leaf.members.filter((m) => m.id !== undo.memberId);
    this.deletedMembers.add(undo.memberId);
    this.dirtyMembers.delete(undo.memberId);
    if (undo.createdLeaf && leaf.members.length === 0) {
      const parent = this.nodes.get(leaf.parentId!)!;
      parent.children = parent.children.filter((c) => c !== leaf.id);
      this.nodes.delete(leaf.id);
      this.deletedNodes.add(leaf.id);
      this.dirtyNodes.delete(leaf.id);
      const neg = leaf.centroid.map((v) => -v);
      this.propagate(parent.id, neg, -1);
      return;
    }
    if (leaf.members.length === 1 && leaf.members[0]!.source === 'centroid') {
      this.deletedMembers.add(leaf.members[0]!.id);
      this.dirtyMembers.delete(leaf.members[0]!.id);
      leaf.members = [];
      this.touch(leaf.id);
      return;
    }
    const delta = this.recomputeLeaf(leaf);
    this.touch(leaf.id);
    this.propagate(leaf.parentId, delta, 0);
  }

  // ------------------------------------------------------------ curation

  updateRule(leafId: string, rule: RulePair): { event: TreeEventDraft } {
    const leaf = this.requireLeaf(leafId);
    const before = leaf.rule;
    leaf.rule = { prohibition: rule.prohibition, exemption: rule.exemption };
    this.touch(leafId);
    return { event: { kind: 'edit', nodeId: leafId, parentId: leaf.parentId, detail: `rule changed from "${(before?.prohibition ?? '').slice(0, 80)}" / "${(before?.exemption ?? '').slice(0, 80)}"` } };
  }

  setRetired(leafId: string, retired: boolean): { event: TreeEventDraft } {
    const leaf = this.requireLeaf(leafId);
    leaf.retired = retired;
    this.touch(leafId);
    return { event: { kind: retired ? 'retire' : 'restore', nodeId: leafId, parentId: leaf.parentId, detail: retired ? 'retired' : 'restored' } };
  }

  recordHit(leafId: string, at: number): void {
    const leaf = this.nodes.get(leafId);
    if (!leaf) return;
    leaf.hits++;
    leaf.lastHit = at;
    this.dirtyNodes.add(leafId);
  }

  recordOverride(leafId: string): void {
    const leaf = this.nodes.get(leafId);
    if (!leaf) return;
    leaf.overrides++;
    this.dirtyNodes.add(leafId);
  }

  private requireLeaf(id: string): TreeNode {
    const n = this.nodes.get(id);
    if (!n || n.kind !== 'leaf') throw new Error(`no leaf ${id}`);
    return n;
  }

  // ------------------------------------------------------------ persistence

  /** Rows changed since the last call (for write-through persistence). */
  takeDirty(): {
    nodes: { id: string; parentId: string | null; kind: string; centroid: Float32Array; [k: string]: unknown }[];
    members: { id: string; leafId: string; vector: Float32Array; [k: string]: unknown }[];
    deletedNodes: string[];
    deletedMembers: string[];
  } {
    const nodes = [...this.dirtyNodes].map((id) => this.nodes.get(id)).filter((n): n is TreeNode => !!n).map((n) => this.nodeRow(n));
    const members: { id: string; leafId: string; vector: Float32Array; [k: string]: unknown }[] = [];
    for (const [mid, leafId] of this.dirtyMembers) {
      const m = this.nodes.get(leafId)?.members.find((x) => x.id === mid);
      if (m) members.push({ id: m.id, leafId, vector: m.vector, label: m.label, text: m.text, source: m.source, at: m.at, extra: m.extra });
    }
    const out = { nodes, members, deletedNodes: [...this.deletedNodes], deletedMembers: [...this.deletedMembers] };
    this.dirtyNodes.clear();
    this.dirtyMembers.clear();
    this.deletedNodes.clear();
    this.deletedMembers.clear();
    return out;
  }

  private nodeRow(n: TreeNode): { id: string; parentId: string | null; kind: string; centroid: Float32Array; [k: string]: unknown } {
    return {
      id: n.id,
      parentId: n.parentId,
      kind: n.kind,
      centroid: n.centroid,
      name: n.name,
      radius: n.radius,
      weight: n.weight,
      order: n.parentId ? this.nodes.get(n.parentId)?.children.indexOf(n.id) ?? 0 : 0,
      rule: n.rule,
      checkIds: n.checkIds,
      hits: n.hits,
      lastHit: n.lastHit,
      overrides: n.overrides,
      retired: n.retired,
      description: n.description,
    };
  }

  /** Rebuilds a tree from stored rows. */
  static fromRows(dim: number, rows: { id: string; parentId: string | null; kind: string; centroid: Float32Array; [k: string]: unknown }[], memberRows: { id: string; leafId: string; vector: Float32Array; [k: string]: unknown }[]): MemoryTree {
    const t = new MemoryTree(dim);
    t.nodes.clear();
    t.dirtyNodes.clear();
    for (const r of rows) {
      const n = t.blank(r.id, r.parentId, r.kind as TreeNodeKind, String(r['name'] ?? ''));
      n.centroid = r.centroid;
      n.radius = Number(r['radius'] ?? 0);
      n.weight = Number(r['weight'] ?? 0);
      if (r['rule']) n.rule = r['rule'] as RulePair;
      n.checkIds = (r['checkIds'] as string[] | undefined) ?? [];
      n.hits = Number(r['hits'] ?? 0);
      n.lastHit = (r['lastHit'] as number | null | undefined) ?? null;
      n.overrides = Number(r['overrides'] ?? 0);
      n.retired = r['retired'] === true;
      if (typeof r['description'] === 'string') n.description = r['description'];
      (n as TreeNode & { order?: number }).order = Number(r['order'] ?? 0);
      t.nodes.set(n.id, n);
    }
    if (!t.nodes.has(ROOT)) t.nodes.set(ROOT, t.blank(ROOT, null, 'root', 'root'));
    const ordered = [...t.nodes.values()].sort((a, b) => ((a as TreeNode & { order?: number }).order ?? 0) - ((b as TreeNode & { order?: number }).order ?? 0));
    for (const n of ordered) if (n.parentId) t.nodes.get(n.parentId)?.children.push(n.id);
    for (const m of memberRows) {
      const leaf = t.nodes.get(m.leafId);
      if (!leaf) continue;
      leaf.members.push({ id: m.id, vector: m.vector, label: (m['label'] === 0 ? 0 : 1) as 0 | 1, text: String(m['text'] ?? ''), source: String(m['source'] ?? ''), ...(m['at'] !== undefined ? { at: m['at'] as number } : {}), ...(m['extra'] !== undefined ? { extra: m['extra'] } : {}) });
    }
    // routing sums are derived data: rebuild them bottom-up
    const fill = (n: TreeNode): void => {
      if (n.kind === 'leaf') {
        n.leafCount = 1;
        return;
      }
      n.sum = new Float32Array(dim);
      n.leafCount = 0;
      for (const cid of n.children) {
        const c = t.nodes.get(cid)!;
        fill(c);
        n.leafCount += c.leafCount;
        const v = c.kind === 'leaf' ? c.centroid : c.sum!;
        for (let i = 0; i < dim; i++) n.sum[i]! += v[i]!;
      }
      n.centroid = normalize(n.sum);
    };
    fill(t.nodes.get(ROOT)!);
    return t;
  }

  /** Every node for the console (centroids omitted). */
  toInfo(): TreeNodeInfo[] {
    const out: TreeNodeInfo[] = [];
    for (const n of this.nodes.values()) {
      const info: TreeNodeInfo = {
        id: n.id,
        parentId: n.parentId,
        kind: n.kind,
        name: n.name,
        radius: n.radius,
        members: n.kind === 'leaf' ? n.members.length : n.leafCount,
        entropy: n.kind === 'leaf' ? similarityEntropy(n.members.map((m) => m.vector), n.centroid) : 0,
        checkIds: n.checkIds,
        hits: n.hits,
        lastHit: n.lastHit,
        overrides: n.overrides,
        retired: n.retired,
      };
      if (n.rule) info.rule = n.rule;
      out.push(info);
    }
    return out;
  }
}
