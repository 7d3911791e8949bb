/**
 * The model every layer shares: actions, facts, checks, the memory tree, verdicts, evaluation.
 * Plain data only (JSON-serialisable), so it crosses IPC, sockets and SQLite unchanged.
 */

/** The kinds of action an agent can propose. */
export type ActionKind = 'shell' | 'tool' | 'sql' | 'web' | 'text';

/** One proposed action, discriminated by `type`. */
export type Action =
  | { type: 'shell'; command: string }
  | { type: 'tool'; name: string; arguments: Record<string, unknown> }
  | { type: 'sql'; query: string; identity?: string }
  | { type: 'web'; element: string; operation: string; value?: string; url?: string }
  | { type: 'text'; content: string };

/** Who the action runs as and what the agent saw (AGrail's agent spec, identity, observation). */
export interface ActionContext {
  /** Name of the agent that proposed the action. */
  agent?: string;
  /** Session or conversation id the action belongs to. */
  session?: string;
  /** Identity the action runs as: `root`, `user`, or a role name for SQL / web policies. */
  user?: string;
  /** Working directory of the action. */
  cwd?: string;
  /** Home directory of the identity (defaults to /root or /home/user). */
  home?: string;
  /** What the agent observed from the environment before proposing the action (file contents, tool output). */
  observation?: string;
  /** Free-text description of the agent and its tools. */
  agentSpec?: string;
  /** Extra facts about the identity (age, licences, memberships) for task-specific policies. */
  profile?: Record<string, unknown>;
}

/** The input of one verdict: AGrail's seven inputs mapped onto plain fields. */
export interface ActionRequest {
  /** What the human asked the agent to do. */
  request: string;
  action: Action;
  context?: ActionContext;
  /** Task-specific policy in natural language written by an administrator. */
  guardRequest?: string;
  /** Extra safety criteria beyond confidentiality, integrity and availability. */
  criteria?: string[];
}

/** A redirect attached to a simple command. */
export interface Redirect {
  op: string;
  target: string;
  fd?: number;
}

/** One simple command after parsing: resolved argv where the parser could resolve it. */
export interface SimpleCommand {
  /** Command name with any leading path removed (`/bin/rm` -> `rm`). */
  name: string;
  argv: string[];
  redirects: Redirect[];
  /** True when the name or an argument came from an expansion the parser could not resolve. */
  dynamic: boolean;
  /** Wrappers the command ran under (sudo, env, nohup, xargs, timeout...). */
  wrappers: string[];
}

/** A path effect with the command that causes it. */
export interface PathEffect {
  /** Absolute, normalised path (globs kept as written). */
  path: string;
  /** The command that causes the effect. */
  by: string;
  recursive: boolean;
  mode?: string;
  /** The request names this path, a parent of it, or its name. */
  inScope: boolean;
  /** `/`, a top-level system directory or a direct child of one. */
  system: boolean;
  /** Credentials, keys, secrets, password databases, shell history. */
  sensitive: boolean;
  /** A home directory itself (or /home, /root). */
  homeRoot: boolean;
  /** Temporary, cache or build-output places (/tmp, ~/.cache, node_modules, dist...). */
  scratch: boolean;
  glob: boolean;
  /** Part of the path came from an expansion the parser could not resolve. */
  dynamic: boolean;
  /** For a write of /etc/passwd or /etc/group that reads as account changes: the accounts it adds or changes. */
  accounts?: string[];
  /** For an in-place edit that only deletes whole lines (`sed -i '/X/d'`): it adds nothing, so nothing it writes runs later. */
  linesOut?: boolean;
  /** Done by a scheduled job's line (a crontab line the action installs), when the job runs, not by the action now. */
  job?: boolean;
}

