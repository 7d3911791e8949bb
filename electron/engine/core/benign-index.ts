/**
 * SafeHarbor's global benign database: the nearest stored benign example gives s_benign.
 * Vectors are unit length, so the Euclidean distance d converts to a similarity as 1 - d^2 / 2
 * (the cosine); a flat contiguous scan is the fastest exact search at the sizes a benign store
 * reaches (tens of thousands).
 */

import { dotAt } from './tree/memory-tree.js';

/** One nearest-neighbour answer. */
export interface BenignHit {
  id: string;
  similarity: number;
  text: string;
}

/** An exact nearest-neighbour index over unit vectors, held in one growing Float32Array. */
export class BenignIndex {
  private data: Float32Array;
  private ids: string[] = [];
  private texts: string[] = [];
  readonly dim: number;

  constructor(dim: number) {
    this.dim = dim;
    this.data = new Float32Array(dim * 256);
  }

  get size(): number {
    return this.ids.length;
  }

  /** Adds (or replaces, by id) an example. */
  add(id: string, vector: Float32Array, text: string): void {
    if (vector.length !== this.dim) throw new Error(`benign index expects ${this.dim}-d vectors, got ${vector.length}`);
    const existing = this.ids.indexOf(id);
    const slot = existing >= 0 ? existing : this.ids.length;
    if ((slot + 1) * this.dim > this.data.length) {
      const grown = new Float32Array(this.data.length * 2);
      grown.set(this.data);
      this.data = grown;
    }
    this.data.set(vector, slot * this.dim);
    if (existing < 0) {
      this.ids.push(id);
      this.texts.push(text);
    } else this.texts[slot] = text;
  }

  /** Removes an example; returns whether it was there. */
  remove(id: string): boolean {
    const i = this.ids.indexOf(id);
    if (i < 0) return false;
    const last = this.ids.length - 1;
    if (i !== last) {
      this.data.copyWithin(i * this.dim, last * this.dim, (last + 1) * this.dim);
      this.ids[i] = this.ids[last]!;
      this.texts[i] = this.texts[last]!;
    }
    this.ids.pop();
    this.texts.pop();
    return true;
  }

  /** The most similar stored example, or undefined when the store is empty. */
  nearest(x: Float32Array): BenignHit | undefined {
    const n = this.ids.length;
    if (n === 0) return undefined;
    const dim = this.dim;
    const data = this.data;
    let best = -Infinity;
    let bestI = 0;
    for (let i = 0; i < n; i++) {
      const s = dotAt(data, i * dim, x, dim);
      if (s > best) {
        best = s;
        bestI = i;
      }
    }
    return { id: this.ids[bestI]!, similarity: best, text: this.texts[bestI]! };
  }
}
