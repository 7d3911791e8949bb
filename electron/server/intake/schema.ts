/**
 * The intake API's published schema: the request body is exactly the engine's ActionRequest
 * (the zod schema every surface validates with), converted to JSON Schema so any client can
 * check its requests without reading our code; the answer's shape is written out here.
 */
import { z } from 'zod';
import { actionRequestSchema } from '../../../shared/validate.js';
import type { Decision, DecisionPath, ReviewDecision, Verdict } from '../../../shared/types.js';

/** The answer to one submitted action. */
export interface IntakeAnswer {
  /** Verdict id; the record in the store and in the audit trail. */
  id: string;
  /** What the agent must do: allow runs, deny does not, ask means nobody has decided yet (only with wait=0). */
  decision: Decision;
  /** Which part of the pipeline decided; `human` when a reviewer answered while the client waited. */
  path: DecisionPath;
  reason: string;
  /** True while the verdict waits for a human (wait=0 and the guard asked). */
  pending: boolean;
  /** Set when nobody decided within the wait: the answer is then deny. */
  timedOut?: boolean;
  /** The reviewer's decision, when one came while the client waited. */
  human?: Pick<ReviewDecision, 'outcome' | 'reason' | 'reviewer'>;
  /** The whole verdict record, with `full=1`. */
  verdict?: Verdict;
}

const answerSchema = z.object({
  id: z.string(),
  decision: z.enum(['allow', 'deny', 'ask']),
  path: z.enum(['fast', 'check', 'policy', 'projector', 'memory', 'judge', 'human', 'review', 'error']),
  reason: z.string(),
  pending: z.boolean(),
  timedOut: z.boolean().optional(),
  human: z.object({ outcome: z.enum(['approve', 'deny']), reason: z.string(), reviewer: z.string() }).optional(),
  verdict: z.record(z.string(), z.unknown()).optional(),
});

const errorSchema = z.object({
  error: z.object({ code: z.string(), message: z.string(), field: z.string().optional() }),
});

/** JSON Schemas of the request body, the answer and an error, as served at GET /v1/schema. */
export function intakeJsonSchemas(): Record<string, unknown> {
  const opts = { io: 'input', unrepresentable: 'any' } as const;
  return {
    request: { title: 'ActionRequest', ...z.toJSONSchema(actionRequestSchema, opts) },
    answer: { title: 'IntakeAnswer', ...z.toJSONSchema(answerSchema, opts) },
    error: { title: 'IntakeError', ...z.toJSONSchema(errorSchema, opts) },
  };
}
