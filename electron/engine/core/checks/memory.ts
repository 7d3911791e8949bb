/**
 * AGrail's checks memory: safety checks kept under the action they were made for. The key is the
 * action's paraphrase plus its command form; retrieval scores stored keys by token overlap
 * (Jaccard over normalised tokens), blended with embedding similarity when the caller has
 * embeddings, so "delete /home/user/build" finds what was learned for "delete /home/user/dist".
 * Adapted at test time: a human decision or the Analyzer adds or removes checks for a key.
 * Pure data: persistence belongs to the store.
 */

/** One remembered action and its checks. */
export interface MemoryEntry {
  key: string;
  /** Unit-length sentence embedding of the key, when the engine had one. */
  embedding?: number[];
  checkIds: string[];
  uses: number;
  lastUsed: number;
}

/** A retrieved entry with its similarity to the query. */
export type RetrievedEntry = MemoryEntry & { similarity: number };

/** Options of a retrieval. */
export interface RetrieveOptions {
  /** Entries below this similarity are left out (default 0.5). */
  min?: number;
  /** The query's embedding; blended with token overlap for entries that have one. */
  embedding?: number[];
  /** Weight of embedding similarity in the blend (default 0.5). */
  embeddingWeight?: number;
}

/** Normalised tokens of a key: lower-case words and path segments, placeholders unwrapped. */
export function memoryTokens(s: string): Set<string> {
  return new Set(
    s
      .toLowerCase()
      .replace(/<(path|text):/g, ' ')
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

function cosine(a: number[], b: number[]): number {
  if (a.length !== b.length || a.length === 0) return 0;
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!;
    na += a[i]! * a[i]!;
    nb += b[i]! * b[i]!;
  }
  return na > 0 && nb > 0 ? dot / Math.sqrt(na * nb) : 0;
}

/** Entries beyond this many are dropped, least recently used first. */
const MAX_ENTRIES = 20_000;

/** The checks memory: remembered actions, retrieval by similarity, test-time adaptation. */
export class ChecksMemory {
  private entries = new Map<string, MemoryEntry & { toks: Set<string> }>();

  /** A memory holding the entries of `toJSON()` (malformed ones are skipped). */
  static fromJSON(json: unknown): ChecksMemory {
    const m = new ChecksMemory();
    const rows = json && typeof json === 'object' && Array.isArray((json as { entries?: unknown }).entries) ? (json as { entries: unknown[] }).entries : Array.isArray(json) ? json : [];
    m.load(rows);
    return m;
  }

  /** Replaces the contents from stored entries; malformed ones are skipped. */
  load(rows: unknown[]): void {
    this.entries.clear();
    for (const r of rows) {
      const e = r as Partial<MemoryEntry>;
      if (!e || typeof e.key !== 'string' || !Array.isArray(e.checkIds)) continue;
      const entry: MemoryEntry & { toks: Set<string> } = { key: e.key, checkIds: e.checkIds.map(String), uses: Number(e.uses ?? 0) || 0, lastUsed: Number(e.lastUsed ?? 0) || 0, toks: memoryTokens(e.key) };
      if (Array.isArray(e.embedding) && e.embedding.every((x) => typeof x === 'number')) entry.embedding = e.embedding;
      this.entries.set(e.key, entry);
    }
  }

  /** Number of remembered actions. */
  get size(): number {
    return this.entries.size;
  }

  /** The stored entry for exactly this key. */
  get(key: string): MemoryEntry | undefined {
    const e = this.entries.get(key);
    return e ? strip(e) : undefined;
  }

  /** The k entries most similar to `key`, best first. */
  retrieve(key: string, k: number, opts: RetrieveOptions = {}): RetrievedEntry[] {
    if (this.entries.size === 0 || k <= 0) return [];
    const min = opts.min ?? 0.5;
    const w = Math.min(1, Math.max(0, opts.embeddingWeight ?? 0.5));
    const q = memoryTokens(key);
    const out: RetrievedEntry[] = [];
    for (const e of this.entries.values()) {
      const lexical = jaccard(q, e.toks);
      const similarity = opts.embedding && e.embedding ? (1 - w) * lexical + w * cosine(opts.embedding, e.embedding) : lexical;
      if (similarity >= min) out.push({ ...strip(e), similarity });
    }
    return out.sort((a, b) => b.similarity - a.similarity || b.uses - a.uses).slice(0, k);
  }

  /** Remembers checks for an action (merging with what is there); returns the stored entry. */
  remember(key: string, checkIds: string[], at = 0, embedding?: number[]): MemoryEntry {
    const cur = this.entries.get(key);
    const e: MemoryEntry & { toks: Set<string> } = {
      key,
      checkIds: [...new Set([...(cur?.checkIds ?? []), ...checkIds])],
      uses: (cur?.uses ?? 0) + 1,
      lastUsed: at,
      toks: cur?.toks ?? memoryTokens(key),
    };
    const emb = embedding ?? cur?.embedding;
    if (emb) e.embedding = emb;
    this.entries.set(key, e);
    this.evict();
    return strip(e);
  }

  /** Test-time adaptation: add and remove checks for an action (from a human decision or the Analyzer). */
  adapt(key: string, change: { add?: string[]; remove?: string[] }, at = 0): MemoryEntry {
    const cur = this.entries.get(key);
    const ids = new Set([...(cur?.checkIds ?? []), ...(change.add ?? [])]);
    for (const r of change.remove ?? []) ids.delete(r);
    const e: MemoryEntry & { toks: Set<string> } = { key, checkIds: [...ids], uses: cur?.uses ?? 0, lastUsed: at, toks: cur?.toks ?? memoryTokens(key) };
    if (cur?.embedding) e.embedding = cur.embedding;
    this.entries.set(key, e);
    this.evict();
    return strip(e);
  }

  /** Counts a use of an entry (it was retrieved and its checks ran). */
  markUsed(key: string, at: number): void {
    const e = this.entries.get(key);
    if (!e) return;
    e.uses++;
    e.lastUsed = at;
  }

  /** Forgets an action. */
  forget(key: string): boolean {
    return this.entries.delete(key);
  }

  /** Plain rows for the store. */
  toRows(): MemoryEntry[] {
    return [...this.entries.values()].map(strip);
  }

  /** JSON form; `ChecksMemory.fromJSON` reads it back. */
  toJSON(): { version: 1; entries: MemoryEntry[] } {
    return { version: 1, entries: this.toRows() };
  }

  private evict(): void {
    if (this.entries.size <= MAX_ENTRIES) return;
    const oldest = [...this.entries.values()].sort((a, b) => a.lastUsed - b.lastUsed).slice(0, this.entries.size - MAX_ENTRIES);
    for (const e of oldest) this.entries.delete(e.key);
  }
}

function strip(e: MemoryEntry & { toks?: Set<string> }): MemoryEntry {
  const out: MemoryEntry = { key: e.key, checkIds: [...e.checkIds], uses: e.uses, lastUsed: e.lastUsed };
  if (e.embedding) out.embedding = e.embedding;
  return out;
}
