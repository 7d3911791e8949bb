/**
 * SqliteStore: everything Warden keeps, in one SQLite file (better-sqlite3, WAL). Migrations are
 * an ordered list, each in a transaction, recorded. A file that is not a database or fails its
 * integrity check is moved aside (kept as a backup) and a clean store is started, with a message.
 */
import Database from 'better-sqlite3';
import { existsSync, mkdirSync, renameSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Check, ReviewDecision, TreeEvent, Verdict, Decision } from '../../../../shared/types.js';
import { EngineError } from '../../../../shared/errors.js';
import type { Store, StoredNode, StoredMember, BenignRow, VerdictQuery } from '../../store.js';

const MIGRATIONS: { name: string; sql: string }[] = [
  {
    name: '001-initial',
    sql: `
      CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
      CREATE TABLE verdicts (
        id TEXT PRIMARY KEY, at INTEGER NOT NULL, decision TEXT NOT NULL, path TEXT NOT NULL,
        agent TEXT, session TEXT, kind TEXT NOT NULL, p_harm REAL, s_benign REAL, latency_ms REAL,
        reviewed INTEGER NOT NULL DEFAULT 0, body TEXT NOT NULL);
      CREATE INDEX verdicts_at ON verdicts(at);
      CREATE INDEX verdicts_pending ON verdicts(decision, reviewed, at);
      CREATE TABLE tree_nodes (id TEXT PRIMARY KEY, parent_id TEXT, kind TEXT NOT NULL, centroid BLOB NOT NULL, body TEXT NOT NULL);
      CREATE TABLE tree_members (id TEXT PRIMARY KEY, leaf_id TEXT NOT NULL, vector BLOB NOT NULL, body TEXT NOT NULL);
      CREATE INDEX tree_members_leaf ON tree_members(leaf_id);
      CREATE TABLE tree_events (id INTEGER PRIMARY KEY AUTOINCREMENT, at INTEGER NOT NULL, kind TEXT NOT NULL,
        node_id TEXT NOT NULL, reverted INTEGER NOT NULL DEFAULT 0, body TEXT NOT NULL);
      CREATE TABLE checks (id TEXT PRIMARY KEY, body TEXT NOT NULL, updated_at INTEGER NOT NULL);
      CREATE TABLE checks_memory (key TEXT PRIMARY KEY, body TEXT NOT NULL);
      CREATE TABLE benign (id TEXT PRIMARY KEY, vector BLOB NOT NULL, text TEXT NOT NULL, source TEXT NOT NULL, at INTEGER NOT NULL);
    `,
  },
];

function blob(v: Float32Array): Buffer {
  return Buffer.from(v.buffer, v.byteOffset, v.byteLength);
}

function vec(b: Buffer): Float32Array {
  // copy: the buffer better-sqlite3 returns may not be 4-byte aligned
  const out = new Float32Array(b.byteLength / 4);
  new Uint8Array(out.buffer).set(b);
  return out;
}

/** What opening the store found. */
export interface OpenReport {
  path: string;
  /** Set when a corrupt file was moved aside. */
  recoveredFrom?: string;
  message?: string;
}

/** The SQLite implementation of the Store port. */
export class SqliteStore implements Store {
  readonly db: Database.Database;
  readonly report: OpenReport;

  private constructor(db: Database.Database, report: OpenReport) {
    this.db = db;
    this.report = report;
  }

  /** Opens (or creates) the store at `path`; `:memory:` for a throwaway store. */
  static open(path: string): SqliteStore {
    if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
    try {
      return new SqliteStore(SqliteStore.connect(path), { path });
    } catch (e) {
      if (path === ':memory:' || !existsSync(path)) throw new EngineError('STORE_FAILED', `cannot open store ${path}: ${(e as Error).message}`);
      const aside = `${path}.corrupt-${Date.now()}`;
      renameSync(path, aside);
      for (const side of ['-wal', '-shm']) if (existsSync(path + side)) renameSync(path + side, aside + side);
      const message = `store ${path} was unreadable (${(e as Error).message}); it was moved to ${aside} and a clean store was started`;
      return new SqliteStore(SqliteStore.connect(path), { path, recoveredFrom: aside, message });
    }
  }

  private static connect(path: string): Database.Database {
    const db = new Database(path);
    try {
      db.pragma('journal_mode = WAL');
      db.pragma('synchronous = NORMAL');
      db.pragma('busy_timeout = 5000');
      db.pragma('foreign_keys = ON');
      const check = db.pragma('quick_check', { simple: true });
      if (check !== 'ok') throw new Error(`integrity check: ${String(check)}`);
      SqliteStore.migrate(db);
      return db;
    } catch (e) {
      db.close();
      throw e;
    }
  }

