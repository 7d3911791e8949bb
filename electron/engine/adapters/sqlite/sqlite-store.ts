/**
 * SqliteStore: everything Warden keeps, in one SQLite file (better-sqlite3, WAL). Migrations are
 * an ordered list, each in a transaction, recorded. A file that is not a database or fails its
 * integrity check is moved aside (kept as a backup) and a clean store is started, with a message.
 *
 * Every write of a verdict, review, tree event or check appends a hash-chained audit entry in the
 * same transaction; triggers refuse UPDATE and DELETE on the audit table. Writes take the write
 * lock up front (BEGIN IMMEDIATE) so the app, the CLI and hooks writing at once wait for each
 * other (up to busy_timeout) instead of failing on a lock upgrade, and commits are synchronous
 * so an acknowledged verdict survives a killed process.
 */
import Database from 'better-sqlite3';
import { existsSync, mkdirSync, renameSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Check, LoadedPolicy, ReviewDecision, TreeEvent, Verdict, Decision } from '../../../../shared/types.js';
import { EngineError } from '../../../../shared/errors.js';
import type { Store, StoredNode, StoredMember, BenignRow, VerdictQuery } from '../../store.js';
import { nextEntry, verifyChain, type AuditEntry, type AuditKind, type AuditReport } from '../../audit/audit-chain.js';

/** How long a writer waits for another process's write lock before failing. */
export const BUSY_TIMEOUT_MS = 10_000;

const MIGRATIONS: { name: string; sql?: string; up?: (db: Database.Database) => void }[] = [
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
  {
    name: '002-audit',
    sql: `
      CREATE TABLE audit (seq INTEGER PRIMARY KEY, at INTEGER NOT NULL, kind TEXT NOT NULL, ref TEXT NOT NULL,
        body_hash TEXT NOT NULL, prev_hash TEXT NOT NULL, hash TEXT NOT NULL);
      CREATE INDEX audit_ref ON audit(ref, seq);
      CREATE TRIGGER audit_no_update BEFORE UPDATE ON audit BEGIN SELECT RAISE(ABORT, 'the audit log is append-only: UPDATE is refused'); END;
      CREATE TRIGGER audit_no_delete BEFORE DELETE ON audit BEGIN SELECT RAISE(ABORT, 'the audit log is append-only: DELETE is refused'); END;
    `,
    // records written before the audit existed get one entry each, so verification covers them
    up: (db) => {
      const at = Date.now();
      // .all(), not .iterate(): the connection cannot write while a read is open on it
      for (const r of db.prepare('SELECT id, decision, reviewed, body FROM verdicts ORDER BY rowid').all() as VerdictRow[]) appendAudit(db, 'backfill', `verdict:${r.id}`, verdictRecord(r), at);
      for (const r of db.prepare('SELECT id, reverted, body FROM tree_events ORDER BY id').all() as EventRow[]) appendAudit(db, 'backfill', `event:${r.id}`, eventRecord(r), at);
      for (const r of db.prepare('SELECT id, body FROM checks ORDER BY id').all() as { id: string; body: string }[]) appendAudit(db, 'backfill', `check:${r.id}`, r.body, at);
    },
  },
  {
    name: '003-policies',
    sql: `CREATE TABLE policies (id TEXT PRIMARY KEY, body TEXT NOT NULL, updated_at INTEGER NOT NULL);`,
  },
  {
    name: '004-policy-audit',
    sql: '',
    // policies saved before their writes were audited get one entry each
    up: (db) => {
      const at = Date.now();
      for (const r of db.prepare('SELECT id, body FROM policies ORDER BY id').all() as { id: string; body: string }[]) appendAudit(db, 'backfill', `policy:${r.id}`, r.body, at);
    },
  },
];

interface VerdictRow {
  id: string;
  decision: string;
  reviewed: number;
  body: string;
}

interface EventRow {
  id: number;
  reverted: number;
  body: string;
}

