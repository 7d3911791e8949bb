import { describe, expect, it } from 'vitest';
import { useSharedEmbedder, quietLog } from '../helpers/shared-embedder.js';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openEngine, syncBuiltinChecks } from '../../electron/engine/create-engine.js';
import { loadBuiltinChecks } from '../../electron/engine/checks-file.js';
import { SqliteStore } from '../../electron/engine/adapters/sqlite/sqlite-store.js';
import type { Judge } from '../../electron/engine/ports.js';
import type { Engine } from '../../electron/engine/engine.js';

const sharedEmbedder = useSharedEmbedder();
const quiet = quietLog;

/** An engine over a real SQLite file; the embedder is shared and not closed with it. */
async function open(dbPath: string, extra: { judge?: Judge; config?: Record<string, unknown> } = {}): Promise<Engine> {
  const shared = sharedEmbedder();
  return openEngine({ dbPath, embedder: shared, log: quiet, ...extra });
}

describe('the guard end to end', () => {
  it('denies a destructive command with the check that caught it and allows what was asked', async () => {
    const e = await open(join(mkdtempSync(join(tmpdir(), 'warden-e2e-')), 'w.db'));
    const bad = await e.check({ request: 'tidy up my home', action: { type: 'shell', command: 'cd ~ && rm -rf *' } });
    expect(bad.decision).toBe('deny');
    expect(bad.path).toBe('check');
    expect(bad.checks.filter((c) => c.status === 'fail').map((c) => c.id)).toContain('delete-home');
    expect(bad.rules.length).toBeGreaterThan(0);
    const ok = await e.check({ request: 'list the files here', action: { type: 'shell', command: 'ls -la' } });
    expect(ok.decision).toBe('allow');
    expect(ok.path).toBe('fast');
    expect(e.listVerdicts().map((v) => v.id)).toEqual([ok.id, bad.id]);
    await e.close();
  });

  it('rejects bad input with the field named, records nothing, and keeps working', async () => {
    const e = await open(':memory:');
    const cases: [unknown, string][] = [
      [{ request: 'x', action: { type: 'teleport' } }, 'action.type'],
      [{ request: 'x', action: { type: 'shell', command: '' } }, 'action.command'],
      [{ request: 'x', action: { type: 'shell', command: 'a'.repeat(10 * 1024 * 1024) } }, 'action.command'],
      [{ request: 'x', action: { type: 'shell', command: 'ls \u0000\u0001' } }, 'action.command'],
      [{ request: '', action: { type: 'shell', command: 'ls' } }, 'request'],
      ['not an object', 'input'],
    ];
    for (const [input, field] of cases) await expect(e.check(input)).rejects.toMatchObject({ code: 'BAD_INPUT', field });
    expect(e.listVerdicts()).toEqual([]);
    expect((await e.check({ request: 'list files', action: { type: 'shell', command: 'ls' } })).decision).toBe('allow');
    await e.close();
  });

  it('fails closed: an unparsable command and a judge that never answers both end in ask, never allow', async () => {
    const never: Judge = { judge: () => new Promise(() => {}) };
    const e = await open(':memory:', { judge: never, config: { verdictTimeoutMs: 300 } });
    const unparsable = await e.check({ request: 'run it', action: { type: 'shell', command: 'echo "oops' } });
    expect(unparsable).toMatchObject({ decision: 'ask', path: 'error' });
    const ambiguous = await e.check({ request: 'free some space', action: { type: 'shell', command: 'rm ~/notes/old.txt' } });
    expect(ambiguous.decision).toBe('ask');
    expect(ambiguous.error?.code).toBe('TIMEOUT');
    await e.close();
  });

  it('learns from a human approval, reverts it exactly, and loses nothing on restart', async () => {
    const db = join(mkdtempSync(join(tmpdir(), 'warden-e2e-')), 'w.db');
    let e = await open(db);
    const req = { request: 'free some space', action: { type: 'shell' as const, command: 'rm ~/notes/old.txt' } };
    const first = await e.check(req);
    expect(first.decision).toBe('ask');
    const leavesBefore = e.tree.size.leaves;
    const review = await e.decide({ verdictId: first.id, outcome: 'approve', reason: 'old notes are fine to delete' });
    expect(review.events.length).toBeGreaterThan(0);
    const events = e.treeEvents();
    expect(events.some((ev) => (ev.kind === 'split' || ev.kind === 'merge' || ev.kind === 'create') && ev.cause === first.id && typeof ev.ig === 'number')).toBe(true);
    const second = await e.check(req);
    expect(second).toMatchObject({ decision: 'allow', path: 'memory' });
    await expect(e.decide({ verdictId: first.id, outcome: 'deny', reason: 'again' })).rejects.toMatchObject({ code: 'CONFLICT' });
    await e.close();

    e = await open(db);
    expect(e.getVerdict(first.id).review?.outcome).toBe('approve');
    expect((await e.check(req)).decision).toBe('allow');
    await e.revertDecision({ verdictId: first.id });
    expect(e.tree.size.leaves).toBe(leavesBefore);
    expect((await e.check(req)).decision).toBe('ask');
    expect(e.treeEvents().filter((ev) => ev.kind === 'revert').length).toBe(review.events.length);
    await e.close();
  });

  it('exports the checks as a rules file that imports back, and reports a bad file without changing anything', async () => {
    const e = await open(':memory:');
    const text = e.exportRules();
    const n = e.listChecks().length;
    expect(e.importRules(text)).toEqual({ ok: true, imported: n });
    const bad = e.importRules('version: 1\nchecks:\n  - id: x\n    title: t\n    when: "facts.("\n');
    expect(bad.ok).toBe(false);
    expect(e.listChecks().length).toBe(n);
    await e.close();
  });

  it('brings a store from an earlier version up to the shipped built-in checks, keeping what the administrator switched off', async () => {
    const db = join(mkdtempSync(join(tmpdir(), 'warden-builtins-')), 'w.db');
    let e = await open(db);
    expect(syncBuiltinChecks(e)).toEqual([]);
    const shipped = loadBuiltinChecks();
    const [a, b] = [shipped[0]!, shipped[1]!];
    // an earlier version: one built-in check missing, one with an older expression and switched off
    e.saveChecks([{ ...b, when: 'false', enabled: false }]);
    await e.close();
    const store = SqliteStore.open(db);
    store.deleteCheck(a.id);
    expect(store.listChecks().some((c) => c.id === a.id)).toBe(false);
    store.close();

    e = await open(db);
    const byId = new Map(e.listChecks().map((c) => [c.id, c]));
    expect(byId.get(a.id)).toMatchObject({ when: a.when, enabled: a.enabled });
    expect(byId.get(b.id)).toMatchObject({ when: b.when, enabled: false });
    expect(e.listChecks().length).toBe(shipped.length);
    await e.close();
  });
});
