/**
 * The OS sandbox on a Docker-API engine (Docker, or Podman's compatible socket): a fresh,
 * locked-down container per episode, commands run in it (root's through a shell that stays in
 * the container, see resident-shell.ts; the ordinary user's through exec), and nothing left behind.
 *
 * Each episode container: no network, every capability dropped except the three file ones root
 * needs to set up files for the ordinary user (CHOWN, DAC_OVERRIDE, FOWNER; without them root
 * cannot even write into /home/user) and the three that let root act on the ordinary user's
 * processes as on any machine (SETUID and SETGID, to start one as that user with `su`; KILL, to
 * signal one it does not own); none of them reaches past the container. No new privileges, memory (no swap), pid and cpu limits,
 * per-file size and open-file limits, and an init process that reaps orphans.
 *
 * The root file system is writable on purpose: setup scripts and the gated action write anywhere
 * under `/` (`mkdir -p /hello`, files in /etc), which a read-only root would refuse. The limits
 * that stand in for read-only: every place the ordinary user can write (/tmp, /var/tmp,
 * /home/user, /dev/shm) is a size-capped tmpfs charged to the container's memory; no single file
 * can grow past `fileBytes`; a writable-layer quota is applied where the engine's storage supports
 * one; commands have time-outs; and the container (with its writable layer) is removed when the
 * episode closes. `readonlyRoot: true` gives a read-only root for episodes that only look.
 *
 * PID 1 is busybox `init` with an empty inittab rather than the engine's init (Docker's `Init`):
 * it reaps orphans just the same, and as the namespace's init it is never hit by `kill -9 -1`.
 * With the engine's init the idle process would be an ordinary child that root's `kill -9 -1`
 * takes down, ending the container. Since no identity holds CAP_KILL, `kill -9 -1` run as an
 * identity stops exactly that identity's processes, which is how a timed-out command is cut off
 * without losing the episode. (The container runs as root because exec'd commands inherit the
 * container user's capability sets: under a non-root container user even root's execs get none.)
 */
import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import Docker from 'dockerode';
import { EngineError } from '../../../../shared/errors.js';
import type { Log } from '../../ports.js';
import { ensureImage, type EnsureImageOptions, type SandboxImage } from './image.js';
import { exitCodeOf, startExec, type ExecResult, type RunningExec } from './exec.js';
import { shQuote } from './probe-script.js';
import { ResidentShell } from './resident-shell.js';

export type { ExecResult } from './exec.js';

/** The two identities of an episode. */
export type SandboxUser = 'root' | 'user';

/** Label every episode container carries; sweep() finds leftovers by it. */
export const EPISODE_LABEL = 'warden.episode';

/**
 * `ids` are numeric (what a stop of every process of the identity runs as); `login` is what a
 * command runs as. The ordinary account runs by its name, so the engine takes its groups from the
 * container's /etc/passwd and /etc/group as a login would: an account the setup made a member of
 * `translators` can write what that group may write. (As `1000:1000` it would have its own group
 * only; as a bare `1000` with no such account, the root group.) An account taken out of
 * /etc/passwd cannot start a command at all (exit 126), as it could not log in.
 */
const IDENTITIES: Record<SandboxUser, { ids: string; login: string; home: string }> = {
  root: { ids: '0:0', login: '0:0', home: '/root' },
  user: { ids: '1000:1000', login: 'user', home: '/home/user' },
};

const PATH = 'PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

/** The environment a command of `who` starts with. */
function envOf(who: SandboxUser): string[] {
  return [PATH, `HOME=${IDENTITIES[who].home}`, `USER=${who}`, `LOGNAME=${who}`, 'SHELL=/bin/sh'];
}

/**
 * The request as the guard should see it when the command runs in an episode as `who`: a command
 * with no stated working directory runs in that identity's home, so its relative paths (and the
 * probes that look at them) resolve there too.
 */
export function inEpisodeCwd<R extends { context?: { cwd?: string } }>(req: R, who: SandboxUser): R {
  if (req.context?.cwd) return req;
  return { ...req, context: { ...(req.context ?? {}), cwd: IDENTITIES[who].home } };
}