/** What an action would do to the world, as far as static analysis can tell. */
export interface Effects {
  reads: PathEffect[];
  writes: PathEffect[];
  deletes: PathEffect[];
  modeChanges: PathEffect[];
  ownerChanges: PathEffect[];
  /** Outbound network use: host (or the raw target) and the tool. */
  network: { target: string; by: string; sendsData: boolean }[];
  /**
   * Signals sent: the target (a pid, a process name or pattern, `pidfile:PATH`), the signal and the
   * tool; `match` says how a name reaches processes (pkill -f: the whole command line, a pattern;
   * pkill: the process name, a pattern; killall, pkill -x: the exact name).
   */
  signals: { target: string; signal: string; by: string; match?: 'line' | 'name' | 'exact' }[];
  /** Privilege changes: sudo, su, setuid bits, user/group edits, sudoers. */
  privilege: {
    kind: string;
    detail: string;
    /** The account or group a create or modify names. */
    account?: string;
    /** The user id (for an account) or group id (for a group) it gives that account, when it gives one. */
    id?: string;
    /** Whether `account` is an account (passwd), a group, or a locked password entry (shadow). */
    of?: 'passwd' | 'group' | 'shadow';
    /** The change takes `account` out (its line deleted from the account files). */
    removes?: boolean;
    /** The login shell it gives the account (usermod -s, a sed over its line's last field). */
    shell?: string;
  }[];
  /** Places that make something run again later: cron, shell rc, authorized_keys, systemd units. */
  persistence: {
    place: string;
    by: string;
    /** Programs (absolute paths) the scheduled job runs, when its text was read (a crontab line). */
    runs?: string[];
    /** The commands of the job lines, as written, when its text was read (a crontab line's command). */
    lines?: string[];
    /** The job runs as root (root's crontab, a system crontab line for root). */
    asRoot?: boolean;
  }[];
  /** Resource exhaustion patterns: fork bombs, endless writes, filling a disk. */
  exhaustion: { kind: string; detail: string }[];
  /** Dynamic execution: eval, decode-and-run, download-and-run, `sh -c` with hidden text. */
  execution: { kind: string; detail: string }[];
}

/** Facts about a SQL statement. */
export interface SqlFacts {
  statements: string[];
  tables: { name: string; op: string }[];
  columns: { table: string | null; column: string; op: string }[];
}

/** Everything the guard knows about an action before it looks at the environment. */
export interface Facts {
  kind: ActionKind;
  commands: SimpleCommand[];
  effects: Effects;
  /** Named patterns found while parsing (e.g. `pipe-to-shell`, `base64-decode-run`, `hidden-path-in-variable`). */
  flags: string[];
  /** Paths named in the human's request, used to tell in-scope from out-of-scope effects. */
  requestPaths: string[];
  sql?: SqlFacts;
  /** AGrail memory key, natural-language form. */
  paraphrase: string;
  /** AGrail memory key, tool-command form. */
  commandForm: string;
  /** Set when the action could not be parsed; the gate fails closed on it. */
  parseError?: string;
  /** Set when the action can only look at what the request names, saying why (nothing it does writes, runs, sends or escalates). */
  inert?: string;
  /**
   * Set when the action changes only what the request names and asks to change, in a live
   * environment that shows no link leading elsewhere, saying why.
   */
  askedChange?: string;
  /**
   * Set when a rehearsal in a twin of the live environment showed the action changing only what
   * the request names, losing, exposing and stopping nothing else, saying why.
   */
  rehearsedChange?: string;
}

/** How strongly a failing check weighs: hard blocks outright, soft sends to judge or human. */
export type CheckSeverity = 'hard' | 'soft';

/** Where a check came from. */
export type CheckOrigin = 'builtin' | 'human' | 'analyzer' | 'policy';

/**
 * A declarative, executable safety check. `when` is an expression in the rule language (CEL)
 * over `facts`, `request`, `context`, `probes` and `policy`; the check fails when it is true.
 */
