/**
 * What the console's browser flows share: a fresh renderer build when the sources changed, the
 * Chromium launch settings, and a page that records every console error and page error.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import { chromium, type Browser, type Page } from 'playwright-core';

export const REPO = fileURLToPath(new URL('../..', import.meta.url));
export const CHROMIUM = '/usr/bin/chromium';
export const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'];
export const ARTIFACTS = join(REPO, 'test-artifacts');
/** The SafeHarbor memory, read only when present (it never ships with the app). */
export const SAFEHARBOR_FILE = join(REPO, '..', 'shared', 'data', 'benchmarks', 'safeharbor-rules', 'final_memory_after_benign_calibration_rules.json');

function newestMtime(path: string): number {
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = st.mtimeMs;
  for (const name of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, name)));
  return newest;
}

/** Builds renderer/dist with vite unless it is newer than every renderer and shared source. */
export async function ensureRendererBuilt(): Promise<string> {
  const dist = join(REPO, 'renderer', 'dist');
  const index = join(dist, 'index.html');
  const sources = [join(REPO, 'renderer', 'src'), join(REPO, 'renderer', 'index.html'), join(REPO, 'renderer', 'vite.config.ts'), join(REPO, 'shared')];
  const stale = !existsSync(index) || sources.some((s) => existsSync(s) && newestMtime(s) > statSync(index).mtimeMs);
  if (stale) await build({ configFile: join(REPO, 'renderer', 'vite.config.ts'), logLevel: 'warn' });
  return dist;
}

/** Launches Debian's Chromium headless. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
}

/** A page whose console errors and uncaught errors are collected in `errors`. */
export async function watchedPage(browser: Browser): Promise<{ page: Page; errors: string[] }> {
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  const errors: string[] = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error') errors.push(`console: ${msg.text()}`);
  });
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  return { page, errors };
}
