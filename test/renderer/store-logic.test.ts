import { describe, expect, it } from 'vitest';
import type { Check, TreeEvent, Verdict } from '../../shared/types.js';
import { filterVerdicts, mergeVerdicts, STREAM_LIMIT } from '../../renderer/src/store/verdicts-slice.js';
import { isPending, removeDecided } from '../../renderer/src/store/review-slice.js';
import { blankCheck, canSave, draftKey } from '../../renderer/src/store/rules-slice.js';
import { markReverted, mergeEvents } from '../../renderer/src/store/tree-slice.js';
import { countCases } from '../../renderer/src/store/eval-slice.js';

function verdict(id: string, at: number, decision: Verdict['decision'], ctx: { agent?: string; session?: string } = {}): Verdict {
  return {
    id,
    at,
    decision,
    path: 'fast',
    reason: '',
    scores: { pHarm: 0.1, sBenign: 0.9 },
    rules: [],
    checks: [],
    probes: [],
    facts: { kind: 'shell', commands: [], effects: { reads: [], writes: [], deletes: [], modeChanges: [], ownerChanges: [], network: [], signals: [], privilege: [], persistence: [], exhaustion: [], execution: [] }, flags: [], requestPaths: [], paraphrase: '', commandForm: '' },
    request: { request: 'r', action: { type: 'shell', command: `echo ${id}` }, context: ctx },
    latencyMs: 1,
  };
}

describe('verdict stream', () => {
  it('keeps the newest first without duplicates and caps the stream', () => {
    const a = verdict('a', 1, 'allow');
    const b = verdict('b', 2, 'deny');
    const merged = mergeVerdicts([a], [b, { ...a, decision: 'deny' }]);
    expect(merged.map((v) => v.id)).toEqual(['b', 'a']);
    expect(merged[1]!.decision).toBe('deny');
    const many = Array.from({ length: STREAM_LIMIT + 50 }, (_, i) => verdict(`v${i}`, i, 'allow'));
    const capped = mergeVerdicts([], many);
    expect(capped).toHaveLength(STREAM_LIMIT);
    expect(capped[0]!.id).toBe(`v${STREAM_LIMIT + 49}`);
  });

  it('filters by agent and session substrings and by exact verdict', () => {
    const list = [verdict('1', 1, 'allow', { agent: 'coder', session: 's-1' }), verdict('2', 2, 'ask', { agent: 'os-agent', session: 's-2' }), verdict('3', 3, 'ask')];
    expect(filterVerdicts(list, { agent: 'CODE', session: '', decision: '' }).map((v) => v.id)).toEqual(['1']);
    expect(filterVerdicts(list, { agent: '', session: 's-2', decision: '' }).map((v) => v.id)).toEqual(['2']);
    expect(filterVerdicts(list, { agent: '', session: '', decision: 'ask' }).map((v) => v.id)).toEqual(['2', '3']);
    expect(filterVerdicts(list, { agent: 'agent', session: '', decision: 'allow' })).toEqual([]);
  });
});

describe('review queue', () => {
  it('treats only undecided asks as pending', () => {
    expect(isPending(verdict('1', 1, 'ask'))).toBe(true);
    expect(isPending(verdict('1', 1, 'deny'))).toBe(false);
    expect(isPending({ ...verdict('1', 1, 'ask'), review: { verdictId: '1', outcome: 'approve', reason: 'ok', reviewer: 'r', at: 1, events: [] } })).toBe(false);
  });

  it('keeps the cursor on the next item after decisions above, at or below it', () => {
    const q = ['a', 'b', 'c', 'd', 'e'].map((id, i) => verdict(id, i, 'ask'));
    // deciding the item under the cursor moves to the one after it
    let r = removeDecided(q, 2, ['c']);
    expect(r.pending.map((v) => v.id)).toEqual(['a', 'b', 'd', 'e']);
    expect(r.pending[r.cursor]!.id).toBe('d');
    // items above the cursor shift it up so it stays on the same verdict
    r = removeDecided(q, 3, ['a', 'b']);
    expect(r.pending[r.cursor]!.id).toBe('d');
    // the last item decided: the cursor stays in range
    r = removeDecided(q, 4, ['e']);
    expect(r.pending[r.cursor]!.id).toBe('d');
    expect(removeDecided(q, 0, q.map((v) => v.id))).toEqual({ pending: [], cursor: 0 });
  });
});

describe('rule curation', () => {
  const check: Check = { id: 'x', title: 't', description: '', when: 'true', severity: 'soft', category: 'integrity', origin: 'human', kinds: ['shell'], enabled: true };

  it('allows saving only the exact draft that was replayed', () => {
    const replay = { replayed: 10, flips: [], draftKey: draftKey(check) };
    expect(canSave({ draft: check, replay })).toBe(true);
    expect(canSave({ draft: { ...check, when: 'false' }, replay })).toBe(false);
    expect(canSave({ draft: { ...check, severity: 'hard' }, replay })).toBe(false);
    expect(canSave({ draft: check, replay: null })).toBe(false);
  });

  it('gives a new check an unused id', () => {
    const existing = [{ ...check, id: 'human-2' }, { ...check, id: 'human-3' }];
    expect(blankCheck(existing).id).toBe('human-4');
    expect(blankCheck([]).id).toBe('human-1');
    expect(blankCheck([check]).origin).toBe('human');
  });
});

describe('tree history', () => {
  const ev = (id: number, kind: TreeEvent['kind'], detail = ''): TreeEvent => ({ id, at: id, kind, nodeId: 'n', parentId: null, detail });

  it('merges events by id in order, so an answer and its broadcast count once', () => {
    expect(mergeEvents([ev(1, 'split'), ev(3, 'merge')], [ev(2, 'edit'), ev(3, 'merge')]).map((e) => e.id)).toEqual([1, 2, 3]);
  });

  it('marks the events a revert undid', () => {
    const out = markReverted([ev(1, 'split'), ev(2, 'edit'), ev(3, 'revert', 'reverted event 1 (split)')]);
    expect(out.map((e) => !!e.reverted)).toEqual([true, false, false]);
  });
});

describe('evaluation form', () => {
  it('counts the non-empty lines of a case file', () => {
    expect(countCases('{"a":1}\n\n{"b":2}\n  \n')).toBe(2);
    expect(countCases('')).toBe(0);
  });
});
