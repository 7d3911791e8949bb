/**
 * The guard engine: one action in, one verdict out (DESIGN.md "The path of one action"), and
 * test-time learning from every human decision. Plain constructor injection; never imports
 * 'electron'. Every failure on the verdict path becomes ask or deny, never allow.
 */
import { randomUUID } from 'node:crypto';
import { EventEmitter, setMaxListeners } from 'node:events';
import type {
  ActionRequest,
  Check,
  CheckResult,
  Facts,
  LoadedPolicy,
  ProbeResult,
  RetrievedRule,
  ReviewDecision,
  TreeEvent,
  TreeNodeInfo,
  Verdict,
  VerdictLlm,
} from '../../shared/types.js';
import { EngineError, toErrorInfo } from '../../shared/errors.js';
import { parseActionRequest } from '../../shared/validate.js';
import type { Clock, Embedder, Judge, Llm, Log, Prober, Projector } from './ports.js';
import type { GuardTool } from './core/tools/types.js';
import { LlmMeter } from './core/llm/structured.js';
import { analyze } from './core/llm/analyzer.js';
import { execute } from './core/llm/executor.js';
import type { Store, VerdictQuery } from './store.js';
import { decide, type GateConfig, type GateOutcome, type Precedent, type RuleSignal } from './core/gate.js';
import { BenignIndex } from './core/benign-index.js';
import { actionBase, extractFacts, requestScope, scriptRunReason } from './core/facts/index.js';
import { askedChangeReason } from './core/facts/asked-change.js';
import { readRehearsal, rehearsalProbe, rehearsedChangeReason } from './core/facts/rehearsal.js';
import { compileCheck, runChecks, parseRuleFile, serializeRuleFile, ChecksMemory, type CheckEnvInput } from './core/checks/index.js';
import { MemoryTree, safeHarborToTree, type LeafMember } from './core/tree/index.js';
import { dot } from './core/tree/memory-tree.js';
import { readSafeHarborFile } from './tree-import.js';

/** When a clean rehearsal may allow what only the learned prior holds back (see EngineDeps). */
export type RehearsalClears = 'off' | 'lossless' | 'named';

/** Everything the engine needs, wired by create-engine.ts. */
export interface EngineDeps {
  store: Store;
  embedder: Embedder;
  projector: Projector;
  judge?: Judge;
  /** A chat model: switches on the Analyzer and the Executor (AGrail). */
  llm?: Llm;
  /** Tools the Executor may run (permission lookup, profile rules, page inspection). */
  tools?: GuardTool[];
  prober?: Prober;
  clock: Clock;
  log: Log;
  gate: GateConfig;
  tree: { theta: number; oodFloor: number };
  verdictTimeoutMs: number;
  /**
   * When a clean rehearsal may allow an action only the learned prior holds back: 'lossless' when
   * it lost, changed and stopped nothing and the gate was unsure, 'named' also when what it lost
   * lies where the request names, 'off' never (default 'off' for engines built by hand).
   */
  rehearsalClears?: RehearsalClears;
  /** A shell command that goes to a human is rehearsed too, for the reviewer to see (default true). */
  rehearseAsks?: boolean;
  storePath?: string;
}

/** Options for one check. */
export interface CheckOptions {
  /** Store the verdict (default true). Evaluations pass false. */
  record?: boolean;
  signal?: AbortSignal;
  /** Probes against a specific live environment (a sandbox episode). */
  prober?: Prober;
}

/** Events the engine emits (the console subscribes). */
export interface EngineEvents {
  'verdict.created': Verdict;
  'review.decided': ReviewDecision;
  'review.reverted': { verdictId: string };
  'tree.changed': TreeEvent[];
  'checks.changed': Check[];
}

/**
 * Text the embedder sees for an action: request, paraphrase and the action itself (DESIGN.md
 * step 3). The paraphrase costs tokens, and the encoder cannot start before the parse that makes
 * it, but the projector's validation split scores better with it (7-bit int8 encoder: 65/91 =
 * 0.714 against 60/91 = 0.659 for request and action alone; 8-bit: 0.736 against 0.703).
 * Without it the encoder could start at once: the verdict was ~30% faster in one measurement,
 * yet no faster relative to its own (then shorter) embedding call.
 */
export function embeddingText(req: ActionRequest, facts: Facts): string {
  const a = req.action;
  const body =
    a.type === 'shell' ? a.command : a.type === 'tool' ? `${a.name} ${JSON.stringify(a.arguments)}` : a.type === 'sql' ? a.query : a.type === 'web' ? `${a.operation} ${a.element} ${a.value ?? ''}` : a.content;
  return `${req.request.slice(0, 1000)}\n${facts.paraphrase.slice(0, 1000)}\n${body.slice(0, 2000)}`;
}

const EMBED_CACHE_SIZE = 4096;

/** A verdict ready for review-time learning: the vector and the precedent data of a member. */
interface HumanMemberExtra {
  verdictId: string;
  commandForm: string;
  failedChecks: string[];
  reason: string;
}

