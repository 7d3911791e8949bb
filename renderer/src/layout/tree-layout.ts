/**
 * The memory tree laid out for a canvas: d3 builds the hierarchy and a radial cluster layout,
 * this file flattens it into plain arrays (nodes and links in screen units) that a draw loop can
 * walk without touching d3 again, plus a quadtree for hit-testing clicks.
 */
import { cluster, hierarchy, quadtree, quantize, scaleQuantize, scaleSqrt, interpolateViridis, interpolateYlOrRd, type HierarchyNode, type Quadtree } from 'd3';
import type { TreeNodeInfo } from '../../../shared/types.js';

/** What colour encodes. */
export type ColourMode = 'entropy' | 'hits';

/** One drawn node. */
export interface LaidNode {
  id: string;
  kind: TreeNodeInfo['kind'];
  name: string;
  /** What the canvas writes beside the node. */
  label: string;
  x: number;
  y: number;
  /** Radius in layout units. */
  r: number;
  colour: string;
  depth: number;
  /** Angle in radians (0 at 12 o'clock, clockwise), used for labels. */
  angle: number;
  retired: boolean;
  info: TreeNodeInfo;
}

/** A parent-child edge. */
export interface LaidLink {
  /** The child is a leaf: these are skipped when leaves are too close to tell apart. */
  toLeaf: boolean;
  x1: number;
  y1: number;
  x2: number;
  y2: number;
}

/** A whole layout. */
export interface TreeLayout {
  nodes: LaidNode[];
  links: LaidLink[];
  radius: number;
  leaves: number;
  /** Arc length between neighbouring leaves, in layout units. */
  leafGap: number;
  byId: Map<string, LaidNode>;
  index: Quadtree<LaidNode>;
}

interface Datum {
  info: TreeNodeInfo;
  children: Datum[];
}

/**
 * Turns the flat node list into a hierarchy. Nodes whose parent is missing hang from the root,
 * so a partial answer still draws; without a root node one is made up.
 */
export function buildHierarchy(nodes: TreeNodeInfo[]): HierarchyNode<Datum> {
  const byId = new Map<string, Datum>();
  for (const n of nodes) byId.set(n.id, { info: n, children: [] });
  let root = nodes.find((n) => n.kind === 'root' || n.parentId === null);
  const rootDatum: Datum = root ? byId.get(root.id)! : { info: syntheticRoot(), children: [] };
  if (!root) root = rootDatum.info;
  for (const n of nodes) {
    if (n.id === root.id) continue;
    const parent = (n.parentId !== null && byId.get(n.parentId)) || rootDatum;
    parent.children.push(byId.get(n.id)!);
  }
  const sortKey = (d: Datum): string => `${d.info.kind === 'leaf' ? 1 : 0}${d.info.name}`;
  return hierarchy(rootDatum, (d) => d.children).sort((a, b) => (sortKey(a.data) < sortKey(b.data) ? -1 : 1));
}

function syntheticRoot(): TreeNodeInfo {
  return { id: '(root)', parentId: null, kind: 'root', name: 'memory', radius: 0, members: 0, entropy: 0, checkIds: [], hits: 0, lastHit: null, overrides: 0, retired: false };
}

/** Colour steps of the legend; few distinct colours keep the canvas's fill changes few. */
export const COLOUR_STEPS = 9;

/** The palette of a mode, low to high. */
export function palette(mode: ColourMode): string[] {
  return quantize(mode === 'entropy' ? interpolateViridis : interpolateYlOrRd, COLOUR_STEPS);
}

/** Colour of a node under a mode; hit rate is relative to the busiest leaf, on a log scale. */
export function colourFor(mode: ColourMode, nodes: TreeNodeInfo[]): (n: TreeNodeInfo) => string {
  if (mode === 'entropy') {
    const s = scaleQuantize<string>().domain([0, 1]).range(palette('entropy'));
    return (n) => (n.kind === 'leaf' ? s(Math.max(0, Math.min(1, n.entropy))) : '#6b7280');
  }
  let max = 0;
  for (const n of nodes) if (n.kind === 'leaf' && n.hits > max) max = n.hits;
  const s = scaleQuantize<string>().domain([0, Math.log1p(Math.max(1, max))]).range(palette('hits'));
  return (n) => (n.kind === 'leaf' ? (n.hits === 0 ? '#d1d5db' : s(Math.log1p(n.hits))) : '#6b7280');
}

/** Leaf radius grows with the square root of its members, so area tracks members. */
export function sizeFor(nodes: TreeNodeInfo[]): (n: TreeNodeInfo) => number {
  let max = 1;
  for (const n of nodes) if (n.kind === 'leaf' && n.members > max) max = n.members;
  const s = scaleSqrt().domain([0, max]).range([1.2, 5]).clamp(true);
  return (n) => (n.kind === 'leaf' ? s(n.members) : n.kind === 'root' ? 6 : n.kind === 'category' ? 4 : 2.2);
}

