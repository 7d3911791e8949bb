/**
 * Guard tools (AGrail's tool box): small, read-only inspections the Executor may call while it
 * decides a check, and that checks can reach from the rule language. Pure tools live in
 * core/tools/; tools that touch the outside world (a browser) are adapters that implement the
 * same interface and are wired in create-engine.ts.
 */
import type { z } from 'zod';
import type { ActionRequest, Facts, ProbeResult } from '../../../../shared/types.js';

/** What a tool may look at: the action, its facts, the active policy's data and any probes. */
export interface ToolContext {
  request: ActionRequest;
  facts: Facts;
  /** The active policy's `data` block (empty when no policy applies). */
  policy: Record<string, unknown>;
  probes: ProbeResult[];
}

/** A tool's answer. `violation` true means what it inspected breaks the policy or looks unsafe. */
export interface ToolReport {
  tool: string;
  /** False when the tool could not answer (bad input, a page that did not load); callers fail closed. */
  ok: boolean;
  violation: boolean;
  /** One or two sentences a reviewer can read. */
  detail: string;
  data?: unknown;
}

/** One tool. `input` is described for the model in `inputHelp`; `run` validates it itself. */
export interface GuardTool {
  readonly name: string;
  readonly description: string;
  /** A one-line description of the input object the tool takes. */
  readonly inputHelp: string;
  run(input: unknown, ctx: ToolContext, signal: AbortSignal): Promise<ToolReport>;
  /** Releases what the tool holds (a browser); the engine calls it on close. */
  close?(): Promise<void>;
}

/** A tool's input checked against its schema: the data, or the report that refuses it (ok: false). */
export function toolInput<T>(tool: string, schema: z.ZodType<T>, input: unknown): { data: T } | { refused: ToolReport } {
  const parsed = schema.safeParse(input ?? {});
  if (parsed.success) return { data: parsed.data };
  return { refused: { tool, ok: false, violation: false, detail: `bad input: ${parsed.error.issues[0]?.message ?? 'invalid'}` } };
}