/** The text an audit entry hashes for a verdict: the columns queries read, and the body. */
function verdictRecord(r: Omit<VerdictRow, 'id'>): string {
  return `${r.decision}\n${r.reviewed}\n${r.body}`;
}

function eventRecord(r: Omit<EventRow, 'id'>): string {
  return `${r.reverted}\n${r.body}`;
}

interface AuditRow {
  seq: number;
  at: number;
  kind: AuditKind;
  ref: string;
  body_hash: string;
  prev_hash: string;
  hash: string;
}

function toEntry(r: AuditRow): AuditEntry {
  return { seq: r.seq, at: r.at, kind: r.kind, ref: r.ref, bodyHash: r.body_hash, prevHash: r.prev_hash, hash: r.hash };
}

const statements = new WeakMap<Database.Database, Map<string, Database.Statement>>();

/** The statement for `sql`, compiled once per connection: every verdict runs the same few, and compiling them is a fifth of the write. */
function cached(db: Database.Database, sql: string): Database.Statement {
  let byText = statements.get(db);
  if (!byText) statements.set(db, (byText = new Map()));
  let st = byText.get(sql);
  if (!st) byText.set(sql, (st = db.prepare(sql)));
  return st;
}

/** Appends one audit entry; the caller holds the write transaction, so the tail cannot move. */
function appendAudit(db: Database.Database, kind: AuditKind, ref: string, record: string, at = Date.now()): AuditEntry {
  const tail = cached(db, 'SELECT seq, hash FROM audit ORDER BY seq DESC LIMIT 1').get() as { seq: number; hash: string } | undefined;
  const e = nextEntry(tail, { at, kind, ref, body: record });
  cached(db, 'INSERT INTO audit (seq, at, kind, ref, body_hash, prev_hash, hash) VALUES (?, ?, ?, ?, ?, ?, ?)').run(e.seq, e.at, e.kind, e.ref, e.bodyHash, e.prevHash, e.hash);
  return e;
}

