/**
 * `sandbox.run`: the verdict comes first, the command runs in a sandbox episode only on allow (or
 * later, on a human approval of an ask); a deny never touches the container. The transcript is
 * stored with the verdict. Episodes of one session stay open between commands, so a sequence of
 * commands sees the state the earlier ones left, and close after a spell of idleness.
 */
import type { RunTranscript, Verdict } from '../../shared/types.js';
import { EngineError } from '../../shared/errors.js';
import type { Engine } from './engine.js';
import type { Log } from './ports.js';
import { parseActionRequest } from '../../shared/validate.js';
import {
  DockerSandbox,
  createEpisodeProber,
  inEpisodeCwd,
  runInEpisode,
  sandboxStatus,
  type ConnectOptions,
  type Episode,
  type ImageProgress,
  type SandboxUser,
} from './adapters/sandbox/index.js';

/** What the console and the CLI learn about the sandbox: one line when it is not usable. */
export interface SandboxState {
  available: boolean;
  message?: string;
  engine?: string;
  imageReady?: boolean;
}

/** One gated run. */
export interface GatedRunInput {
  /** An ActionRequest (validated here); only shell actions run in the sandbox. */
  request: unknown;
  /** Shell script run as root when the session's episode is created. */
  setup?: string;
  /** Commands with the same session share one episode; without one, each run gets its own. */
  session?: string;
}

/** Options of the sandbox service. */
export interface SandboxServiceOptions {
  connect?: Omit<ConnectOptions, 'log'>;
  log?: Log;
  /** A session's episode closes after this long without a command (default 10 minutes). */
  idleMs?: number;
  /** Time-out of one command (default 30 s). */
  commandTimeoutMs?: number;
}

interface Session {
  episode: Episode;
  user: SandboxUser;
  timer: NodeJS.Timeout | undefined;
}

const noLog: Log = { info() {}, warn() {}, error() {} };

/** The engine's hands: gated runs in episodes, preparing the image on first use with progress. */
export class SandboxService {
  private sandbox: Promise<DockerSandbox> | undefined;
  private readonly sessions = new Map<string, Promise<Session>>();
  private readonly progressFns = new Set<(p: ImageProgress) => void>();
  private imageReady = false;
  private readonly log: Log;

  constructor(
    private readonly engine: Engine,
    private readonly opts: SandboxServiceOptions = {},
  ) {
    this.log = opts.log ?? noLog;
  }

  /** Subscribes to image preparation progress (the console shows it on first use). */
  onProgress(fn: (p: ImageProgress) => void): () => void {
    this.progressFns.add(fn);
    return () => this.progressFns.delete(fn);
  }

  /** Whether an engine answers; never throws. */
  async status(): Promise<SandboxState> {
    const s = await sandboxStatus(this.opts.connect?.socketPath ? { socketPath: this.opts.connect.socketPath } : {});
    if (!s.available) return { available: false, message: s.message };
    return { available: true, engine: s.version ?? s.address, imageReady: this.imageReady };
  }

  /** Connects and imports the base image if missing, reporting progress. Throws SANDBOX_UNAVAILABLE. */
  async prepare(): Promise<SandboxState> {
    const sb = await this.connected();
    await sb.prepare({ onProgress: (p) => this.progress(p) });
    this.imageReady = true;
    return { available: true, engine: sb.address, imageReady: true };
  }

  /**
   * Judges the action against the live episode (probes), records the verdict, and runs the
   * command only when the verdict allows it. Without an engine the guard still decides from
   * facts alone, the verdict says the command did not run, and nothing is executed.
   */
  async run(input: GatedRunInput, signal?: AbortSignal): Promise<Verdict> {
    const req = parseActionRequest(input.request);
    if (req.action.type !== 'shell') throw new EngineError('BAD_INPUT', `sandbox.run takes shell actions, not ${req.action.type}`, 'request.action.type');
    if (input.setup !== undefined && typeof input.setup !== 'string') throw new EngineError('BAD_INPUT', 'setup must be a shell script (string)', 'setup');
    const sessionKey = input.session ?? req.context?.session;
    let session: Session;
    try {
      session = await this.session(sessionKey, req.context?.user === 'root' ? 'root' : 'user', input.setup);
    } catch (e) {
      if ((e as { code?: string }).code !== 'SANDBOX_UNAVAILABLE') throw e;
      const v = await this.engine.check(req, { ...(signal ? { signal } : {}) });
      if (v.decision !== 'allow') return v;
      return this.attach(v, notRun(req.action.command, req.context?.user ?? 'user', (e as Error).message));
    }
    try {
      const v = await this.engine.check(inEpisodeCwd(req, session.user), { prober: createEpisodeProber(session.episode), ...(signal ? { signal } : {}) });
      if (v.decision !== 'allow') return v;
      const t = await runInEpisode(session.episode, req.action.command, session.user, {
        timeoutMs: this.opts.commandTimeoutMs ?? 30_000,
        ...(req.context?.cwd ? { cwd: req.context.cwd } : {}),
        ...(signal ? { signal } : {}),
      });
      return this.attach(v, t);
    } finally {
      if (sessionKey === undefined) await session.episode.close();
      else this.touch(sessionKey, session);
    }
  }