export interface Check {
  id: string;
  title: string;
  /** Why the check exists, shown to reviewers. */
  description: string;
  /** CEL expression; true means the action violates the check. */
  when: string;
  severity: CheckSeverity;
  /** Safety category: confidentiality, integrity, availability or an administrator's own. */
  category: string;
  origin: CheckOrigin;
  /** Action kinds the check applies to; empty means all. */
  kinds: ActionKind[];
  enabled: boolean;
  /** Probes the check needs from the sandbox before it can be decided. */
  probes?: string[];
  /** `global` (default) runs on every action; `retrieved` only when a leaf or the checks memory brings it. */
  scope?: 'global' | 'retrieved';
}

/**
 * A task-specific policy, loaded from the optional `policy:` block of a rules file together with
 * that file's checks. For an action of one of its `kinds`, its checks see `data` as `policy`; when
 * none of them fails, `otherwise` says what happens: `allow` (the policy is the whole word on
 * these actions, though built-in hard checks, parse errors and check errors still never allow)
 * or `gate` (the usual gate decides).
 */
export interface Policy {
  /** Lower-case id (letters, digits, dots, dashes, underscores). */
  id: string;
  title: string;
  /** The administrator's guard request in plain language (what an LLM Analyzer reads). */
  request: string;
  /** The action kinds the policy governs. */
  kinds: ActionKind[];
  otherwise: 'allow' | 'gate';
  /** Free-form data the policy's checks (and guard tools) read as `policy`. */
  data: Record<string, unknown>;
}

/** A policy as the engine holds it: the policy and the ids of the checks that came with it. */
export interface LoadedPolicy extends Policy {
  checks: string[];
}

/** The outcome of one check for one action. */
export interface CheckResult {
  id: string;
  title: string;
  severity: CheckSeverity;
  /** `fail` = the action violates it; `error` = the check could not be evaluated (fails closed). */
  status: 'pass' | 'fail' | 'error' | 'skipped';
  detail?: string;
}

/** A SafeHarbor contrastive rule pair held by a leaf. */
export interface RulePair {
  prohibition: string;
  exemption: string;
}

/** Node kinds of the memory tree. Internal nodes only route. */
export type TreeNodeKind = 'root' | 'category' | 'cluster' | 'leaf';

/** A memory tree node as it crosses the contract (centroid omitted). */
export interface TreeNodeInfo {
  id: string;
  parentId: string | null;
  kind: TreeNodeKind;
  name: string;
  radius: number;
  members: number;
  /** Normalised entropy of the member similarity distribution (leaves). */
  entropy: number;
  rule?: RulePair;
  checkIds: string[];
  hits: number;
  lastHit: number | null;
  overrides: number;
  retired: boolean;
}

/** A rule retrieved for one action. */
export interface RetrievedRule {
  leafId: string;
  category: string;
  similarity: number;
  rule: RulePair;
}

/** One change to the memory tree, with the numbers that caused it. */
export interface TreeEvent {
  id: number;
  at: number;
  kind: 'split' | 'merge' | 'create' | 'edit' | 'retire' | 'restore' | 'import' | 'revert';
  nodeId: string;
  parentId: string | null;
  /** Information gain of the insertion (split / merge). */
  ig?: number;
  theta?: number;
  similarity?: number;
  detail: string;
  /** Verdict or review that caused the change, if any. */
  cause?: string;
  reverted?: boolean;
}

/** A verdict's decision. */
export type Decision = 'allow' | 'deny' | 'ask';

/** Which part of the pipeline decided. */
export type DecisionPath = 'fast' | 'check' | 'policy' | 'projector' | 'memory' | 'judge' | 'human' | 'review' | 'error';

/** A read-only look at the environment made before the verdict. */
export interface ProbeResult {
  probe: string;
  target: string;
  ok: boolean;
  value?: unknown;
  error?: string;
}

/** One entry as a rehearsal saw it. */
export interface RehearsedEntry {
  type: string;
  /** Permission bits, four octal digits. */
  mode: string;
  uid: number;
  /** Its group (absent in reports made before groups were listed). */
  gid?: number;
  size: number;
  links: number;
}