  private static migrate(db: Database.Database): void {
    db.exec('CREATE TABLE IF NOT EXISTS migrations (id INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)');
    const done = new Set((db.prepare('SELECT name FROM migrations').all() as { name: string }[]).map((r) => r.name));
    MIGRATIONS.forEach((m, i) => {
      if (done.has(m.name)) return;
      db.transaction(() => {
        db.exec(m.sql);
        db.prepare('INSERT INTO migrations (id, name, applied_at) VALUES (?, ?, ?)').run(i + 1, m.name, Date.now());
      })();
    });
  }

  transaction<T>(fn: () => T): T {
    return this.db.transaction(fn)();
  }

  getMeta(key: string): string | undefined {
    const row = this.db.prepare('SELECT value FROM meta WHERE key = ?').get(key) as { value: string } | undefined;
    return row?.value;
  }

  setMeta(key: string, value: string): void {
    this.db.prepare('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value').run(key, value);
  }

  saveVerdict(v: Verdict): void {
    this.db
      .prepare(
        `INSERT INTO verdicts (id, at, decision, path, agent, session, kind, p_harm, s_benign, latency_ms, reviewed, body)
         VALUES (@id, @at, @decision, @path, @agent, @session, @kind, @pHarm, @sBenign, @latency, @reviewed, @body)
         ON CONFLICT(id) DO UPDATE SET decision = excluded.decision, path = excluded.path, reviewed = excluded.reviewed, body = excluded.body`,
      )
      .run({
        id: v.id,
        at: v.at,
        decision: v.decision,
        path: v.path,
        agent: v.request.context?.agent ?? null,
        session: v.request.context?.session ?? null,
        kind: v.request.action.type,
        pHarm: Number.isFinite(v.scores.pHarm) ? v.scores.pHarm : null,
        sBenign: Number.isFinite(v.scores.sBenign) ? v.scores.sBenign : null,
        latency: v.latencyMs,
        reviewed: v.review ? 1 : 0,
        body: JSON.stringify(v),
      });
  }

  getVerdict(id: string): Verdict | undefined {
    const row = this.db.prepare('SELECT body FROM verdicts WHERE id = ?').get(id) as { body: string } | undefined;
    return row ? (JSON.parse(row.body) as Verdict) : undefined;
  }

  listVerdicts(q: VerdictQuery = {}): Verdict[] {
    const where: string[] = [];
    const args: Record<string, unknown> = { limit: Math.min(Math.max(q.limit ?? 100, 1), 10_000) };
    if (q.before !== undefined) (where.push('at < @before'), (args['before'] = q.before));
    if (q.decision) (where.push('decision = @decision'), (args['decision'] = q.decision));
    if (q.agent) (where.push('agent = @agent'), (args['agent'] = q.agent));
    if (q.session) (where.push('session = @session'), (args['session'] = q.session));
    if (q.pending) where.push("decision = 'ask' AND reviewed = 0");
    const sql = `SELECT body FROM verdicts ${where.length ? 'WHERE ' + where.join(' AND ') : ''} ORDER BY at DESC, rowid DESC LIMIT @limit`;
    return (this.db.prepare(sql).all(args) as { body: string }[]).map((r) => JSON.parse(r.body) as Verdict);
  }

  countVerdicts(): Record<Decision | 'pending', number> {
    const rows = this.db.prepare('SELECT decision, count(*) AS n FROM verdicts GROUP BY decision').all() as { decision: Decision; n: number }[];
    const out: Record<Decision | 'pending', number> = { allow: 0, deny: 0, ask: 0, pending: 0 };
    for (const r of rows) out[r.decision] = r.n;
    out.pending = (this.db.prepare("SELECT count(*) AS n FROM verdicts WHERE decision = 'ask' AND reviewed = 0").get() as { n: number }).n;
    return out;
  }

  setReview(verdictId: string, review: ReviewDecision | undefined): void {
    const v = this.getVerdict(verdictId);
    if (!v) throw new EngineError('NOT_FOUND', `no verdict ${verdictId}`, 'verdictId');
    if (review) v.review = review;
    else delete v.review;
    this.saveVerdict(v);
  }

  loadTree(): { nodes: StoredNode[]; members: StoredMember[] } {
    const nodes = (this.db.prepare('SELECT id, centroid, body FROM tree_nodes').all() as { id: string; centroid: Buffer; body: string }[]).map(
      (r) => ({ ...(JSON.parse(r.body) as object), centroid: vec(r.centroid) }) as StoredNode,
    );
    const members = (this.db.prepare('SELECT vector, body FROM tree_members').all() as { vector: Buffer; body: string }[]).map(
      (r) => ({ ...(JSON.parse(r.body) as object), vector: vec(r.vector) }) as StoredMember,
    );
    return { nodes, members };
  }

