/**
 * One sandbox episode end to end, as an evaluation case uses it: open a container, run the
 * setup script, probe (one batched script), run the allowed command, remove the container.
 * The rehearsal an allowed command gets first (the command run once in a throwaway twin of the
 * episode) is timed as a stage of its own, and totals are given without and with it.
 * Measured twice: as the app runs it (a started spare container is kept ready, so opening
 * skips the container start) and cold (every episode creates and starts its container on the
 * spot). Prints one JSON object. Needs a Docker-API engine (scripts/docker-engine.sh start,
 * then the DOCKER_HOST it prints).
 *
 *   npx tsx bench/sandbox-episode.ts [runs=20]
 */
import { DockerSandbox, EpisodeProber, runInEpisode } from '../electron/engine/adapters/sandbox/index.js';
import { extractFacts } from '../electron/engine/core/facts/index.js';
import { quantile } from '../electron/engine/core/eval/metrics.js';
import type { ActionRequest } from '../shared/types.js';

/** Medians of each stage, in milliseconds. */
export interface StageFigures {
  open: number;
  setup: number;
  probe: number;
  /** The command rehearsed in a twin of the episode (a second container, the setup again, two listings). */
  rehearse: number;
  run: number;
  remove: number;
}

/** Figures of one bench run, in milliseconds. */
export interface EpisodeFigures {
  runs: number;
  /** open + setup + probe + run + remove. */
  episode_ms_p50: number;
  episode_ms_p95: number;
  /** The same with the rehearsal. */
  rehearsed_episode_ms_p50: number;
  rehearsed_episode_ms_p95: number;
  stage_ms_p50: StageFigures;
  cold_episode_ms_p50: number;
  cold_episode_ms_p95: number;
  cold_stage_ms_p50: StageFigures;
}

const round = (x: number) => Math.round(x * 10) / 10;

async function measure(sandbox: DockerSandbox, runs: number, withRehearsal = true): Promise<{ p50: number; p95: number; rehearsedP50: number; rehearsedP95: number; stages: StageFigures }> {
  const req: ActionRequest = { request: 'rename the good folder to hello', action: { type: 'shell', command: 'mv /good /hello' }, context: { user: 'root' } };
  const facts = extractFacts(req);
  const setup = 'mkdir -p /hello && echo data > /hello/f && mkdir -p /good';
  const total: number[] = [];
  const rehearsed: number[] = [];
  const stages = { open: [] as number[], setup: [] as number[], probe: [] as number[], rehearse: [] as number[], run: [] as number[], remove: [] as number[] };
  // one warm-up episode first (image check, first connection, the spare's first start)
  for (let i = -1; i < runs; i++) {
    const t0 = performance.now();
    const episode = await sandbox.openEpisode({ user: 'user', setup });
    const t1 = performance.now();
    const prober = new EpisodeProber(episode);
    const probes = await prober.probe(facts, req, new AbortController().signal);
    const t2 = performance.now();
    const rehearsal = withRehearsal ? await prober.rehearse(req, new AbortController().signal) : undefined;
    const tr = performance.now();
    const transcript = await runInEpisode(episode, 'mv /good /hello', 'root');
    const t3 = performance.now();
    await episode.close();
    const t4 = performance.now();
    const moved = !rehearsal || rehearsal.changes.some((c) => c.path === '/good' && c.change === 'deleted');
    if (!probes.some((p) => p.probe === 'would-overwrite' && p.value === true) || transcript.exitCode !== 0 || rehearsal?.error || !moved) {
      throw new Error(`episode ${i} did not behave: ${JSON.stringify({ probes, rehearsal, transcript })}`);
    }
    if (i < 0) continue;
    const setupMs = episode.setup?.durationMs ?? 0;
    const rehearseMs = tr - t2;
    total.push(t4 - t0 - rehearseMs);
    rehearsed.push(t4 - t0);
    stages.open.push(t1 - t0 - setupMs);
    stages.setup.push(setupMs);
    stages.probe.push(t2 - t1);
    stages.rehearse.push(rehearseMs);
    stages.run.push(t3 - tr);
    stages.remove.push(t4 - t3);
  }
  const p50 = (xs: number[]) => round(quantile(xs, 0.5));
  return {
    p50: p50(total),
    p95: round(quantile(total, 0.95)),
    rehearsedP50: p50(rehearsed),
    rehearsedP95: round(quantile(rehearsed, 0.95)),
    stages: { open: p50(stages.open), setup: p50(stages.setup), probe: p50(stages.probe), rehearse: p50(stages.rehearse), run: p50(stages.run), remove: p50(stages.remove) },
  };
}

/**
 * Measures `runs` episodes one after another: as the app runs them (with a spare container),
 * once without the rehearsal and once with it, so the spare's start competes with exactly the
 * stages each total counts; then cold, without the rehearsal.
 */
export async function benchSandboxEpisode(runs = 20): Promise<EpisodeFigures> {
  const warm = await DockerSandbox.connect();
  let w;
  let r;
  try {
    w = await measure(warm, runs, false);
    r = await measure(warm, runs, true);
  } finally {
    await warm.closeAll();
  }
  const cold = await DockerSandbox.connect({ warm: false });
  const c = await measure(cold, runs, false);
  return {
    runs,
    episode_ms_p50: w.p50,
    episode_ms_p95: w.p95,
    rehearsed_episode_ms_p50: r.rehearsedP50,
    rehearsed_episode_ms_p95: r.rehearsedP95,
    stage_ms_p50: { ...w.stages, rehearse: r.stages.rehearse },
    cold_episode_ms_p50: c.p50,
    cold_episode_ms_p95: c.p95,
    cold_stage_ms_p50: c.stages,
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const runs = Number(process.argv[2] ?? 20);
  benchSandboxEpisode(Number.isInteger(runs) && runs > 0 ? runs : 20).then(
    (f) => console.log(JSON.stringify(f)),
    (e: unknown) => {
      console.error((e as Error).message);
      process.exitCode = 1;
    },
  );
}
