import type { StateCreator } from 'zustand/vanilla';
import type { Check, LoadedPolicy } from '../../../shared/types.js';
import type { ImportResult, ReplayFlip, RuleGenJob, WardenApi } from '../../../shared/contract.js';
import type { WardenState } from './store.js';
import { errorText } from './ui-slice.js';

/** Rule curation: the checks, a draft being edited, its replay, and the rules file. */
export interface RulesSlice {
  checks: Check[];
  draft: Check | null;
  /** Whether the draft is a new check (not yet in `checks`). */
  draftIsNew: boolean;
  /** Replay of exactly the current draft; cleared by any edit, and required before saving. */
  replay: { replayed: number; flips: ReplayFlip[]; draftKey: string } | null;
  replaying: boolean;
  rulesText: string;
  importResult: ImportResult | null;
  /** Task-specific policies, each with the ids of its checks. */
  policies: LoadedPolicy[];
  loadChecks(): Promise<void>;
  loadPolicies(): Promise<void>;
  /** Puts one policy's rules file (policy block and checks) in the rules text. */
  exportPolicy(id: string): Promise<void>;
  /** Removes a policy and its checks. */
  removePolicy(id: string): Promise<void>;
  /** The latest adversarial rule-generation job started from this console. */
  ruleJob: RuleGenJob | null;
  /** Starts rule generation from the shipped seeds, or from the harmful cases of `seeds` (JSONL). */
  startRuleGen(opts: { seeds?: string; limit?: number; perSeed?: number }): Promise<void>;
  ruleGenProgressed(job: RuleGenJob): void;
  editCheck(id: string): void;
  newCheck(): void;
  changeDraft(patch: Partial<Check>): void;
  cancelDraft(): void;
  replayDraft(): Promise<void>;
  saveDraft(): Promise<boolean>;
  retireCheck(id: string): Promise<void>;
  exportRules(): Promise<void>;
  setRulesText(text: string): void;
  importRules(): Promise<void>;
  checksChanged(checks: Check[]): void;
}

/** A stable key of a draft, so a replay is known to belong to exactly this version. */
export function draftKey(c: Check): string {
  return JSON.stringify([c.id, c.title, c.description, c.when, c.severity, c.category, c.kinds, c.enabled, c.scope ?? 'global', c.probes ?? []]);
}

/** A fresh human check with an id not used by `existing`. */
export function blankCheck(existing: Check[]): Check {
  const ids = new Set(existing.map((c) => c.id));
  let n = existing.length + 1;
  while (ids.has(`human-${n}`)) n++;
  return { id: `human-${n}`, title: '', description: '', when: '', severity: 'soft', category: 'integrity', origin: 'human', kinds: ['shell'], enabled: true, scope: 'global' };
}

/** Whether the draft may be saved: it has been replayed as it stands. */
export function canSave(s: Pick<RulesSlice, 'draft' | 'replay'>): boolean {
  return s.draft !== null && s.replay !== null && s.replay.draftKey === draftKey(s.draft);
}