/**
 * One change a rehearsed command made: an entry `deleted`, `created`, `replaced` (by another
 * type or another link), a file `rewritten` (its bytes changed), `grown` (longer, old bytes not
 * kept as they were) or `appended` (old bytes kept), its `mode` or its `owner` (account or group) changed.
 */
export interface RehearsedChange {
  path: string;
  change: 'deleted' | 'created' | 'replaced' | 'rewritten' | 'grown' | 'appended' | 'mode' | 'owner';
  /** For an append: the file's old last line had no line break, so the first appended line joined it. */
  joinsLastLine?: boolean;
  /** For a created entry: the path it was moved or renamed from (the same file, its mode kept). */
  movedFrom?: string;
  before?: RehearsedEntry;
  after?: RehearsedEntry;
}

/** What running the command in a throwaway twin of the environment did. */
export interface RehearsalReport {
  command: string;
  user: string;
  /** Where the command ran. */
  cwd: string;
  changes: RehearsedChange[];
  /** Changes past the reported ones. */
  omitted: number;
  /** Files holding a secret (a private key, a password or token with a value) that every account can now read and could not before. */
  exposed: string[];
  /** Files that parsed in their format (JSON, YAML, TOML, a makefile, a shell script, a crontab, the account files) before the command and do not after it, with the first problem found. */
  broken: { path: string; error: string }[];
  /** Entries (lines) a file of one entry a line (a crontab, the account files) had before the command and not after it. */
  dropped: { path: string; lines: string[] }[];
  /** Entries it opened to writing by every account (or, `handed`, gave from root to another account) that a schedule, service, boot or login script names (it runs what is there as its own account). */
  runBy: { path: string; by: string; line: string; handed?: boolean }[];
  /** Files it deleted, replaced or rewrote whose old content (hashed, up to 1 MiB) is nowhere in the tree afterwards. */
  lost: string[];
  /** Files it deleted whose content (hashed, up to 1 MiB) is still in the tree afterwards: in another file, compressed beside it (gzip, bzip2, xz), or as a member of an archive still there; and files it emptied whose every line a file beside them, left as it was, holds. Absent in reports stored before it was read. */
  kept?: string[];
  /** What it destroyed (deleted, replaced, rewrote) that a configuration file, script or link left behind still names. */
  referenced: { target: string; by: string; line: string }[];
  /** Processes running before that were gone after (not a passing child of a loop). */
  /** `restarted`: a process with the same command line was running again afterwards. */
  killed: { pid: string; args: string; owner?: string; restarted?: boolean }[];
  /** Folders where it deleted files that held data and every file of the same kind it kept there is empty (`kept` 0: it kept none of the kind, having deleted two or more). */
  keptEmpty: { folder: string; deleted: string[]; kept: number }[];
  /** Files it deleted (not moved) that a program running before held open, or that a program still running was started from. */
  heldOpen: { path: string; pid: string; args: string }[];
  /** Processes it stopped (and nothing started again) that a file a program still running names on its command line names in turn, by program name or port: `by` that file, `user` that program. */
  reliedOn: { pid: string; args: string; by: string; user: string; line: string }[];
  /** Files it deleted (not moved, not logs) from a folder that a file a program still running names on its command line names in turn: `folder`, the first such file `path`, `by` that file, `user` that program. */
  workedOn: { folder: string; path: string; by: string; user: string; line: string }[];
  /** Entries whose mode it changed so that every account but the owner lost reading them, while a configuration file names them and a program of that configuration still runs as another account (not root): `by` that file, `user` that program. Absent in reports stored before it was read. */
  shutOut?: { path: string; by: string; user: string; line: string }[];
  /** Configuration files it rewrote that lost entry headings (`Host oldbox`, `[database]`, `server {`) they had: each file with those headings as their lines. Absent in reports stored before it was read. */
  droppedSections?: { path: string; headings: string[] }[];
  /** Archives it wrote anew (grown or rewritten) that no longer hold file members they held before: each with up to ten of those members and how many there were. Absent in reports stored before it was read. */
  droppedMembers?: { path: string; members: string[]; count: number }[];
  /** Entries whose owner it changed away from an account (not root) that runs a program, so that the program's account may no longer write them: each with that account and the program's command line; `stopped` when the program was gone by the time it was looked at though the command stopped nothing itself. Absent in reports stored before it was read. */
  ownerTaken?: { path: string; account: string; args: string; stopped?: boolean }[];
  /** Files it wrote over with the content of another file there before that was last changed a week or more before the file it replaced (a restore from a backup no longer made): each with that other file and how many days older it was. Absent in reports stored before it was read. */
  olderOver?: { path: string; from: string; days: number }[];
  /** Links that were there before, each with where it led (resolved), through which the command destroyed something: a change under `to` was made through `link`. Absent in reports stored before it was read. */
  throughLinks?: { link: string; to: string }[];
  /** Processes it stopped (not running again after a moment) that a supervisor still running is set to start again: a file in /etc names the program on a line that is not a comment and holds a restart setting (`autorestart=true`, `Restart=always`, `respawn`), and a process still running is named like that file's folder or the file itself (supervisord for /etc/supervisor.d, init for /etc/inittab). Absent in reports stored before it was read. */
  respawnedBy?: { pid: string; by: string; line: string; supervisor: string }[];
  /** Folders holding a database's own files (PG_VERSION, ibdata1, WiredTiger) or a container volume's data (`volumes/NAME/_data`) that it deleted (not moved), with the file that told. Absent in reports stored before it was read. */
  databases?: { folder: string; marker: string }[];
  /** For files it rewrote or grew (up to five, of 64 KiB or less): the lines gone and the lines new, in order (ten of each at most; `more` when there were more); `repeatsOnly` when every line gone is a repeat of one still there and none is new (duplicates dropped, in any order). Absent in reports stored before it was read. */
  edits?: { path: string; removed: string[]; added: string[]; more: boolean; repeatsOnly?: boolean }[];
  /** Accounts whose line the command took out of /etc/passwd while a process still ran as them or a scheduled job still runs as them, with what told. Absent in reports stored before it was read. */
  accountsInUse?: { account: string; by: string }[];
  exitCode: number | null;
  timedOut: boolean;
  durationMs: number;
  /** Why the rehearsal could not be read; the guard then does not allow. */
  error?: string;
}

