/**
 * Running the gated action itself in an episode, after an allow, and keeping its transcript.
 */
import type { RunTranscript } from '../../../../shared/types.js';
import { randomUUID } from 'node:crypto';
import { toErrorInfo } from '../../../../shared/errors.js';
import type { Episode, SandboxUser } from './docker-sandbox.js';
import { shQuote } from './probe-script.js';

/** What the action did in the sandbox: stored with the verdict. */
export type Transcript = RunTranscript & { user: SandboxUser };

/** Options of one run. */
export interface RunOptions {
  timeoutMs?: number;
  /** Working directory; the command does not run (exit 125) when it is missing. */
  cwd?: string;
  signal?: AbortSignal;
}

/**
 * The command runs in a child shell; afterwards the parent counts the processes left in the
 * episode with a glob over /proc (no fork, so the count works even when a fork bomb has used up
 * the pid limit) and reports the count on stderr behind a marker nobody can guess in advance.
 * The count leaves out init, the counting shell itself and the episode's resident root shell
 * (`shell`: its pid; when the command runs through it, it is the counting shell's parent).
 */
function wrap(command: string, cwd: string | undefined, marker: string, shell: number | undefined): string {
  const cd = cwd ? `cd -- ${shQuote(cwd)} || exit 125\n` : '';
  const skip = shell !== undefined && Number.isInteger(shell) ? String(shell) : '$PPID';
  return `${cd}sh -c ${shQuote(command)}\ns=$?\nn=0\nfor p in /proc/[0-9]*; do [ "$p" = /proc/${skip} ] || n=$((n+1)); done\nprintf '\\n${marker} %d\\n' $((n-2)) >&2\nexit $s\n`;
}

/** Splits the census line off stderr. */
function takeCensus(stderr: string, marker: string): { stderr: string; lingering?: number } {
  const at = stderr.lastIndexOf(`\n${marker} `);
  if (at < 0) return { stderr };
  const m = new RegExp(`^\\n${marker} (-?\\d+)\\n`).exec(stderr.slice(at));
  if (!m) return { stderr };
  return { stderr: stderr.slice(0, at) + stderr.slice(at + m[0].length), lingering: Math.max(0, Number(m[1])) };
}

/**
 * Runs an allowed command in the episode as `user` and returns its transcript. Never throws: an
 * engine failure or an ended episode comes back as `error` with a null exit code.
 */
export async function runInEpisode(episode: Episode, command: string, user: SandboxUser, opts: RunOptions = {}): Promise<Transcript> {
  const t0 = performance.now();
  const marker = `warden-census-${randomUUID()}`;
  try {
    const r = await episode.exec(wrap(command, opts.cwd, marker, episode.residentShellPid), { user, ...(opts.timeoutMs ? { timeoutMs: opts.timeoutMs } : {}), ...(opts.signal ? { signal: opts.signal } : {}) });
    episode.remember(command, user, opts.cwd);
    const census = takeCensus(r.stderr, marker);
    const t: Transcript = { command, user, stdout: r.stdout, stderr: census.stderr, exitCode: r.exitCode, timedOut: r.timedOut, durationMs: r.durationMs, truncated: r.truncated };
    if (census.lingering !== undefined) t.lingering = census.lingering;
    if (r.error) t.error = r.error;
    return t;
  } catch (e) {
    return { command, user, stdout: '', stderr: '', exitCode: null, timedOut: false, durationMs: performance.now() - t0, truncated: false, error: toErrorInfo(e).message };
  }
}