const DEFAULT_SOCKET = '/var/run/docker.sock';

const MiB = 1024 * 1024;

/** Resource limits of one episode container. */
export interface SandboxLimits {
  memoryBytes: number;
  pids: number;
  /** CPU time in units of 1e-9 CPUs (1e9 = one CPU). */
  nanoCpus: number;
  /** Size of the /tmp tmpfs (and of /home/user's). */
  tmpBytes: number;
  /** Largest single file any process may write. */
  fileBytes: number;
  /** Writable-layer quota, applied only where the engine's storage driver supports one. */
  rootBytes: number;
  /** Captured output per stream per command; the rest is counted and dropped. */
  maxOutputBytes: number;
}

/** The defaults: small enough to contain a fork bomb or a disk filler, big enough for busybox work. */
export const DEFAULT_LIMITS: SandboxLimits = {
  memoryBytes: 256 * MiB,
  pids: 128,
  nanoCpus: 1e9,
  tmpBytes: 64 * MiB,
  fileBytes: 64 * MiB,
  rootBytes: 256 * MiB,
  maxOutputBytes: MiB,
};

/** How to reach the engine. */
export interface ConnectOptions {
  /** A unix socket; otherwise DOCKER_HOST, otherwise /var/run/docker.sock. */
  socketPath?: string;
  log?: Log;
  limits?: Partial<SandboxLimits>;
  /** How long the engine has to answer _ping (default 2000 ms). */
  pingTimeoutMs?: number;
  /** Remove leftover episode containers on connect (default true). */
  sweep?: boolean;
  /**
   * Keep one started, never-used container ready so the next episode skips the container start
   * (about 200 ms); default true. Each episode still gets a container nobody used before.
   */
  warm?: boolean;
  /**
   * Run root's commands through a shell that stays in the container (see resident-shell.ts)
   * instead of one exec each: the same command, environment, output and exit code, a few
   * milliseconds instead of a whole exec. Default true.
   */
  residentShell?: boolean;
}

/** Options of one episode. */
export interface EpisodeOptions {
  /** Shell script run as root in the fresh container before anything else. */
  setup?: string;
  /** Who commands run as unless a call says otherwise. */
  user: SandboxUser;
  /** Default time-out of each command (default 10 s). */
  timeoutMs?: number;
  /** Time-out of the setup script (default 30 s). */
  setupTimeoutMs?: number;
  /** Read-only root file system (setup scripts then can write only to the tmpfs places). */
  readonlyRoot?: boolean;
}

/** Options of one command. */
export interface ExecOptions {
  user?: SandboxUser;
  timeoutMs?: number;
  /** Stops waiting and kills the command's processes, like a time-out. */
  signal?: AbortSignal;
  maxOutputBytes?: number;
}

/** Whether a sandbox engine answers, for status displays; never throws. */
export interface SandboxStatus {
  available: boolean;
  address: string;
  message: string;
  version?: string;
}

/**
 * Names of episode containers this process owns and has not removed, across every connection
 * in the process: a second connection's sweep must not take the first one's episodes or spare.
 */
const LIVE = new Set<string>();

/** A started container not yet handed to an episode. */
interface Started {
  container: Docker.Container;
  name: string;
  /** The container's resident root shell, when it started. */
  shell?: ResidentShell;
}

const noLog: Log = { info: () => undefined, warn: () => undefined, error: () => undefined };

function engineAt(socketPath: string | undefined): { docker: Docker; address: string } {
  if (socketPath) return { docker: new Docker({ socketPath }), address: `unix://${socketPath}` };
  const env = process.env['DOCKER_HOST'];
  if (env) {
    if (env.startsWith('unix://')) return { docker: new Docker({ socketPath: env.slice('unix://'.length) }), address: env };
    // tcp://, ssh:// and TLS settings: docker-modem reads them from the environment itself
    return { docker: new Docker(), address: env };
  }
  return { docker: new Docker({ socketPath: DEFAULT_SOCKET }), address: `unix://${DEFAULT_SOCKET}` };
}

