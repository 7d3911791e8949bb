import type { StateCreator } from 'zustand/vanilla';
import type { ActionRequest, Verdict } from '../../../shared/types.js';
import type { WardenApi } from '../../../shared/contract.js';
import type { WardenState } from './store.js';
import { errorText } from './ui-slice.js';

/** Filters of the live verdict stream. */
export interface VerdictFilter {
  agent: string;
  session: string;
  decision: '' | Verdict['decision'];
}

/** The live verdict stream. */
export interface VerdictsSlice {
  verdicts: Verdict[];
  filter: VerdictFilter;
  selectedVerdictId: string | null;
  lastChecked: Verdict | null;
  loadVerdicts(): Promise<void>;
  setFilter(patch: Partial<VerdictFilter>): void;
  selectVerdict(id: string | null): void;
  checkAction(request: ActionRequest): Promise<Verdict | null>;
  /** Applies a `verdict.created` event. */
  verdictCreated(v: Verdict): void;
  /** Replaces a verdict after something changed it (a review). */
  verdictChanged(v: Verdict): void;
  /** Fetches one verdict again and replaces it wherever it is shown. */
  refreshVerdict(id: string): Promise<void>;
}

/** How many verdicts the stream keeps in memory. */
export const STREAM_LIMIT = 2000;

/** Verdicts that pass a filter (agent and session match as substrings, decision exactly). */
export function filterVerdicts(verdicts: Verdict[], f: VerdictFilter): Verdict[] {
  const agent = f.agent.trim().toLowerCase();
  const session = f.session.trim().toLowerCase();
  if (!agent && !session && !f.decision) return verdicts;
  return verdicts.filter(
    (v) =>
      (!f.decision || v.decision === f.decision) &&
      (!agent || (v.request.context?.agent ?? '').toLowerCase().includes(agent)) &&
      (!session || (v.request.context?.session ?? '').toLowerCase().includes(session)),
  );
}

/** Newest first, without duplicates, capped at {@link STREAM_LIMIT}. */
export function mergeVerdicts(current: Verdict[], incoming: Verdict[]): Verdict[] {
  const byId = new Map<string, Verdict>();
  for (const v of current) byId.set(v.id, v);
  for (const v of incoming) byId.set(v.id, v);
  return [...byId.values()].sort((a, b) => b.at - a.at || (a.id < b.id ? 1 : -1)).slice(0, STREAM_LIMIT);
}

export const createVerdictsSlice =
  (api: WardenApi): StateCreator<WardenState, [], [], VerdictsSlice> =>
  (set, get) => ({
    verdicts: [],
    filter: { agent: '', session: '', decision: '' },
    selectedVerdictId: null,
    lastChecked: null,
    loadVerdicts: async () => {
      try {
        const list = await api['verdicts.list']({ limit: 500 });
        set((s) => ({ verdicts: mergeVerdicts(s.verdicts, list) }));
      } catch (e) {
        get().notify('error', `verdicts: ${errorText(e)}`);
      }
    },
    setFilter: (patch) => set((s) => ({ filter: { ...s.filter, ...patch } })),
    selectVerdict: (id) => set({ selectedVerdictId: id }),
    checkAction: async (request) => {
      try {
        const v = await api['verdicts.check']({ request });
        set((s) => ({ lastChecked: v, verdicts: mergeVerdicts(s.verdicts, [v]) }));
        get().verdictCreated(v);
        return v;
      } catch (e) {
        get().notify('error', `check: ${errorText(e)}`);
        return null;
      }
    },
    verdictCreated: (v) => {
      set((s) => ({ verdicts: mergeVerdicts(s.verdicts, [v]) }));
      get().pendingAdded(v);
    },
    verdictChanged: (v) => set((s) => ({ verdicts: s.verdicts.map((x) => (x.id === v.id ? v : x)), lastChecked: s.lastChecked?.id === v.id ? v : s.lastChecked })),
    refreshVerdict: async (id) => {
      try {
        get().verdictChanged(await api['verdicts.get']({ id }));
      } catch (e) {
        get().notify('error', `verdict ${id}: ${errorText(e)}`);
      }
    },
  });
