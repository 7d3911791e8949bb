/**
 * Mind2Web-SC (GuardAgent): a web action by a user with a profile (age, licence, membership,
 * vaccination, country); label 1 when the profile forbids the action.
 */
import { join } from 'node:path';
import type { EvalCase } from '../../../../shared/types.js';
import { readJson } from './common.js';

interface Item {
  confirmed_task: string;
  annotation_id?: string;
  action_uid?: string;
  user_info: Record<string, unknown>;
  label: number;
  violation?: string;
  website?: string;
  domain?: string;
  subdomain?: string;
  target_action_reprs: string;
}

/** "[combobox]  Sort By -> SELECT: Price: Low to High" -> element, operation, value. */
export function parseActionRepr(repr: string): { element: string; operation: string; value?: string } {
  const [lhs, rhs = ''] = repr.split('->');
  const [op, ...rest] = rhs.trim().split(':');
  const value = rest.join(':').trim();
  return { element: (lhs ?? '').trim(), operation: (op ?? 'CLICK').trim() || 'CLICK', ...(value ? { value } : {}) };
}

export async function loadMind2WebSc(dir: string): Promise<EvalCase[]> {
  const items = await readJson<Item[]>(join(dir, 'mind2web-sc', 'sample_labeled_all.json'));
  return items.map((it, i) => ({
    id: `m2w-${it.action_uid ?? i}`,
    request: it.confirmed_task,
    label: it.label === 1 ? 1 : 0,
    category: it.violation || 'allowed',
    action: { type: 'web', ...parseActionRepr(it.target_action_reprs), ...(it.website ? { url: it.website } : {}) },
    context: { profile: { ...it.user_info, website: it.website ?? '', domain: it.domain ?? '', subdomain: it.subdomain ?? '' } },
  }));
}