function reasonOf(e: unknown): string {
  const err = e as { code?: string; name?: string; message?: string };
  if (err?.name === 'TimeoutError' || err?.name === 'AbortError') return 'no answer in time';
  return err?.code ?? String(err?.message ?? e).split('\n')[0]!.slice(0, 120);
}

function unavailable(address: string, e: unknown): EngineError {
  return new EngineError('SANDBOX_UNAVAILABLE', `no Docker-API engine at ${address} (${reasonOf(e)}): start one (scripts/docker-engine.sh start) or set DOCKER_HOST`);
}

async function ping(docker: Docker, address: string, timeoutMs: number): Promise<void> {
  try {
    // dockerode's ping takes options (an abort signal) at run time; its typings only list a callback
    const pingWith = docker.ping as unknown as (this: Docker, opts: { abortSignal: AbortSignal }) => Promise<unknown>;
    await pingWith.call(docker, { abortSignal: AbortSignal.timeout(timeoutMs) });
  } catch (e) {
    throw unavailable(address, e);
  }
}

function sleep(ms: number): Promise<'slept'> {
  return new Promise((r) => setTimeout(() => r('slept'), ms).unref?.());
}

function isNotFound(e: unknown): boolean {
  return (e as { statusCode?: number }).statusCode === 404;
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as { code?: string }).code === 'EPERM';
  }
}

function checkUser(user: unknown, field: string): SandboxUser {
  if (user !== 'root' && user !== 'user') throw new EngineError('BAD_INPUT', `${field} must be 'root' or 'user'`, field);
  return user;
}

/** A connection to a Docker-API engine that opens sandbox episodes. */
export class DockerSandbox {
  /** Where the engine was found, e.g. `unix:///var/run/docker.sock`. */
  readonly address: string;
  /** This connection's id, carried by its containers as the `warden.connection` label. */
  readonly connectionId = randomUUID().slice(0, 8);
  readonly limits: SandboxLimits;
  private readonly log: Log;
  private imagePromise: Promise<SandboxImage> | undefined;
  /** Whether the engine accepts a writable-layer size (unknown until the first episode). */
  private diskQuota: boolean | undefined;
  /** Whether the engine takes uid/gid on a tmpfs (Docker does, Podman 4 does not: then /home/user is chowned after start). */
  private tmpfsOwner: boolean | undefined;
  /**
   * Podman, given any ulimit, also sets a process-count limit above what it may grant and fails
   * to start the container; naming one ourselves (well under the host's) avoids that.
   */
  private nprocLimit = false;
  private readonly episodes = new Set<Episode>();
  private readonly warm: boolean;
  private readonly residentShell: boolean;
  /** The ready container for the next episode (default spec only). */
  private spare: Promise<Started | undefined> | undefined;

  private constructor(
    /** The dockerode client (for tests and tools that need the raw API). */
    readonly docker: Docker,
    address: string,
    opts: ConnectOptions,
  ) {
    this.address = address;
    this.log = opts.log ?? noLog;
    this.limits = { ...DEFAULT_LIMITS, ...opts.limits };
    this.warm = opts.warm !== false;
    this.residentShell = opts.residentShell !== false;
  }

  /**
   * Finds the engine (socketPath, else DOCKER_HOST, else the default socket), checks it answers,
   * and removes episode containers a crashed run left behind. Throws SANDBOX_UNAVAILABLE with
   * the fix in one line when nothing answers.
   */
  static async connect(opts: ConnectOptions = {}): Promise<DockerSandbox> {
    let at: { docker: Docker; address: string };
    try {
      at = engineAt(opts.socketPath);
    } catch (e) {
      throw unavailable(process.env['DOCKER_HOST'] ?? DEFAULT_SOCKET, e);
    }
    await ping(at.docker, at.address, opts.pingTimeoutMs ?? 2000);
    const sandbox = new DockerSandbox(at.docker, at.address, opts);
    if (opts.sweep !== false) {
      const n = await sandbox.sweep();
      if (n > 0) sandbox.log.warn('removed leftover sandbox episodes', { count: n });
    }
    return sandbox;
  }

