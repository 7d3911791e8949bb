import { describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync, existsSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteStore } from '../../../electron/engine/adapters/sqlite/sqlite-store.js';
import type { Verdict } from '../../../shared/types.js';

function verdict(id: string, decision: Verdict['decision'], at: number): Verdict {
  return {
    id,
    at,
    decision,
    path: decision === 'ask' ? 'review' : 'fast',
    reason: 'r',
    scores: { pHarm: 0.1, sBenign: 0.9 },
    rules: [],
    checks: [],
    probes: [],
    facts: { kind: 'shell', commands: [], effects: { reads: [], writes: [], deletes: [], modeChanges: [], ownerChanges: [], network: [], signals: [], privilege: [], persistence: [], exhaustion: [], execution: [] }, flags: [], requestPaths: [], paraphrase: 'p', commandForm: 'c' },
    request: { request: 'q', action: { type: 'shell', command: 'ls' }, context: { agent: 'a1' } },
    latencyMs: 1,
  };
}

describe('SQLite store', () => {
  it('keeps verdicts, pending asks and reviews across reopening', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'warden-store-')), 'w.db');
    const s = SqliteStore.open(path);
    s.saveVerdict(verdict('v1', 'allow', 1));
    s.saveVerdict(verdict('v2', 'ask', 2));
    s.close();
    const again = SqliteStore.open(path);
    expect(again.listVerdicts().map((v) => v.id)).toEqual(['v2', 'v1']);
    expect(again.listVerdicts({ pending: true }).map((v) => v.id)).toEqual(['v2']);
    again.setReview('v2', { verdictId: 'v2', outcome: 'approve', reason: 'fine', reviewer: 'me', at: 3, events: [] });
    expect(again.listVerdicts({ pending: true })).toEqual([]);
    expect(again.countVerdicts()).toMatchObject({ allow: 1, ask: 1, pending: 0 });
    expect(() => again.setReview('nope', undefined)).toThrow(expect.objectContaining({ code: 'NOT_FOUND' }));
    again.close();
  });

  it('stores tree rows with their vectors and events with undo data', () => {
    const s = SqliteStore.open(':memory:');
    s.saveNodes([{ id: 'n1', parentId: null, kind: 'leaf', centroid: Float32Array.from([0.6, 0.8]), rule: { prohibition: 'p', exemption: 'e' } }]);
    s.saveMembers([{ id: 'm1', leafId: 'n1', vector: Float32Array.from([1, 0]), label: 1 }]);
    const { nodes, members } = s.loadTree();
    expect(Array.from(nodes[0]!.centroid)).toEqual([Float32Array.from([0.6])[0], Float32Array.from([0.8])[0]]);
    expect(nodes[0]!['rule']).toEqual({ prohibition: 'p', exemption: 'e' });
    expect(members[0]!.leafId).toBe('n1');
    const id = s.appendEvent({ at: 1, kind: 'split', nodeId: 'n1', parentId: null, ig: 0.5, theta: 0.3, detail: 'd' }, { memberId: 'm1' });
    expect(s.getEventUndo(id)!.undo).toEqual({ memberId: 'm1' });
    s.markEventReverted(id);
    expect(s.listEvents()[0]).toMatchObject({ id, kind: 'split', ig: 0.5, reverted: true });
  });

  it('moves a corrupt file aside, says so, and starts clean', () => {
    const dir = mkdtempSync(join(tmpdir(), 'warden-store-'));
    const path = join(dir, 'w.db');
    writeFileSync(path, 'this is not a database'.repeat(100));
    const s = SqliteStore.open(path);
    expect(s.report.message).toMatch(/moved to .*corrupt/);
    expect(existsSync(s.report.recoveredFrom!)).toBe(true);
    expect(s.listVerdicts()).toEqual([]);
    expect(readdirSync(dir).some((f) => f.includes('.corrupt-'))).toBe(true);
    s.close();
  });
});