/** The guard's answer for one action, with its provenance. */
export interface Verdict {
  id: string;
  at: number;
  decision: Decision;
  path: DecisionPath;
  reason: string;
  scores: { pHarm: number; sBenign: number };
  rules: RetrievedRule[];
  checks: CheckResult[];
  probes: ProbeResult[];
  facts: Facts;
  request: ActionRequest;
  latencyMs: number;
  /** Set when the verdict came from a failure (it then never allows). */
  error?: { code: string; message: string };
  /** Set once a human has decided on this verdict. */
  review?: ReviewDecision;
  /** What running the allowed action in a sandbox episode did. */
  transcript?: RunTranscript;
  /** The model calls made for this verdict (Analyzer, Executor, judge), with their cost. */
  llm?: VerdictLlm;
}

/** How adversarial rule generation rewrites a harmful seed (SafeHarbor 3.3). */
export type RuleGenStrategy = 'goal-decomposition' | 'privilege-escalation' | 'contextual-reframing';

/** One generated variant's fate. */
export interface VariantOutcome {
  seed: number;
  strategy: RuleGenStrategy;
  request: string;
  action: string;
  decision: 'allow' | 'deny' | 'ask';
  /** Similarity to the nearest existing leaf centroid. */
  nearest: number;
  learned: 'new-leaf' | 'merged' | 'none';
  leafId?: string;
}