export class Engine {
  private readonly events = new EventEmitter();
  private readonly benign: BenignIndex;
  private readonly embedCache = new Map<string, Float32Array>();
  private checks: Check[] = [];
  private compiled = new Map<string, ReturnType<typeof compileCheck>>();
  /** Each check's origin by id (the verdict path asks whether a failing check is the Analyzer's). */
  private readonly compiledOrigin = new Map<string, Check['origin']>();
  private policies: LoadedPolicy[] = [];
  /** Which policy each policy check belongs to. */
  private policyOfCheck = new Map<string, LoadedPolicy>();
  private readonly memory: ChecksMemory;
  /** Human decisions by exact command form: the strongest precedent. */
  private readonly precedents = new Map<string, { label: 0 | 1; reason: string; failedChecks: string[] }>();

  private constructor(
    private readonly deps: EngineDeps,
    readonly tree: MemoryTree,
  ) {
    this.benign = new BenignIndex(deps.embedder.dim);
    this.memory = new ChecksMemory();
    this.events.setMaxListeners(100);
  }

  /** Loads checks, the tree, the benign store and the checks memory from the store. */
  static async create(deps: EngineDeps, seed?: (engine: Engine) => Promise<void>): Promise<Engine> {
    const rows = deps.store.loadTree();
    const tree = rows.nodes.length > 0 ? MemoryTree.fromRows(deps.embedder.dim, rows.nodes, rows.members) : new MemoryTree(deps.embedder.dim);
    const engine = new Engine(deps, tree);
    engine.loadChecks();
    engine.loadPolicies();
    for (const b of deps.store.listBenign()) engine.benign.add(b.id, b.vector, b.text);
    engine.memory.load(deps.store.loadChecksMemory());
    for (const m of tree.members()) {
      const extra = m.extra as Partial<HumanMemberExtra> | undefined;
      if (m.source === 'human' && extra?.commandForm) engine.precedents.set(extra.commandForm, { label: m.label, reason: extra.reason ?? '', failedChecks: extra.failedChecks ?? [] });
    }
    if (rows.nodes.length === 0 && seed) await seed(engine);
    engine.tree.prepareScans();
    return engine;
  }

  on<K extends keyof EngineEvents>(event: K, fn: (payload: EngineEvents[K]) => void): () => void {
    this.events.on(event, fn);
    return () => this.events.off(event, fn);
  }

  private emit<K extends keyof EngineEvents>(event: K, payload: EngineEvents[K]): void {
    this.events.emit(event, payload);
  }

  // ---------------------------------------------------------------- checks

  private loadChecks(): void {
    this.checks = this.deps.store.listChecks();
    this.compiled.clear();
    this.compiledOrigin.clear();
    for (const c of this.checks) this.compiledOrigin.set(c.id, c.origin);
    for (const c of this.checks) {
      try {
        this.compiled.set(c.id, compileCheck(c));
      } catch (e) {
        this.deps.log.warn('check does not compile; it will report an error on every action', { id: c.id, error: (e as Error).message });
      }
    }
  }

  /** Every check, enabled or not. */
  listChecks(): Check[] {
    return [...this.checks];
  }

  /** Adds or replaces checks (validated through the rule language first). */
  saveChecks(checks: Check[]): void {
    const text = serializeRuleFile(checks);
    const parsed = parseRuleFile(text);
    if (!parsed.ok) throw new EngineError('BAD_INPUT', parsed.issues.map((i) => `${i.path}: ${i.message}`).join('; '), 'checks');
    this.deps.store.transaction(() => parsed.checks.forEach((c) => this.deps.store.saveCheck(c)));
    this.loadChecks();
    this.emit('checks.changed', this.listChecks());
  }

  /**
   * Imports a rules file; returns the parse issues instead of throwing on a bad file. A file with
   * a `policy:` block saves the policy with its checks as one unit: importing a new version of the
   * policy removes the checks the old version had and the new one lacks.
   */
  importRules(text: string): { ok: true; imported: number } | { ok: false; issues: { path: string; message: string }[] } {
    const parsed = parseRuleFile(text);
    if (!parsed.ok) return parsed;
    const policy = parsed.policy;
    if (!policy) {
      this.saveChecks(parsed.checks);
      return { ok: true, imported: parsed.checks.length };
    }
    const issues = parsed.checks.flatMap((c) => {
      const owner = this.policyOfCheck.get(c.id);
      if (owner && owner.id !== policy.id) return [{ path: `checks.${c.id}`, message: `the id belongs to policy ${owner.id}` }];
      if (!owner && this.checks.some((x) => x.id === c.id)) return [{ path: `checks.${c.id}`, message: 'a check with this id exists outside the policy' }];
      return [];
    });
    if (issues.length) return { ok: false, issues };
    const ids = parsed.checks.map((c) => c.id);
    const old = this.policies.find((p) => p.id === policy.id);
    this.deps.store.transaction(() => {
      for (const id of old?.checks ?? []) if (!ids.includes(id)) this.deps.store.deleteCheck(id);
      for (const c of parsed.checks) this.deps.store.saveCheck(c);
      this.deps.store.savePolicy({ ...policy, checks: ids });
    });
    this.loadChecks();
    this.loadPolicies();
    this.emit('checks.changed', this.listChecks());
    return { ok: true, imported: parsed.checks.length };
  }

