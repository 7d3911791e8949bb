/**
 * Vector helpers shared by the embedders (no native imports, so the HTTP embedder does not load
 * onnxruntime).
 */
import { EngineError } from '../../../../shared/errors.js';

/** Scales a vector to unit length; a zero or non-finite vector is a model failure, never a usable embedding. */
export function normalizeInPlace(v: Float32Array, source: string): Float32Array {
  let sum = 0;
  for (const x of v) sum += x * x;
  const norm = Math.sqrt(sum);
  if (!Number.isFinite(norm) || norm === 0) throw new EngineError('EMBEDDER_FAILED', `embedding model ${source} gave a ${norm === 0 ? 'zero' : 'non-finite'} vector`);
  for (let i = 0; i < v.length; i++) v[i]! /= norm;
  return v;
}
