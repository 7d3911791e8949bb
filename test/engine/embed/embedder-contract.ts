/**
 * What every Embedder promises (ports.ts), run against each implementation: one unit vector of
 * `dim` numbers per text, in input order, the same text giving the same vector, an empty text
 * embedded like a single space, and a non-string refused as BAD_INPUT.
 */
import { expect, it } from 'vitest';
import type { Embedder } from '../../../electron/engine/ports.js';

const norm = (v: Float32Array): number => Math.sqrt(v.reduce((s, x) => s + x * x, 0));

/** Registers the contract's tests; `get` returns the embedder under test once it exists. */
export function embedderContract(get: () => Embedder): void {
  it('returns one unit vector of dim numbers per text, in input order', async () => {
    const e = get();
    const texts = ['list the files in the home folder', 'drop the users table', 'send the report to the team'];
    const together = await e.embed(texts);
    expect(together).toHaveLength(3);
    for (const v of together) {
      expect(v).toBeInstanceOf(Float32Array);
      expect(v).toHaveLength(e.dim);
      expect(Math.abs(norm(v) - 1)).toBeLessThan(1e-5);
    }
    const oneByOne: Float32Array[] = [];
    for (const t of [...texts].reverse()) oneByOne.unshift((await e.embed([t]))[0]!);
    together.forEach((v, i) => v.forEach((x, k) => expect(Math.abs(x - oneByOne[i]![k]!)).toBeLessThan(1e-5)));
  });

  it('embeds an empty text as a single space and an empty list as no vectors', async () => {
    const e = get();
    const [empty, space, other] = await e.embed(['', ' ', 'x']);
    expect(Array.from(empty!)).toEqual(Array.from(space!));
    expect(other).toHaveLength(e.dim);
    expect(await e.embed([])).toEqual([]);
  });

  it('refuses a non-string text as BAD_INPUT naming the entry', async () => {
    await expect(get().embed(['ok', 42 as unknown as string])).rejects.toMatchObject({ code: 'BAD_INPUT', field: 'texts[1]' });
  });
}
