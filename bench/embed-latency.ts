/**
 * The default embedder's costs: converting USE-lite to ONNX (into a fresh cache folder, so it
 * really converts), the converted file's size, loading a cached conversion, and the latency of a
 * single-sentence embed call (the hot path: one call per verdict) over distinct sentences (the
 * embedder's text cache is off, so every call runs the model), at 1 and 2 intra-op threads.
 * Prints one JSON object.
 *
 *   npx tsx bench/embed-latency.ts [calls=500]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createUseLiteEmbedder } from '../electron/engine/adapters/embed/index.js';
import { quantile } from '../electron/engine/core/eval/metrics.js';

/** Sentences of the lengths the guard embeds: a short request, a request + paraphrase + command. */
const SHAPES = {
  short: (i: number): string => `delete the build folder number ${i}`,
  verdict: (i: number): string =>
    `clean the build output before release ${i}. Deletes the directory ./build and everything under it, recursively. rm -rf ./build`,
};

/** Latency figures for one text shape, in milliseconds. */
export interface LatencyFigures {
  tokens: number;
  p50: number;
  p95: number;
}

/** Everything the bench measures. */
export interface EmbedFigures {
  conversion_ms: number;
  model_bytes: number;
  load_cached_ms: number;
  calls: number;
  threads: Record<string, Record<keyof typeof SHAPES, LatencyFigures>>;
  batch64_ms_per_text: number;
}

/** Runs the measurements. */
export async function benchEmbed(calls = 500): Promise<EmbedFigures> {
  const cacheDir = mkdtempSync(join(tmpdir(), 'warden-embed-bench-'));
  try {
    const first = await createUseLiteEmbedder({ cacheDir });
    await first.close();
    const started = performance.now();
    const cached = await createUseLiteEmbedder({ cacheDir });
    const loadCachedMs = performance.now() - started;
    await cached.close();
    const threads: EmbedFigures['threads'] = {};
    let batch64 = 0;
    for (const n of [1, 2]) {
      const e = await createUseLiteEmbedder({ cacheDir, threads: n, cacheSize: 0 });
      const byShape = {} as Record<keyof typeof SHAPES, LatencyFigures>;
      for (const [shape, text] of Object.entries(SHAPES) as [keyof typeof SHAPES, (i: number) => string][]) {
        for (let i = 0; i < 50; i++) await e.embed([text(-1 - i)]);
        const ms: number[] = [];
        for (let i = 0; i < calls; i++) {
          const t = performance.now();
          await e.embed([text(i)]);
          ms.push(performance.now() - t);
        }
        byShape[shape] = { tokens: e.tokenize(text(0)).length, p50: quantile(ms, 0.5), p95: quantile(ms, 0.95) };
      }
      threads[String(n)] = byShape;
      if (n === 2) {
        const texts = Array.from({ length: 64 }, (_, i) => SHAPES.short(10_000 + i));
        const t = performance.now();
        await e.embed(texts);
        batch64 = (performance.now() - t) / texts.length;
      }
      await e.close();
    }
    return { conversion_ms: first.model.conversionMs, model_bytes: first.model.bytes, load_cached_ms: loadCachedMs, calls, threads, batch64_ms_per_text: batch64 };
  } finally {
    rmSync(cacheDir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const figures = await benchEmbed(Number(process.argv[2] ?? 500));
  process.stdout.write(`${JSON.stringify(figures, (_, v: unknown) => (typeof v === 'number' && !Number.isInteger(v) ? Number(v.toFixed(3)) : v), 2)}\n`);
}
