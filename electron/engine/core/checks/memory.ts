/**
 * AGrail's checks memory: safety checks kept under the action they were made for. The key is the
 * action's paraphrase plus its command form; retrieval scores stored keys by token overlap
 * (Jaccard), so "delete /home/user/build" finds what was learned for "delete /home/user/dist".
 * Adapted at test time: a human decision or the Analyzer adds or removes checks for a key.
 */

/** One remembered action and its checks. */
export interface MemoryEntry {
  key: string;
  checkIds: string[];
  uses: number;
  lastUsed: number;
}

function tokens(s: string): Set<string> {
  return new Set(
    s
      .toLowerCase()
      .split(/[^a-z0-9_.~-]+/)
      .filter((t) => t.length > 1),
  );
}

function jaccard(a: Set<string>, b: Set<string>): number {
  if (a.size === 0 || b.size === 0) return 0;
  let inter = 0;
  for (const t of a) if (b.has(t)) inter++;
  return inter / (a.size + b.size - inter);
}

export class ChecksMemory {
  private entries = new Map<string, MemoryEntry & { toks: Set<string> }>();

  /** Replaces the contents from stored entries; malformed ones are skipped. */
  load(rows: unknown[]): void {
    this.entries.clear();
    for (const r of rows) {
      const e = r as Partial<MemoryEntry>;
      if (typeof e.key !== 'string' || !Array.isArray(e.checkIds)) continue;
      this.entries.set(e.key, { key: e.key, checkIds: e.checkIds.map(String), uses: Number(e.uses ?? 0), lastUsed: Number(e.lastUsed ?? 0), toks: tokens(e.key) });
    }
  }

  get size(): number {
    return this.entries.size;
  }

  /** The k entries most similar to `key` (similarity above `min`). */
  retrieve(key: string, k: number, min = 0.5): (MemoryEntry & { similarity: number })[] {
    if (this.entries.size === 0) return [];
    const q = tokens(key);
    return [...this.entries.values()]
      .map((e) => ({ key: e.key, checkIds: e.checkIds, uses: e.uses, lastUsed: e.lastUsed, similarity: jaccard(q, e.toks) }))
      .filter((e) => e.similarity >= min)
      .sort((a, b) => b.similarity - a.similarity)
      .slice(0, k);
  }

  /** Remembers checks for an action (merging with what is there); returns the stored entry. */
  remember(key: string, checkIds: string[], at = 0): MemoryEntry {
    const cur = this.entries.get(key);
    const ids = [...new Set([...(cur?.checkIds ?? []), ...checkIds])];
    const e = { key, checkIds: ids, uses: (cur?.uses ?? 0) + 1, lastUsed: at, toks: cur?.toks ?? tokens(key) };
    this.entries.set(key, e);
    return { key, checkIds: ids, uses: e.uses, lastUsed: at };
  }

  /** Test-time adaptation: add and remove checks for an action. */
  adapt(key: string, change: { add?: string[]; remove?: string[] }, at = 0): MemoryEntry {
    const cur = this.entries.get(key);
    const ids = new Set([...(cur?.checkIds ?? []), ...(change.add ?? [])]);
    for (const r of change.remove ?? []) ids.delete(r);
    const e = { key, checkIds: [...ids], uses: cur?.uses ?? 0, lastUsed: at, toks: cur?.toks ?? tokens(key) };
    this.entries.set(key, e);
    return { key, checkIds: e.checkIds, uses: e.uses, lastUsed: at };
  }

  /** Plain rows for the store. */
  toRows(): MemoryEntry[] {
    return [...this.entries.values()].map(({ key, checkIds, uses, lastUsed }) => ({ key, checkIds, uses, lastUsed }));
  }
}