/**
 * Radial cluster layout: leaves on the outer ring, spaced so each gets about `leafSpacing`
 * units of arc, categories and clusters on inner rings.
 */
export function radialTreeLayout(nodes: TreeNodeInfo[], opts: { colour?: ColourMode; leafSpacing?: number } = {}): TreeLayout {
  const root = buildHierarchy(nodes);
  const leafCount = Math.max(1, root.leaves().length);
  const radius = Math.max(220, (leafCount * (opts.leafSpacing ?? 3)) / (2 * Math.PI));
  const laid = cluster<Datum>()
    .size([2 * Math.PI, radius])
    .separation((a, b) => (a.parent === b.parent ? 1 : 2))(root);
  const colour = colourFor(opts.colour ?? 'entropy', nodes);
  const size = sizeFor(nodes);
  const out: LaidNode[] = [];
  const links: LaidLink[] = [];
  const byId = new Map<string, LaidNode>();
  const height = laid.height || 1;
  laid.each((h) => {
    const angle = h.x ?? 0;
    // inner rings at fixed fractions, far enough out that category labels have room
    const ring = h.depth === 0 ? 0 : h.children ? radius * (0.45 + (0.3 * (h.depth - 1)) / Math.max(1, height - 2)) : radius;
    const n: LaidNode = {
      id: h.data.info.id,
      kind: h.data.info.kind,
      name: h.data.info.name,
      label: labelOf(h.data.info),
      x: ring * Math.sin(angle),
      y: -ring * Math.cos(angle),
      r: size(h.data.info),
      colour: h.data.info.retired ? '#e5e7eb' : colour(h.data.info),
      depth: h.depth,
      angle,
      retired: h.data.info.retired,
      info: h.data.info,
    };
    out.push(n);
    byId.set(n.id, n);
  });
  laid.each((h) => {
    if (!h.parent) return;
    const a = byId.get(h.parent.data.info.id)!;
    const b = byId.get(h.data.info.id)!;
    links.push({ toLeaf: !h.children, x1: a.x, y1: a.y, x2: b.x, y2: b.y });
  });
  const index = quadtree<LaidNode>()
    .x((d) => d.x)
    .y((d) => d.y)
    .addAll(out);
  return { nodes: out, links, radius, leaves: root.leaves().length, leafGap: (2 * Math.PI * radius) / leafCount, byId, index };
}

const GENERATED_NAME = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;

/** A node's label: its name, or for a leaf named by a generated id, the start of its prohibition. */
export function labelOf(n: TreeNodeInfo, max = 60): string {
  // rule texts mostly open with the same words; the label keeps what tells leaves apart
  const text = n.kind === 'leaf' && n.rule?.prohibition && GENERATED_NAME.test(n.name) ? n.rule.prohibition.replace(/^(refuse|reject|decline|block)\s+(any\s+)?requests?\s+(regarding|that|to|involving|for|about|related to)\s+(the\s+)?/i, '') : n.name;
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** The node under a point in layout units, within `slack` units of its edge, or undefined. */
export function hitTest(layout: TreeLayout, x: number, y: number, slack: number): LaidNode | undefined {
  const found = layout.index.find(x, y, slack + 6);
  if (!found) return undefined;
  return Math.hypot(found.x - x, found.y - y) <= found.r + slack ? found : undefined;
}

/**
 * Ids of nodes whose name or rule text contains every word of the query (case-insensitive).
 * An empty query matches nothing.
 */
export function searchNodes(nodes: TreeNodeInfo[], query: string): string[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return [];
  const out: string[] = [];
  for (const n of nodes) {
    const text = `${n.name} ${n.rule?.prohibition ?? ''} ${n.rule?.exemption ?? ''}`.toLowerCase();
    if (words.every((w) => text.includes(w))) out.push(n.id);
  }
  return out;
}

/** The zoom transform that centres a layout point in a viewport at scale `k`. */
export function centreOn(x: number, y: number, width: number, height: number, k: number): { x: number; y: number; k: number } {
  return { x: width / 2 - x * k, y: height / 2 - y * k, k };
}

/** The transform that fits the whole layout in a viewport with a margin. */
export function fitTransform(layout: Pick<TreeLayout, 'radius'>, width: number, height: number, margin = 24): { x: number; y: number; k: number } {
  const k = Math.max(0.01, Math.min(width, height) / 2 - margin) / (layout.radius + 10);
  return { x: width / 2, y: height / 2, k };
}
