/**
 * SafeHarbor's global benign database: the nearest stored benign example gives s_benign.
 * Vectors are unit length, so the Euclidean distance d converts to a similarity as 1 - d^2 / 2
 * (the cosine); a flat contiguous scan (SIMD, see simd/vector-block.ts) is the fastest exact
 * search at the sizes a benign store reaches (tens of thousands).
 */

import { VectorBlock } from './simd/vector-block.js';

/** One nearest-neighbour answer. */
export interface BenignHit {
  id: string;
  similarity: number;
  text: string;
}

/** An exact nearest-neighbour index over unit vectors, held in one growing packed block. */
export class BenignIndex {
  private readonly rows: VectorBlock;
  private ids: string[] = [];
  private texts: string[] = [];
  readonly dim: number;

  constructor(dim: number) {
    this.dim = dim;
    this.rows = new VectorBlock(dim, 256);
  }

  get size(): number {
    return this.ids.length;
  }

  /** Adds (or replaces, by id) an example. */
  add(id: string, vector: Float32Array, text: string): void {
    if (vector.length !== this.dim) throw new Error(`benign index expects ${this.dim}-d vectors, got ${vector.length}`);
    const existing = this.ids.indexOf(id);
    if (existing >= 0) {
      this.rows.set(existing, vector);
      this.texts[existing] = text;
      return;
    }
    this.rows.push(vector);
    this.ids.push(id);
    this.texts.push(text);
  }

  /** Removes an example; returns whether it was there. */
  remove(id: string): boolean {
    const i = this.ids.indexOf(id);
    if (i < 0) return false;
    const last = this.ids.length - 1;
    if (i !== last) {
      this.rows.copyRow(last, i);
      this.ids[i] = this.ids[last]!;
      this.texts[i] = this.texts[last]!;
    }
    this.ids.pop();
    this.texts.pop();
    this.rows.truncate(last);
    return true;
  }

  /** The most similar stored example, or undefined when the store is empty. */
  nearest(x: Float32Array): BenignHit | undefined {
    const hit = this.rows.best(x);
    return hit && { id: this.ids[hit.index]!, similarity: hit.score, text: this.texts[hit.index]! };
  }
}