  saveNodes(nodes: StoredNode[]): void {
    const put = this.db.prepare(
      `INSERT INTO tree_nodes (id, parent_id, kind, centroid, body) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT(id) DO UPDATE SET parent_id = excluded.parent_id, kind = excluded.kind, centroid = excluded.centroid, body = excluded.body`,
    );
    for (const n of nodes) {
      const { centroid, ...rest } = n;
      put.run(n.id, n.parentId, n.kind, blob(centroid), JSON.stringify(rest));
    }
  }

  deleteNodes(ids: string[]): void {
    const del = this.db.prepare('DELETE FROM tree_nodes WHERE id = ?');
    for (const id of ids) del.run(id);
  }

  saveMembers(members: StoredMember[]): void {
    const put = this.db.prepare(
      `INSERT INTO tree_members (id, leaf_id, vector, body) VALUES (?, ?, ?, ?)
       ON CONFLICT(id) DO UPDATE SET leaf_id = excluded.leaf_id, vector = excluded.vector, body = excluded.body`,
    );
    for (const m of members) {
      const { vector, ...rest } = m;
      put.run(m.id, m.leafId, blob(vector), JSON.stringify(rest));
    }
  }

  deleteMembers(ids: string[]): void {
    const del = this.db.prepare('DELETE FROM tree_members WHERE id = ?');
    for (const id of ids) del.run(id);
  }

  clearTree(): void {
    this.db.exec('DELETE FROM tree_nodes; DELETE FROM tree_members;');
  }

  appendEvent(e: Omit<TreeEvent, 'id'>, undo?: unknown): number {
    const info = this.db
      .prepare('INSERT INTO tree_events (at, kind, node_id, reverted, body) VALUES (?, ?, ?, 0, ?)')
      .run(e.at, e.kind, e.nodeId, JSON.stringify({ ...e, undo }));
    return Number(info.lastInsertRowid);
  }

  listEvents(q: { after?: number; limit?: number } = {}): TreeEvent[] {
    const rows = this.db
      .prepare('SELECT id, reverted, body FROM tree_events WHERE id > ? ORDER BY id ASC LIMIT ?')
      .all(q.after ?? 0, Math.min(q.limit ?? 1000, 100_000)) as { id: number; reverted: number; body: string }[];
    return rows.map((r) => {
      const { undo: _undo, ...e } = JSON.parse(r.body) as TreeEvent & { undo?: unknown };
      return { ...e, id: r.id, reverted: r.reverted === 1 };
    });
  }

  getEventUndo(id: number): { event: TreeEvent; undo: unknown } | undefined {
    const row = this.db.prepare('SELECT id, reverted, body FROM tree_events WHERE id = ?').get(id) as
      | { id: number; reverted: number; body: string }
      | undefined;
    if (!row) return undefined;
    const { undo, ...e } = JSON.parse(row.body) as TreeEvent & { undo?: unknown };
    return { event: { ...e, id: row.id, reverted: row.reverted === 1 }, undo };
  }

  markEventReverted(id: number): void {
    this.db.prepare('UPDATE tree_events SET reverted = 1 WHERE id = ?').run(id);
  }

  listChecks(): Check[] {
    return (this.db.prepare('SELECT body FROM checks ORDER BY id').all() as { body: string }[]).map((r) => JSON.parse(r.body) as Check);
  }

  saveCheck(c: Check): void {
    this.db
      .prepare('INSERT INTO checks (id, body, updated_at) VALUES (?, ?, ?) ON CONFLICT(id) DO UPDATE SET body = excluded.body, updated_at = excluded.updated_at')
      .run(c.id, JSON.stringify(c), Date.now());
  }

  deleteCheck(id: string): void {
    this.db.prepare('DELETE FROM checks WHERE id = ?').run(id);
  }

  loadChecksMemory(): unknown[] {
    return (this.db.prepare('SELECT body FROM checks_memory').all() as { body: string }[]).map((r) => JSON.parse(r.body) as unknown);
  }

  saveChecksMemoryEntry(key: string, entry: unknown): void {
    this.db.prepare('INSERT INTO checks_memory (key, body) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET body = excluded.body').run(key, JSON.stringify(entry));
  }

  addBenign(row: BenignRow): void {
    this.db
      .prepare('INSERT OR REPLACE INTO benign (id, vector, text, source, at) VALUES (?, ?, ?, ?, ?)')
      .run(row.id, blob(row.vector), row.text, row.source, row.at);
  }

  deleteBenign(id: string): void {
    this.db.prepare('DELETE FROM benign WHERE id = ?').run(id);
  }

  listBenign(): BenignRow[] {
    return (this.db.prepare('SELECT id, vector, text, source, at FROM benign ORDER BY at').all() as (Omit<BenignRow, 'vector'> & { vector: Buffer })[]).map(
      (r) => ({ ...r, vector: vec(r.vector) }),
    );
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}
