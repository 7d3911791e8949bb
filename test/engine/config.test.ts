import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../electron/engine/config.js';

const dir = mkdtempSync(join(tmpdir(), 'warden-config-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('config: when a clean rehearsal may allow', () => {
  it("defaults to 'lossless' and reads the older true and false as 'named' and 'off'", () => {
    expect(loadConfig(dir).rehearsalClears).toBe('lossless');
    expect(loadConfig(dir, { rehearsalClears: true }).rehearsalClears).toBe('named');
    expect(loadConfig(dir, { rehearsalClears: false }).rehearsalClears).toBe('off');
    expect(loadConfig(dir, { rehearsalClears: 'named' }).rehearsalClears).toBe('named');
  });

  it('names the key when the value is not one it knows', () => {
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ rehearsalClears: 'sometimes' }));
    try {
      expect(() => loadConfig(dir)).toThrow(/config rehearsalClears/);
    } finally {
      rmSync(join(dir, 'config.json'));
    }
  });
});
