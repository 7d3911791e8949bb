import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // one temporary folder for the run, removed at its end (caches kept beside it)
    globalSetup: ['test/helpers/temp-root.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // two files at a time even on a two-core machine (where the default is one): most of the
    // suite's time is spent waiting on sandbox episodes in the engine's own processes
    maxWorkers: 2,
  },
});
