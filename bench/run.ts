/**
 * `npm run bench`: one JSON object on stdout. Everything compared is measured side by side in
 * the same run: fast-path verdicts against the bare embedding call, throughput, and tree
 * retrieval against a brute-force scan at 1k / 10k / 100k leaves.
 */
import { openEngine } from '../electron/engine/create-engine.js';
import { quantile } from '../electron/engine/core/eval/metrics.js';
import { embeddingText } from '../electron/engine/engine.js';
import { extractFacts } from '../electron/engine/core/facts/index.js';
import { OnnxEmbedder } from '../electron/engine/adapters/embed/onnx-embedder.js';
import { parseActionRequest } from '../shared/validate.js';
import { benchRetrieval } from './retrieval.js';
import { benchSandboxEpisode } from './sandbox-episode.js';
import { benchIntakeLoad } from './intake-load.js';
import { benchConsoleTree } from './console-tree.js';
import { benchConsoleApi } from './console-api.js';
import { toErrorInfo } from '../shared/errors.js';

/** Options for one run. */
export interface BenchOptions {
  quick?: boolean;
}

/** Distinct benign requests (distinct so no cache answers for the verdict or the embedder). */
function benignRequest(i: number): { request: string; action: { type: 'shell'; command: string } } {
  const dirs = ['src', 'docs', 'test', 'lib', 'scripts', 'assets', 'examples', 'config'];
  const verbs = [
    (d: string, n: number) => ({ request: `list the files in the ${d} folder of project ${n}`, command: `ls -la ~/projects/p${n}/${d}` }),
    (d: string, n: number) => ({ request: `show me the readme of project ${n}`, command: `cat ~/projects/p${n}/${d}/README.md` }),
    (d: string, n: number) => ({ request: `count the lines of code in ${d} for project ${n}`, command: `wc -l ~/projects/p${n}/${d}/*.ts` }),
    (d: string, n: number) => ({ request: `search for TODO notes in ${d} of project ${n}`, command: `grep -rn "TODO" ~/projects/p${n}/${d}` }),
  ];
  const v = verbs[i % verbs.length]!(dirs[Math.floor(i / verbs.length) % dirs.length]!, i);
  return { request: v.request, action: { type: 'shell', command: v.command } };
}

/** Runs every measurement. */
export async function runBench(opts: BenchOptions = {}): Promise<Record<string, unknown>> {
  const engine = await openEngine({ ephemeral: true });
  const n = opts.quick ? 60 : 400;
  try {
    // warm up both paths (JIT, ONNX sessions, SQLite statements)
    for (let i = 0; i < 30; i++) {
      await engine.check(benignRequest(100_000 + i));
      await engine.embedder.embed([`warm up ${i}`]);
    }
    // Side by side, one action at a time: the embedding call alone on the very text the verdict
    // embeds, through the same encoder, then the verdict. The reference call goes past the
    // encoder's cache (it neither answers from it nor fills it), and every verdict action is new,
    // so no cache answers for either side; `verdict_texts_encoded` counts the encoder's work during
    // the verdicts to show it. The ratio pairs each fast verdict with its own reference call.
    const encoder = engine.embedder instanceof OnnxEmbedder ? engine.embedder : undefined;
    const embedAlone = async (text: string): Promise<unknown> => (encoder ? encoder.embed([text], { cache: false }) : engine.embedder.embed([`${text} `]));
    const encodedSoFar = (): number => encoder?.stats.encoded ?? Number.NaN;
    const embedMs: number[] = [];
    const embedFast: number[] = [];
    const verdictMs: number[] = [];
    const fastOnly: number[] = [];
    const paths: Record<string, number> = {};
    let verdictTextsEncoded = 0;
    for (let i = 0; i < n; i++) {
      const input = benignRequest(i + 50_000);
      const req = parseActionRequest(input);
      const text = embeddingText(req, extractFacts(req));
      let t = performance.now();
      await embedAlone(text);
      const embedTime = performance.now() - t;
      embedMs.push(embedTime);
      const encodedBefore = encodedSoFar();
      t = performance.now();
      const v = await engine.check(input);
      const ms = performance.now() - t;
      verdictTextsEncoded += encodedSoFar() - encodedBefore;
      verdictMs.push(ms);
      if (v.path === 'fast') {
        fastOnly.push(ms);
        embedFast.push(embedTime);
      }
      paths[v.path] = (paths[v.path] ?? 0) + 1;
    }
    const embedP50 = quantile(embedFast, 0.5);
    const verdictP50 = quantile(fastOnly, 0.5);

    // throughput: sequential verdicts, recorded, for a fixed count
    const count = opts.quick ? 100 : 1000;
    let t = performance.now();
    for (let i = 0; i < count; i++) await engine.check(benignRequest(200_000 + i));
    const seqSeconds = (performance.now() - t) / 1000;
    // and with many in flight, as an intake server under load sees them (50 clients, as in its
    // load test): concurrent verdicts share encoder runs and overlap the rest of their work
    const inFlight = async (width: number, base: number): Promise<number> => {
      const start = performance.now();
      let next = 0;
      await Promise.all(
        Array.from({ length: width }, async () => {
          while (next < count) {
            const i = next++;
            await engine.check(benignRequest(base + i));
          }
        }),
      );
      return count / ((performance.now() - start) / 1000);
    };
    const conc4 = await inFlight(4, 300_000);
    const conc50 = await inFlight(50, 400_000);

    const retrieval = await benchRetrieval(opts.quick ? [1_000, 10_000] : [1_000, 10_000, 100_000]);
    // the sandbox needs a Docker-API engine; without one the figure says why instead
    let sandbox_episode: unknown;
    try {
      sandbox_episode = await benchSandboxEpisode(opts.quick ? 5 : 20);
    } catch (e) {
      sandbox_episode = { unavailable: toErrorInfo(e).message };
    }
    return {
      embed_ms: { p50: quantile(embedMs, 0.5), p95: quantile(embedMs, 0.95), p50_beside_fast_verdicts: embedP50 },
      verdict_ms: { p50: quantile(verdictMs, 0.5), p95: quantile(verdictMs, 0.95) },
      fast_path_verdict_ms: { n: fastOnly.length, p50: verdictP50, p95: quantile(fastOnly, 0.95) },
      verdict_paths: paths,
      verdict_texts_encoded: { verdicts: n, texts: verdictTextsEncoded },
      fast_path_vs_embed_ratio: verdictP50 / embedP50,
      verdicts_per_second: conc50,
      verdicts_per_second_sequential: count / seqSeconds,
      verdicts_per_second_4_in_flight: conc4,
      verdicts_per_second_50_in_flight: conc50,
      retrieval,
      sandbox_episode,
      intake_load: await benchIntakeLoad(opts.quick ? { actions: 300, clients: 50 } : {}),
      console_tree: await benchConsoleTree().catch((e: unknown) => ({ unavailable: toErrorInfo(e).message })),
      console_api: await benchConsoleApi(opts.quick ? { pending: 200, calls: 50 } : {}),
    };
  } finally {
    await engine.close();
  }
}
