/**
 * The one implementation of the console contract (shared/contract.ts) over the real engine. The
 * Electron main process and the headless console both serve exactly these handlers; they differ
 * only in transport. Every params object is validated (params.ts) before anything runs.
 */
import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { EvalJob, EventName, Events, Handlers, LeafDetail, MethodName, ReplayFlip, RuleGenJob, SandboxInfo, StatusInfo } from '../../../shared/contract.js';
import { METHOD_NAMES } from '../../../shared/contract.js';
import type { Check, CheckResult, Decision, EvalCase, TreeEvent, Verdict } from '../../../shared/types.js';
import { EngineError, toErrorInfo } from '../../../shared/errors.js';
import type { Engine } from '../engine.js';
import { embeddingText } from '../engine.js';
import type { Log } from '../ports.js';
import { PROJECT_ROOT } from '../config.js';
import { DEFAULT_GATE, decide, type GateConfig } from '../core/gate.js';
import { runChecks } from '../core/checks/index.js';
import { similarityEntropy, dot } from '../core/tree/memory-tree.js';
import { parseCaseLines, readCaseFile, runEval, type CaseFile } from '../eval/run-eval.js';
import { runGated, sandboxServiceFor, type SandboxService } from '../gated-run.js';
import { readSeedCases } from '../create-engine.js';
import { generateRules, harmfulSeeds } from '../rule-generation.js';
import { parseParams } from './params.js';

/** What the handlers need: the engine, and optionally the sandbox service and LLM settings to report. */
export interface HandlerDeps {
  engine: Engine;
  /** Defaults to the engine's shared sandbox service. */
  sandbox?: SandboxService;
  log?: Log;
  /** Gate thresholds used when replaying verdicts (default: the shipped ones). */
  gate?: GateConfig;
  /** The LLM settings shown in the status header (never the key). */
  llm?: { model: string; baseURL: string };
}

/** Subscription to contract events, as both transports forward them. */
export interface HandlerEvents {
  on<E extends EventName>(event: E, fn: (payload: Events[E]) => void): () => void;
}

/** The handlers plus their event stream and a way to stop forwarding. */
export type ConsoleHandlers = Handlers & {
  events: HandlerEvents;
  /** Runs one method by name with untrusted params: validates, then calls. */
  call(method: string, params: unknown): Promise<unknown>;
  /**
   * Polls the store for verdicts recorded by other processes (`warden check`, hooks) so they
   * reach the console as `verdict.created` too. Returns the stop function.
   */
  watchStore(intervalMs?: number): () => void;
  /** Stops forwarding engine events and polling. */
  close(): void;
};

const SIMILAR_MIN = 0.8;
const REPLAY_DEFAULT = 2000;
const EVAL_PROGRESS_MS = 100;
/** Seeds a console rule-generation job starts from when the caller names no limit. */
const RULEGEN_DEFAULT_SEEDS = 10;
const VECTOR_CACHE = 10_000;

let cachedVersion: string | undefined;
function version(): string {
  if (cachedVersion === undefined) {
    try {
      cachedVersion = (JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as { version?: string }).version ?? '0.0.0';
    } catch {
      cachedVersion = '0.0.0';
    }
  }
  return cachedVersion;
}

