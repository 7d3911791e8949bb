/**
 * Runtime schemas for every method's parameters. Whatever crosses IPC or the socket is untrusted:
 * each params object is parsed here first, and a mismatch becomes BAD_INPUT naming the field.
 * Action requests themselves are validated by the engine (shared/validate.ts).
 */
import { z } from 'zod';
import type { MethodName } from '../../../shared/contract.js';
import { EngineError } from '../../../shared/errors.js';

const id = z.string().min(1).max(256);
const reason = z.string().max(4096);
const limit = z.number().int().min(1).max(100_000).optional();
const decision = z.enum(['allow', 'deny', 'ask']);
const outcome = z.enum(['approve', 'deny']);
const empty = z.object({}).strict();

/** A check as the console edits it; the rule language validates `when` when it is saved. */
export const checkSchema = z
  .object({
    id,
    title: z.string().min(1).max(512),
    description: z.string().max(8192),
    when: z.string().min(1).max(65_536),
    severity: z.enum(['hard', 'soft']),
    category: z.string().min(1).max(128),
    origin: z.enum(['builtin', 'human', 'analyzer', 'policy']),
    kinds: z.array(z.enum(['shell', 'tool', 'sql', 'web', 'text'])),
    enabled: z.boolean(),
    probes: z.array(z.string().max(256)).optional(),
    scope: z.enum(['global', 'retrieved']).optional(),
  })
  .strict();

const rulePair = z.object({ prohibition: z.string().max(8192), exemption: z.string().max(8192) }).strict();

/** One schema per contract method; the record type makes the compiler demand every method. */
export const paramSchemas: { [M in MethodName]: z.ZodType } = {
  'status.get': empty,
  'verdicts.check': z.object({ request: z.unknown() }).strict(),
  'verdicts.list': z.object({ limit, before: z.number().optional(), decision: decision.optional(), agent: z.string().max(256).optional(), session: z.string().max(256).optional() }).strict(),
  'verdicts.get': z.object({ id }).strict(),
  'review.list': z.object({ limit }).strict(),
  'review.decide': z.object({ verdictId: id, outcome, reason }).strict(),
  'review.decideMany': z.object({ verdictIds: z.array(id).min(1).max(5000), outcome, reason }).strict(),
  'review.similar': z.object({ verdictId: id, limit }).strict(),
  'review.revert': z.object({ verdictId: id }).strict(),
  'tree.get': empty,
  'tree.leaf': z.object({ id }).strict(),
  'tree.events': z.object({ after: z.number().int().min(0).optional(), limit }).strict(),
  'tree.importSafeHarbor': z.object({ path: z.string().min(1).max(4096) }).strict(),
  'tree.updateRule': z.object({ leafId: id, rule: rulePair, reason: reason.optional() }).strict(),
  'tree.retire': z.object({ leafId: id, reason: reason.optional() }).strict(),
  'tree.revertEvent': z.object({ eventId: z.number().int().min(1) }).strict(),
  'checks.list': empty,
  'checks.save': z.object({ check: checkSchema }).strict(),
  'checks.retire': z.object({ id }).strict(),
  'checks.replay': z.object({ checks: z.array(checkSchema).max(1000), limit }).strict(),
  'rules.export': z.object({ policyId: id.optional() }).strict(),
  'rules.import': z.object({ text: z.string().max(8 << 20) }).strict(),
  'policies.list': empty,
  'policies.remove': z.object({ id }).strict(),
  'rules.generate': z.object({ seeds: z.string().min(1).max(8 << 20).optional(), limit: z.number().int().min(1).max(500).optional(), perSeed: z.number().int().min(1).max(12).optional() }).strict(),
  'rules.generateGet': z.object({ jobId: id }).strict(),
  'sandbox.status': empty,
  'sandbox.prepare': empty,
  'sandbox.run': z.object({ request: z.unknown(), setup: z.string().max(65_536).optional(), session: z.string().max(256).optional() }).strict(),
  'eval.run': z.object({ cases: z.string().min(1).max(64 << 20), name: z.string().max(256).optional() }).strict(),
  'eval.get': z.object({ jobId: id }).strict(),
};

/** Parses a method's params; throws BAD_INPUT naming the first field at fault. */
export function parseParams<M extends MethodName>(method: M, params: unknown): unknown {
  // an absent argument is the empty object for the methods that take none
  const input = params === undefined || params === null ? {} : params;
  const r = paramSchemas[method].safeParse(input);
  if (r.success) return r.data;
  const issue = r.error.issues[0]!;
  const path = issue.path.map(String).join('.');
  const what =
    issue.code === 'unrecognized_keys'
      ? `unknown field ${issue.keys.map((k) => `"${k}"`).join(', ')}`
      : issue.code === 'invalid_type' && issue.input === undefined
        ? 'is required'
        : issue.message;
  throw new EngineError('BAD_INPUT', `${method}: ${path || 'params'} ${what}`, path || 'params');
}
