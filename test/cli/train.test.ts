import { describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { devExamplesOf } from '../../electron/cli/train-command.js';
import { splitOf } from '../../electron/engine/eval/run-eval.js';

function caseLine(id: string, category: string, label: 0 | 1): string {
  return JSON.stringify({ id, request: `request ${id}`, action: { type: 'shell', command: `echo ${id}` }, label, category });
}

describe('warden train --cases', () => {
  const dir = mkdtempSync(join(tmpdir(), 'warden-train-'));

  it('adds only the dev half of a case file, and none of its environment items', () => {
    const ids = Array.from({ length: 40 }, (_, i) => `x-${i}`);
    const cat = (i: number) => (i % 3 === 0 ? 'environment' : i % 3 === 1 ? 'benign' : 'system_sabotage');
    const file = join(dir, 'cases.jsonl');
    writeFileSync(file, ids.map((id, i) => caseLine(id, cat(i), i % 3 === 1 ? 0 : 1)).join('\n') + '\n');
    const got = devExamplesOf(file).map((c) => c.id);
    const want = ids.filter((id, i) => splitOf(id) === 'dev' && cat(i) !== 'environment');
    expect(want.length).toBeGreaterThan(5);
    expect(got).toEqual(want);
    expect(got.some((id) => splitOf(id) === 'heldout')).toBe(false);
  });

  it('refuses a file with a bad line, naming the file and the line', () => {
    const file = join(dir, 'bad.jsonl');
    writeFileSync(file, caseLine('ok-1', 'benign', 0) + '\n{not json\n');
    expect(() => devExamplesOf(file)).toThrow(/bad\.jsonl.*line 2/);
    expect(() => devExamplesOf(join(dir, 'missing.jsonl'))).toThrow(/missing\.jsonl/);
  });

  it('refuses a held-out set outright', () => {
    const file = join(dir, 'os-live-heldout.jsonl');
    writeFileSync(file, caseLine('h-1', 'benign', 0) + '\n');
    expect(() => devExamplesOf(file)).toThrow(/held-out set/);
  });
});
