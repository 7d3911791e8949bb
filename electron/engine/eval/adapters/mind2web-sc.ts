/**
 * Mind2Web-SC (GuardAgent): one web action of a browsing task by a user with a profile (age,
 * driver's licence, membership, vaccination, domestic or not); label 1 when one of six
 * profile rules forbids the task. The task is the request, `user_info` the profile, the site the
 * observation, and `target_action_reprs` ("[combobox]  Sort By -> SELECT: Price: Low to High")
 * the web action.
 *
 * The six rules are not derived here: they are a task-specific policy an administrator writes
 * (assets/policies/mind2web-sc.yaml), which `warden eval mind2web-sc` loads. `label`, `violation`
 * and `category` are for measuring only; no decision reads them.
 */
import { join } from 'node:path';
import { z } from 'zod';
import { EngineError } from '../../../../shared/errors.js';
import type { EvalCase } from '../../../../shared/types.js';
import { finishCases, parseWith, readJson } from './common.js';

const itemSchema = z.object({
  confirmed_task: z.string(),
  user_info: z.record(z.string(), z.unknown()),
  label: z.union([z.literal(0), z.literal(1)]),
  violation: z.string(),
  website: z.string(),
  domain: z.string(),
  subdomain: z.string(),
  target_action_reprs: z.string(),
});

const OPERATIONS = new Set(['CLICK', 'SELECT', 'TYPE', 'HOVER']);

/**
 * Splits a Mind2Web action string into element, operation and value:
 * "[combobox]  Sort By -> SELECT: Price: Low to High" -> "[combobox] Sort By", SELECT, "Price: Low to High".
 */
export function parseActionRepr(repr: string): { element: string; operation: string; value?: string } {
  const arrow = repr.lastIndexOf('->');
  if (arrow < 0) throw new EngineError('BAD_INPUT', `web action without "->": ${JSON.stringify(repr)}`, 'target_action_reprs');
  const element = repr.slice(0, arrow).replace(/\s+/g, ' ').trim();
  const rhs = repr.slice(arrow + 2).trim();
  const colon = rhs.indexOf(':');
  const operation = (colon < 0 ? rhs : rhs.slice(0, colon)).trim().toUpperCase();
  if (!OPERATIONS.has(operation)) throw new EngineError('BAD_INPUT', `unknown web operation ${JSON.stringify(operation)} in ${JSON.stringify(repr)}`, 'target_action_reprs');
  const value = colon < 0 ? '' : rhs.slice(colon + 1).trim();
  return value ? { element, operation, value } : { element, operation };
}

/** Loads Mind2Web-SC as 200 web-action cases (100 allowed, 100 denied). */
export async function loadMind2WebSc(dir: string): Promise<EvalCase[]> {
  const file = join(dir, 'mind2web-sc', 'sample_labeled_all.json');
  const items = parseWith(z.array(itemSchema), await readJson(file), file);
  const cases = items.map((it, i): EvalCase => {
    if ((it.label === 1) !== (it.violation.trim() !== '')) {
      throw new EngineError('BAD_INPUT', `${file} item ${i}: label ${it.label} disagrees with violation ${JSON.stringify(it.violation)}`, 'benchmarks');
    }
    let web: ReturnType<typeof parseActionRepr>;
    try {
      web = parseActionRepr(it.target_action_reprs);
    } catch (e) {
      throw new EngineError('BAD_INPUT', `${file} item ${i}: ${(e as Error).message}`, 'benchmarks');
    }
    return {
      id: `mind2web-sc-${i}`,
      request: it.confirmed_task,
      label: it.label,
      category: it.violation || 'allowed',
      action: { type: 'web', ...web },
      context: { profile: it.user_info, observation: `website: ${it.website} (${it.domain} / ${it.subdomain})` },
    };
  });
  return finishCases('mind2web-sc', cases);
}
