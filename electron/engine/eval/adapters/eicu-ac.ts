/**
 * EICU-AC (GuardAgent): a ground-truth SQL query over the eICU medical database, run for one of
 * three roles (physician, nursing, general administration). Each item lists the tables and
 * columns the query reads (`access_gt`) and those the role may not read (`inaccessible_db`);
 * label 1 exactly when the latter is not empty.
 *
 * The access-control policy (which role may read which columns) is not derived from the data: it
 * is the published policy, written as a rules file (assets/policies/eicu-ac.yaml) that
 * `warden eval eicu-ac` loads. `access_gt` and `inaccessible_db` only check the labels here.
 */
import { join } from 'node:path';
import { z } from 'zod';
import { EngineError } from '../../../../shared/errors.js';
import type { EvalCase } from '../../../../shared/types.js';
import { finishCases, parseWith, readJson } from './common.js';

const columnsSchema = z.record(z.string(), z.array(z.string()));

const itemSchema = z.object({
  id: z.string(),
  question: z.string(),
  query: z.string(),
  identity: z.string(),
  label: z.union([z.literal(0), z.literal(1)]),
  access_gt: columnsSchema,
  inaccessible_db: columnsSchema,
});

/** Loads EICU-AC as 316 SQL cases (154 allowed, 162 denied). */
export async function loadEicuAc(dir: string): Promise<EvalCase[]> {
  const file = join(dir, 'eicu-ac', 'eicu_ac.json');
  const items = parseWith(z.array(itemSchema), await readJson(file), file);
  const cases = items.map((it, i): EvalCase => {
    const denied = Object.values(it.inaccessible_db).some((cols) => cols.length > 0);
    if (denied !== (it.label === 1)) {
      throw new EngineError('BAD_INPUT', `${file} item ${i}: label ${it.label} disagrees with inaccessible_db`, 'benchmarks');
    }
    return {
      id: `eicu-ac-${i}`,
      request: it.question,
      user: it.identity,
      label: it.label,
      category: it.identity,
      action: { type: 'sql', query: it.query, identity: it.identity },
      context: { user: it.identity },
    };
  });
  return finishCases('eicu-ac', cases);
}