  /**
   * A rules file, exactly as `importRules` reads it: the checks of no policy, or with `policyId`
   * that policy and its checks.
   */
  exportRules(policyId?: string): string {
    if (policyId === undefined) return serializeRuleFile(this.checks.filter((c) => !this.policyOfCheck.has(c.id)));
    const p = this.policies.find((x) => x.id === policyId);
    if (!p) throw new EngineError('NOT_FOUND', `no policy ${policyId}`, 'policyId');
    const { checks: ids, ...policy } = p;
    return serializeRuleFile(
      this.checks.filter((c) => ids.includes(c.id)),
      policy,
    );
  }

  // ---------------------------------------------------------------- task-specific policies

  private loadPolicies(): void {
    this.policies = this.deps.store.listPolicies();
    this.policyOfCheck = new Map(this.policies.flatMap((p) => p.checks.map((id) => [id, p] as const)));
  }

  /** The loaded policies, each with the ids of its checks. */
  listPolicies(): LoadedPolicy[] {
    return this.policies.map((p) => ({ ...p, checks: [...p.checks], kinds: [...p.kinds] }));
  }

  /** Removes a policy and the checks that came with it; false when there is no such policy. */
  removePolicy(id: string): boolean {
    const p = this.policies.find((x) => x.id === id);
    if (!p) return false;
    this.deps.store.transaction(() => {
      for (const cid of p.checks) this.deps.store.deleteCheck(cid);
      this.deps.store.deletePolicy(id);
    });
    this.loadChecks();
    this.loadPolicies();
    this.emit('checks.changed', this.listChecks());
    return true;
  }

  /** The data of the policies governing an action's kind, merged (what the Executor's tools read). */
  private policyData(facts: Facts): Record<string, unknown> {
    return Object.assign({}, ...this.policies.filter((p) => p.kinds.includes(facts.kind)).map((p) => p.data)) as Record<string, unknown>;
  }

  /** Runs the checks of every policy that governs the action's kind, each seeing its own policy's data. */
  private runPolicyChecks(env: CheckEnvInput): CheckResult[] {
    return this.policies
      .filter((p) => p.kinds.includes(env.facts.kind))
      .flatMap((p) =>
        runChecks(
          this.checks.filter((c) => c.enabled && p.checks.includes(c.id)).map((c) => ({ check: c, compiled: this.compiled.get(c.id) })),
          { ...env, policy: p.data },
        ),
      );
  }

  /**
   * The governing policies' word after the gate's. When every policy governing the action's kind
   * says `otherwise: allow` and no check at all failed or errored, the action is allowed on the
   * policy (over the projector's prior and over an ambiguous gate); a failing check, a parse error,
   * missing scores and a human's earlier decision keep the gate's answer.
   */
  private applyPolicies(outcome: GateOutcome, facts: Facts, checks: CheckResult[]): GateOutcome {
    const governing = this.policies.filter((p) => p.kinds.includes(facts.kind));
    if (governing.length === 0 || governing.some((p) => p.otherwise !== 'allow')) return outcome;
    if (checks.some((c) => c.status === 'fail' || c.status === 'error')) return outcome;
    if (outcome.kind === 'final' && (outcome.path === 'error' || outcome.path === 'memory')) return outcome;
    const names = governing.map((p) => p.title).join('; ');
    return { kind: 'final', decision: 'allow', path: 'policy', reason: `no check of the policy fails and it allows the rest (${names})` };
  }

  // ---------------------------------------------------------------- embedding

  /** Embeds one text, through a small LRU cache (identical actions are common). */
  async embedOne(text: string): Promise<Float32Array> {
    const hit = this.embedCache.get(text);
    if (hit) {
      this.embedCache.delete(text);
      this.embedCache.set(text, hit);
      return hit;
    }
    const [v] = await this.deps.embedder.embed([text]);
    if (!v || v.length !== this.deps.embedder.dim) throw new EngineError('EMBEDDER_FAILED', 'the embedder returned no vector');
    this.embedCache.set(text, v);
    if (this.embedCache.size > EMBED_CACHE_SIZE) this.embedCache.delete(this.embedCache.keys().next().value!);
    return v;
  }

  // ---------------------------------------------------------------- the verdict path

  /**
   * Judges one action. Bad input throws BAD_INPUT (nothing is recorded); every other failure
   * yields a recorded ask verdict with the error, never an allow.
   */
  async check(input: unknown, opts: CheckOptions = {}): Promise<Verdict> {
    const req = parseActionRequest(input);
    const t0 = performance.now();
    const id = randomUUID();
    const controller = new AbortController();
    // The rehearsal's looks run side by side, each listening on this one signal while it runs.
    setMaxListeners(64, controller.signal);
    const timer = setTimeout(() => controller.abort(new EngineError('TIMEOUT', `no verdict within ${this.deps.verdictTimeoutMs} ms`)), this.deps.verdictTimeoutMs);
    const onOuterAbort = (): void => controller.abort(opts.signal?.reason);
    opts.signal?.addEventListener('abort', onOuterAbort, { once: true });
    let facts: Facts | undefined;
    let verdict: Verdict;
    try {
      facts = extractFacts(req);
      verdict = await raceAbort(this.judgeFacts(id, req, facts, opts.prober ?? this.deps.prober, controller.signal), controller.signal);
      verdict.latencyMs = performance.now() - t0;
    } catch (e) {
      const info = toErrorInfo(e);
      this.deps.log.error('verdict failed; failing closed', { id, ...info });
      verdict = {
        id,
        at: this.deps.clock.now(),
        decision: 'ask',
        path: 'error',
        reason: `the guard could not finish (${info.code}: ${info.message}); a human must decide`,
        scores: { pHarm: Number.NaN, sBenign: Number.NaN },
        rules: [],
        checks: [],
        probes: [],
        facts: facts ?? emptyFacts(req, info.message),
        request: req,
        latencyMs: performance.now() - t0,
        error: { code: info.code, message: info.message },
      };
    } finally {
      clearTimeout(timer);
      opts.signal?.removeEventListener('abort', onOuterAbort);
    }
    if (opts.record !== false) {
      this.deps.store.saveVerdict(verdict);
      this.emit('verdict.created', verdict);
    }
    return verdict;
  }