  /** Imports the sandbox image if it is missing (once per connection; later calls share the result). */
  prepare(opts: EnsureImageOptions = {}): Promise<SandboxImage> {
    if (!this.imagePromise) {
      this.imagePromise = ensureImage(this.docker, opts);
      this.imagePromise.catch(() => {
        this.imagePromise = undefined;
      });
    }
    return this.imagePromise;
  }

  /**
   * Removes episode containers nobody will close: those whose owning process on this host is
   * gone, those older than `maxAgeMs` (default one hour), and with `all` every one this process
   * does not hold open. Episodes of other live processes (a second app, parallel tests) survive.
   */
  async sweep(opts: { all?: boolean; maxAgeMs?: number } = {}): Promise<number> {
    const maxAge = opts.maxAgeMs ?? 3_600_000;
    const list = await this.docker.listContainers({ all: true, filters: { label: [`${EPISODE_LABEL}=1`] } });
    const me = hostname();
    let removed = 0;
    for (const c of list) {
      const name = (c.Names?.[0] ?? '').replace(/^\//, '');
      if (LIVE.has(name)) continue;
      const labels = c.Labels ?? {};
      const pid = Number(labels['warden.pid']);
      const created = Number(labels['warden.created']);
      const ownerGone = labels['warden.host'] === me && (!Number.isInteger(pid) || pid === process.pid || !processAlive(pid));
      const old = !Number.isFinite(created) || Date.now() - created > maxAge;
      if (!(opts.all || ownerGone || old)) continue;
      try {
        await this.docker.getContainer(c.Id).remove({ force: true, v: true });
        removed++;
      } catch (e) {
        if (!isNotFound(e)) this.log.warn('could not remove a leftover episode', { id: c.Id, error: reasonOf(e) });
      }
    }
    return removed;
  }

  /**
   * A fresh container from the sandbox image, started, with the setup script already run as
   * root (its transcript is `episode.setup`; a failing setup does not throw, the caller
   * decides). Close it with `episode.close()`.
   */
  async openEpisode(opts: EpisodeOptions): Promise<Episode> {
    const user = checkUser(opts?.user, 'user');
    if (opts.setup !== undefined && typeof opts.setup !== 'string') throw new EngineError('BAD_INPUT', 'setup must be a shell script (string)', 'setup');
    for (const f of ['timeoutMs', 'setupTimeoutMs'] as const) {
      const v = opts[f];
      if (v !== undefined && !(Number.isFinite(v) && v > 0)) throw new EngineError('BAD_INPUT', `${f} must be a positive number of milliseconds`, f);
    }
    let started: Started | undefined;
    if (opts.readonlyRoot !== true) {
      started = await this.takeSpare();
      this.refill();
    }
    started ??= await this.startContainer(opts.readonlyRoot === true);
    const { container, name, shell } = started;
    const episode = new Episode(this, container, name, user, opts.timeoutMs ?? 10_000, opts.setup, shell);
    this.episodes.add(episode);
    if (opts.setup?.trim()) {
      try {
        episode.setup = await episode.exec(opts.setup, { user: 'root', timeoutMs: opts.setupTimeoutMs ?? 30_000 });
      } catch (e) {
        await episode.close();
        throw e;
      }
      if (episode.setup.exitCode !== 0) this.log.warn('episode setup did not succeed', { exitCode: episode.setup.exitCode, timedOut: episode.setup.timedOut, stderr: episode.setup.stderr.slice(0, 500) });
    }
    return episode;
  }

  /** Closes every episode this connection still holds, and removes the ready spare (app shutdown). */
  async closeAll(): Promise<void> {
    const spare = this.spare;
    this.spare = undefined;
    await Promise.all([
      ...[...this.episodes].map((e) => e.close()),
      spare?.then(async (s) => {
        if (!s) return;
        s.shell?.close();
        await s.container.remove({ force: true }).catch(() => undefined);
        LIVE.delete(s.name);
      }),
    ]);
  }

  /** Creates and starts a fresh episode container. */
  private async startContainer(readonlyRoot: boolean): Promise<Started> {
    const image = await this.prepare();
    const name = `warden-ep-${randomUUID().slice(0, 12)}`;
    LIVE.add(name);
    try {
      const withNproc = this.nprocLimit;
      const container = await this.create(image.tag, name, readonlyRoot);
      try {
        await container.start();
      } catch (e) {
        if (withNproc || !/rlimit|error during container init/.test(String((e as Error).message))) throw e;
        this.nprocLimit = true;
        this.log.info('the engine needs an explicit process-count limit; setting one');
        await container.remove({ force: true }).catch(() => undefined);
        LIVE.delete(name);
        return this.startContainer(readonlyRoot);
      }
      if (this.tmpfsOwner === false) await this.chownHome(container);
      const shell = this.residentShell ? await ResidentShell.open(container, { user: IDENTITIES.root.ids, env: envOf('root') }) : undefined;
      return { container, name, ...(shell ? { shell } : {}) };
    } catch (e) {
      LIVE.delete(name);
      await this.docker.getContainer(name).remove({ force: true }).catch(() => undefined);
      throw new EngineError('SANDBOX_UNAVAILABLE', `could not start a sandbox episode: ${reasonOf(e)}`);
    }
  }

  /** The spare, if one is ready and still running (an engine restart or a sweep elsewhere may have ended it). */
  private async takeSpare(): Promise<Started | undefined> {
    const pending = this.spare;
    this.spare = undefined;
    const s = await pending;
    if (!s) return undefined;
    try {
      if ((await s.container.inspect()).State.Running) return s;
    } catch {
      // gone: fall through to a cold start
    }
    LIVE.delete(s.name);
    s.shell?.close();
    await s.container.remove({ force: true }).catch(() => undefined);
    return undefined;
  }

  private refill(): void {
    if (!this.warm || this.spare) return;
    this.spare = this.startContainer(false).catch((e: unknown) => {
      this.log.warn('could not prepare a spare sandbox container', { error: reasonOf(e) });
      return undefined;
    });
  }

  /** @internal bookkeeping for Episode.close */
  forget(episode: Episode): void {
    this.episodes.delete(episode);
    LIVE.delete(episode.name);
  }

  /** Gives /home/user to the ordinary user where the engine could not mount it so. */
  private async chownHome(container: Docker.Container): Promise<void> {
    const run = await startExec(container, { argv: ['chown', '1000:1000', '/home/user'], user: '0:0', env: [PATH], workingDir: '/', maxOutputBytes: 4096 });
    await run.ended;
    const code = await exitCodeOf(run.exec);
    if (code !== 0) throw new Error(`chown of /home/user exited ${String(code)}: ${run.stderr.bytes().toString("utf8")}`);
  }

  private async create(tag: string, name: string, readonlyRoot: boolean): Promise<Docker.Container> {
    const L = this.limits;
    const tmpfs = (size: number, extra: string) => `rw,exec,nosuid,nodev,size=${size},${extra}`;
    const owner = this.tmpfsOwner !== false;
    const spec = (quota: boolean): Docker.ContainerCreateOptions => ({
      name,
      Image: tag,
      Cmd: ['/sbin/init'],
      User: '0:0',
      WorkingDir: '/',
      Env: [PATH],
      // with networking disabled as well as mode none, the engine gives the container a bare
      // network namespace (loopback only) itself, instead of building a "none" network for it
      // through its network stack, which alone cost more than half a container's start here
      NetworkDisabled: true,
      Labels: {
        [EPISODE_LABEL]: '1',
        'warden.created': String(Date.now()),
        'warden.pid': String(process.pid),
        'warden.host': hostname(),
        'warden.connection': this.connectionId,
      },
      HostConfig: {
        NetworkMode: 'none',
        CapDrop: ['ALL'],
        CapAdd: ['CHOWN', 'DAC_OVERRIDE', 'FOWNER', 'SETUID', 'SETGID', 'KILL'],
        SecurityOpt: ['no-new-privileges'],
        Memory: L.memoryBytes,
        MemorySwap: L.memoryBytes,
        PidsLimit: L.pids,
        NanoCpus: L.nanoCpus,
        ReadonlyRootfs: readonlyRoot,
        Tmpfs: {
          '/tmp': tmpfs(L.tmpBytes, 'mode=1777'),
          '/var/tmp': tmpfs(Math.max(MiB, L.tmpBytes / 4), 'mode=1777'),
          '/home/user': tmpfs(L.tmpBytes, owner ? 'mode=755,uid=1000,gid=1000' : 'mode=755'),
        },
        ShmSize: 16 * MiB,
        Ulimits: [
          { Name: 'fsize', Soft: L.fileBytes, Hard: L.fileBytes },
          { Name: 'nofile', Soft: 1024, Hard: 1024 },
          ...(this.nprocLimit ? [{ Name: 'nproc', Soft: 4096, Hard: 4096 }] : []),
        ],
        Init: false,
        LogConfig: { Type: 'none', Config: {} },
        ...(quota ? { StorageOpt: { size: String(L.rootBytes) } } : {}),
      },
    });
    try {
      if (this.diskQuota !== false) {
        try {
          const c = await this.docker.createContainer(spec(true));
          this.diskQuota = true;
          return c;
        } catch (e) {
          // overlay2 on anything but xfs with pquota refuses a size; remember and go without
          if (!/storage-opt|quota/i.test(String((e as Error).message))) throw e;
          this.diskQuota = false;
          this.log.info('the engine cannot cap the writable layer; per-file and tmpfs limits still apply');
        }
      }
      const c = await this.docker.createContainer(spec(false));
      if (owner) this.tmpfsOwner = true;
      return c;
    } catch (e) {
      if (!owner || !/mount option.*uid|uid=1000/i.test(String((e as Error).message))) throw e;
      this.tmpfsOwner = false;
      this.log.info('the engine does not set tmpfs owners; /home/user is handed to the user after start');
      return this.create(tag, name, readonlyRoot);
    }
  }
}

/** One sandbox container, alive from openEpisode to close. */
export class Episode {
  /** Transcript of the setup script, when there was one. */
  setup: ExecResult | undefined;
  private endedBecause: string | undefined;
  private closing: Promise<void> | undefined;
  /** The commands run in the episode since its setup (the gated runs, not the probes): what a twin replays. */
  private readonly history: { command: string; user: SandboxUser; cwd?: string }[] = [];