export const createRulesSlice =
  (api: WardenApi): StateCreator<WardenState, [], [], RulesSlice> =>
  (set, get) => ({
    checks: [],
    draft: null,
    draftIsNew: false,
    replay: null,
    replaying: false,
    rulesText: '',
    importResult: null,
    policies: [],
    ruleJob: null,
    startRuleGen: async (opts) => {
      try {
        set({ ruleJob: await api['rules.generate'](opts) });
      } catch (e) {
        get().notify('error', `rule generation: ${errorText(e)}`);
      }
    },
    ruleGenProgressed: (job) => {
      // a job started elsewhere (another console, the CLI through the same engine) is shown too
      if (get().ruleJob?.jobId !== job.jobId && get().ruleJob?.state === 'running') return;
      set({ ruleJob: job });
      if (job.state === 'done') get().notify('info', `rule generation: ${job.report?.added.length ?? 0} new leaves, ${job.report?.merged ?? 0} merged`);
      if (job.state === 'failed') get().notify('error', `rule generation failed: ${job.error ?? 'unknown error'}`);
    },
    loadPolicies: async () => {
      try {
        set({ policies: await api['policies.list']({}) });
      } catch (e) {
        get().notify('error', `policies: ${errorText(e)}`);
      }
    },
    exportPolicy: async (id) => {
      try {
        set({ rulesText: (await api['rules.export']({ policyId: id })).text, importResult: null });
      } catch (e) {
        get().notify('error', `export ${id}: ${errorText(e)}`);
      }
    },
    removePolicy: async (id) => {
      try {
        const r = await api['policies.remove']({ id });
        set((st) => ({ policies: st.policies.filter((p) => p.id !== id), checks: st.checks.filter((c) => !r.checks.includes(c.id)), draft: st.draft && r.checks.includes(st.draft.id) ? null : st.draft }));
        get().notify('info', `policy ${id} removed with ${r.checks.length} checks`);
      } catch (e) {
        get().notify('error', `remove ${id}: ${errorText(e)}`);
      }
    },
    loadChecks: async () => {
      try {
        set({ checks: await api['checks.list']({}) });
      } catch (e) {
        get().notify('error', `checks: ${errorText(e)}`);
      }
    },
    editCheck: (id) => {
      const c = get().checks.find((x) => x.id === id);
      if (c) set({ draft: structuredClone(c), draftIsNew: false, replay: null });
    },
    newCheck: () => set({ draft: blankCheck(get().checks), draftIsNew: true, replay: null }),
    changeDraft: (patch) => set((s) => (s.draft ? { draft: { ...s.draft, ...patch } } : s)),
    cancelDraft: () => set({ draft: null, replay: null }),
    replayDraft: async () => {
      const d = get().draft;
      if (!d) return;
      set({ replaying: true });
      try {
        const r = await api['checks.replay']({ checks: [d], limit: 2000 });
        set({ replay: { ...r, draftKey: draftKey(d) } });
      } catch (e) {
        get().notify('error', `replay: ${errorText(e)}`);
      } finally {
        set({ replaying: false });
      }
    },
    saveDraft: async () => {
      const s = get();
      if (!s.draft) return false;
      if (!canSave(s)) {
        s.notify('error', 'replay the change against past verdicts before saving it');
        return false;
      }
      try {
        const saved = await api['checks.save']({ check: s.draft });
        set((st) => ({ checks: upsert(st.checks, saved), draft: null, replay: null }));
        get().notify('info', `check ${saved.id} saved`);
        return true;
      } catch (e) {
        get().notify('error', `save: ${errorText(e)}`);
        return false;
      }
    },
    retireCheck: async (id) => {
      try {
        const c = await api['checks.retire']({ id });
        set((st) => ({ checks: upsert(st.checks, c), draft: st.draft?.id === id ? null : st.draft }));
      } catch (e) {
        get().notify('error', `retire: ${errorText(e)}`);
      }
    },
    exportRules: async () => {
      try {
        set({ rulesText: (await api['rules.export']({})).text, importResult: null });
      } catch (e) {
        get().notify('error', `export: ${errorText(e)}`);
      }
    },
    setRulesText: (rulesText) => set({ rulesText }),
    importRules: async () => {
      try {
        const r = await api['rules.import']({ text: get().rulesText });
        set({ importResult: r });
        if (r.ok) await Promise.all([get().loadChecks(), get().loadPolicies()]);
      } catch (e) {
        get().notify('error', `import: ${errorText(e)}`);
      }
    },
    checksChanged: (checks) => set({ checks }),
  });

function upsert(list: Check[], c: Check): Check[] {
  return list.some((x) => x.id === c.id) ? list.map((x) => (x.id === c.id ? c : x)) : [...list, c];
}
