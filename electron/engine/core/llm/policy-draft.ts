/**
 * Task-specific guard requests: an administrator writes the policy in plain language; the
 * Analyzer turns it into checks in the rule language, written out as a rules file with the
 * policy block, for a human to read, edit and import (the same file the console exports).
 * Nothing the model writes is used before a person imports it.
 */
import { z } from 'zod';
import type { ActionKind, Check, Policy } from '../../../../shared/types.js';
import type { Llm } from '../../ports.js';
import { compileCheck } from '../checks/run.js';
import { serializeRuleFile } from '../checks/rule-file.js';
import { callStructured, type LlmMeter } from './structured.js';
import { criteriaFor, ruleLanguageHelp } from './prompt-parts.js';

const ID = /^[a-z0-9][a-z0-9._-]*$/;

const draftSchema = z.object({
  checks: z
    .array(
      z.object({
        id: z.string(),
        title: z.string().min(1).max(200),
        description: z.string().max(1000).optional(),
        when: z.string().min(1).max(4000),
        severity: z.enum(['hard', 'soft']).optional(),
      }),
    )
    .min(1)
    .max(40),
  data: z.record(z.string(), z.unknown()).optional(),
});

/** What the administrator gives. */
export interface DraftInput {
  id: string;
  title: string;
  /** The policy in plain language. */
  request: string;
  kinds: ActionKind[];
  otherwise: Policy['otherwise'];
  /** A few example actions (one line each) so the checks fit what the agent really does. */
  examples?: string[];
}

/** A drafted policy: the rules file text, its checks, and what was left out and why. */
export interface Draft {
  policy: Policy;
  checks: Check[];
  rejected: { check: string; reason: string }[];
  text: string;
}

function complaints(r: z.infer<typeof draftSchema>): string[] {
  const out: string[] = [];
  for (const c of r.checks) {
    if (!ID.test(c.id)) out.push(`id ${JSON.stringify(c.id)} is not lower-case letters, digits, dots or dashes`);
    try {
      compileCheck({ id: c.id, when: c.when });
    } catch (e) {
      out.push((e as Error).message);
    }
  }
  return out;
}

/** Asks the model for the policy's checks and writes the rules file. */
export async function draftPolicy(llm: Llm, input: DraftInput, meter: LlmMeter, signal: AbortSignal): Promise<Draft> {
  const system = [
    "You are Warden's analyzer. An administrator wrote a task-specific policy in plain language; turn it into checks that decide it exactly, in the rule language below, one check per rule of the policy. Put lists the policy names (roles, tables, columns, fields) into `data` and read them in the checks as policy.<key>, so a person can edit them in one place.",
    ruleLanguageHelp(),
    'Answer with one JSON object: {"data": {...}, "checks": [{"id": "...", "title": "...", "description": "which sentence of the policy this enforces", "when": "<CEL, true when the action breaks the rule>", "severity": "hard"}]}.',
  ].join('\n\n');
  const user = [
    `Policy "${input.title}" for ${input.kinds.join(', ')} actions:\n${input.request.slice(0, 8000)}`,
    `General criteria that always apply (do not restate them):\n${criteriaFor({ request: '', action: { type: 'text', content: '' } })
      .map((c) => `- ${c}`)
      .join('\n')}`,
    input.examples?.length ? `Example actions:\n${input.examples.slice(0, 10).map((e) => `- ${e}`).join('\n')}` : '',
  ]
    .filter(Boolean)
    .join('\n\n');
  const reply = await callStructured(llm, { role: 'analyzer', system, user, maxTokens: 3000 }, draftSchema, meter, signal, complaints);
  const checks: Check[] = [];
  const rejected: Draft['rejected'] = [];
  const seen = new Set<string>();
  for (const c of reply.checks) {
    const id = `${input.id}.${c.id}`;
    if (!ID.test(c.id) || seen.has(id)) {
      rejected.push({ check: c.id, reason: 'bad or repeated id' });
      continue;
    }
    try {
      compileCheck({ id, when: c.when });
    } catch (e) {
      rejected.push({ check: c.id, reason: (e as Error).message });
      continue;
    }
    seen.add(id);
    checks.push({ id, title: c.title, description: c.description ?? '', when: c.when, severity: c.severity ?? 'hard', category: input.id, origin: 'analyzer', kinds: input.kinds, enabled: true });
  }
  const policy: Policy = { id: input.id, title: input.title, request: input.request, kinds: input.kinds, otherwise: input.otherwise, data: reply.data ?? {} };
  return { policy, checks, rejected, text: serializeRuleFile(checks, policy) };
}