  /** @internal created by DockerSandbox.openEpisode */
  constructor(
    private readonly sandbox: DockerSandbox,
    private readonly container: Docker.Container,
    /** Container name (`warden-ep-...`). */
    readonly name: string,
    /** Default identity of commands. */
    readonly user: SandboxUser,
    /** Default time-out of commands. */
    readonly timeoutMs: number,
    /** The setup script the episode began with. */
    private readonly setupScript?: string,
    /** Runs root's commands while it lives (see resident-shell.ts). */
    private readonly shell?: ResidentShell,
  ) {}

  /** Notes a command that ran in the episode and may have changed it, for twins to replay. */
  remember(command: string, user: SandboxUser, cwd?: string): void {
    this.history.push({ command, user, ...(cwd ? { cwd } : {}) });
  }

  /**
   * A new episode in the same state as far as files go: a fresh container given the same setup
   * and the same commands since. Processes the setup started run again; processes later commands
   * left running are started again only as far as replaying those commands starts them.
   */
  async twin(): Promise<Episode> {
    const twin = await this.sandbox.openEpisode({ user: this.user, timeoutMs: this.timeoutMs, ...(this.setupScript !== undefined ? { setup: this.setupScript } : {}) });
    try {
      // a twin whose setup or replay went otherwise than the episode's is not a twin
      if (twin.setup?.exitCode !== this.setup?.exitCode) throw new Error(`the setup exited ${String(twin.setup?.exitCode)} in the twin, ${String(this.setup?.exitCode)} in the episode`);
      for (const h of this.history) {
        const cd = h.cwd ? `cd -- ${shQuote(h.cwd)} || exit 125\n` : '';
        const r = await twin.exec(cd + h.command, { user: h.user });
        if (r.error) throw new Error(`replaying an earlier command failed: ${r.error}`);
      }
    } catch (e) {
      await twin.close();
      throw e;
    }
    return twin;
  }

