import type { StateCreator } from 'zustand/vanilla';
import type { ReviewDecision, TreeEvent, Verdict } from '../../../shared/types.js';
import type { WardenApi } from '../../../shared/contract.js';
import type { WardenState } from './store.js';
import { errorText } from './ui-slice.js';

/** What the last decision did to memory. */
export interface DecisionOutcome {
  verdictIds: string[];
  outcome: 'approve' | 'deny';
  events: TreeEvent[];
}

/** The human review queue. */
export interface ReviewSlice {
  pending: Verdict[];
  cursor: number;
  reason: string;
  similar: Verdict[];
  similarFor: string | null;
  bulkSelected: string[];
  lastOutcome: DecisionOutcome | null;
  deciding: boolean;
  loadPending(): Promise<void>;
  setCursor(index: number): void;
  moveCursor(delta: number): void;
  setReason(reason: string): void;
  /** Decides the verdict under the cursor (or `verdictId`); false when nothing was decided. */
  decide(outcome: 'approve' | 'deny', verdictId?: string): Promise<boolean>;
  findSimilar(verdictId: string): Promise<void>;
  toggleBulk(verdictId: string): void;
  decideBulk(outcome: 'approve' | 'deny'): Promise<void>;
  revert(verdictId: string): Promise<void>;
  /** A new verdict: asks join the queue. */
  pendingAdded(v: Verdict): void;
  /** A `review.decided` event from any console. */
  reviewDecided(d: { decision: ReviewDecision; events: TreeEvent[] }): void;
}

/** Does this verdict wait for a human? */
export function isPending(v: Verdict): boolean {
  return v.decision === 'ask' && !v.review;
}

/** The queue without the decided ids, keeping the cursor on the next item. */
export function removeDecided(pending: Verdict[], cursor: number, ids: string[]): { pending: Verdict[]; cursor: number } {
  const drop = new Set(ids);
  const before = pending.slice(0, cursor).filter((v) => drop.has(v.id)).length;
  const next = pending.filter((v) => !drop.has(v.id));
  return { pending: next, cursor: Math.max(0, Math.min(next.length - 1, cursor - before)) };
}

export const createReviewSlice =
  (api: WardenApi): StateCreator<WardenState, [], [], ReviewSlice> =>
  (set, get) => ({
    pending: [],
    cursor: 0,
    reason: '',
    similar: [],
    similarFor: null,
    bulkSelected: [],
    lastOutcome: null,
    deciding: false,
    loadPending: async () => {
      try {
        const list = await api['review.list']({ limit: 5000 });
        set((s) => ({ pending: list.filter(isPending), cursor: Math.min(s.cursor, Math.max(0, list.length - 1)) }));
      } catch (e) {
        get().notify('error', `review queue: ${errorText(e)}`);
      }
    },
    setCursor: (index) => set((s) => ({ cursor: Math.max(0, Math.min(s.pending.length - 1, index)) })),
    moveCursor: (delta) => get().setCursor(get().cursor + delta),
    setReason: (reason) => set({ reason }),
    decide: async (outcome, verdictId) => {
      const s = get();
      const id = verdictId ?? s.pending[s.cursor]?.id;
      if (!id) return false;
      const reason = s.reason.trim();
      if (!reason) {
        s.notify('error', 'a reason is required to decide');
        return false;
      }
      set({ deciding: true });
      try {
        const r = await api['review.decide']({ verdictId: id, outcome, reason });
        set((st) => ({ ...removeDecided(st.pending, st.cursor, [id]), lastOutcome: { verdictIds: [id], outcome, events: r.events }, similar: st.similar.filter((v) => v.id !== id) }));
        get().treeEventsArrived(r.events);
        void get().refreshVerdict(id);
        return true;
      } catch (e) {
        get().notify('error', `decide: ${errorText(e)}`);
        return false;
      } finally {
        set({ deciding: false });
      }
    },
    findSimilar: async (verdictId) => {
      try {
        const list = (await api['review.similar']({ verdictId, limit: 50 })).filter((v) => v.id !== verdictId && isPending(v));
        set({ similar: list, similarFor: verdictId, bulkSelected: [verdictId, ...list.map((v) => v.id)] });
      } catch (e) {
        get().notify('error', `similar: ${errorText(e)}`);
      }
    },
    toggleBulk: (verdictId) =>
      set((s) => ({ bulkSelected: s.bulkSelected.includes(verdictId) ? s.bulkSelected.filter((x) => x !== verdictId) : [...s.bulkSelected, verdictId] })),
    decideBulk: async (outcome) => {
      const s = get();
      const reason = s.reason.trim();
      if (!reason) {
        s.notify('error', 'a reason is required to decide');
        return;
      }
      if (s.bulkSelected.length === 0) return;
      set({ deciding: true });
      try {
        const r = await api['review.decideMany']({ verdictIds: s.bulkSelected, outcome, reason });
        set((st) => ({ ...removeDecided(st.pending, st.cursor, r.decided), lastOutcome: { verdictIds: r.decided, outcome, events: r.events }, similar: [], similarFor: null, bulkSelected: [] }));
        get().treeEventsArrived(r.events);
        for (const f of r.failed) get().notify('error', `${f.verdictId}: ${f.message}`);
        for (const id of r.decided) void get().refreshVerdict(id);
      } catch (e) {
        get().notify('error', `bulk decide: ${errorText(e)}`);
      } finally {
        set({ deciding: false });
      }
    },
    revert: async (verdictId) => {
      try {
        await api['review.revert']({ verdictId });
        await get().refreshVerdict(verdictId);
        await get().loadPending();
        get().notify('info', `decision on ${verdictId} reverted`);
      } catch (e) {
        get().notify('error', `revert: ${errorText(e)}`);
      }
    },
    pendingAdded: (v) => {
      if (!isPending(v)) return;
      set((s) => (s.pending.some((p) => p.id === v.id) ? s : { pending: [...s.pending, v] }));
    },
    reviewDecided: ({ decision }) => {
      set((s) => removeDecided(s.pending, s.cursor, [decision.verdictId]));
      void get().refreshVerdict(decision.verdictId);
    },
  });