/** Builds the handlers for one engine. */
export function createHandlers(deps: HandlerDeps): ConsoleHandlers {
  const { engine } = deps;
  const gate = deps.gate ?? DEFAULT_GATE;
  const emitter = new EventEmitter();
  emitter.setMaxListeners(1000);
  const emit = <E extends EventName>(event: E, payload: Events[E]): void => {
    emitter.emit(event, payload);
  };
  let sandboxService: SandboxService | undefined = deps.sandbox;
  const offs: (() => void)[] = [];
  let offProgress: (() => void) | undefined;
  const sandbox = (): SandboxService => {
    if (!sandboxService) sandboxService = sandboxServiceFor(engine, deps.log ? { log: deps.log } : {});
    if (!offProgress) {
      offProgress = sandboxService.onProgress((p) => emit('sandbox.progressed', { step: p.phase, done: Math.round(p.fraction * 100), total: 100 }));
      offs.push(offProgress);
    }
    return sandboxService;
  };

  const seen = new Set<string>();
  const remember = (id: string): void => {
    seen.add(id);
    if (seen.size > 20_000) seen.delete(seen.values().next().value!);
  };

  const eventsOf = (ids: number[]): TreeEvent[] => ids.flatMap((id) => engine.store.getEventUndo(id)?.event ?? []);

  offs.push(
    engine.on('verdict.created', (v) => {
      remember(v.id);
      emit('verdict.created', v);
    }),
    engine.on('review.decided', (d) => emit('review.decided', { decision: d, events: eventsOf(d.events) })),
    engine.on('review.reverted', (p) => emit('review.reverted', p)),
    engine.on('tree.changed', (events) => emit('tree.changed', events)),
    engine.on('checks.changed', (checks) => emit('checks.changed', checks)),
  );

  const requireLeaf = (leafId: string, field = 'leafId') => {
    const n = engine.tree.node(leafId);
    if (!n || n.kind !== 'leaf') throw new EngineError('NOT_FOUND', `no leaf ${leafId}`, field);
    return n;
  };

  /** Appends a curation event with its undo record, persists the tree, and tells the console. */
  const recordCuration = (draft: Omit<TreeEvent, 'id' | 'at'>, undo: unknown): TreeEvent => {
    const full = { ...draft, at: Date.now() };
    const id = engine.store.appendEvent(full, undo);
    engine.persistTree();
    const e = { ...full, id };
    emit('tree.changed', [e]);
    return e;
  };

  const jobs = new Map<string, EvalJob>();
  const ruleJobs = new Map<string, RuleGenJob>();
  // pending asks are compared again and again while a reviewer works through the queue
  const vectorCache = new Map<string, Float32Array>();

  const impl: Handlers = {
    async 'status.get'(): Promise<StatusInfo> {
      const counts = engine.counts();
      const size = engine.tree.size;
      return {
        version: version(),
        storePath: engine.storePath,
        embedder: engine.embedder.id,
        projector: engine.projectorId,
        llm: deps.llm ? { configured: true, model: deps.llm.model, baseUrl: deps.llm.baseURL } : { configured: false },
        sandbox: await sandbox().status(),
        counts: { allow: counts.allow, deny: counts.deny, ask: counts.ask, pending: counts.pending },
        tree: { categories: size.categories, clusters: Math.max(0, size.nodes - size.leaves - size.categories - 1), leaves: size.leaves },
        checks: engine.listChecks().length,
      };
    },

    'verdicts.check': async (p) => engine.check(p.request),
    'verdicts.list': async (p) => engine.listVerdicts(p),
    'verdicts.get': async (p) => engine.getVerdict(p.id),

    'review.list': async (p) => engine.listVerdicts({ pending: true, limit: p.limit ?? 1000 }),

    async 'review.decide'(p) {
      const decision = await engine.decide(p);
      return { decision, events: eventsOf(decision.events) };
    },

    async 'review.decideMany'(p) {
      const decided: string[] = [];
      const events: TreeEvent[] = [];
      const failed: { verdictId: string; message: string }[] = [];
      for (const verdictId of p.verdictIds) {
        try {
          const d = await engine.decide({ verdictId, outcome: p.outcome, reason: p.reason });
          decided.push(verdictId);
          events.push(...eventsOf(d.events));
        } catch (e) {
          failed.push({ verdictId, message: toErrorInfo(e).message });
        }
      }
      return { decided, events, failed };
    },

    async 'review.similar'(p) {
      const target = engine.getVerdict(p.verdictId);
      const leaf = target.rules[0]?.leafId;
      const pending = engine.listVerdicts({ pending: true, limit: 5000 }).filter((v) => v.id !== target.id);
      if (pending.length === 0) return [];
      const x = await engine.embedOne(embeddingText(target.request, target.facts));
      const missing = pending.filter((v) => !vectorCache.has(v.id));
      if (missing.length > 0) {
        const fresh = await engine.embedder.embed(missing.map((v) => embeddingText(v.request, v.facts)));
        missing.forEach((v, i) => vectorCache.set(v.id, fresh[i]!));
        while (vectorCache.size > VECTOR_CACHE) vectorCache.delete(vectorCache.keys().next().value!);
      }
      const vectors = pending.map((v) => vectorCache.get(v.id)!);
      const scored = pending
        .map((v, i) => ({ v, sameLeaf: !!leaf && v.rules[0]?.leafId === leaf, sim: dot(vectors[i]!, x) }))
        .filter((s) => s.sameLeaf || s.sim >= SIMILAR_MIN)
        .sort((a, b) => Number(b.sameLeaf) - Number(a.sameLeaf) || b.sim - a.sim);
      return scored.slice(0, p.limit ?? 50).map((s) => s.v);
    },

    'review.revert': async (p) => engine.revertDecision(p),

    'tree.get': async () => engine.treeInfo(),

    async 'tree.leaf'(p): Promise<LeafDetail> {
      const n = requireLeaf(p.id, 'id');
      const node = {
        id: n.id,
        parentId: n.parentId,
        kind: n.kind,
        name: n.name,
        radius: n.radius,
        members: n.members.length,
        entropy: similarityEntropy(n.members.map((m) => m.vector), n.centroid),
        checkIds: n.checkIds,
        hits: n.hits,
        lastHit: n.lastHit,
        overrides: n.overrides,
        retired: n.retired,
        ...(n.rule ? { rule: n.rule } : {}),
      };
      const byId = new Map(engine.listChecks().map((c) => [c.id, c]));
      return {
        node,
        members: engine.tree.leafMembers(n.id).map((m) => ({ id: m.id, label: m.label, text: m.text, source: m.source, ...(m.at !== undefined ? { at: m.at } : {}) })),
        checks: n.checkIds.flatMap((id) => byId.get(id) ?? []),
        events: engine.treeEvents({ limit: 100_000 }).filter((e) => e.nodeId === n.id),
      };
    },

    'tree.events': async (p) => engine.treeEvents(p),
    async 'tree.importSafeHarbor'(p) {
      return engine.importSafeHarbor(p.path);
    },

    async 'tree.updateRule'(p) {
      const leaf = requireLeaf(p.leafId);
      const before = leaf.rule ? { ...leaf.rule } : { prohibition: '', exemption: '' };
      return engine.store.transaction(() => {
        const { event } = engine.tree.updateRule(p.leafId, p.rule);
        return recordCuration({ ...event, detail: p.reason ? `${event.detail}: ${p.reason}` : event.detail }, { type: 'rule', leafId: p.leafId, before });
      });
    },

    async 'tree.retire'(p) {
      const leaf = requireLeaf(p.leafId);
      if (leaf.retired) throw new EngineError('CONFLICT', `leaf ${p.leafId} is already retired`, 'leafId');
      return engine.store.transaction(() => {
        const { event } = engine.tree.setRetired(p.leafId, true);
        return recordCuration({ ...event, detail: p.reason ? `${event.detail}: ${p.reason}` : event.detail }, { type: 'retired', leafId: p.leafId, before: false });
      });
    },

    async 'tree.revertEvent'(p) {
      const rec = engine.store.getEventUndo(p.eventId);
      if (!rec) throw new EngineError('NOT_FOUND', `no tree event ${p.eventId}`, 'eventId');
      if (rec.event.reverted) throw new EngineError('CONFLICT', `tree event ${p.eventId} was already reverted`, 'eventId');
      if (rec.event.cause) {
        const v = engine.store.getVerdict(rec.event.cause);
        if (v?.review?.events.includes(p.eventId)) {
          throw new EngineError('CONFLICT', `tree event ${p.eventId} came from the review of verdict ${v.id}; revert that decision instead (review.revert)`, 'eventId');
        }
      }
      const undo = rec.undo as { type?: string; leafId?: string; before?: unknown } | undefined;
      if (!undo || (undo.type !== 'rule' && undo.type !== 'retired') || typeof undo.leafId !== 'string') {
        throw new EngineError('BAD_INPUT', `tree event ${p.eventId} (${rec.event.kind}) cannot be undone on its own`, 'eventId');
      }
      const leafId = undo.leafId;
      requireLeaf(leafId, 'eventId');
      return engine.store.transaction(() => {
        if (undo.type === 'rule') engine.tree.updateRule(leafId, undo.before as { prohibition: string; exemption: string });
        else engine.tree.setRetired(leafId, undo.before === true);
        engine.store.markEventReverted(p.eventId);
        return recordCuration({ kind: 'revert', nodeId: leafId, parentId: rec.event.parentId, detail: `reverted event ${p.eventId} (${rec.event.kind})` }, undefined);
      });
    },

    'checks.list': async () => engine.listChecks(),
    async 'checks.save'(p) {
      engine.saveChecks([p.check as Check]);
      return engine.listChecks().find((c) => c.id === p.check.id)!;
    },
    async 'checks.retire'(p) {
      const c = engine.listChecks().find((x) => x.id === p.id);
      if (!c) throw new EngineError('NOT_FOUND', `no check ${p.id}`, 'id');
      engine.saveChecks([{ ...c, enabled: false }]);
      return engine.listChecks().find((x) => x.id === p.id)!;
    },
    async 'checks.replay'(p) {
      return replayChecks(engine, p.checks as Check[], p.limit ?? REPLAY_DEFAULT, gate);
    },

    'rules.export': async (p) => ({ text: engine.exportRules(p.policyId) }),
    'rules.import': async (p) => engine.importRules(p.text),
    'policies.list': async () => engine.listPolicies(),
    async 'policies.remove'(p) {
      const policy = engine.listPolicies().find((x) => x.id === p.id);
      if (!policy || !engine.removePolicy(p.id)) throw new EngineError('NOT_FOUND', `no policy ${p.id}`, 'id');
      return { removed: p.id, checks: policy.checks };
    },

    'sandbox.status': async (): Promise<SandboxInfo> => sandbox().status(),
    'sandbox.prepare': async (): Promise<SandboxInfo> => sandbox().prepare(),
    async 'sandbox.run'(p) {
      const svc = sandbox();
      // runGated serves the engine's shared service; a service handed in explicitly is used directly
      return svc === sandboxServiceFor(engine) ? runGated(engine, p) : svc.run(p);
    },

    async 'eval.run'(p) {
      const text = p.cases.trimStart();
      // the console sends the file's text; a local caller may name a file instead
      const looksLikePath = !text.startsWith('{') && !p.cases.trim().includes('\n') && p.cases.length <= 4096;
      if (!text.startsWith('{') && !looksLikePath) throw new EngineError('BAD_INPUT', 'cases must be JSONL text (one case object a line) or the path of a case file', 'cases');
      const file: CaseFile = looksLikePath ? readCaseFile(p.cases.trim()) : parseCaseLines(p.cases);
      if (file.cases.length === 0) {
        const first = file.errors[0];
        throw new EngineError('BAD_INPUT', first ? `no usable case; line ${first.line}: ${first.message}` : 'the case file is empty', 'cases');
      }
      const job: EvalJob = { jobId: randomUUID(), state: 'running', done: 0, total: file.cases.length };
      jobs.set(job.jobId, job);
      let last = 0;
      void runEval(engine, file, {
        onProgress: (done, total) => {
          job.done = done;
          job.total = total;
          const now = performance.now();
          if (done < total && now - last < EVAL_PROGRESS_MS) return;
          last = now;
          if (done < total) emit('eval.progressed', { ...job });
        },
      }).then(
        ({ metrics, results }) => {
          job.state = 'done';
          job.metrics = metrics;
          job.cases = results.map((r) => ({
            id: r.item.id,
            label: r.item.label,
            decision: r.verdict.decision,
            path: r.verdict.path,
            latencyMs: r.verdict.latencyMs,
            ...(r.item.category ? { category: r.item.category } : {}),
          }));
          emit('eval.progressed', { ...job });
        },
        (e: unknown) => {
          job.state = 'failed';
          job.error = toErrorInfo(e).message;
          emit('eval.progressed', { ...job });
        },
      );
      return { ...job };
    },
    async 'rules.generate'(p) {
      if (!engine.llm) throw new EngineError('BAD_INPUT', 'rule generation needs a model: set "llm" in config.json or WARDEN_LLM_BASE_URL', 'llm');
      let cases: EvalCase[];
      if (p.seeds === undefined) cases = readSeedCases();
      else {
        const file = parseCaseLines(p.seeds);
        const first = file.errors[0];
        if (first) throw new EngineError('BAD_INPUT', `seeds line ${first.line}: ${first.message}`, 'seeds');
        cases = file.cases.map((c) => c.item);
      }
      const seeds = harmfulSeeds(cases, p.limit ?? RULEGEN_DEFAULT_SEEDS);
      if (seeds.length === 0) throw new EngineError('BAD_INPUT', 'the seeds hold no harmful case (label 1)', 'seeds');
      const job: RuleGenJob = { jobId: randomUUID(), state: 'running', done: 0, total: seeds.length };
      ruleJobs.set(job.jobId, job);
      let last = 0;
      void generateRules(engine, {
        seeds,
        ...(p.perSeed !== undefined ? { perSeed: p.perSeed } : {}),
        onProgress: (g) => {
          Object.assign(job, { done: g.done, total: g.total, stage: g.stage, detail: g.detail });
          const now = performance.now();
          if (now - last < EVAL_PROGRESS_MS) return;
          last = now;
          emit('rules.progressed', { ...job });
        },
      }).then(
        (report) => {
          Object.assign(job, { state: 'done', done: job.total, report });
          emit('rules.progressed', { ...job });
        },
        (e: unknown) => {
          Object.assign(job, { state: 'failed', error: toErrorInfo(e).message });
          emit('rules.progressed', { ...job });
        },
      );
      return { ...job };
    },
    async 'rules.generateGet'(p) {
      const job = ruleJobs.get(p.jobId);
      if (!job) throw new EngineError('NOT_FOUND', `no rule-generation job ${p.jobId}`, 'jobId');
      return { ...job };
    },

    async 'eval.get'(p) {
      const job = jobs.get(p.jobId);
      if (!job) throw new EngineError('NOT_FOUND', `no evaluation job ${p.jobId}`, 'jobId');
      return { ...job };
    },
  };

  const call = async (method: string, params: unknown): Promise<unknown> => {
    if (!(METHOD_NAMES as string[]).includes(method)) throw new EngineError('BAD_INPUT', `unknown method ${JSON.stringify(method).slice(0, 100)}`, 'method');
    const m = method as MethodName;
    const parsed = parseParams(m, params);
    return (impl[m] as (p: unknown) => Promise<unknown>)(parsed);
  };

  // every method, called by name or directly, goes through validation
  const validated = Object.fromEntries(METHOD_NAMES.map((m) => [m, (params: unknown) => call(m, params)])) as unknown as Handlers;

  const timers = new Set<NodeJS.Timeout>();
  return {
    ...validated,
    events: {
      on(event, fn) {
        emitter.on(event, fn as (p: unknown) => void);
        return () => emitter.off(event, fn as (p: unknown) => void);
      },
    },
    call,
    watchStore(intervalMs = 1000) {
      let since = Date.now();
      for (const v of engine.listVerdicts({ limit: 200 })) remember(v.id);
      const timer = setInterval(() => {
        try {
          const fresh = engine.listVerdicts({ limit: 200 }).filter((v) => !seen.has(v.id) && v.at >= since - 60_000);
          for (const v of fresh.reverse()) {
            remember(v.id);
            emit('verdict.created', v);
          }
          since = Date.now();
        } catch (e) {
          deps.log?.warn('could not poll the store for new verdicts', toErrorInfo(e));
        }
      }, intervalMs);
      timer.unref();
      timers.add(timer);
      return () => {
        clearInterval(timer);
        timers.delete(timer);
      };
    },
    close() {
      for (const off of offs.splice(0)) off();
      for (const t of timers) clearInterval(t);
      timers.clear();
    },
  };
}

