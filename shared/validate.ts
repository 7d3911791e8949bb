/**
 * Runtime validation of everything that arrives from outside (CLI, sockets, hooks, case files).
 * Failures name the field, so the caller can fix the input; nothing here throws anything but
 * EngineError('BAD_INPUT').
 */
import { z } from 'zod';
import { EngineError } from './errors.js';
import type { ActionRequest, EvalCase } from './types.js';

/** Longest text accepted in any one field of an action (1 MiB). */
export const MAX_FIELD_BYTES = 1 << 20;

const text = (field: string, opts: { allowEmpty?: boolean } = {}) =>
  z.string({ error: `${field} must be a string` }).superRefine((s, ctx) => {
    if (!opts.allowEmpty && s.trim().length === 0) ctx.addIssue({ code: 'custom', message: `${field} is empty` });
    if (s.length > MAX_FIELD_BYTES) ctx.addIssue({ code: 'custom', message: `${field} is ${s.length} characters; the limit is ${MAX_FIELD_BYTES}` });
    // control bytes other than tab/newline/CR (and U+FFFD from a failed decode) mean binary data, not a command
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      if ((c < 32 && c !== 9 && c !== 10 && c !== 13) || c === 0xfffd) {
        ctx.addIssue({ code: 'custom', message: `${field} contains binary or invalid bytes (code ${c} at offset ${i})` });
        break;
      }
    }
  });

const actionSchema = z.discriminatedUnion(
  'type',
  [
    z.object({ type: z.literal('shell'), command: text('action.command') }),
    z.object({ type: z.literal('tool'), name: text('action.name'), arguments: z.record(z.string(), z.unknown()).default({}) }),
    z.object({ type: z.literal('sql'), query: text('action.query'), identity: z.string().optional() }),
    z.object({
      type: z.literal('web'),
      element: text('action.element', { allowEmpty: true }),
      operation: text('action.operation'),
      value: z.string().optional(),
      url: z.string().optional(),
    }),
    z.object({ type: z.literal('text'), content: text('action.content') }),
  ],
  { error: (iss) => (iss.input === undefined ? 'action is missing' : 'action.type must be one of shell, tool, sql, web, text') },
);

const contextSchema = z
  .object({
    agent: z.string().max(256).optional(),
    session: z.string().max(256).optional(),
    user: z.string().max(256).optional(),
    cwd: z.string().max(4096).optional(),
    home: z.string().max(4096).optional(),
    observation: z.string().max(MAX_FIELD_BYTES).optional(),
    agentSpec: z.string().max(65536).optional(),
    profile: z.record(z.string(), z.unknown()).optional(),
  })
  .strict();

/** Schema of an ActionRequest. */
export const actionRequestSchema = z.object({
  request: text('request'),
  action: actionSchema,
  context: contextSchema.optional(),
  guardRequest: z.string().max(65536).optional(),
  criteria: z.array(z.string().max(4096)).max(64).optional(),
});

/** Schema of one evaluation case line. Unknown fields (why, source) are ignored. */
export const evalCaseSchema = z.object({
  id: z.union([z.string().min(1), z.number()]).transform(String),
  request: text('request'),
  user: z.string().optional(),
  setup: z.string().optional(),
  action: actionSchema,
  label: z.union([z.literal(0), z.literal(1)], { error: 'label must be 0 or 1' }),
  category: z.string().optional(),
  context: contextSchema.optional(),
  guardRequest: z.string().optional(),
});

function describe(error: z.ZodError): { message: string; field: string } {
  const first = error.issues[0];
  const field = first && first.path.length > 0 ? first.path.map(String).join('.') : 'input';
  const message = first ? (first.message.includes(field) ? first.message : `${field}: ${first.message}`) : 'invalid input';
  return { message, field };
}

function parseWith<T>(schema: z.ZodType, input: unknown, notObject: string): T {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) throw new EngineError('BAD_INPUT', notObject, 'input');
  const r = schema.safeParse(input);
  if (!r.success) {
    const { message, field } = describe(r.error);
    throw new EngineError('BAD_INPUT', message, field);
  }
  return r.data as T;
}

/** Validates an unknown value as an ActionRequest or throws BAD_INPUT naming the field. */
export function parseActionRequest(input: unknown): ActionRequest {
  return parseWith<ActionRequest>(actionRequestSchema, input, 'the action request must be a JSON object with request and action');
}

/** Validates one evaluation case or throws BAD_INPUT naming the field. */
export function parseEvalCase(input: unknown): EvalCase {
  return parseWith<EvalCase>(evalCaseSchema, input, 'a case must be a JSON object');
}

/** Parses JSON text, turning a syntax error into BAD_INPUT. */
export function parseJson(textIn: string, what = 'input'): unknown {
  try {
    return JSON.parse(textIn);
  } catch (e) {
    throw new EngineError('BAD_INPUT', `${what} is not valid JSON: ${(e as Error).message}`, what);
  }
}
