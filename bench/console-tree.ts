/**
 * The console's memory tree at SafeHarbor scale in real Chromium: time from opening the page to
 * the 4,956-leaf tree drawn on its canvas, then frame timings while the mouse zooms and pans it.
 * Skipped, with the reason, when the SafeHarbor memory or Chromium is absent.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { build } from 'vite';
import { openEngine } from '../electron/engine/create-engine.js';
import { quantile } from '../electron/engine/core/eval/metrics.js';
import { startConsoleServer } from '../electron/server/console/server.js';

const REPO = fileURLToPath(new URL('..', import.meta.url));
const CHROMIUM = '/usr/bin/chromium';
const SAFEHARBOR = join(REPO, '..', 'shared', 'data', 'benchmarks', 'safeharbor-rules', 'final_memory_after_benign_calibration_rules.json');
const ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'];

function newest(path: string): number {
  const st = statSync(path);
  return st.isDirectory() ? Math.max(st.mtimeMs, ...readdirSync(path).map((n) => newest(join(path, n)))) : st.mtimeMs;
}

async function rendererDist(): Promise<string> {
  const dist = join(REPO, 'renderer', 'dist');
  const index = join(dist, 'index.html');
  if (!existsSync(index) || newest(join(REPO, 'renderer', 'src')) > statSync(index).mtimeMs) {
    await build({ configFile: join(REPO, 'renderer', 'vite.config.ts'), logLevel: 'warn' });
  }
  return dist;
}

// page-side code as strings: this file is compiled without the DOM library
const START_FRAMES = `(() => { window.__frames = []; const tick = (t) => { window.__frames.push(t); window.__raf = requestAnimationFrame(tick); }; window.__raf = requestAnimationFrame(tick); })()`;
const STOP_FRAMES = `(() => { cancelAnimationFrame(window.__raf); return window.__frames; })()`;
const PHASES = `Object.fromEntries(['warden:tree-fetch', 'warden:tree-layout'].map((n) => [n.slice(7), performance.getEntriesByName(n).map((e) => Math.round(e.duration))]).concat([['dom_content_loaded', [Math.round(performance.getEntriesByType('navigation')[0]?.domContentLoadedEventEnd ?? 0)]]]))`;
const DRAW_MS = `Number(document.querySelector('[data-testid="tree-canvas"]')?.dataset.drawMs ?? NaN)`;

type Engine = Awaited<ReturnType<typeof openEngine>>;
type Browser = Awaited<ReturnType<typeof chromium.launch>>;

async function queueAsks(engine: Engine, n: number): Promise<number> {
  let asks = 0;
  for (let i = 0; i < n; i += 50) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(50, n - i) }, (_, j) => engine.check({ request: `free some space ${i + j}`, action: { type: 'shell', command: `rm ~/notes/old-${i + j}.txt` } })),
    );
    asks += batch.filter((v) => v.decision === 'ask').length;
  }
  return asks;
}

/** The review queue holding 1,000 pending asks: opening it, and moving through it by keyboard. */
async function reviewQueue(browser: Browser, url: string, errors: string[]): Promise<Record<string, unknown>> {
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(url);
  await page.waitForFunction(
    () => Number((globalThis as unknown as { document: { querySelector(s: string): { textContent: string | null } | null } }).document.querySelector('[data-testid="pending-count"]')?.textContent ?? 0) >= 1000,
    undefined,
    { timeout: 60_000 },
  );
  let t = performance.now();
  await page.getByTestId('nav-review').click();
  await page.getByTestId('review-row').first().waitFor();
  const openMs = performance.now() - t;
  const rowsInDom = await page.getByTestId('review-row').count();
  const keyMs: number[] = [];
  for (let i = 0; i < 100; i++) {
    t = performance.now();
    await page.keyboard.press('j');
    await page.evaluate('new Promise((r) => requestAnimationFrame(() => r(0)))');
    keyMs.push(performance.now() - t);
  }
  const pending = Number(await page.getByTestId('pending-count').textContent());
  await page.close();
  return { pending, open_ms: openMs, rows_in_dom: rowsInDom, key_to_frame_ms: { p50: quantile(keyMs, 0.5), p95: quantile(keyMs, 0.95), max: Math.max(...keyMs) } };
}