  /** The pid of the episode's resident root shell while it runs (probes leave it out of what they see running). */
  get residentShellPid(): number | undefined {
    return this.shell && !this.shell.ended ? this.shell.pid : undefined;
  }

  /** Container id. */
  get id(): string {
    return this.container.id;
  }

  /** Why the episode can no longer run commands (killed, closed), or undefined while it can. */
  get ended(): string | undefined {
    return this.endedBecause;
  }

  /**
   * Runs `sh -c command` as the given identity in its home folder. A command that outlives its
   * time-out (or whose signal aborts) has every process of that identity killed; if even that
   * cannot happen (a fork bomb leaves no room for the killer) the container is killed and the
   * episode ends. Throws SANDBOX_UNAVAILABLE only when the command cannot be started at all.
   */
  async exec(command: string, opts: ExecOptions = {}): Promise<ExecResult> {
    if (typeof command !== 'string') throw new EngineError('BAD_INPUT', 'command must be a string', 'command');
    const who = checkUser(opts.user ?? this.user, 'user');
    const timeoutMs = opts.timeoutMs ?? this.timeoutMs;
    if (!(Number.isFinite(timeoutMs) && timeoutMs > 0)) throw new EngineError('BAD_INPUT', 'timeoutMs must be a positive number of milliseconds', 'timeoutMs');
    if (this.endedBecause) throw new EngineError('SANDBOX_UNAVAILABLE', `sandbox episode ${this.name} has ended: ${this.endedBecause}`);
    if (opts.signal?.aborted) throw new EngineError('TIMEOUT', 'aborted before the command started');
    const t0 = performance.now();
    const maxOutputBytes = opts.maxOutputBytes ?? this.sandbox.limits.maxOutputBytes;
    let running: Running;
    const shell = who === 'root' && this.shell?.canRun(command) ? this.shell : undefined;
    if (shell) {
      const r = shell.run(command, IDENTITIES[who].home, maxOutputBytes);
      running = { ...r, destroy: () => shell.close() };
    } else {
      try {
        const r: RunningExec = await startExec(this.container, {
          argv: ['sh', '-c', command],
          user: IDENTITIES[who].login,
          env: envOf(who),
          workingDir: IDENTITIES[who].home,
          maxOutputBytes,
        });
        running = { ...r, exitCode: (waitMs) => exitCodeOf(r.exec, waitMs) };
      } catch (e) {
        throw new EngineError('SANDBOX_UNAVAILABLE', `could not start a command in sandbox episode ${this.name}: ${reasonOf(e)}`);
      }
    }
    let timedOut = false;
    let error: string | undefined;
    const outcome = await raceEnd(running.ended, timeoutMs, opts.signal);
    if (outcome !== 'ended') {
      timedOut = outcome === 'timeout';
      const what = timedOut ? `the command ran past its ${timeoutMs} ms time-out` : 'the command was aborted';
      error = `${what}; its processes were killed`;
      if (!(await this.stopProcesses(who, running.ended))) {
        error = `${what} and its processes could not be stopped; the episode was killed`;
        await this.kill(error);
        if ((await Promise.race([running.ended.then(() => 'ended' as const), sleep(3000)])) !== 'ended') running.destroy();
      }
    }
    let exitCode: number | null = null;
    try {
      exitCode = await running.exitCode(this.endedBecause ? 50 : 500);
    } catch {
      exitCode = null;
    }
    const dropped = running.stdout.dropped + running.stderr.dropped;
    const result: ExecResult = {
      stdout: running.stdout.bytes().toString('utf8'),
      stderr: running.stderr.bytes().toString('utf8'),
      exitCode,
      timedOut,
      durationMs: performance.now() - t0,
      truncated: dropped > 0,
    };
    if (error) result.error = error;
    return result;
  }