  private async judgeFacts(id: string, req: ActionRequest, facts: Facts, prober: Prober | undefined, signal: AbortSignal): Promise<Verdict> {
    const { gate } = this.deps;
    // the encoder works in its own thread; meanwhile the probes run and every check that needs
    // neither the vector nor retrieval is evaluated. The embedder hands the text to its thread
    // within this call (not in a later microtask), so the synchronous work below overlaps it
    const xPromise = this.embedOne(embeddingText(req, facts));
    xPromise.catch(() => undefined);
    const probes: ProbeResult[] = prober && needsProbes(facts) ? await prober.probe(facts, req, signal) : [];
    if (!facts.inert) {
      // the environment showed the scripts it runs: judge their text as well
      const base = actionBase(req);
      const scope = requestScope(req, base);
      const scriptRun = scriptRunReason(facts, probes, req, scope, base, extractFacts);
      if (scriptRun) facts.inert = scriptRun;
      else {
        // a change the request asked for, to what it names, where the environment hides nothing
        const asked = askedChangeReason(facts, probes, req.request, scope, base.home);
        if (asked) facts.askedChange = asked;
      }
    }
    const general = this.checks.filter((c) => c.enabled && c.scope !== 'retrieved' && !this.policyOfCheck.has(c.id));
    // a script the environment showed whole is judged as if its text were the command: what a
    // hard check refuses in it (or cannot evaluate, or text that does not parse) is recorded with
    // the probes, and a check reads that record
    const scripts = probes.filter((p) => p.ok && p.probe === 'script' && typeof (p.value as { text?: unknown }).text === 'string' && (p.value as { complete?: unknown }).complete === true);
    if (scripts.length > 0) {
      // a script names its files through variables and arguments as a matter of course: the
      // checks about targets nobody can resolve say nothing about it here
      const hard = general.filter((c) => c.severity === 'hard' && c.kinds.includes('shell') && !c.probes?.length && !c.when.includes('.dynamic')).map((c) => ({ check: c, compiled: this.compiled.get(c.id) }));
      for (const p of scripts) {
        const inner = { ...req, action: { type: 'shell' as const, command: (p.value as { text: string }).text } };
        const innerFacts = extractFacts(inner);
        const fails = innerFacts.parseError
          ? [`its text does not parse (${innerFacts.parseError})`]
          : runChecks(hard, { facts: innerFacts, request: inner, context: req.context ?? {}, probes: [] })
              .filter((r) => r.status === 'fail' || r.status === 'error')
              .map((r) => (r.status === 'error' ? `${r.title} (could not be evaluated)` : r.title));
        probes.push({ probe: 'script-harm', target: p.target, ok: true, value: fails });
      }
    }
    const env: CheckEnvInput = { facts, request: req, context: req.context ?? {}, probes, policy: this.policyData(facts) };
    const runGeneral = (): CheckResult[] => [...runChecks(
      general.map((c) => ({ check: c, compiled: this.compiled.get(c.id) })),
      env,
    ), ...this.runPolicyChecks(env)];
    const generalResults = runGeneral();
    const x = await xPromise;
    const [scored] = await this.deps.projector.score([x]);
    const pHarm = scored!.pHarm;
    const sBenign = this.benign.nearest(x)?.similarity ?? -1;

    const retrieval = this.tree.retrieve(x, { topCategories: 3, beam: 4 });
    const rules: RetrievedRule[] = retrieval.leaves.map((l) => ({ leafId: l.leafId, category: l.category, similarity: l.similarity, rule: l.rule }));
    const best = retrieval.leaves[0];
    let rule: RuleSignal | undefined;
    let precedent: Precedent | undefined;
    const checkIds = new Set<string>();
    for (const l of retrieval.leaves) for (const c of l.checkIds) checkIds.add(c);
    for (const c of this.memory.retrieve(`${facts.paraphrase} ${facts.commandForm}`, 3)) for (const cid of c.checkIds) checkIds.add(cid);
    if (best) {
      let harm = -1;
      let ben = -1;
      for (const l of retrieval.leaves) {
        const members = this.tree.leafMembers(l.leafId);
        const sims = this.tree.memberSimilarities(l.leafId, x);
        for (let i = 0; i < members.length; i++) {
          const m = members[i]!;
          const s = sims[i]!;
          if (m.label === 1) harm = Math.max(harm, s);
          else ben = Math.max(ben, s);
          const extra = m.extra as Partial<HumanMemberExtra> | undefined;
          if (m.source === 'human' && (!precedent || s > precedent.similarity)) {
            precedent = { label: m.label, similarity: s, failedChecks: extra?.failedChecks ?? [], reason: extra?.reason ?? '', sameCommand: false };
          }
        }
      }
      rule = { leafId: best.leafId, prohibition: best.rule.prohibition, exemption: best.rule.exemption, harmSimilarity: harm, benignSimilarity: ben };
    }
    const exact = this.precedents.get(facts.commandForm);
    if (exact) precedent = { label: exact.label, similarity: 1, failedChecks: exact.failedChecks, reason: exact.reason, sameCommand: true };

    const retrievedOnly = this.checks.filter((c) => c.enabled && c.scope === 'retrieved' && checkIds.has(c.id) && !this.policyOfCheck.has(c.id));
    const allResults = (first: CheckResult[]): CheckResult[] => {
      const byId = new Map<string, CheckResult>();
      const retrievedResults = retrievedOnly.length > 0 ? runChecks(retrievedOnly.map((c) => ({ check: c, compiled: this.compiled.get(c.id) })), env) : [];
      for (const r of [...first, ...retrievedResults]) byId.set(r.id, r);
      return this.checks.flatMap((c) => byId.get(c.id) ?? []);
    };
    let checks = allResults(generalResults);

    const decideOn = (cs: CheckResult[]): GateOutcome =>
      this.applyPolicies(decide({ facts, checks: cs, pHarm, sBenign, ...(precedent ? { precedent } : {}), ...(rule ? { rule } : {}) }, gate), facts, cs);
    let outcome = decideOn(checks);
    // before a shell command that would be allowed (or that the judge may allow) changes anything,
    // it runs once in a throwaway twin of the environment; what it really did is then checked too
    const mayAllow = outcome.kind === 'final' ? outcome.decision === 'allow' : !!this.deps.judge;
    // held only by the learned prior (no check fails or errs, no human precedent), whether the gate
    // is unsure or the projector's score denies it: what the command really does in the twin may
    // show it changes nothing but what the request names
    const clean = checks.every((c) => c.status !== 'fail' && c.status !== 'error');
    const clears = this.deps.rehearsalClears ?? 'off';
    // (over the projector's deny only for what stays out of the system's places: a delete in
    // /var/spool/cron that the twin shows reaching nothing still aims at the system)
    const touchesSystem = (): boolean => [facts.effects.deletes, facts.effects.writes, facts.effects.modeChanges, facts.effects.ownerChanges].some((l) => l.some((x) => x.system));
    const held = clears !== 'off' && !mayAllow && clean && (outcome.kind === 'ambiguous' || (outcome.kind === 'final' && outcome.path === 'projector' && (clears === 'named' || !touchesSystem())));
    // one that goes to a human is rehearsed for the reviewer: what it would change is in the record
    const asks = outcome.kind === 'ambiguous' || (outcome.decision === 'ask' && outcome.path !== 'error');
    const forReviewer = this.deps.rehearseAsks !== false && !mayAllow && asks;
    if ((mayAllow || held || forReviewer) && prober?.rehearse && req.action.type === 'shell' && !facts.inert && !facts.parseError) {
      const report = await prober.rehearse(req, signal);
      const reading = readRehearsal(report, req);
      probes.push(rehearsalProbe(report, req, reading));
      if (held) {
        const why = rehearsedChangeReason(report, req, reading, clears === 'lossless');
        if (why) facts.rehearsedChange = why;
      }
      checks = allResults(runGeneral());
      outcome = decideOn(checks);
    }
    const meter = new LlmMeter();
    let llmRecord: Omit<VerdictLlm, 'usage'> = {};
    // AGrail: with a model, the Analyzer and the Executor adapt this action's checks when a guard
    // request is in force or the gate is unsure. Their checks can add failures; only checks the
    // Analyzer itself wrote can be withdrawn again, so a deny by any other check stands
    if (this.deps.llm && !facts.parseError) {
      const analyzerMade = (id: string): boolean => this.compiledOrigin.get(id) === 'analyzer';
      const hardFails = checks.filter((c) => c.status === 'fail' && c.severity === 'hard');
      const ownHardFail = hardFails.some((c) => analyzerMade(c.id));
      // a deny by any check but the Analyzer's own (or by another path) stands
      const denied = outcome.kind === 'final' && outcome.decision === 'deny' && !(outcome.path === 'check' && hardFails.every((c) => analyzerMade(c.id)));
      if (!denied && (req.guardRequest || outcome.kind === 'ambiguous' || ownHardFail)) {
        const adapted = await this.adaptChecks(req, facts, checkIds, env, meter, signal);
        llmRecord = adapted.record;
        const withdrawn = new Set([...adapted.deleted.filter(analyzerMade), ...adapted.results.map((r) => r.id)]);
        checks = [...checks.filter((c) => !withdrawn.has(c.id)), ...adapted.results];
        outcome = decideOn(checks);
      }
    }
    let decision: Verdict['decision'];
    let path: Verdict['path'];
    let reason: string;
    if (outcome.kind === 'final') ({ decision, path, reason } = outcome);
    else if (this.deps.judge) {
      const j = await this.deps.judge.judge({ request: req, facts, rules, checks, probes, scores: { pHarm, sBenign } }, signal);
      if (j.usage) meter.merge(j.usage);
      llmRecord.judge = { decision: j.decision, confidence: j.confidence, reason: j.reason };
      path = 'judge';
      if (j.decision === 'ask' || j.confidence < gate.judgeMinConfidence) {
        decision = 'ask';
        reason = `judge unsure (${j.confidence.toFixed(2)}): ${j.reason}`;
      } else {
        decision = j.decision;
        reason = j.reason;
      }
    } else {
      decision = 'ask';
      path = 'review';
      reason = `ambiguous, sent to a human: ${outcome.reason}`;
    }
    if (best) this.tree.recordHit(best.leafId, this.deps.clock.now());
    const verdict: Verdict = { id, at: this.deps.clock.now(), decision, path, reason, scores: { pHarm, sBenign }, rules, checks, probes, facts, request: req, latencyMs: 0 };
    if (meter.usage.calls > 0 || Object.keys(llmRecord).length > 0) verdict.llm = { usage: meter.usage, ...llmRecord };
    return verdict;
  }

