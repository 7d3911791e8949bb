/**
 * Import of a SafeHarbor memory file (categories -> clusters with a defence rule and a benign
 * boundary rule -> leaves) into the memory tree. Each cluster's prohibition and exemption become
 * the rule pair of its leaves. The file's leaves carry labels only, no text, so a leaf's centroid
 * is its cluster's embedded rule text plus a tiny deterministic perturbation seeded by the leaf
 * label, which keeps leaves distinct while routing them exactly like their cluster.
 */
import { z } from 'zod';
import type { MemoryTree } from './memory-tree.js';

const leafSchema = z.object({ label: z.string().min(1), defense_strategy: z.string().nullable().optional() });
const clusterSchema = z.object({
  label: z.string().min(1),
  defense_strategy: z.string().nullable().optional(),
  benign_boundary_rule: z
    .object({ harmful_rule: z.string().optional(), benign_rule: z.string().optional(), exemptions: z.string().optional(), rule_text: z.string().optional() })
    .nullable()
    .optional(),
  leaves: z.array(leafSchema),
});

/** Schema of the SafeHarbor memory file. */
export const safeHarborSchema = z.object({
  metadata: z.record(z.string(), z.unknown()).optional(),
  categories: z.array(z.object({ name: z.string().min(1), clusters: z.array(clusterSchema) })).min(1),
});

/** A validated SafeHarbor memory. */
export type SafeHarborFile = z.infer<typeof safeHarborSchema>;

function hash32(s: string): number {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return h >>> 0;
}

/**
 * Adds the memory to the tree. `embed` turns texts into unit vectors. Returns counts and the
 * ids of the leaves created.
 */
export async function safeHarborToTree(
  file: SafeHarborFile,
  tree: MemoryTree,
  embed: (texts: string[]) => Promise<Float32Array[]>,
  onProgress?: (done: number, total: number) => void,
): Promise<{ categories: number; clusters: number; leaves: number; leafIds: string[] }> {
  const clusters = file.categories.flatMap((c) => c.clusters.map((cl) => ({ category: c.name, cl })));
  const texts = clusters.map(({ category, cl }) => `${category.replace(/_/g, ' ')}: ${cl.benign_boundary_rule?.harmful_rule ?? cl.defense_strategy ?? cl.label}`);
  const vectors: Float32Array[] = [];
  for (let i = 0; i < texts.length; i += 64) {
    vectors.push(...(await embed(texts.slice(i, i + 64))));
    onProgress?.(Math.min(i + 64, texts.length), texts.length);
  }
  const leafIds: string[] = [];
  clusters.forEach(({ category, cl }, i) => {
    const base = vectors[i]!;
    const prohibition = cl.benign_boundary_rule?.harmful_rule?.trim() || cl.defense_strategy?.trim() || `Refuse ${category.replace(/_/g, ' ')}.`;
    const exemption = (cl.benign_boundary_rule?.benign_rule ?? cl.benign_boundary_rule?.exemptions ?? '').trim();
    for (const leaf of cl.leaves) {
      let seed = hash32(leaf.label);
      const v = new Float32Array(base.length);
      for (let d = 0; d < base.length; d++) {
        seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0;
        v[d] = base[d]! + ((seed / 4294967296 - 0.5) * 0.02) / Math.sqrt(base.length);
      }
      const node = tree.addLeaf(category, v, { prohibition, exemption }, { name: leaf.label, weight: 1 });
      leafIds.push(node.id);
    }
  });
  return { categories: file.categories.length, clusters: clusters.length, leaves: leafIds.length, leafIds };
}
