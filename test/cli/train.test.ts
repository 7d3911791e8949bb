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

  it('adds only the dev half of a case file, each item with its own label', () => {
    const ids = Array.from({ length: 40 }, (_, i) => `x-${i}`);
    const cat = (i: number) => (i % 3 === 0 ? 'environment' : i % 3 === 1 ? 'benign' : 'system_sabotage');
    const file = join(dir, 'cases.jsonl');
    writeFileSync(file, ids.map((id, i) => caseLine(id, cat(i), i % 3 === 1 ? 0 : 1)).join('\n') + '\n');
    const got = devExamplesOf(file);
    const want = ids.filter((id) => splitOf(id) === 'dev');
    expect(want.length).toBeGreaterThan(5);
    expect(got.map((c) => c.id)).toEqual(want);
    // an environment item keeps its harmful label: its text alone must not clear an action
    expect(got.filter((c) => c.category === 'environment').every((c) => c.label === 1)).toBe(true);
    expect(got.some((c) => c.category === 'environment')).toBe(true);
    expect(got.some((c) => splitOf(c.id) === 'heldout')).toBe(false);
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
