import type { StateCreator } from 'zustand/vanilla';
import type { EvalJob, WardenApi } from '../../../shared/contract.js';
import type { WardenState } from './store.js';
import { errorText } from './ui-slice.js';

/** Evaluation runs: the case file text, the job and its progress. */
export interface EvalSlice {
  casesText: string;
  casesName: string;
  job: EvalJob | null;
  setCases(text: string, name?: string): void;
  runEval(): Promise<void>;
  /** An `eval.progressed` event; only the job this console started is followed. */
  evalProgressed(job: EvalJob): void;
}

/** Non-empty lines of a case file, so the form can say how many cases it holds. */
export function countCases(text: string): number {
  return text.split('\n').filter((l) => l.trim() !== '').length;
}

export const createEvalSlice =
  (api: WardenApi): StateCreator<WardenState, [], [], EvalSlice> =>
  (set, get) => {
  // progress can overtake the answer to eval.run; the latest report of each unknown job waits here
  const early = new Map<string, EvalJob>();
  const newer = (a: EvalJob, b: EvalJob | undefined): EvalJob => (!b ? a : b.state !== 'running' || b.done > a.done ? b : a);
  const fetchFull = (jobId: string): void => {
    void api['eval.get']({ jobId }).then(
      (full) => set((s) => (s.job?.jobId === jobId ? { job: full } : s)),
      (e: unknown) => get().notify('error', `evaluation: ${errorText(e)}`),
    );
  };
  return {
    casesText: '',
    casesName: '',
    job: null,
    setCases: (casesText, casesName) => set({ casesText, ...(casesName !== undefined ? { casesName } : {}) }),
    runEval: async () => {
      const text = get().casesText;
      if (countCases(text) === 0) {
        get().notify('error', 'paste or pick a case file first');
        return;
      }
      try {
        set({ job: null });
        const started = await api['eval.run']({ cases: text, ...(get().casesName ? { name: get().casesName } : {}) });
        const job = newer(started, early.get(started.jobId));
        early.clear();
        set({ job });
        if (job.state === 'done' && !job.metrics) fetchFull(job.jobId);
      } catch (e) {
        get().notify('error', `evaluation: ${errorText(e)}`);
      }
    },
    evalProgressed: (job) => {
      const cur = get().job;
      if (!cur || cur.jobId !== job.jobId) {
        early.set(job.jobId, newer(job, early.get(job.jobId)));
        return;
      }
      if (cur.state !== 'running' && job.state === 'running') return;
      set({ job });
      if (job.state === 'done' && !job.metrics) fetchFull(job.jobId);
    },
  };
  };
