/**
 * The rule language on disk: a YAML document of checks whose `when` is a CEL expression.
 * Import validates every field and compiles every expression; export writes exactly what
 * import reads.
 */
import { parse as parseYaml, stringify } from 'yaml';
import { z } from 'zod';
import type { Check } from '../../../../shared/types.js';
import { compileCheck } from './run.js';

const KINDS = ['shell', 'tool', 'sql', 'web', 'text'] as const;

const checkSchema = z
  .object({
    id: z.string().regex(/^[a-z0-9][a-z0-9._-]*$/, 'id must be lower-case letters, digits, dots, dashes or underscores'),
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

const fileSchema = z.object({ version: z.literal(1).default(1), checks: z.array(z.unknown()) }).strict();

/** One problem in a rules file, with where it is. */
export interface RuleIssue {
  path: string;
  message: string;
}

/** Parses a rules file; every problem is reported, none is thrown. */
export function parseRuleFile(text: string): { ok: true; checks: Check[] } | { ok: false; issues: RuleIssue[] } {
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
  top.data.checks.forEach((raw, idx) => {
    const r = checkSchema.safeParse(raw);
    const label = typeof (raw as { id?: unknown })?.id === 'string' ? (raw as { id: string }).id : `#${idx + 1}`;
    if (!r.success) {
      for (const i of r.error.issues) issues.push({ path: `checks.${label}.${i.path.join('.')}`, message: i.message });
      return;
    }
    if (seen.has(r.data.id)) issues.push({ path: `checks.${label}`, message: 'duplicate id' });
    seen.add(r.data.id);
    try {
      compileCheck(r.data);
    } catch (e) {
      issues.push({ path: `checks.${label}.when`, message: (e as Error).message.split('\n')[0]! });
      return;
    }
    checks.push(r.data as Check);
  });
  return issues.length ? { ok: false, issues } : { ok: true, checks };
}

/** Writes checks as a rules file that parseRuleFile reads back to the same checks. */
export function serializeRuleFile(checks: Check[]): string {
  const ordered = checks.map((c) => {
    const o: Record<string, unknown> = { id: c.id, title: c.title, description: c.description, category: c.category, severity: c.severity, origin: c.origin, kinds: c.kinds, enabled: c.enabled };
    if (c.probes?.length) o['probes'] = c.probes;
    if (c.scope) o['scope'] = c.scope;
    o['when'] = c.when;
    return o;
  });
  return stringify({ version: 1, checks: ordered }, { lineWidth: 0 });
}
