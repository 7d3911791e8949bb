/**
 * Structured model calls: the answer must be a JSON object that a zod schema accepts. An answer
 * that does not fit is sent back once with the schema's complaints; a second miss is rejected
 * (LLM_FAILED), never guessed at. Every call's tokens, cost and latency go to a meter, so each
 * verdict and each job can say what its model calls cost.
 */
import type { z } from 'zod';
import { EngineError } from '../../../../shared/errors.js';
import type { Llm, LlmReply, LlmRequest, LlmUsage } from '../../ports.js';

/** Adds up model calls. */
export class LlmMeter {
  readonly usage: LlmUsage = { calls: 0, cachedCalls: 0, promptTokens: 0, completionTokens: 0, costUsd: 0, latencyMs: 0 };
  /** One line per call, for the verdict's record. */
  readonly calls: { role: string; cached: boolean; repaired: boolean; promptTokens: number; completionTokens: number; latencyMs: number }[] = [];

  add(role: string, r: LlmReply): void {
    this.usage.calls++;
    if (r.cached) this.usage.cachedCalls++;
    this.usage.promptTokens += r.promptTokens;
    this.usage.completionTokens += r.completionTokens;
    this.usage.costUsd += r.costUsd;
    this.usage.latencyMs += r.latencyMs;
    this.calls.push({ role, cached: r.cached, repaired: r.repaired, promptTokens: r.promptTokens, completionTokens: r.completionTokens, latencyMs: Math.round(r.latencyMs * 10) / 10 });
  }

  /** Adds another meter's totals (a judge that kept its own). */
  merge(u: LlmUsage): void {
    this.usage.calls += u.calls;
    this.usage.cachedCalls += u.cachedCalls;
    this.usage.promptTokens += u.promptTokens;
    this.usage.completionTokens += u.completionTokens;
    this.usage.costUsd += u.costUsd;
    this.usage.latencyMs += u.latencyMs;
  }
}

function complaints(error: z.ZodError): string {
  return error.issues
    .slice(0, 8)
    .map((i) => `${i.path.join('.') || '(top level)'}: ${i.message}`)
    .join('; ');
}

/**
 * Calls the model and validates its JSON with `schema`; one correction round, then LLM_FAILED.
 * `check` may add domain complaints (an expression that does not compile) that also earn the
 * correction round; an answer that still has them after it is returned for the caller to sort.
 */
export async function callStructured<T>(
  llm: Llm,
  req: LlmRequest,
  schema: z.ZodType<T>,
  meter: LlmMeter,
  signal: AbortSignal,
  check?: (value: T) => string[],
): Promise<T> {
  let current = req;
  for (let round = 0; round < 2; round++) {
    const reply = await llm.completeJson(current, signal);
    meter.add(req.role, reply);
    const parsed = schema.safeParse(reply.json);
    const problems = parsed.success ? (check?.(parsed.data) ?? []) : [complaints(parsed.error)];
    // domain complaints earn one correction round; after it the caller sorts out what it can use
    if (parsed.success && (problems.length === 0 || round === 1)) return parsed.data;
    if (round === 1) break;
    current = {
      ...req,
      followUp: [
        ...(req.followUp ?? []),
        {
          assistant: reply.text.slice(0, 4000),
          user: `That answer cannot be used: ${problems.join('; ')}. Answer again with one JSON object in exactly the requested shape, nothing else.`,
        },
      ],
    };
  }
  throw new EngineError('LLM_FAILED', `the ${req.role} model's answer did not fit the required shape twice`);
}