  /**
   * AGrail's test-time adaptation for one action: the Analyzer revises the retrieved checks under
   * the criteria and the guard request, the Executor keeps, deletes or runs them with tools, and
   * what survives is written to the library and to the checks memory under this action's key, so
   * the next similar action runs them without a model. Any model failure throws (fail closed).
   */
  private async adaptChecks(
    req: ActionRequest,
    facts: Facts,
    retrievedIds: Set<string>,
    env: CheckEnvInput,
    meter: LlmMeter,
    signal: AbortSignal,
  ): Promise<{ results: CheckResult[]; deleted: string[]; record: Omit<VerdictLlm, 'usage'> }> {
    const llm = this.deps.llm!;
    const retrieved = this.checks.filter((c) => c.enabled && retrievedIds.has(c.id) && !this.policyOfCheck.has(c.id));
    const analysis = await analyze(llm, { request: req, facts, retrieved }, meter, signal);
    // an Analyzer id that names a library check it did not retrieve must not overwrite that check
    for (const item of analysis.checks) {
      const existing = this.checks.find((c) => c.id === item.check.id);
      if (item.op !== 'keep' && existing && existing.origin !== 'analyzer') {
        const renamed = { ...item.check, id: `${item.check.id}.analyzer` };
        analysis.save = analysis.save.map((c) => (c === item.check ? renamed : c));
        item.check = renamed;
      }
    }
    const exec = await execute(
      llm,
      {
        request: req,
        facts,
        analysis,
        tools: this.deps.tools ?? [],
        toolContext: { request: req, facts, policy: this.policyData(facts), probes: env.probes },
        runCheck: (c) => runChecks([c], env)[0] ?? { id: c.id, title: c.title, severity: c.severity, status: 'skipped', detail: 'does not apply to this kind of action' },
      },
      meter,
      signal,
    );
    const kept = exec.decisions.filter((d) => d.decision !== 'delete').map((d) => d.check);
    const removed = [...analysis.drop, ...exec.decisions.filter((d) => d.decision === 'delete').map((d) => d.check)].filter((cid) => !kept.includes(cid));
    const toSave = analysis.save.filter((c) => kept.includes(c.id));
    const key = `${facts.paraphrase} ${facts.commandForm}`;
    const at = this.deps.clock.now();
    this.deps.store.transaction(() => {
      for (const c of toSave) this.deps.store.saveCheck(c);
      this.deps.store.saveChecksMemoryEntry(key, this.memory.adapt(key, { add: kept, remove: removed }, at));
    });
    if (toSave.length > 0) {
      this.loadChecks();
      this.emit('checks.changed', this.listChecks());
    }
    const opOf = new Map(analysis.checks.map((c) => [c.check.id, c.op]));
    return {
      results: exec.results,
      deleted: removed,
      record: {
        analysis: exec.decisions.map((d) => ({ check: d.check, op: opOf.get(d.check) ?? 'keep', executor: d.decision })),
        ...(analysis.rejected.length ? { rejected: analysis.rejected } : {}),
        ...(exec.tools.length ? { tools: exec.tools.map((t) => ({ tool: t.tool, ok: t.ok, violation: t.violation, detail: t.detail })) } : {}),
      },
    };
  }

