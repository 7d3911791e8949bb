/**
 * The console's one store, built from slices and created with the API object passed in, so each
 * test (and each window) gets its own.
 */
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { WardenApi } from '../../../shared/contract.js';
import { createUiSlice, type UiSlice } from './ui-slice.js';
import { createVerdictsSlice, type VerdictsSlice } from './verdicts-slice.js';
import { createReviewSlice, type ReviewSlice } from './review-slice.js';
import { createTreeSlice, type TreeSlice } from './tree-slice.js';
import { createRulesSlice, type RulesSlice } from './rules-slice.js';
import { createSandboxSlice, type SandboxSlice } from './sandbox-slice.js';
import { createEvalSlice, type EvalSlice } from './eval-slice.js';

/** Everything the console holds. */
export type WardenState = UiSlice & VerdictsSlice & ReviewSlice & TreeSlice & RulesSlice & SandboxSlice & EvalSlice & {
  /** Loads every view's data and follows the engine's events; returns the unsubscribe function. */
  start(): () => void;
};

/** The store type the views use. */
export type WardenStore = StoreApi<WardenState>;

/** Creates a store talking to `api`. */
export function createWardenStore(api: WardenApi): WardenStore {
  return createStore<WardenState>()((...a) => ({
    ...createUiSlice(api)(...a),
    ...createVerdictsSlice(api)(...a),
    ...createReviewSlice(api)(...a),
    ...createTreeSlice(api)(...a),
    ...createRulesSlice(api)(...a),
    ...createSandboxSlice(api)(...a),
    ...createEvalSlice(api)(...a),
    start: () => {
      const s = a[1];
      // the header's counts follow the stream, at most a few times a second
      let statusTimer: ReturnType<typeof setTimeout> | null = null;
      const refreshStatus = (): void => {
        if (statusTimer) return;
        statusTimer = setTimeout(() => {
          statusTimer = null;
          void s().loadStatus();
        }, 500);
      };
      const offs = [
        api.on('verdict.created', (v) => {
          s().verdictCreated(v);
          refreshStatus();
        }),
        api.on('review.decided', (d) => {
          s().reviewDecided(d);
          s().treeEventsArrived(d.events);
          refreshStatus();
        }),
        api.on('review.reverted', ({ verdictId }) => {
          void s().refreshVerdict(verdictId);
          void s().loadPending();
          refreshStatus();
        }),
        api.on('tree.changed', (events) => {
          s().treeEventsArrived(events);
          refreshStatus();
        }),
        api.on('checks.changed', (checks) => {
          s().checksChanged(checks);
          refreshStatus();
        }),
        api.on('sandbox.progressed', (p) => s().sandboxProgressed(p)),
        api.on('eval.progressed', (job) => s().evalProgressed(job)),
        api.on('rules.progressed', (job) => s().ruleGenProgressed(job)),
      ];
      // the tree first: it is the first view, and a thousand pending asks on the same socket would delay it
      void Promise.all([s().loadStatus(), s().loadTree()]).then(() => Promise.all([s().loadEvents(), s().loadVerdicts(), s().loadPending(), s().loadChecks(), s().loadPolicies(), s().loadSandbox()]));
      return () => {
        if (statusTimer) clearTimeout(statusTimer);
        for (const off of offs) off();
      };
    },
  }));
}
