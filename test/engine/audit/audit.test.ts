import { describe, expect, it } from 'vitest';
import { copyFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { SqliteStore } from '../../../electron/engine/adapters/sqlite/sqlite-store.js';
import type { Check, LoadedPolicy, Verdict } from '../../../shared/types.js';

function verdict(id: string, decision: Verdict['decision']): Verdict {
  return {
    id,
    at: 1,
    decision,
    path: decision === 'ask' ? 'review' : 'fast',
    reason: 'r',
    scores: { pHarm: 0.1, sBenign: 0.9 },
    rules: [],
    checks: [],
    probes: [],
    facts: { kind: 'shell', commands: [], effects: { reads: [], writes: [], deletes: [], modeChanges: [], ownerChanges: [], network: [], signals: [], privilege: [], persistence: [], exhaustion: [], execution: [] }, flags: [], requestPaths: [], paraphrase: 'p', commandForm: 'c' },
    request: { request: 'q', action: { type: 'shell', command: 'ls' } },
    latencyMs: 1,
  };
}

const policy = (id: string): LoadedPolicy => ({ id, title: 'T', request: 'r', kinds: ['sql'], otherwise: 'gate', data: { access: {} }, checks: [] });

const check: Check = { id: 'c1', title: 't', description: 'd', when: 'false', severity: 'hard', category: 'integrity', origin: 'human', kinds: [], enabled: true };

/** A store holding one of everything the audit trail covers. */
function populated(): { path: string; store: SqliteStore } {
  const path = join(mkdtempSync(join(tmpdir(), 'warden-audit-')), 'w.db');
  const store = SqliteStore.open(path);
  store.saveVerdict(verdict('v1', 'deny'));
  store.saveVerdict(verdict('v2', 'ask'));
  store.setReview('v2', { verdictId: 'v2', outcome: 'approve', reason: 'fine', reviewer: 'me', at: 2, events: [] });
  const ev = store.appendEvent({ at: 3, kind: 'split', nodeId: 'n1', parentId: null, detail: 'd' }, { undo: 1 });
  store.markEventReverted(ev);
  store.transaction(() => store.saveCheck(check));
  store.saveCheck({ ...check, id: 'c2' });
  store.deleteCheck('c2');
  return { path, store };
}

/** A raw connection with the append-only triggers removed, as someone tampering with the file would. */
function tamper(path: string, sql: string): void {
  const db = new Database(path);
  db.exec('DROP TRIGGER IF EXISTS audit_no_update; DROP TRIGGER IF EXISTS audit_no_delete;');
  db.exec(sql);
  db.close();
}

describe('audit trail', () => {
  it('records every verdict, review, tree event and check change in one chain that verifies', () => {
    const { store } = populated();
    const kinds = store.auditEntries().map((e) => `${e.kind} ${e.ref}`);
    expect(kinds).toEqual([
      'verdict.created verdict:v1',
      'verdict.created verdict:v2',
      'review.decided verdict:v2',
      'tree.event event:1',
      'tree.reverted event:1',
      'check.saved check:c1',
      'check.saved check:c2',
      'check.deleted check:c2',
    ]);
    const entries = store.auditEntries();
    entries.forEach((e, i) => expect(e.prevHash).toBe(i === 0 ? '0'.repeat(64) : entries[i - 1]!.hash));
    expect(store.verifyAudit()).toMatchObject({ ok: true, entries: 8, problems: [] });
    store.close();
  });

  it('refuses UPDATE and DELETE on the audit table', () => {
    const { store } = populated();
    expect(() => store.db.prepare("UPDATE audit SET kind = 'x' WHERE seq = 1").run()).toThrow(/append-only/);
    expect(() => store.db.prepare('DELETE FROM audit WHERE seq = 1').run()).toThrow(/append-only/);
    expect(store.verifyAudit().ok).toBe(true);
    store.close();
  });

  it('writes the entry in the same transaction as the record: a rolled-back write leaves neither', () => {
    const { store } = populated();
    const before = store.auditEntries().length;
    expect(() =>
      store.transaction(() => {
        store.saveVerdict(verdict('v3', 'allow'));
        throw new Error('crash after the write');
      }),
    ).toThrow('crash after the write');
    expect(store.getVerdict('v3')).toBeUndefined();
    expect(store.auditEntries().length).toBe(before);
    store.close();
  });

  it.each([
    ['an edited entry', "UPDATE audit SET ref = 'verdict:zz' WHERE seq = 2", /entry was edited/],
    ['a deleted entry in the middle', 'DELETE FROM audit WHERE seq = 3', /missing/],
    ['a verdict whose decision was changed', "UPDATE verdicts SET decision = 'allow', body = replace(body, '\"decision\":\"deny\"', '\"decision\":\"allow\"') WHERE id = 'v1'", /differs/],
    ['a deleted verdict', "DELETE FROM verdicts WHERE id = 'v1'", /gone/],
    ['a verdict written around the store', "INSERT INTO verdicts (id, at, decision, path, kind, body) VALUES ('v9', 1, 'allow', 'fast', 'shell', '{}')", /no audit entry/],
    ['an edited check', "UPDATE checks SET body = replace(body, 'false', 'true') WHERE id = 'c1'", /differs/],
    ['a tree event marked un-reverted', 'UPDATE tree_events SET reverted = 0', /differs/],
    ['the tail of the log cut off', 'DELETE FROM audit WHERE seq >= 6', /no audit entry/],
  ])('verify detects %s', (_name, sql, problem) => {
    const { path, store } = populated();
    store.close();
    tamper(path, sql);
    const again = SqliteStore.open(path);
    const report = again.verifyAudit();
    expect(report.ok).toBe(false);
    expect(report.problems.map((p) => p.problem).join('\n')).toMatch(problem);
    again.close();
  });

  it('backfills records that predate the audit table, and records its migrations', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'warden-audit-')), 'old.db');
    const s = SqliteStore.open(path);
    s.saveVerdict(verdict('old', 'allow'));
    s.close();
    // make the file look like one written before migration 002
    tamper(path, "DROP TABLE audit; DELETE FROM migrations WHERE name = '002-audit';");
    const again = SqliteStore.open(path);
    expect(again.auditEntries().map((e) => `${e.kind} ${e.ref}`)).toEqual(['backfill verdict:old']);
    expect(again.verifyAudit().ok).toBe(true);
    expect(again.db.prepare('SELECT name FROM migrations ORDER BY id').pluck().all()).toEqual(['001-initial', '002-audit', '003-policies', '004-policy-audit']);
    again.close();
  });

  it('records every policy write; an edited or removed policy breaks verification; old policies are backfilled', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'warden-audit-')), 'p.db');
    const s = SqliteStore.open(path);
    s.savePolicy(policy('p1'));
    s.savePolicy(policy('p2'));
    s.deletePolicy('p2');
    s.deletePolicy('absent');
    expect(s.auditEntries().map((e) => `${e.kind} ${e.ref}`)).toEqual(['policy.saved policy:p1', 'policy.saved policy:p2', 'policy.deleted policy:p2']);
    expect(s.verifyAudit()).toMatchObject({ ok: true, entries: 3 });
    s.close();
    for (const [sql, problem] of [
      ["UPDATE policies SET body = replace(body, '\"otherwise\":\"gate\"', '\"otherwise\":\"allow\"')", /differs/],
      ["DELETE FROM policies WHERE id = 'p1'", /gone/],
    ] as const) {
      const copy = join(mkdtempSync(join(tmpdir(), 'warden-audit-')), 'copy.db');
      copyFileSync(path, copy);
      tamper(copy, sql);
      const t = SqliteStore.open(copy);
      expect(t.verifyAudit().problems.map((p) => p.problem).join('\n')).toMatch(problem);
      t.close();
    }
    // a file from before policy writes were audited: its policies get one entry each
    tamper(path, "DROP TABLE audit; DELETE FROM migrations WHERE name IN ('002-audit', '004-policy-audit');");
    const again = SqliteStore.open(path);
    expect(again.auditEntries().map((e) => `${e.kind} ${e.ref}`)).toEqual(['backfill policy:p1']);
    expect(again.verifyAudit().ok).toBe(true);
    again.close();
  });
});
