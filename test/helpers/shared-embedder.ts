/**
 * One real USE-lite embedder per test file, loaded before the tests and closed after them, handed
 * to each engine as a wrapper the engine's close() cannot close (so engines can come and go).
 */
import { afterAll, beforeAll } from 'vitest';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createUseLiteEmbedder } from '../../electron/engine/adapters/embed/index.js';
import type { Embedder, Log } from '../../electron/engine/ports.js';
import { testModels } from './temp-root.js';

/** A log that says nothing. */
export const quietLog: Log = { info: () => {}, warn: () => {}, error: () => {} };

/** Registers the file's hooks; call the result inside a test for an embedder an engine may keep. */
export function useSharedEmbedder(): () => Embedder {
  let embedder: Embedder | undefined;
  beforeAll(async () => {
    embedder = await createUseLiteEmbedder({ cacheDir: testModels() });
  });
  afterAll(async () => {
    await embedder?.close?.();
  });
  return () => {
    const e = embedder;
    if (!e) throw new Error('the shared embedder is not loaded yet (call this inside a test)');
    return { id: e.id, dim: e.dim, embed: (t) => e.embed(t) };
  };
}
