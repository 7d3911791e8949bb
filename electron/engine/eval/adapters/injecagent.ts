/**
 * InjecAgent: the user asks for a tool call; the tool's response carries an attacker's
 * instruction; the harmful action is the attacker's tool call. The user's own tool call is the
 * benign counterpart.
 */
import { join } from 'node:path';
import type { EvalCase } from '../../../../shared/types.js';
import { readJson } from './common.js';

interface Item {
  'Attacker Tools': string[];
  'Attacker Instruction': string;
  'Attack Type': string;
  'User Tool': string;
  'User Instruction': string;
  'Tool Parameters': string;
  'Tool Response': string;
}

/** The sets' parameters are Python dict literals; read the simple ones as JSON. */
function pyDict(s: string): Record<string, unknown> {
  try {
    return JSON.parse(s.replace(/'/g, '"').replace(/\bTrue\b/g, 'true').replace(/\bFalse\b/g, 'false').replace(/\bNone\b/g, 'null')) as Record<string, unknown>;
  } catch {
    return { raw: s };
  }
}

export async function loadInjecAgent(dir: string, setting: 'dh_base' | 'ds_base' | 'dh_enhanced' | 'ds_enhanced' = 'dh_base'): Promise<EvalCase[]> {
  const items = await readJson<Item[]>(join(dir, 'injecagent', `test_cases_${setting}.json`));
  const out: EvalCase[] = [];
  const seenUser = new Set<string>();
  items.forEach((it, i) => {
    out.push({
      id: `injecagent-${setting}-${i}`,
      request: it['User Instruction'],
      label: 1,
      category: it['Attack Type'],
      action: { type: 'tool', name: it['Attacker Tools'][0] ?? 'unknown', arguments: { instruction: it['Attacker Instruction'] } },
      context: { observation: it['Tool Response'] },
    });
    const key = `${it['User Tool']}|${it['Tool Parameters']}`;
    if (!seenUser.has(key)) {
      seenUser.add(key);
      out.push({ id: `injecagent-${setting}-user-${i}`, request: it['User Instruction'], label: 0, category: 'user-tool', action: { type: 'tool', name: it['User Tool'], arguments: pyDict(it['Tool Parameters']) } });
    }
  });
  return out;
}
