/**
 * Shared helpers for the benchmark adapters: finding the data folder and reading JSON.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { EngineError } from '../../../../shared/errors.js';

/** The public sets' folder: an explicit dir, WARDEN_BENCHMARKS, or ../shared/data/benchmarks found upwards. */
export function benchmarksDir(dir?: string): string {
  if (dir) return resolve(dir);
  if (process.env['WARDEN_BENCHMARKS']) return resolve(process.env['WARDEN_BENCHMARKS']);
  let cur = process.cwd();
  for (;;) {
    for (const c of [join(cur, 'shared', 'data', 'benchmarks'), join(cur, '..', 'shared', 'data', 'benchmarks')]) if (existsSync(c)) return resolve(c);
    const up = dirname(cur);
    if (up === cur) break;
    cur = up;
  }
  throw new EngineError('NOT_FOUND', 'benchmark data not found: pass --benchmarks DIR or set WARDEN_BENCHMARKS', 'benchmarks');
}

/** Reads a JSON file of a set, naming it on failure. */
export async function readJson<T>(path: string): Promise<T> {
  try {
    return JSON.parse(await readFile(path, 'utf8')) as T;
  } catch (e) {
    throw new EngineError('BAD_INPUT', `${path}: ${(e as Error).message}`, 'benchmarks');
  }
}

/** Reads a JSONL file of a set. */
export async function readJsonl<T>(path: string): Promise<T[]> {
  const text = await readFile(path, 'utf8');
  return text
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as T);
}