/** SQLite's own words for a file that is not (or no longer) a database. */
function isCorruption(e: unknown): boolean {
  const code = String((e as { code?: unknown }).code ?? '');
  return code === 'SQLITE_NOTADB' || code.startsWith('SQLITE_CORRUPT') || String((e as Error).message).startsWith('integrity check:');
}

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
  static open(path: string, opts: { busyTimeoutMs?: number } = {}): SqliteStore {
    if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
    const busy = opts.busyTimeoutMs ?? BUSY_TIMEOUT_MS;
    try {
      return new SqliteStore(SqliteStore.connectWhenFree(path, busy), { path });
    } catch (e) {
      // a busy or unreadable-for-now file is not corrupt: moving it aside would lose the store
      if (path === ':memory:' || !existsSync(path) || !isCorruption(e)) throw new EngineError('STORE_FAILED', `cannot open store ${path}: ${(e as Error).message}`);
      const aside = `${path}.corrupt-${Date.now()}`;
      renameSync(path, aside);
      for (const side of ['-wal', '-shm']) if (existsSync(path + side)) renameSync(path + side, aside + side);
      const message = `store ${path} was unreadable (${(e as Error).message.replace(/\s+/g, ' ')}); it was moved to ${aside} and a clean store was started`;
      return new SqliteStore(SqliteStore.connect(path, busy), { path, recoveredFrom: aside, message });
    }
  }

  /**
   * Some lock waits never reach SQLite's busy handler: switching a new file to WAL, or opening
   * it while another process replays its log, fails at once with SQLITE_BUSY. Those are retried
   * until the same busy time-out runs out, so two processes starting together both open the file.
   */
  private static connectWhenFree(path: string, busyTimeoutMs: number): Database.Database {
    const deadline = Date.now() + busyTimeoutMs;
    for (let wait = 10; ; wait = Math.min(wait * 2, 200)) {
      try {
        return SqliteStore.connect(path, busyTimeoutMs);
      } catch (e) {
        if (!String((e as { code?: unknown }).code ?? '').startsWith('SQLITE_BUSY') || Date.now() + wait > deadline) throw e;
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, wait);
      }
    }
  }

  private static connect(path: string, busyTimeoutMs: number): Database.Database {
    const db = new Database(path, { timeout: busyTimeoutMs });
    try {
      db.pragma(`busy_timeout = ${busyTimeoutMs}`);
      db.pragma('journal_mode = WAL');
      // FULL: every commit is on disk before the writer acknowledges it, power loss included
      db.pragma('synchronous = FULL');
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
    const applied = (): Set<string> => new Set((db.prepare('SELECT name FROM migrations').all() as { name: string }[]).map((r) => r.name));
    if (MIGRATIONS.every((m) => applied().has(m.name))) return;
    MIGRATIONS.forEach((m, i) => {
      // re-read under the write lock: another process may have applied it meanwhile
      db.transaction(() => {
        if (applied().has(m.name)) return;
        if (m.sql) db.exec(m.sql);
        m.up?.(db);
        db.prepare('INSERT INTO migrations (id, name, applied_at) VALUES (?, ?, ?)').run(i + 1, m.name, Date.now());
      }).immediate();
    });
  }

  transaction<T>(fn: () => T): T {
    return this.db.transaction(fn).immediate();
  }

  getMeta(key: string): string | undefined {
    const row = this.db.prepare('SELECT value FROM meta WHERE key = ?').get(key) as { value: string } | undefined;
    return row?.value;
  }

  setMeta(key: string, value: string): void {
    this.db.prepare('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value').run(key, value);
  }

  saveVerdict(v: Verdict): void {
    this.transaction(() => this.writeVerdict(v, undefined));
  }

  private writeVerdict(v: Verdict, kind: AuditKind | undefined): void {
    const existed = kind !== undefined || cached(this.db, 'SELECT 1 FROM verdicts WHERE id = ?').get(v.id) !== undefined;
    const body = JSON.stringify(v);
    const reviewed = v.review ? 1 : 0;
    cached(
      this.db,
      `INSERT INTO verdicts (id, at, decision, path, agent, session, kind, p_harm, s_benign, latency_ms, reviewed, body)
       VALUES (@id, @at, @decision, @path, @agent, @session, @kind, @pHarm, @sBenign, @latency, @reviewed, @body)
       ON CONFLICT(id) DO UPDATE SET decision = excluded.decision, path = excluded.path, reviewed = excluded.reviewed, body = excluded.body`,
    ).run({
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
        reviewed,
        body,
      });
    appendAudit(this.db, kind ?? (existed ? 'verdict.updated' : 'verdict.created'), `verdict:${v.id}`, verdictRecord({ decision: v.decision, reviewed, body }));
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
    this.transaction(() => this.writeVerdict(v, review ? 'review.decided' : 'review.reverted'));
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
    return this.transaction(() => {
      const body = JSON.stringify({ ...e, undo });
      const info = this.db.prepare('INSERT INTO tree_events (at, kind, node_id, reverted, body) VALUES (?, ?, ?, 0, ?)').run(e.at, e.kind, e.nodeId, body);
      const id = Number(info.lastInsertRowid);
      appendAudit(this.db, 'tree.event', `event:${id}`, eventRecord({ reverted: 0, body }));
      return id;
    });
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
    this.transaction(() => {
      const row = this.db.prepare('SELECT body FROM tree_events WHERE id = ?').get(id) as { body: string } | undefined;
      if (!row) return;
      this.db.prepare('UPDATE tree_events SET reverted = 1 WHERE id = ?').run(id);
      appendAudit(this.db, 'tree.reverted', `event:${id}`, eventRecord({ reverted: 1, body: row.body }));
    });
  }

  listChecks(): Check[] {
    return (this.db.prepare('SELECT body FROM checks ORDER BY id').all() as { body: string }[]).map((r) => JSON.parse(r.body) as Check);
  }

  saveCheck(c: Check): void {
    this.transaction(() => {
      const body = JSON.stringify(c);
      this.db
        .prepare('INSERT INTO checks (id, body, updated_at) VALUES (?, ?, ?) ON CONFLICT(id) DO UPDATE SET body = excluded.body, updated_at = excluded.updated_at')
        .run(c.id, body, Date.now());
      appendAudit(this.db, 'check.saved', `check:${c.id}`, body);
    });
  }

  deleteCheck(id: string): void {
    this.transaction(() => {
      if (this.db.prepare('DELETE FROM checks WHERE id = ?').run(id).changes > 0) appendAudit(this.db, 'check.deleted', `check:${id}`, '');
    });
  }

  auditEntries(q: { after?: number; limit?: number } = {}): AuditEntry[] {
    return (this.db.prepare('SELECT * FROM audit WHERE seq > ? ORDER BY seq LIMIT ?').all(q.after ?? 0, Math.min(Math.max(q.limit ?? 1000, 1), 100_000)) as AuditRow[]).map(toEntry);
  }

  /** Every audit entry in seq order, streamed (exports of any size). */
  *iterateAudit(): Generator<AuditEntry> {
    for (const r of this.db.prepare('SELECT * FROM audit ORDER BY seq').iterate() as Iterable<AuditRow>) yield toEntry(r);
  }

  verifyAudit(): AuditReport {
    // one read transaction: a consistent snapshot while other processes keep writing
    return this.db.transaction(() => {
      const verdicts = this.db.prepare('SELECT decision, reviewed, body FROM verdicts WHERE id = ?');
      const events = this.db.prepare('SELECT reverted, body FROM tree_events WHERE id = ?');
      const checks = this.db.prepare('SELECT body FROM checks WHERE id = ?');
      const policies = this.db.prepare('SELECT body FROM policies WHERE id = ?');
      const lookup = (ref: string): string | undefined => {
        const at = ref.indexOf(':');
        const kind = ref.slice(0, at);
        const id = ref.slice(at + 1);
        if (kind === 'verdict') {
          const r = verdicts.get(id) as Omit<VerdictRow, 'id'> | undefined;
          return r && verdictRecord(r);
        }
        if (kind === 'event') {
          const r = events.get(Number(id)) as Omit<EventRow, 'id'> | undefined;
          return r && eventRecord(r);
        }
        if (kind === 'check') return (checks.get(id) as { body: string } | undefined)?.body;
        if (kind === 'policy') return (policies.get(id) as { body: string } | undefined)?.body;
        return undefined;
      };
      // ids first, as arrays: lookups run statements of their own while the refs are walked
      const refs = [
        ...(this.db.prepare('SELECT id FROM verdicts').pluck().all() as string[]).map((id) => `verdict:${id}`),
        ...(this.db.prepare('SELECT id FROM tree_events').pluck().all() as number[]).map((id) => `event:${id}`),
        ...(this.db.prepare('SELECT id FROM checks').pluck().all() as string[]).map((id) => `check:${id}`),
        ...(this.db.prepare('SELECT id FROM policies').pluck().all() as string[]).map((id) => `policy:${id}`),
      ];
      return verifyChain(this.iterateAudit(), { lookup, refs });
    }).deferred();
  }

  listPolicies(): LoadedPolicy[] {
    return (this.db.prepare('SELECT body FROM policies ORDER BY id').all() as { body: string }[]).map((r) => JSON.parse(r.body) as LoadedPolicy);
  }

  savePolicy(p: LoadedPolicy): void {
    this.transaction(() => {
      const body = JSON.stringify(p);
      this.db
        .prepare('INSERT INTO policies (id, body, updated_at) VALUES (?, ?, ?) ON CONFLICT(id) DO UPDATE SET body = excluded.body, updated_at = excluded.updated_at')
        .run(p.id, body, Date.now());
      appendAudit(this.db, 'policy.saved', `policy:${p.id}`, body);
    });
  }

  deletePolicy(id: string): void {
    this.transaction(() => {
      if (this.db.prepare('DELETE FROM policies WHERE id = ?').run(id).changes > 0) appendAudit(this.db, 'policy.deleted', `policy:${id}`, '');
    });
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