/** Runs the benchmark; `leaves` is how many leaves the tree must show before the clock stops. */
export async function benchConsoleTree(opts: { leaves?: number } = {}): Promise<Record<string, unknown>> {
  if (!existsSync(SAFEHARBOR)) return { skipped: `the SafeHarbor memory is not at ${SAFEHARBOR}` };
  if (!existsSync(CHROMIUM)) return { skipped: `no Chromium at ${CHROMIUM} (apt-get install chromium)` };
  const want = opts.leaves ?? 4956;
  const staticDir = await rendererDist();
  const engine = await openEngine({ ephemeral: true });
  const server = await startConsoleServer({ engine, port: 0, host: '127.0.0.1', staticDir });
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
  try {
    const imported = await engine.importSafeHarbor(SAFEHARBOR);
    const asks = await queueAsks(engine, 1000);
    if (asks < 1000) throw new Error(`only ${asks} of 1000 actions were queued as asks`);
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));

    const t0 = performance.now();
    await page.goto(server.url);
    // a function, not a string: the console's CSP forbids the eval a string predicate needs
    await page.waitForFunction(
      (n) => Number((globalThis as unknown as { document: { querySelector(s: string): { dataset: Record<string, string> } | null } }).document.querySelector('[data-testid="tree-canvas"]')?.dataset['drawn'] ?? 0) >= n,
      want,
      { timeout: 60_000, polling: 10 },
    );
    const renderMs = performance.now() - t0;
    const firstDrawMs = (await page.evaluate(DRAW_MS)) as number;
    // the same moment on the page's own clock (from navigation start), without the harness's polling
    const drawnAtMs = Number(await page.getByTestId('tree-canvas').getAttribute('data-drawn-at'));
    const phases = (await page.evaluate(PHASES)) as Record<string, number[]>;

    const canvas = (await page.locator('[data-testid="tree-canvas"]').boundingBox())!;
    const cx = canvas.x + canvas.width / 2;
    const cy = canvas.y + canvas.height / 2;
    const drawMs: number[] = [];
    const inputMs: number[] = [];
    const step = async (fn: () => Promise<void>): Promise<void> => {
      const t = performance.now();
      await fn();
      // one frame later the draw for this input is on screen
      await page.evaluate('new Promise((r) => requestAnimationFrame(() => r(0)))');
      inputMs.push(performance.now() - t);
      drawMs.push((await page.evaluate(DRAW_MS)) as number);
    };
    await page.evaluate(START_FRAMES);
    await page.mouse.move(cx, cy);
    for (let i = 0; i < 25; i++) await step(() => page.mouse.wheel(0, -120));
    await page.mouse.down();
    for (let i = 0; i < 40; i++) await step(() => page.mouse.move(cx + 8 * i, cy + 5 * Math.sin(i / 4) * 20));
    await page.mouse.up();
    for (let i = 0; i < 25; i++) await step(() => page.mouse.wheel(0, 120));
    const frames = (await page.evaluate(STOP_FRAMES)) as number[];
    const gaps = frames.slice(1).map((t, i) => t - frames[i]!);
    await page.close();
    const review = await reviewQueue(browser, server.url, errors);
    return {
      leaves: imported.leaves,
      render_ms: renderMs,
      drawn_at_page_ms: drawnAtMs,
      first_draw_ms: firstDrawMs,
      phases_ms: phases,
      draw_ms: { p50: quantile(drawMs, 0.5), p95: quantile(drawMs, 0.95), max: Math.max(...drawMs) },
      input_to_frame_ms: { p50: quantile(inputMs, 0.5), p95: quantile(inputMs, 0.95), max: Math.max(...inputMs) },
      frame_gap_ms: { p50: quantile(gaps, 0.5), p95: quantile(gaps, 0.95), max: Math.max(...gaps) },
      frames: frames.length,
      frames_over_50ms: gaps.filter((g) => g > 50).length,
      review_queue: review,
      page_errors: errors,
    };
  } finally {
    await browser.close();
    await server.close();
    await engine.close();
  }
}
