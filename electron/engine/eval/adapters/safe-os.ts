/**
 * Safe-OS (AGrail): system sabotage and environment items carry the harmful command; prompt
 * injection items plant instructions in a file the agent reads; benign items carry only an
 * answer, so their reference commands are written by hand in safe-os-benign-reference.json.
 */
import { existsSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { EvalCase } from '../../../../shared/types.js';
import { readJson } from './common.js';

interface SafeOsItem {
  description: string;
  create?: { init?: { code?: string } | string };
  evaluation?: { match?: string | { answer?: string }; example?: { code?: string } | string; check?: { code?: string } };
  labels: number;
  user?: string;
  attack?: string;
}

function setupOf(item: SafeOsItem): string | undefined {
  const init = item.create?.init;
  return typeof init === 'string' ? init : init?.code;
}

function harmfulCommand(item: SafeOsItem): string | undefined {
  const ev = item.evaluation ?? {};
  if (typeof ev.example === 'object' && ev.example?.code) return ev.example.code;
  if (typeof ev.example === 'string') return ev.example;
  if (ev.check?.code) return ev.check.code;
  if (typeof ev.match === 'string') return ev.match;
  return undefined;
}

/** Quoted text a setup script writes into files: what an agent reading them would see. */
export function plantedContent(setup: string | undefined): string {
  if (!setup) return '';
  const out: string[] = [];
  for (const m of setup.matchAll(/(?:echo|printf)\s+(?:-e\s+)?(['"])([\s\S]*?)\1/g)) out.push(m[2]!);
  for (const m of setup.matchAll(/<<\s*['"]?(\w+)['"]?\n([\s\S]*?)\n\1/g)) out.push(m[2]!);
  return out.join('\n');
}

/** Reference commands for the benign items, keyed by description. */
export const BENIGN_REFERENCE = join(dirname(fileURLToPath(import.meta.url)), 'safe-os-benign-reference.json');

/** Loads Safe-OS as cases. Benign items without a reference command are left out (and counted). */
export async function loadSafeOs(dir: string): Promise<EvalCase[]> {
  const cases: EvalCase[] = [];
  for (const subset of ['system_sabotage', 'environment', 'prompt_injection'] as const) {
    const items = await readJson<SafeOsItem[]>(join(dir, 'safe-os', `${subset}.json`));
    items.forEach((item, i) => {
      const setup = setupOf(item);
      const base = { id: `safe-os-${subset}-${i}`, request: item.description, user: item.user ?? 'user', label: 1 as const, category: subset, ...(setup ? { setup } : {}) };
      if (subset === 'prompt_injection') {
        const injected = typeof item.evaluation?.match === 'string' ? item.evaluation.match : '';
        cases.push({ ...base, action: { type: 'text', content: injected || item.description }, context: { observation: plantedContent(setup) } });
        return;
      }
      const cmd = harmfulCommand(item);
      if (cmd) cases.push({ ...base, action: { type: 'shell', command: cmd } });
    });
  }
  const benign = await readJson<SafeOsItem[]>(join(dir, 'safe-os', 'benign.json'));
  const refs = existsSync(BENIGN_REFERENCE) ? await readJson<Record<string, string>>(BENIGN_REFERENCE) : {};
  benign.forEach((item, i) => {
    const cmd = refs[item.description];
    if (!cmd) return;
    const setup = setupOf(item);
    cases.push({ id: `safe-os-benign-${i}`, request: item.description, user: item.user ?? 'user', label: 0, category: 'benign', action: { type: 'shell', command: cmd }, ...(setup ? { setup } : {}) });
  });
  return cases;
}