  /**
   * Kills every process of one identity (PID 1 is exempt from `kill -1`, so the episode lives on).
   * True when the timed-out command's output stream has ended afterwards.
   */
  private async stopProcesses(who: SandboxUser, ended: Promise<void>): Promise<boolean> {
    try {
      const killer = await Promise.race([
        startExec(this.container, { argv: ['kill', '-9', '-1'], user: IDENTITIES[who].ids, env: [PATH], workingDir: '/', maxOutputBytes: 4096 }),
        sleep(1500),
      ]);
      if (killer !== 'slept') await Promise.race([killer.ended, sleep(1500)]);
    } catch {
      // no room to start the killer (pids exhausted) or the container is gone: the caller escalates
    }
    return (await Promise.race([ended.then(() => 'ended' as const), sleep(1500)])) === 'ended';
  }

  private async kill(reason: string): Promise<void> {
    this.endedBecause = reason;
    try {
      await this.container.kill({ signal: 'SIGKILL' });
    } catch {
      // already stopped
    }
  }

  /** Removes the container, whatever state it is in. Safe to call more than once; never throws. */
  close(): Promise<void> {
    if (!this.closing) {
      this.endedBecause ??= 'closed';
      this.shell?.close();
      this.closing = (async () => {
        for (let attempt = 0; attempt < 2; attempt++) {
          try {
            await this.container.remove({ force: true, v: true });
            break;
          } catch (e) {
            if (isNotFound(e)) break;
            // a removal already in progress (e.g. after a kill) answers 409; wait and retry once
            if (attempt === 1) return;
            await sleep(200);
          }
        }
        this.sandbox.forget(this);
      })();
    }
    return this.closing;
  }
}

/** A command under way, through exec or the resident shell. */
interface Running {
  stdout: RunningExec['stdout'];
  stderr: RunningExec['stderr'];
  ended: Promise<void>;
  destroy(): void;
  exitCode(waitMs: number): Promise<number | null>;
}

async function raceEnd(ended: Promise<void>, timeoutMs: number, signal: AbortSignal | undefined): Promise<'ended' | 'timeout' | 'aborted'> {
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  try {
    return await Promise.race([
      ended.then(() => 'ended' as const),
      new Promise<'timeout'>((r) => {
        timer = setTimeout(() => r('timeout'), timeoutMs);
      }),
      new Promise<'aborted'>((r) => {
        if (!signal) return;
        onAbort = () => r('aborted');
        signal.addEventListener('abort', onAbort, { once: true });
      }),
    ]);
  } finally {
    clearTimeout(timer);
    if (onAbort) signal?.removeEventListener('abort', onAbort);
  }
}

/** Whether a sandbox engine answers, as a value: for status lines and the console. */
export async function sandboxStatus(opts: Pick<ConnectOptions, 'socketPath' | 'pingTimeoutMs'> = {}): Promise<SandboxStatus> {
  let address = opts.socketPath ? `unix://${opts.socketPath}` : (process.env['DOCKER_HOST'] ?? `unix://${DEFAULT_SOCKET}`);
  try {
    const at = engineAt(opts.socketPath);
    address = at.address;
    await ping(at.docker, at.address, opts.pingTimeoutMs ?? 2000);
    const v = (await at.docker.version()) as { Version?: string; ApiVersion?: string; Components?: { Name?: string }[] };
    const product = v.Components?.[0]?.Name ?? 'Engine';
    const version = `${product} ${v.Version ?? '?'} (API ${v.ApiVersion ?? '?'})`;
    return { available: true, address, version, message: `sandbox engine ${version} at ${address}` };
  } catch (e) {
    const err = e instanceof EngineError ? e : unavailable(address, e);
    return { available: false, address, message: err.message };
  }
}

/**
 * Connects to the engine and makes sure the sandbox image is present, reporting progress: what
 * `warden` runs before the first sandboxed evaluation, and what setup scripts can call.
 */
export async function prepareSandboxImage(opts: EnsureImageOptions & Pick<ConnectOptions, 'socketPath' | 'log'> = {}): Promise<SandboxImage & { address: string }> {
  const sandbox = await DockerSandbox.connect({ ...(opts.socketPath ? { socketPath: opts.socketPath } : {}), ...(opts.log ? { log: opts.log } : {}), sweep: false });
  const image = await sandbox.prepare(opts);
  return { ...image, address: sandbox.address };
}