  // ---------------------------------------------------------------- records

  getVerdict(id: string): Verdict {
    const v = this.deps.store.getVerdict(id);
    if (!v) throw new EngineError('NOT_FOUND', `no verdict ${id}`, 'verdictId');
    return v;
  }

  listVerdicts(q: VerdictQuery = {}): Verdict[] {
    return this.deps.store.listVerdicts(q);
  }

  counts(): ReturnType<Store['countVerdicts']> {
    return this.deps.store.countVerdicts();
  }

  // ---------------------------------------------------------------- learning

  /**
   * A human decision: approve (the action is fine) or deny (it is harmful). It becomes an example
   * in the tree (split or merge), refines the leaf's rule pair, joins the benign store when
   * approved, and is recorded with everything needed to revert it.
   */
  async decide(input: { verdictId: string; outcome: 'approve' | 'deny'; reason: string; reviewer?: string }): Promise<ReviewDecision> {
    if (input.outcome !== 'approve' && input.outcome !== 'deny') throw new EngineError('BAD_INPUT', 'outcome must be approve or deny', 'outcome');
    if (typeof input.reason !== 'string' || input.reason.trim() === '') throw new EngineError('BAD_INPUT', 'a reason is required', 'reason');
    const v = this.getVerdict(input.verdictId);
    if (v.review) throw new EngineError('CONFLICT', `verdict ${v.id} was already decided by ${v.review.reviewer}; revert that decision first`, 'verdictId');
    const x = await this.embedOne(embeddingText(v.request, v.facts));
    const label: 0 | 1 = input.outcome === 'approve' ? 0 : 1;
    const at = this.deps.clock.now();
    const failedChecks = v.checks.filter((c) => c.status === 'fail').map((c) => c.id);
    const extra: HumanMemberExtra = { verdictId: v.id, commandForm: v.facts.commandForm, failedChecks, reason: input.reason };
    const category = label === 1 ? categoryOf(v, this.checks) : v.rules[0]?.category;

    const eventIds: number[] = [];
    const changed: TreeEvent[] = [];
    this.deps.store.transaction(() => {
      const ins = this.tree.insert(x, {
        label,
        text: `${v.request.request} => ${v.facts.paraphrase}`,
        source: 'human',
        extra,
        theta: this.deps.tree.theta,
        oodFloor: this.deps.tree.oodFloor,
        ...(category ? { category } : {}),
        rule:
          label === 1
            ? { prohibition: `Do not ${v.facts.paraphrase} (${input.reason}).`, exemption: 'Unless the request names this exact target and purpose.' }
            : { prohibition: 'No prohibition learned yet for this pattern.', exemption: `Allow: ${v.facts.paraphrase} when asked (${input.reason}).` },
      });
      const record = (e: Omit<TreeEvent, 'id' | 'at'>, undo: unknown): void => {
        const full = { ...e, at, cause: v.id };
        const eid = this.deps.store.appendEvent(full, undo);
        eventIds.push(eid);
        changed.push({ ...full, id: eid });
      };
      record(ins.event, { type: 'insert', undo: ins.undo });
      const leaf = this.tree.node(ins.leafId);
      if (leaf?.rule) {
        const before = { ...leaf.rule };
        const after =
          label === 0
            ? { ...before, exemption: appendClause(before.exemption, `allow ${v.facts.paraphrase} when the request asks for it (${input.reason})`) }
            : { ...before, prohibition: appendClause(before.prohibition, `never ${v.facts.paraphrase} (${input.reason})`) };
        const edit = this.tree.updateRule(ins.leafId, after);
        record(edit.event, { type: 'rule', leafId: ins.leafId, before });
      }
      if (label === 0) {
        this.benign.add(v.id, x, v.facts.paraphrase);
        this.deps.store.addBenign({ id: v.id, vector: x, text: v.facts.paraphrase, source: 'human', at });
      }
      const memKey = `${v.facts.paraphrase} ${v.facts.commandForm}`;
      this.deps.store.saveChecksMemoryEntry(memKey, this.memory.remember(memKey, failedChecks, at));
      this.persistTree();
      const review: ReviewDecision = { verdictId: v.id, outcome: input.outcome, reason: input.reason, reviewer: input.reviewer ?? 'reviewer', at, events: eventIds };
      this.deps.store.setReview(v.id, review);
    });
    this.precedents.set(v.facts.commandForm, { label, reason: input.reason, failedChecks });
    const review = this.getVerdict(v.id).review!;
    this.emit('tree.changed', changed);
    this.emit('review.decided', review);
    return review;
  }

