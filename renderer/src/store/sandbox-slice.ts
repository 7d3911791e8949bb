import type { StateCreator } from 'zustand/vanilla';
import type { Verdict } from '../../../shared/types.js';
import type { SandboxInfo, WardenApi } from '../../../shared/contract.js';
import type { WardenState } from './store.js';
import { errorText } from './ui-slice.js';

/** The sandbox terminal: status, preparation progress and the commands run in this episode. */
export interface SandboxSlice {
  sandbox: SandboxInfo | null;
  sandboxProgress: { step: string; done: number; total: number } | null;
  preparing: boolean;
  running: boolean;
  /** Episode id sent with every command, so they share one container. */
  episode: string;
  transcript: Verdict[];
  loadSandbox(): Promise<void>;
  prepareSandbox(): Promise<void>;
  runCommand(input: { command: string; request: string; user: string; setup?: string }): Promise<void>;
  newEpisode(): void;
  sandboxProgressed(p: { step: string; done: number; total: number }): void;
}

function episodeId(): string {
  return `console-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
}

export const createSandboxSlice =
  (api: WardenApi): StateCreator<WardenState, [], [], SandboxSlice> =>
  (set, get) => ({
    sandbox: null,
    sandboxProgress: null,
    preparing: false,
    running: false,
    episode: episodeId(),
    transcript: [],
    loadSandbox: async () => {
      try {
        set({ sandbox: await api['sandbox.status']({}) });
      } catch (e) {
        get().notify('error', `sandbox: ${errorText(e)}`);
      }
    },
    prepareSandbox: async () => {
      set({ preparing: true, sandboxProgress: null });
      try {
        set({ sandbox: await api['sandbox.prepare']({}) });
      } catch (e) {
        get().notify('error', `prepare: ${errorText(e)}`);
      } finally {
        set({ preparing: false });
      }
    },
    runCommand: async ({ command, request, user, setup }) => {
      set({ running: true });
      try {
        const v = await api['sandbox.run']({
          request: { request: request.trim() || command, action: { type: 'shell', command }, context: { user, agent: 'console', session: get().episode } },
          session: get().episode,
          ...(setup?.trim() ? { setup } : {}),
        });
        set((s) => ({ transcript: [...s.transcript, v] }));
      } catch (e) {
        get().notify('error', `run: ${errorText(e)}`);
      } finally {
        set({ running: false });
      }
    },
    newEpisode: () => set({ episode: episodeId(), transcript: [] }),
    sandboxProgressed: (p) => set({ sandboxProgress: p }),
  });
