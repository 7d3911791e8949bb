/**
 * The Prober port on a live sandbox episode: one batched, read-only script run as the action's
 * identity (and a second pass as root only for what that identity could not see).
 */
import type { ActionRequest, Facts, ProbeResult, RehearsalReport } from '../../../../shared/types.js';
import { toErrorInfo } from '../../../../shared/errors.js';
import type { Prober } from '../../ports.js';
import { probesEnv, type ProbesEnv } from '../../core/checks/probes-env.js';
import type { Episode, SandboxUser } from './docker-sandbox.js';
import { parseProbeOutput, planProbes, probeResults, probeScript, type ProbePlan } from './probe-script.js';
import { rehearse } from './rehearsal.js';

/** Options of an episode prober. */
export interface EpisodeProberOptions {
  /** Time-out of each probe pass (default 5 s). */
  timeoutMs?: number;
  /** Time the command gets in a rehearsal (default 4 s). */
  rehearsalMs?: number;
}

const MiB = 1024 * 1024;

/** Every planned probe reported as failed with one reason. */
function failAll(plan: ProbePlan, error: string): ProbeResult[] {
  const out: ProbeResult[] = [];
  for (const p of plan.paths) out.push({ probe: 'path', target: p, ok: false, error });
  for (const d of plan.destinations) if (d.kind !== 'archive') out.push({ probe: 'would-overwrite', target: d.target, ok: false, error });
  for (const g of plan.globs) out.push({ probe: 'glob', target: g, ok: false, error });
  for (const g of plan.scriptGlobs) out.push({ probe: 'script-glob', target: g, ok: false, error });
  for (const t of plan.trees) out.push({ probe: 'tree', target: t, ok: false, error });
  for (const o of plan.overlays) out.push({ probe: 'overlay', target: o.dest, ok: false, error });
  for (const n of plan.noted) out.push({ probe: 'keep-note', target: n, ok: false, error });
  for (const n of plan.noted) out.push({ probe: 'in-use', target: n, ok: false, error });
  for (const n of plan.emptied) out.push({ probe: 'keep-note', target: `${n}/*`, ok: false, error });
  for (const n of plan.emptied) out.push({ probe: 'in-use', target: `${n}/*`, ok: false, error });
  for (const n of plan.truncated) out.push({ probe: 'keep-note', target: n, ok: false, error });
  for (const g of plan.groupsOut) out.push({ probe: 'primary-group', target: g, ok: false, error });
  for (const d of plan.doomed) out.push({ probe: 'doomed', target: d, ok: false, error });
  for (const f of plan.finds) out.push({ probe: 'find', target: f.target, ok: false, error });
  for (const b of plan.blanks) out.push({ probe: 'holds-bytes', target: b, ok: false, error });
  for (const t of plan.texts) out.push({ probe: 'binary', target: t, ok: false, error });
  for (const t of plan.sorted ?? []) out.push({ probe: 'order-note', target: t, ok: false, error });
  for (const p of plan.pidfiles) out.push({ probe: 'pidfile', target: p, ok: false, error });
  for (const x of plan.processes) out.push({ probe: 'processes', target: x.target, ok: false, error });
  for (const p of plan.locks) out.push({ probe: 'lock-holder', target: p, ok: false, error });
  for (const x of plan.listed ?? []) out.push({ probe: 'listed', target: x.list, ok: false, error });
  for (const x of plan.drops ?? []) out.push({ probe: 'public-drop', target: x.dest, ok: false, error });
  for (const x of plan.claimed ?? []) out.push({ probe: 'failed-run', target: x.target, ok: false, error });
  for (const x of plan.linkedTo ?? []) out.push({ probe: 'link-failed-run', target: x, ok: false, error });
  for (const x of plan.served) out.push({ probe: 'served', target: x.root, ok: false, error });
  for (const a of plan.accounts) out.push({ probe: 'account-id', target: `${a.of}:${a.name}`, ok: false, error });
  for (const u of plan.uidsSelected ?? []) out.push({ probe: 'uid-holder', target: u, ok: false, error });
  for (const x of plan.substitutions) out.push({ probe: 'substitution', target: `s/${x.re}/`, ok: false, error });
  for (const s of plan.skipped) out.push({ probe: s.probe, target: s.target, ok: false, error: s.error });
  out.push({ probe: 'user', target: '', ok: false, error }, { probe: 'free-disk', target: '/', ok: false, error });
  return out;
}

