/**
 * One sandbox episode end to end, as an evaluation case uses it: open a container, run the
 * setup script, probe (one batched script), run the allowed command, remove the container.
 * Measured twice: as the app runs it (a started spare container is kept ready, so opening
 * skips the container start) and cold (every episode creates and starts its container on the
 * spot). Prints one JSON object. Needs a Docker-API engine (scripts/docker-engine.sh start,
 * then the DOCKER_HOST it prints).
 *
 *   npx tsx bench/sandbox-episode.ts [runs=20]
 */
import { DockerSandbox, createEpisodeProber, runInEpisode } from '../electron/engine/adapters/sandbox/index.js';
import { extractFacts } from '../electron/engine/core/facts/index.js';
import { quantile } from '../electron/engine/core/eval/metrics.js';
import type { ActionRequest } from '../shared/types.js';

/** Medians of each stage, in milliseconds. */
export interface StageFigures {
  open: number;
  setup: number;
  probe: number;
  run: number;
  remove: number;
}

/** Figures of one bench run, in milliseconds. */
export interface EpisodeFigures {
  runs: number;
  episode_ms_p50: number;
  episode_ms_p95: number;
  stage_ms_p50: StageFigures;
  cold_episode_ms_p50: number;
  cold_episode_ms_p95: number;
  cold_stage_ms_p50: StageFigures;
}

const round = (x: number) => Math.round(x * 10) / 10;

async function measure(sandbox: DockerSandbox, runs: number): Promise<{ p50: number; p95: number; stages: StageFigures }> {
  const req: ActionRequest = { request: 'rename the good folder to hello', action: { type: 'shell', command: 'mv /good /hello' } };
  const facts = extractFacts(req);
  const setup = 'mkdir -p /hello && echo data > /hello/f && mkdir -p /good';
  const total: number[] = [];
  const stages = { open: [] as number[], setup: [] as number[], probe: [] as number[], run: [] as number[], remove: [] as number[] };
  // one warm-up episode first (image check, first connection, the spare's first start)
  for (let i = -1; i < runs; i++) {
    const t0 = performance.now();
    const episode = await sandbox.openEpisode({ user: 'user', setup });
    const t1 = performance.now();
    const probes = await createEpisodeProber(episode).probe(facts, req, new AbortController().signal);
    const t2 = performance.now();
    const transcript = await runInEpisode(episode, 'mv /good /hello', 'root');
    const t3 = performance.now();
    await episode.close();
    const t4 = performance.now();
    if (!probes.some((p) => p.probe === 'would-overwrite' && p.value === true) || transcript.exitCode !== 0) {
      throw new Error(`episode ${i} did not behave: ${JSON.stringify({ probes, transcript })}`);
    }
    if (i < 0) continue;
    const setupMs = episode.setup?.durationMs ?? 0;
    total.push(t4 - t0);
    stages.open.push(t1 - t0 - setupMs);
    stages.setup.push(setupMs);
    stages.probe.push(t2 - t1);
    stages.run.push(t3 - t2);
    stages.remove.push(t4 - t3);
  }
  const p50 = (xs: number[]) => round(quantile(xs, 0.5));
  return {
    p50: p50(total),
    p95: round(quantile(total, 0.95)),
    stages: { open: p50(stages.open), setup: p50(stages.setup), probe: p50(stages.probe), run: p50(stages.run), remove: p50(stages.remove) },
  };
}

/** Measures `runs` episodes one after another, with a spare container and without. */
export async function benchSandboxEpisode(runs = 20): Promise<EpisodeFigures> {
  const warm = await DockerSandbox.connect();
  let w;
  try {
    w = await measure(warm, runs);
  } finally {
    await warm.closeAll();
  }
  const cold = await DockerSandbox.connect({ warm: false });
  const c = await measure(cold, runs);
  return {
    runs,
    episode_ms_p50: w.p50,
    episode_ms_p95: w.p95,
    stage_ms_p50: w.stages,
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
