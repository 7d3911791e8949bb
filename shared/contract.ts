/**
 * The one typed contract between the console (renderer) and the engine host (Electron main over
 * IPC, or the headless console over a WebSocket). Every method is `domain.verb`, takes one plain
 * object and returns a Promise; every event is `domain.pastTense`. The renderer only ever sees an
 * object of type {@link WardenApi}; it cannot tell which transport carries it.
 */
import type {
  ActionRequest,
  Check,
  EvalMetrics,
  LoadedPolicy,
  ReviewDecision,
  RuleGenReport,
  RulePair,
  TreeEvent,
  TreeNodeInfo,
  Verdict,
} from './types.js';

/** What the console shows in its header: versions, store, models, sandbox and counts. */
export interface StatusInfo {
  version: string;
  storePath: string;
  embedder: string;
  projector: string;
  llm: { configured: boolean; model?: string; baseUrl?: string };
  sandbox: SandboxInfo;
  counts: { allow: number; deny: number; ask: number; pending: number };
  tree: { categories: number; clusters: number; leaves: number };
  checks: number;
}

/** Whether a Docker-API engine answers and whether the base image is ready. */
export interface SandboxInfo {
  available: boolean;
  /** One line saying what is wrong and how to fix it, when not available. */
  message?: string;
  engine?: string;
  imageReady?: boolean;
}

/** One example that formed a leaf. */
export interface LeafMemberInfo {
  id: string;
  label: 0 | 1;
  text: string;
  source: string;
  at?: number;
}

/** A leaf with everything the leaf detail view shows. */
export interface LeafDetail {
  node: TreeNodeInfo;
  members: LeafMemberInfo[];
  checks: Check[];
  events: TreeEvent[];
}

/** A verdict whose decision would change under a proposed rule or check edit. */
export interface ReplayFlip {
  verdictId: string;
  before: Verdict['decision'];
  after: Verdict['decision'];
  command: string;
  reason: string;
}

/** Result of importing a rules file: either everything or nothing. */
export type ImportResult = { ok: true; imported: number } | { ok: false; issues: { path: string; message: string }[] };

/** One finished case of an evaluation run. */
export interface EvalCaseResult {
  id: string;
  label: 0 | 1;
  decision: Verdict['decision'];
  path: Verdict['path'];
  category?: string;
  latencyMs: number;
}

/** A running or finished evaluation job. */
export interface EvalJob {
  jobId: string;
  state: 'running' | 'done' | 'failed';
  done: number;
  total: number;
  metrics?: EvalMetrics;
  cases?: EvalCaseResult[];
  error?: string;
}

/** An adversarial rule-generation job as the console follows it. */
export interface RuleGenJob {
  jobId: string;
  state: 'running' | 'done' | 'failed';
  /** Seeds finished, of `total`. */
  done: number;
  total: number;
  stage?: 'mutate' | 'test' | 'learn';
  /** What the job is working on now (a seed's request, a variant's action). */
  detail?: string;
  report?: RuleGenReport;
  error?: string;
}

/** Every method of the contract: name -> [argument, result]. */
export interface Methods {
  'status.get': [Record<string, never>, StatusInfo];

  'verdicts.check': [{ request: ActionRequest }, Verdict];
  'verdicts.list': [{ limit?: number; before?: number; decision?: Verdict['decision']; agent?: string; session?: string }, Verdict[]];
  'verdicts.get': [{ id: string }, Verdict];

  'review.list': [{ limit?: number }, Verdict[]];
  'review.decide': [{ verdictId: string; outcome: 'approve' | 'deny'; reason: string }, { decision: ReviewDecision; events: TreeEvent[] }];
  'review.decideMany': [{ verdictIds: string[]; outcome: 'approve' | 'deny'; reason: string }, { decided: string[]; events: TreeEvent[]; failed: { verdictId: string; message: string }[] }];
  'review.similar': [{ verdictId: string; limit?: number }, Verdict[]];
  'review.revert': [{ verdictId: string }, { verdictId: string; reverted: number[] }];

  'tree.get': [Record<string, never>, TreeNodeInfo[]];
  'tree.leaf': [{ id: string }, LeafDetail];
  'tree.events': [{ after?: number; limit?: number }, TreeEvent[]];
  'tree.importSafeHarbor': [{ path: string }, { categories: number; clusters: number; leaves: number }];
  'tree.updateRule': [{ leafId: string; rule: RulePair; reason?: string }, TreeEvent];
  'tree.retire': [{ leafId: string; reason?: string }, TreeEvent];
  'tree.revertEvent': [{ eventId: number }, TreeEvent];

  'checks.list': [Record<string, never>, Check[]];
  'checks.save': [{ check: Check }, Check];
  'checks.retire': [{ id: string }, Check];
  'checks.replay': [{ checks: Check[]; limit?: number }, { replayed: number; flips: ReplayFlip[] }];

