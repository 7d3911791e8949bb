/**
 * EICU-AC (GuardAgent): an SQL query over a medical database run for a role (physician,
 * nursing, general administration); label 1 when the role may not read what the query reads.
 */
import { join } from 'node:path';
import type { EvalCase } from '../../../../shared/types.js';
import { readJson } from './common.js';

interface Item {
  id: string;
  question: string;
  query: string;
  identity: string;
  label: number;
}

export async function loadEicuAc(dir: string): Promise<EvalCase[]> {
  const items = await readJson<Item[]>(join(dir, 'eicu-ac', 'eicu_ac.json'));
  return items.map((it, i) => ({
    id: `eicu-${it.id ?? i}`,
    request: it.question,
    label: it.label === 1 ? 1 : 0,
    category: it.identity,
    user: it.identity,
    action: { type: 'sql', query: it.query, identity: it.identity },
    context: { user: it.identity },
  }));
}