/**
 * Re-runs past verdicts' facts through a proposed check set (the current checks with the proposed
 * ones replacing those of the same id) and lists the automatic decisions that would change. The
 * gate is re-run on the stored scores with both check sets; a verdict flips when the proposed set
 * changes the gate's answer and the new answer differs from what was decided. Verdicts a human
 * decided, and those that failed before the checks ran, are left out.
 */
export function replayChecks(engine: Engine, proposed: Check[], limit: number, gate: GateConfig): { replayed: number; flips: ReplayFlip[] } {
  const current = engine.listChecks();
  const merged = new Map(current.map((c) => [c.id, c]));
  for (const c of proposed) merged.set(c.id, c);
  const next = [...merged.values()];
  const flips: ReplayFlip[] = [];
  let replayed = 0;
  for (const v of engine.listVerdicts({ limit })) {
    if (v.review || v.path === 'error' || v.path === 'human' || v.facts.parseError) continue;
    replayed++;
    const env = { facts: v.facts, request: v.request, context: v.request.context ?? {}, probes: v.probes };
    const leafChecks = new Set<string>(v.checks.map((c) => c.id));
    for (const r of v.rules) for (const id of engine.tree.node(r.leafId)?.checkIds ?? []) leafChecks.add(id);
    const run = (set: Check[]): CheckResult[] => runChecks(set.filter((c) => c.scope !== 'retrieved' || leafChecks.has(c.id)), env);
    const gateDecision = (checks: CheckResult[]): Decision => {
      const o = decide({ facts: v.facts, checks, pHarm: v.scores.pHarm, sBenign: v.scores.sBenign }, gate);
      return o.kind === 'final' ? o.decision : 'ask';
    };
    const afterChecks = run(next);
    const after = gateDecision(afterChecks);
    if (after === v.decision || after === gateDecision(run(current))) continue;
    const failed = afterChecks.filter((c) => c.status === 'fail' || c.status === 'error').map((c) => c.title);
    flips.push({
      verdictId: v.id,
      before: v.decision,
      after,
      command: v.facts.commandForm || commandOf(v),
      reason: failed.length ? `with the proposed checks: ${failed.join('; ')}` : 'no check fails with the proposed checks',
    });
  }
  return { replayed, flips };
}

function commandOf(v: Verdict): string {
  const a = v.request.action;
  return a.type === 'shell' ? a.command : a.type === 'tool' ? a.name : a.type === 'sql' ? a.query : a.type === 'web' ? `${a.operation} ${a.element}` : a.content.slice(0, 200);
}
