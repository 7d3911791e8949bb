/**
 * Shared helpers for the benchmark adapters: finding the data folder, reading its files with
 * errors that name the file and the item, and checking that what an adapter built is a valid,
 * uniquely named set of cases.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { z } from 'zod';
import { EngineError } from '../../../../shared/errors.js';
import type { EvalCase } from '../../../../shared/types.js';
import { parseEvalCase } from '../../../../shared/validate.js';

/** The folder holding the adapters' own reference files (hand-written commands and fixes). */
export const ADAPTERS_DIR = dirname(fileURLToPath(import.meta.url));

/**
 * The public sets' folder: an explicit dir, else WARDEN_BENCHMARKS, else the first
 * `shared/data/benchmarks` found beside the working directory or one of its parents.
 */
export function benchmarksDir(dir?: string): string {
  if (dir) return resolve(dir);
  const env = process.env['WARDEN_BENCHMARKS'];
  if (env) return resolve(env);
  let cur = process.cwd();
  for (;;) {
    const candidate = join(cur, 'shared', 'data', 'benchmarks');
    if (existsSync(candidate)) return candidate;
    const up = dirname(cur);
    if (up === cur) break;
    cur = up;
  }
  throw new EngineError('NOT_FOUND', 'benchmark data not found: pass a folder or set WARDEN_BENCHMARKS', 'benchmarks');
}

async function readText(path: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new EngineError('NOT_FOUND', `${path} does not exist`, 'benchmarks');
    throw new EngineError('BAD_INPUT', `${path}: ${(e as Error).message}`, 'benchmarks');
  }
}

/** Reads a JSON file; a missing file is NOT_FOUND, malformed JSON is BAD_INPUT naming the file. */
export async function readJson(path: string): Promise<unknown> {
  const text = await readText(path);
  try {
    return JSON.parse(text) as unknown;
  } catch (e) {
    throw new EngineError('BAD_INPUT', `${path}: ${(e as Error).message}`, 'benchmarks');
  }
}

/** Reads a JSON Lines file; a malformed line is BAD_INPUT naming the file and the line. */
export async function readJsonl(path: string): Promise<unknown[]> {
  const out: unknown[] = [];
  (await readText(path)).split('\n').forEach((line, i) => {
    if (line.trim() === '') return;
    try {
      out.push(JSON.parse(line) as unknown);
    } catch (e) {
      throw new EngineError('BAD_INPUT', `${path} line ${i + 1}: ${(e as Error).message}`, 'benchmarks');
    }
  });
  return out;
}

/** Checks raw data against a schema; the error names the file, the item and the field at fault. */
export function parseWith<T>(schema: z.ZodType<T>, data: unknown, where: string): T {
  const r = schema.safeParse(data);
  if (r.success) return r.data;
  const issue = r.error.issues[0];
  const path = issue?.path.map(String).join('.') ?? '';
  const message = `${where}${path ? ` at ${path}` : ''}: ${issue?.message ?? 'invalid'}`;
  throw new EngineError('BAD_INPUT', message, 'benchmarks');
}

/**
 * Validates every built case as a case file line would be validated and rejects duplicate ids,
 * so a change in a set's data surfaces here rather than as a silent miscount in a report.
 */
export function finishCases(set: string, cases: EvalCase[]): EvalCase[] {
  const seen = new Set<string>();
  return cases.map((c) => {
    if (seen.has(c.id)) throw new EngineError('BAD_INPUT', `${set}: duplicate case id ${c.id}`, 'benchmarks');
    seen.add(c.id);
    try {
      return parseEvalCase(c);
    } catch (e) {
      throw new EngineError('BAD_INPUT', `${set} case ${c.id}: ${(e as Error).message}`, 'benchmarks');
    }
  });
}