  /** Undoes a human decision and every memory change it caused, newest first. */
  async revertDecision(input: { verdictId: string }): Promise<{ verdictId: string; reverted: number[] }> {
    const v = this.getVerdict(input.verdictId);
    if (!v.review) throw new EngineError('NOT_FOUND', `verdict ${v.id} has no human decision to revert`, 'verdictId');
    const review = v.review;
    const changed: TreeEvent[] = [];
    this.deps.store.transaction(() => {
      for (const eid of [...review.events].reverse()) {
        const rec = this.deps.store.getEventUndo(eid);
        if (!rec || rec.event.reverted) continue;
        const undo = rec.undo as { type: 'insert'; undo: unknown } | { type: 'rule'; leafId: string; before: { prohibition: string; exemption: string } };
        if (undo.type === 'insert') this.tree.revert(undo.undo);
        else this.tree.updateRule(undo.leafId, undo.before);
        this.deps.store.markEventReverted(eid);
        const at = this.deps.clock.now();
        const e = { at, kind: 'revert' as const, nodeId: rec.event.nodeId, parentId: rec.event.parentId, detail: `reverted event ${eid} (${rec.event.kind})`, cause: v.id };
        changed.push({ ...e, id: this.deps.store.appendEvent(e) });
      }
      if (review.outcome === 'approve') {
        this.benign.remove(v.id);
        this.deps.store.deleteBenign(v.id);
      }
      this.persistTree();
      this.deps.store.setReview(v.id, undefined);
    });
    this.precedents.delete(v.facts.commandForm);
    this.emit('tree.changed', changed);
    this.emit('review.reverted', { verdictId: v.id });
    return { verdictId: v.id, reverted: review.events };
  }

