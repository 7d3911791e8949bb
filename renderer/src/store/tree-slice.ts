import type { StateCreator } from 'zustand/vanilla';
import type { RulePair, TreeEvent, TreeNodeInfo } from '../../../shared/types.js';
import type { LeafDetail, WardenApi } from '../../../shared/contract.js';
import type { ColourMode } from '../layout/tree-layout.js';
import type { WardenState } from './store.js';
import { errorText } from './ui-slice.js';

/** The memory tree, its history and the open leaf. */
export interface TreeSlice {
  nodes: TreeNodeInfo[];
  /** Bumped whenever `nodes` is replaced, so views re-lay out only then. */
  treeVersion: number;
  treeLoading: boolean;
  events: TreeEvent[];
  leaf: LeafDetail | null;
  /** Rule edits made in this console, newest last, so they can be undone in turn. */
  undoStack: TreeEvent[];
  search: string;
  colour: ColourMode;
  /** Node the tree view should bring into view and mark. */
  focusId: string | null;
  /** Position of the replay in `events` (null = not replaying). */
  replayIndex: number | null;
  loadTree(): Promise<void>;
  loadEvents(): Promise<void>;
  openLeaf(id: string): Promise<void>;
  closeLeaf(): void;
  updateRule(leafId: string, rule: RulePair, reason: string): Promise<boolean>;
  undoLast(): Promise<void>;
  retireLeaf(leafId: string, reason: string): Promise<void>;
  revertEvent(eventId: number): Promise<void>;
  importSafeHarbor(path: string): Promise<void>;
  setSearch(q: string): void;
  setColour(c: ColourMode): void;
  focus(id: string | null): void;
  setReplayIndex(i: number | null): void;
  /** Events from a `tree.changed` event or a decision's answer. */
  treeEventsArrived(events: TreeEvent[]): void;
}

/** Events by id, ascending, without duplicates (a decision's answer and its broadcast carry the same ones). */
export function mergeEvents(current: TreeEvent[], incoming: TreeEvent[]): TreeEvent[] {
  const byId = new Map<number, TreeEvent>();
  for (const e of current) byId.set(e.id, e);
  for (const e of incoming) byId.set(e.id, e);
  return [...byId.values()].sort((a, b) => a.id - b.id);
}

/** Marks events reverted by `revert` events ("reverted event N") so the timeline shows them struck out. */
export function markReverted(events: TreeEvent[]): TreeEvent[] {
  const reverted = new Set<number>();
  for (const e of events) {
    if (e.kind !== 'revert') continue;
    const m = /reverted event (\d+)/.exec(e.detail);
    if (m) reverted.add(Number(m[1]));
  }
  if (reverted.size === 0) return events;
  return events.map((e) => (reverted.has(e.id) && !e.reverted ? { ...e, reverted: true } : e));
}

export const createTreeSlice =
  (api: WardenApi): StateCreator<WardenState, [], [], TreeSlice> =>
  (set, get) => {
    let reloadTimer: ReturnType<typeof setTimeout> | null = null;
    const scheduleReload = (): void => {
      if (reloadTimer) return;
      reloadTimer = setTimeout(() => {
        reloadTimer = null;
        void get().loadTree();
        const open = get().leaf;
        if (open) void get().openLeaf(open.node.id);
      }, 150);
    };
    return {
      nodes: [],
      treeVersion: 0,
      treeLoading: false,
      events: [],
      leaf: null,
      undoStack: [],
      search: '',
      colour: 'entropy',
      focusId: null,
      replayIndex: null,
      loadTree: async () => {
        set({ treeLoading: true });
        try {
          // marks let the benchmark split load time into transfer and drawing
          performance.mark('warden:tree-requested');
          const nodes = await api['tree.get']({});
          performance.measure('warden:tree-fetch', 'warden:tree-requested');
          set((s) => ({ nodes, treeVersion: s.treeVersion + 1 }));
        } catch (e) {
          get().notify('error', `tree: ${errorText(e)}`);
        } finally {
          set({ treeLoading: false });
        }
      },
      loadEvents: async () => {
        try {
          const list = await api['tree.events']({ limit: 5000 });
          set((s) => ({ events: markReverted(mergeEvents(s.events, list)) }));
        } catch (e) {
          get().notify('error', `tree events: ${errorText(e)}`);
        }
      },
      openLeaf: async (id) => {
        try {
          const leaf = await api['tree.leaf']({ id });
          set({ leaf });
        } catch (e) {
          get().notify('error', `leaf ${id}: ${errorText(e)}`);
        }
      },
      closeLeaf: () => set({ leaf: null }),
      updateRule: async (leafId, rule, reason) => {
        try {
          const ev = await api['tree.updateRule']({ leafId, rule, ...(reason.trim() ? { reason: reason.trim() } : {}) });
          set((s) => ({ undoStack: [...s.undoStack, ev] }));
          get().treeEventsArrived([ev]);
          await get().openLeaf(leafId);
          return true;
        } catch (e) {
          get().notify('error', `edit rule: ${errorText(e)}`);
          return false;
        }
      },
      undoLast: async () => {
        const last = get().undoStack.at(-1);
        if (!last) return;
        try {
          const ev = await api['tree.revertEvent']({ eventId: last.id });
          set((s) => ({ undoStack: s.undoStack.slice(0, -1) }));
          get().treeEventsArrived([ev]);
          if (get().leaf?.node.id === last.nodeId) await get().openLeaf(last.nodeId);
        } catch (e) {
          get().notify('error', `undo: ${errorText(e)}`);
        }
      },
      retireLeaf: async (leafId, reason) => {
        try {
          const ev = await api['tree.retire']({ leafId, ...(reason.trim() ? { reason: reason.trim() } : {}) });
          set((s) => ({ undoStack: [...s.undoStack, ev] }));
          get().treeEventsArrived([ev]);
          await get().openLeaf(leafId);
        } catch (e) {
          get().notify('error', `retire: ${errorText(e)}`);
        }
      },
      revertEvent: async (eventId) => {
        try {
          get().treeEventsArrived([await api['tree.revertEvent']({ eventId })]);
        } catch (e) {
          get().notify('error', `revert event ${eventId}: ${errorText(e)}`);
        }
      },
      importSafeHarbor: async (path) => {
        set({ treeLoading: true });
        try {
          const r = await api['tree.importSafeHarbor']({ path });
          get().notify('info', `imported ${r.categories} categories, ${r.clusters} clusters, ${r.leaves} leaves`);
          await Promise.all([get().loadTree(), get().loadEvents(), get().loadStatus()]);
        } catch (e) {
          get().notify('error', `import: ${errorText(e)}`);
        } finally {
          set({ treeLoading: false });
        }
      },
      setSearch: (search) => set({ search }),
      setColour: (colour) => set({ colour }),
      focus: (focusId) => set({ focusId }),
      setReplayIndex: (replayIndex) => set({ replayIndex }),
      treeEventsArrived: (events) => {
        if (events.length === 0) return;
        set((s) => ({ events: markReverted(mergeEvents(s.events, events)) }));
        scheduleReload();
      },
    };
  };
