/**
 * The test run's temporary folders. The global setup gives the run one folder of its own under
 * the system's temporary folder (TMPDIR, which every worker and every child process inherits, so
 * each `mkdtemp` of a test lands there) and removes it when the run ends. The caches that are
 * worth keeping between runs (the model files, the sandbox image's rootfs) stay beside it, and so
 * does a folder a test needs at the same path in every run (`stableTmp`).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The cache the command line is handed in tests (WARDEN_CACHE), kept between runs. */
export function testCache(): string {
  return process.env['WARDEN_TEST_CACHE'] ?? join(tmpdir(), 'warden-test-cache');
}

/**
 * The system's temporary folder itself, for a test whose folder must have the same path in every
 * run (a path the guard embeds changes its scores); such a test removes its folder itself.
 */
export function stableTmp(): string {
  return process.env['WARDEN_TEST_TMP'] ?? tmpdir();
}

/** Where the tests' embedding model files are kept between runs. */
export function testModels(): string {
  return process.env['WARDEN_TEST_MODELS'] ?? join(tmpdir(), 'warden-test-models');
}

export default function setup(): () => void {
  const base = tmpdir();
  process.env['WARDEN_TEST_TMP'] ??= base;
  process.env['WARDEN_TEST_CACHE'] ??= join(base, 'warden-test-cache');
  process.env['WARDEN_TEST_MODELS'] ??= join(base, 'warden-test-models');
  const run = mkdtempSync(join(base, 'warden-tests-'));
  process.env['TMPDIR'] = run;
  return () => rmSync(run, { recursive: true, force: true, maxRetries: 3 });
}