  /** The rules file of the checks of no policy, or with `policyId` that policy's file (policy block and checks). */
  'rules.export': [{ policyId?: string }, { text: string }];
  'rules.import': [{ text: string }, ImportResult];
  'policies.list': [Record<string, never>, LoadedPolicy[]];
  /** Removes a policy with the checks that came with it. */
  'policies.remove': [{ id: string }, { removed: string; checks: string[] }];
  /**
   * Starts adversarial rule generation (needs a model): `seeds` is JSONL case text whose harmful
   * cases are the seeds (default: the shipped harmful seed examples), at most `limit` of them.
   */
  'rules.generate': [{ seeds?: string; limit?: number; perSeed?: number }, RuleGenJob];
  'rules.generateGet': [{ jobId: string }, RuleGenJob];

  'sandbox.status': [Record<string, never>, SandboxInfo];
  'sandbox.prepare': [Record<string, never>, SandboxInfo];
  'sandbox.run': [{ request: ActionRequest; setup?: string; session?: string }, Verdict];

  'eval.run': [{ cases: string; name?: string }, EvalJob];
  'eval.get': [{ jobId: string }, EvalJob];
}

/** Every event of the contract: name -> payload. */
export interface Events {
  'verdict.created': Verdict;
  'review.decided': { decision: ReviewDecision; events: TreeEvent[] };
  'review.reverted': { verdictId: string };
  'tree.changed': TreeEvent[];
  'checks.changed': Check[];
  'sandbox.progressed': { step: string; done: number; total: number };
  'eval.progressed': EvalJob;
  'rules.progressed': RuleGenJob;
}

export type MethodName = keyof Methods;
export type EventName = keyof Events;
export type Params<M extends MethodName> = Methods[M][0];
export type Result<M extends MethodName> = Methods[M][1];

/** The object the renderer talks to: one function per method, plus event subscription. */
export type WardenApi = { [M in MethodName]: (params: Params<M>) => Promise<Result<M>> } & {
  /** Subscribes to an event; returns the unsubscribe function. */
  on<E extends EventName>(event: E, fn: (payload: Events[E]) => void): () => void;
};

/** Server-side implementation of every method (Electron main and the headless console share it). */
export type Handlers = { [M in MethodName]: (params: Params<M>) => Promise<Result<M>> };

const methodRecord: { [M in MethodName]: true } = {
  'status.get': true,
  'verdicts.check': true,
  'verdicts.list': true,
  'verdicts.get': true,
  'review.list': true,
  'review.decide': true,
  'review.decideMany': true,
  'review.similar': true,
  'review.revert': true,
  'tree.get': true,
  'tree.leaf': true,
  'tree.events': true,
  'tree.importSafeHarbor': true,
  'tree.updateRule': true,
  'tree.retire': true,
  'tree.revertEvent': true,
  'checks.list': true,
  'checks.save': true,
  'checks.retire': true,
  'checks.replay': true,
  'rules.export': true,
  'rules.import': true,
  'policies.list': true,
  'policies.remove': true,
  'rules.generate': true,
  'rules.generateGet': true,
  'sandbox.status': true,
  'sandbox.prepare': true,
  'sandbox.run': true,
  'eval.run': true,
  'eval.get': true,
};

const eventRecord: { [E in EventName]: true } = {
  'verdict.created': true,
  'review.decided': true,
  'review.reverted': true,
  'tree.changed': true,
  'checks.changed': true,
  'sandbox.progressed': true,
  'eval.progressed': true,
  'rules.progressed': true,
};

/** Runtime list of method names; the record above makes the compiler check it against {@link Methods}. */
export const METHOD_NAMES = Object.keys(methodRecord) as MethodName[];

/** Runtime list of event names, checked against {@link Events} the same way. */
export const EVENT_NAMES = Object.keys(eventRecord) as EventName[];

/** True when `name` is a method of the contract. */
export function isMethodName(name: unknown): name is MethodName {
  return typeof name === 'string' && Object.prototype.hasOwnProperty.call(methodRecord, name);
}

/** True when `name` is an event of the contract. */
export function isEventName(name: unknown): name is EventName {
  return typeof name === 'string' && Object.prototype.hasOwnProperty.call(eventRecord, name);
}

/** IPC channel prefix used by the Electron shell; main rejects any other channel. */
export const IPC_PREFIX = 'warden:';

/** Wire messages of the WebSocket transport (JSON, one per frame). */
export type WireRequest = { id: number; method: MethodName; params: unknown };
export type WireResponse = { id: number; result: unknown } | { id: number; error: { code: string; message: string; field?: string } };
export type WireEvent = { event: EventName; payload: unknown };
