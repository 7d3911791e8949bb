/**
 * The rule language on disk: a YAML document of checks whose `when` is a CEL expression, and
 * optionally one `policy:` block (a task-specific policy: its guard request, the action kinds it
 * governs, what happens when none of its checks fails, and the data its checks read as `policy`).
 * Import validates every field and compiles every expression; export writes exactly what
 * import reads.
 */
import { parse as parseYaml, stringify } from 'yaml';
import { z } from 'zod';
import type { Check, Policy } from '../../../../shared/types.js';
import { compileCheck } from './run.js';

const KINDS = ['shell', 'tool', 'sql', 'web', 'text'] as const;
const ID = /^[a-z0-9][a-z0-9._-]*$/;

const checkSchema = z
  .object({
    id: z.string().regex(ID, 'id must be lower-case letters, digits, dots, dashes or underscores'),
    title: z.string().min(1),
    description: z.string().default(''),
    when: z.string().min(1),
    severity: z.enum(['hard', 'soft']).default('soft'),
    category: z.string().min(1).default('integrity'),
    origin: z.enum(['builtin', 'human', 'analyzer', 'policy']).default('human'),
    kinds: z.array(z.enum(KINDS)).default([]),
    enabled: z.boolean().default(true),
    probes: z.array(z.string()).optional(),
    scope: z.enum(['global', 'retrieved']).optional(),
  })
  .strict();

const policySchema = z
  .object({
    id: z.string().regex(ID, 'id must be lower-case letters, digits, dots, dashes or underscores'),
    title: z.string().min(1),
    request: z.string().min(1),
    kinds: z.array(z.enum(KINDS)).min(1, 'a policy governs at least one action kind'),
    otherwise: z.enum(['allow', 'gate']).default('gate'),
    data: z.record(z.string(), z.unknown()).default({}),
  })
  .strict();

const fileSchema = z.object({ version: z.literal(1).default(1), policy: z.unknown().optional(), checks: z.array(z.unknown()) }).strict();

/** One problem in a rules file, with where it is. */
export interface RuleIssue {
  path: string;
  message: string;
}

/** A parsed rules file: its checks, and its policy when it has a `policy:` block. */
export type ParsedRuleFile = { ok: true; checks: Check[]; policy?: Policy } | { ok: false; issues: RuleIssue[] };

/** Parses a rules file; every problem is reported, none is thrown. */
export function parseRuleFile(text: string): ParsedRuleFile {
  let doc: unknown;
  try {
    doc = parseYaml(text);
  } catch (e) {
    return { ok: false, issues: [{ path: 'file', message: `not valid YAML: ${(e as Error).message.split('\n')[0]}` }] };
  }
  const top = fileSchema.safeParse(doc);
  if (!top.success) return { ok: false, issues: top.error.issues.map((i) => ({ path: i.path.join('.') || 'file', message: i.message })) };
  const issues: RuleIssue[] = [];
  const checks: Check[] = [];
  const seen = new Set<string>();
  let policy: Policy | undefined;
  if (top.data.policy !== undefined) {
    const p = policySchema.safeParse(top.data.policy);
    if (p.success) policy = p.data as Policy;
    else for (const i of p.error.issues) issues.push({ path: ['policy', ...i.path].join('.'), message: i.message });
  }
  top.data.checks.forEach((raw, idx) => {
    const r = checkSchema.safeParse(raw);
    const label = typeof (raw as { id?: unknown })?.id === 'string' ? (raw as { id: string }).id : `#${idx + 1}`;
    if (!r.success) {
      for (const i of r.error.issues) issues.push({ path: `checks.${label}.${i.path.join('.')}`, message: i.message });
      return;
    }
    if (seen.has(r.data.id)) issues.push({ path: `checks.${label}`, message: 'duplicate id' });
    seen.add(r.data.id);
    // a policy's checks run only on the kinds it governs, and on every such action
    const outside = policy ? r.data.kinds.filter((k) => !policy.kinds.includes(k)) : [];
    if (outside.length > 0) issues.push({ path: `checks.${label}.kinds`, message: `the policy does not govern ${outside.join(', ')}; the check would never run there` });
    if (policy && r.data.scope === 'retrieved') issues.push({ path: `checks.${label}.scope`, message: "a policy's checks run on every action it governs; scope: retrieved is not allowed" });
    try {
      compileCheck(r.data);
    } catch (e) {
      issues.push({ path: `checks.${label}.when`, message: (e as Error).message.split('\n')[0]! });
      return;
    }
    checks.push(r.data as Check);
  });
  if (issues.length) return { ok: false, issues };
  return policy ? { ok: true, checks, policy } : { ok: true, checks };
}

/** Writes checks (and a policy) as a rules file that parseRuleFile reads back to the same checks and policy. */
export function serializeRuleFile(checks: Check[], policy?: Policy): string {
  const ordered = checks.map((c) => {
    const o: Record<string, unknown> = { id: c.id, title: c.title, description: c.description, category: c.category, severity: c.severity, origin: c.origin, kinds: c.kinds, enabled: c.enabled };
    if (c.probes?.length) o['probes'] = c.probes;
    if (c.scope) o['scope'] = c.scope;
    o['when'] = c.when;
    return o;
  });
  const head = policy ? { version: 1, policy: { id: policy.id, title: policy.title, request: policy.request, kinds: policy.kinds, otherwise: policy.otherwise, data: policy.data } } : { version: 1 };
  return stringify({ ...head, checks: ordered }, { lineWidth: 0 });
}