  /**
   * Runs an action a human approved after the guard asked. The command runs in its session's
   * episode (or a fresh one); a verdict without an approval, or one that already ran, is refused.
   */
  async runApproved(input: { verdictId: string; setup?: string }, signal?: AbortSignal): Promise<Verdict> {
    const v = this.engine.getVerdict(input.verdictId);
    if (v.request.action.type !== 'shell') throw new EngineError('BAD_INPUT', 'only shell actions run in the sandbox', 'verdictId');
    if (v.review?.outcome !== 'approve' && v.decision !== 'allow') throw new EngineError('CONFLICT', `verdict ${v.id} was not allowed or approved; it does not run`, 'verdictId');
    if (v.transcript) throw new EngineError('CONFLICT', `verdict ${v.id} already ran`, 'verdictId');
    const key = v.request.context?.session;
    const session = await this.session(key, v.request.context?.user === 'root' ? 'root' : 'user', input.setup);
    try {
      const t = await runInEpisode(session.episode, v.request.action.command, session.user, {
        timeoutMs: this.opts.commandTimeoutMs ?? 30_000,
        ...(v.request.context?.cwd ? { cwd: v.request.context.cwd } : {}),
        ...(signal ? { signal } : {}),
      });
      return this.attach(v, t);
    } finally {
      if (key === undefined) await session.episode.close();
      else this.touch(key, session);
    }
  }

  /** Closes a session's episode now. */
  async endSession(session: string): Promise<boolean> {
    const s = this.sessions.get(session);
    if (!s) return false;
    this.sessions.delete(session);
    const open = await s.catch(() => undefined);
    if (open) {
      if (open.timer) clearTimeout(open.timer);
      await open.episode.close();
    }
    return true;
  }

  /** Closes every episode and the connection's spare container. */
  async close(): Promise<void> {
    for (const key of [...this.sessions.keys()]) await this.endSession(key);
    const sb = await this.sandbox?.catch(() => undefined);
    this.sandbox = undefined;
    await sb?.closeAll();
  }

  private progress(p: ImageProgress): void {
    for (const fn of this.progressFns) fn(p);
  }

  private connected(): Promise<DockerSandbox> {
    if (!this.sandbox) {
      this.sandbox = DockerSandbox.connect({ ...this.opts.connect, log: this.log });
      this.sandbox.catch(() => {
        this.sandbox = undefined;
      });
    }
    return this.sandbox;
  }

  private async open(user: SandboxUser, setup: string | undefined): Promise<Session> {
    const sb = await this.connected();
    if (!this.imageReady) await this.prepare();
    const episode = await sb.openEpisode({ user, ...(setup ? { setup } : {}) });
    if (episode.setup && episode.setup.exitCode !== 0) {
      const why = `setup exited ${String(episode.setup.exitCode)}: ${episode.setup.stderr.slice(0, 300)}`;
      await episode.close();
      throw new EngineError('BAD_INPUT', `the episode's setup script failed (${why})`, 'setup');
    }
    return { episode, user, timer: undefined };
  }

  private session(key: string | undefined, user: SandboxUser, setup: string | undefined): Promise<Session> {
    if (key === undefined) return this.open(user, setup);
    let s = this.sessions.get(key);
    if (!s) {
      s = this.open(user, setup);
      this.sessions.set(key, s);
      s.catch(() => this.sessions.delete(key));
    }
    return s;
  }

  private touch(key: string, s: Session): void {
    if (s.timer) clearTimeout(s.timer);
    s.timer = setTimeout(() => void this.endSession(key), this.opts.idleMs ?? 10 * 60_000);
    s.timer.unref();
  }

  private attach(v: Verdict, t: RunTranscript): Verdict {
    const withRun: Verdict = { ...v, transcript: t };
    this.engine.store.saveVerdict(withRun);
    return withRun;
  }
}

function notRun(command: string, user: string, why: string): RunTranscript {
  return { command, user, stdout: '', stderr: '', exitCode: null, timedOut: false, durationMs: 0, truncated: false, error: `not run: ${why}` };
}

const services = new WeakMap<Engine, SandboxService>();

/** The engine's shared sandbox service (created on first use). */
export function sandboxServiceFor(engine: Engine, opts?: SandboxServiceOptions): SandboxService {
  let s = services.get(engine);
  if (!s) {
    s = new SandboxService(engine, opts);
    services.set(engine, s);
  }
  return s;
}

/** `sandbox.run` of the contract: verdict first, run only on allow, transcript stored. */
export function runGated(engine: Engine, input: GatedRunInput, opts: { signal?: AbortSignal } = {}): Promise<Verdict> {
  return sandboxServiceFor(engine).run(input, opts.signal);
}