/** Probes inside one episode. Never mutates the environment and never throws. */
export class EpisodeProber implements Prober {
  constructor(
    private readonly episode: Episode,
    private readonly opts: EpisodeProberOptions = {},
  ) {}

  async probe(facts: Facts, request: ActionRequest, signal: AbortSignal): Promise<ProbeResult[]> {
    let plan: ProbePlan;
    try {
      plan = planProbes(facts, request);
    } catch (e) {
      return [{ probe: 'plan', target: '', ok: false, error: toErrorInfo(e).message }];
    }
    const asked = request.context?.user;
    const user: SandboxUser = asked === 'root' || asked === 'user' ? asked : this.episode.user;
    const timeoutMs = this.opts.timeoutMs ?? 5000;
    try {
      const first = await this.episode.exec(probeScript(plan, undefined, this.episode.residentShellPid), { user, timeoutMs, signal, maxOutputBytes: 4 * MiB });
      if (first.error) return failAll(plan, `probe script: ${first.error}`);
      const records = parseProbeOutput(first.stdout);
      const hidden = plan.paths.map((_, i) => i).filter((i) => records.get(`p${i}`)?.has('denied'));
      let rootRecords;
      if (hidden.length > 0 && user !== 'root') {
        const second = await this.episode.exec(probeScript(plan, hidden, this.episode.residentShellPid), { user: 'root', timeoutMs, signal, maxOutputBytes: 4 * MiB });
        if (!second.error) rootRecords = parseProbeOutput(second.stdout);
      }
      return probeResults(plan, records, rootRecords);
    } catch (e) {
      return failAll(plan, toErrorInfo(e).message);
    }
  }

  /** Runs the command in a twin of this episode, as the identity and in the folder it would run in. */
  rehearse(request: ActionRequest, signal: AbortSignal): Promise<RehearsalReport> {
    const command = request.action.type === 'shell' ? request.action.command : '';
    const asked = request.context?.user;
    const user: SandboxUser = asked === 'root' || asked === 'user' ? asked : this.episode.user;
    return rehearse(this.episode, command, user, { signal, ...(this.opts.rehearsalMs ? { timeoutMs: this.opts.rehearsalMs } : {}), ...(request.context?.cwd ? { cwd: request.context.cwd } : {}) });
  }
}

/** A Prober for one episode. */
export function createEpisodeProber(episode: Episode, opts: EpisodeProberOptions = {}): Prober {
  return new EpisodeProber(episode, opts);
}

/**
 * Probe results as the check expressions see them (`probes.*` in CEL); the same fold the checks
 * runner applies, so what a test or the console shows is what a check reads:
 *
 * ```
 * {
 *   available: boolean,            // some probe answered (false: no sandbox, or it failed)
 *   paths: { "/hello": { exists: true, type: "dir", owner: "root", mode: "755", size: 4096, entries: 1 } },
 *                                  // type: file | dir | link | other | none; entries: directory entries
 *   overwrites: ["/hello"],        // mv/cp/ln/install destinations and `>` redirect targets that hold
 *                                  // data (non-empty file or directory), and DIR/name an mv into an
 *                                  // existing DIR would replace
 *   globs: { "/data/*": ["/data/a", "/data/b"] },   // matches as the action's identity sees them (first 100)
 *   user: "user",                  // `id -u -n` of the action's identity
 *   freeKb: 81435572,              // free space on / (df -k); -1 when unknown
 * }
 * ```
 * e.g. `probes.overwrites.size() > 0`, `probes.paths["/hello"].entries > 0`,
 * `probes.globs.exists(g, probes.globs[g].size() > 10)`.
 */
export function probesToEnv(results: ProbeResult[]): ProbesEnv {
  return probesEnv(results);
}
