/**
 * Reading a SafeHarbor memory file from disk, with errors that name the path in the JSON.
 */
import { readFile } from 'node:fs/promises';
import { EngineError } from '../../shared/errors.js';
import { safeHarborSchema, type SafeHarborFile } from './core/tree/index.js';

/** Reads and validates the file. */
export async function readSafeHarborFile(path: string): Promise<SafeHarborFile> {
  let raw: unknown;
  try {
    raw = JSON.parse(await readFile(path, 'utf8'));
  } catch (e) {
    throw new EngineError('BAD_INPUT', `${path}: ${(e as Error).message}`, 'file');
  }
  const r = safeHarborSchema.safeParse(raw);
  if (!r.success) {
    const i = r.error.issues[0]!;
    throw new EngineError('BAD_INPUT', `${path}: ${i.path.join('.') || '(top level)'}: ${i.message}`, i.path.join('.') || 'file');
  }
  return r.data;
}
