import type { StateCreator } from 'zustand/vanilla';
import type { StatusInfo, WardenApi } from '../../../shared/contract.js';
import type { WardenState } from './store.js';

/** The console's views. */
export type ViewName = 'tree' | 'timeline' | 'verdicts' | 'review' | 'rules' | 'sandbox' | 'eval';

/** A message shown to the user (errors never go to the page console). */
export interface Notice {
  id: number;
  kind: 'error' | 'info';
  text: string;
}

/** Navigation, status header and notices. */
export interface UiSlice {
  view: ViewName;
  status: StatusInfo | null;
  notices: Notice[];
  setView(view: ViewName): void;
  loadStatus(): Promise<void>;
  notify(kind: Notice['kind'], text: string): void;
  dismiss(id: number): void;
}

let noticeId = 1;

/** The message of anything thrown, with the engine's code when it has one. */
export function errorText(e: unknown): string {
  if (typeof e === 'object' && e !== null) {
    const o = e as { code?: unknown; message?: unknown };
    if (typeof o.message === 'string') return typeof o.code === 'string' ? `${o.code}: ${o.message}` : o.message;
  }
  return String(e);
}

export const createUiSlice =
  (api: WardenApi): StateCreator<WardenState, [], [], UiSlice> =>
  (set, get) => ({
    view: 'tree',
    status: null,
    notices: [],
    setView: (view) => set({ view }),
    loadStatus: async () => {
      try {
        set({ status: await api['status.get']({}) });
      } catch (e) {
        get().notify('error', `status: ${errorText(e)}`);
      }
    },
    notify: (kind, text) => set((s) => ({ notices: [...s.notices.slice(-4), { id: noticeId++, kind, text }] })),
    dismiss: (id) => set((s) => ({ notices: s.notices.filter((n) => n.id !== id) })),
  });