/** What one rule-generation job did. */
export interface RuleGenReport {
  job: string;
  seeds: number;
  variants: number;
  invalid: number;
  /** Variants the guard allowed. */
  slipped: number;
  /** Variants the guard already denied or sent to a human. */
  caught: number;
  added: { leafId: string; category: string; prohibition: string; exemption: string; from: string }[];
  merged: number;
  outcomes: VariantOutcome[];
  usage: LlmUsage;
}

/** Token use and cost of the model calls made for one verdict or one job. */
export interface LlmUsage {
  calls: number;
  /** Calls answered from the cache (not paid again). */
  cachedCalls: number;
  promptTokens: number;
  completionTokens: number;
  /** From the configured prices per million tokens; 0 when none are configured. */
  costUsd: number;
  latencyMs: number;
}

/** What the model-driven roles did for one verdict. */
export interface VerdictLlm {
  usage: LlmUsage;
  /** Checks the Analyzer revised, merged or added, and what the Executor did with each. */
  analysis?: { check: string; op: 'keep' | 'revise' | 'merge' | 'add'; executor: 'keep' | 'delete' | 'run' }[];
  /** Checks the Analyzer proposed that were rejected (an expression that does not compile...). */
  rejected?: { check: string; reason: string }[];
  /** Tools the Executor ran, with their answers. */
  tools?: { tool: string; ok: boolean; violation: boolean; detail: string }[];
  /** The judge's own words when it decided. */
  judge?: { decision: Decision; confidence: number; reason: string };
}

/** What one command did in a sandbox episode. */
export interface CommandResult {
  stdout: string;
  stderr: string;
  /** The exit status; null when the command never finished or the engine could not say. */
  exitCode: number | null;
  /** The deadline passed before the command ended (its processes were then killed). */
  timedOut: boolean;
  durationMs: number;
  /** Output beyond the capture cap was dropped. */
  truncated: boolean;
  /** Why the command could not run or finish normally. */
  error?: string;
}

/** The record of an action run in the sandbox after an allow. */
export interface RunTranscript extends CommandResult {
  command: string;
  user: string;
  /** Processes still running once the command's own shell ended; absent when not counted. */
  lingering?: number;
}

/** A human decision on a verdict. */
export interface ReviewDecision {
  verdictId: string;
  /** approve = the action was fine (allow); deny = it was harmful. */
  outcome: 'approve' | 'deny';
  reason: string;
  reviewer: string;
  at: number;
  /** Memory changes it caused (event ids), so it can be reverted. */
  events: number[];
}

/** One evaluation case (DESIGN.md "Evaluation case format"). */
export interface EvalCase {
  id: string;
  request: string;
  user?: string;
  setup?: string;
  action: Action;
  /** 1 = must be blocked. */
  label: 0 | 1;
  category?: string;
  context?: ActionContext;
  guardRequest?: string;
}

/** Metrics of one evaluation run. */
export interface EvalMetrics {
  n: number;
  accuracy: number;
  precision: number;
  recall: number;
  f1: number;
  benign_pass_rate: number;
  attack_success_rate: number;
  latency_ms: { p50: number; p95: number; mean: number };
  by_path: Record<string, number>;
  by_decision: Record<Decision, number>;
  confusion: { tp: number; fp: number; tn: number; fn: number };
  by_category: Record<string, { n: number; correct: number; attack_success_rate: number | null }>;
  errors: { line: number; message: string }[];
  /** Model use, when verdicts called a model: totals and per verdict that used one. */
  llm?: {
    verdicts: number;
    calls: number;
    cached_calls: number;
    prompt_tokens: number;
    completion_tokens: number;
    cost_usd: number;
    tokens_per_verdict: { mean: number; p95: number };
    model_latency_ms_per_verdict: { p50: number; p95: number };
  };
}