  // ---------------------------------------------------------------- memory tree

  /** Writes the tree's dirty nodes and members through to the store. */
  persistTree(): void {
    const d = this.tree.takeDirty();
    this.deps.store.transaction(() => {
      this.deps.store.deleteNodes(d.deletedNodes);
      this.deps.store.deleteMembers(d.deletedMembers);
      this.deps.store.saveNodes(d.nodes);
      this.deps.store.saveMembers(d.members);
    });
  }

  /** Records tree events that came from outside a human decision (imports, curation, seeding). */
  recordTreeEvents(events: Omit<TreeEvent, 'id' | 'at'>[], cause?: string): TreeEvent[] {
    const at = this.deps.clock.now();
    const out = events.map((e) => {
      const full = { ...e, at, ...(cause ? { cause } : {}) };
      return { ...full, id: this.deps.store.appendEvent(full) };
    });
    if (out.length) this.emit('tree.changed', out);
    return out;
  }

  /** Imports a SafeHarbor memory file: its categories, clusters' rule pairs and leaves join the tree. */
  async importSafeHarbor(path: string, onProgress?: (done: number, total: number) => void): Promise<{ categories: number; clusters: number; leaves: number }> {
    const file = await readSafeHarborFile(path);
    const r = await safeHarborToTree(file, this.tree, (texts) => this.deps.embedder.embed(texts), onProgress);
    this.persistTree();
    this.recordTreeEvents([{ kind: 'import', nodeId: 'root', parentId: null, detail: `imported ${r.categories} categories, ${r.clusters} clusters, ${r.leaves} leaves from ${path}` }]);
    return { categories: r.categories, clusters: r.clusters, leaves: r.leaves };
  }

  treeInfo(): TreeNodeInfo[] {
    return this.tree.toInfo();
  }

  treeEvents(q: { after?: number; limit?: number } = {}): TreeEvent[] {
    return this.deps.store.listEvents(q);
  }

  /** Adds an example to the benign store (seeding and imports). */
  addBenignExample(id: string, vector: Float32Array, text: string, source: string): void {
    this.benign.add(id, vector, text);
    this.deps.store.addBenign({ id, vector, text, source, at: this.deps.clock.now() });
  }

  get benignSize(): number {
    return this.benign.size;
  }

  get embedder(): Embedder {
    return this.deps.embedder;
  }

  /** The chat model, when one is configured. */
  get llm(): Llm | undefined {
    return this.deps.llm;
  }

  /** The tree's insertion thresholds (information-gain split threshold, out-of-distribution floor). */
  get treeSettings(): { theta: number; oodFloor: number } {
    return { ...this.deps.tree };
  }

  get store(): Store {
    return this.deps.store;
  }

  /** Where the store lives (":memory:" for an ephemeral one). */
  get storePath(): string {
    return this.deps.storePath ?? ':memory:';
  }

  async close(): Promise<void> {
    this.persistTree();
    this.deps.store.close();
    for (const t of this.deps.tools ?? []) await t.close?.().catch(() => undefined);
    await this.deps.projector.close?.();
    await this.deps.embedder.close?.();
  }

  /** Which projector model scores actions (the console's status header shows it). */
  get projectorId(): string {
    return this.deps.projector.id;
  }
}

function appendClause(text: string, clause: string): string {
  const t = text.trim();
  return t.length === 0 ? clause : `${t.replace(/[.;]\s*$/, '')}; ${clause}.`;
}

/** Whether any effect names a path a probe could look at (a scheduled job's program too), or processes it could list. */
function needsProbes(f: Facts): boolean {
  const e = f.effects;
  return e.deletes.length + e.writes.length + e.modeChanges.length + e.ownerChanges.length + e.reads.length > 0 || e.privilege.some((p) => p.id !== undefined) || e.signals.some((s) => s.match !== undefined) || e.persistence.some((p) => (p.runs?.length ?? 0) > 0);
}

/** The category a harmful decision belongs to: from the failed checks, else integrity. */
function categoryOf(v: Verdict, checks: Check[]): string {
  const failed = v.checks.find((c) => c.status === 'fail');
  const check = failed ? checks.find((c) => c.id === failed.id) : undefined;
  return check?.category ?? v.rules[0]?.category ?? 'integrity';
}

function emptyFacts(req: ActionRequest, error: string): Facts {
  return {
    kind: req.action.type,
    commands: [],
    effects: { reads: [], writes: [], deletes: [], modeChanges: [], ownerChanges: [], network: [], signals: [], privilege: [], persistence: [], exhaustion: [], execution: [] },
    flags: [],
    requestPaths: [],
    paraphrase: '',
    commandForm: '',
    parseError: error,
  };
}

/** Resolves with the promise, or rejects when the signal aborts first. */
function raceAbort<T>(p: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e) => {
        signal.removeEventListener('abort', onAbort);
        reject(e);
      },
    );
  });
}

export type { LeafMember };
