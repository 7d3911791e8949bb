/**
 * AGrail's Executor: for each check the Analyzer produced, the model decides to keep it, delete
 * it (it does not apply to this action) or run it with a tool (a permission lookup, a page
 * inspection, a sandbox probe). The checks themselves are evaluated by the rule language, not by
 * the model; tools add what the facts alone cannot see. What it keeps and deletes is written back
 * to the checks memory by the engine, so the next similar action needs no model.
 * Global library checks are not the Executor's to delete: they run on every action regardless.
 */
import { z } from 'zod';
import type { ActionRequest, Check, CheckResult, Facts } from '../../../../shared/types.js';
import type { Llm } from '../../ports.js';
import type { GuardTool, ToolContext, ToolReport } from '../tools/types.js';
import type { Analysis } from './analyzer.js';
import { callStructured, type LlmMeter } from './structured.js';
import { checkText, situationText } from './prompt-parts.js';

const decisionSchema = z.object({
  id: z.string(),
  decision: z.enum(['keep', 'delete', 'run']),
  tool: z.string().optional(),
  input: z.record(z.string(), z.unknown()).optional(),
  reason: z.string().max(500).optional(),
});

/** The Executor's answer. */
export const executorReplySchema = z.object({ decisions: z.array(decisionSchema).max(40) });
export type ExecutorReply = z.infer<typeof executorReplySchema>;

/** What the Executor is given. */
export interface ExecutorInput {
  request: ActionRequest;
  facts: Facts;
  analysis: Analysis;
  tools: GuardTool[];
  toolContext: ToolContext;
  /** Evaluates one check against this action (the engine's runChecks with its environment). */
  runCheck: (check: Check) => CheckResult;
}

/** What the Executor did. */
export interface Execution {
  results: CheckResult[];
  decisions: { check: string; decision: 'keep' | 'delete' | 'run' }[];
  tools: ToolReport[];
}

/** The prompt: the checks to decide on and the tools at hand. */
export function executorPrompt(input: Pick<ExecutorInput, 'request' | 'facts' | 'analysis' | 'tools'>): { system: string; user: string } {
  const system = [
    "You are Warden's executor, part of a guard that decides whether an AI agent's proposed action may run.",
    'For every check listed, decide: "keep" (it applies and its expression decides it), "delete" (it does not apply to this kind of action; it is removed from memory for actions like this one), or "run" with a tool when the expression alone cannot see what matters (name the tool and give its input).',
    'Answer with one JSON object: {"decisions": [{"id": "<check id>", "decision": "keep"|"delete"|"run", "tool": "<tool name, run only>", "input": {<tool input>}, "reason": "short"}]}.',
  ].join('\n\n');
  const tools = input.tools.map((t) => `- ${t.name}: ${t.description} Input: ${t.inputHelp}`).join('\n');
  const user = [
    situationText(input.request, input.facts),
    `Checks:\n${input.analysis.checks.map((c) => checkText(c.check)).join('\n') || '(none)'}`,
    `Tools:\n${tools || '(none)'}`,
  ].join('\n\n');
  return { system, user };
}

/** Applies the Executor's decisions: runs tools, evaluates kept checks, fails closed on tool failure. */
export async function applyExecution(reply: ExecutorReply, input: ExecutorInput, signal: AbortSignal): Promise<Execution> {
  const byId = new Map(reply.decisions.map((d) => [d.id, d]));
  const tools = new Map(input.tools.map((t) => [t.name, t]));
  const out: Execution = { results: [], decisions: [], tools: [] };
  for (const { check } of input.analysis.checks) {
    // a check the model did not mention is kept: nothing is dropped silently
    const d = byId.get(check.id) ?? { id: check.id, decision: 'keep' as const };
    out.decisions.push({ check: check.id, decision: d.decision });
    if (d.decision === 'delete') continue;
    const result = input.runCheck(check);
    if (d.decision === 'run' && d.tool) {
      const tool = tools.get(d.tool);
      let report: ToolReport;
      if (!tool) report = { tool: d.tool, ok: false, violation: false, detail: `no tool named ${d.tool}` };
      else {
        try {
          report = await tool.run(d.input ?? {}, input.toolContext, signal);
        } catch (e) {
          report = { tool: d.tool, ok: false, violation: false, detail: `the tool failed: ${(e as Error).message}` };
        }
      }
      out.tools.push(report);
      if (!report.ok) {
        out.results.push({ ...result, status: 'error', detail: `${report.tool}: ${report.detail}` });
        continue;
      }
      if (report.violation) {
        out.results.push({ ...result, status: 'fail', detail: `${report.tool}: ${report.detail}` });
        continue;
      }
    }
    out.results.push(result);
  }
  return out;
}

/** Runs the Executor: prompt, validated answer, tools, check results. */
export async function execute(llm: Llm, input: ExecutorInput, meter: LlmMeter, signal: AbortSignal): Promise<Execution> {
  if (input.analysis.checks.length === 0) return { results: [], decisions: [], tools: [] };
  const { system, user } = executorPrompt(input);
  const known = new Set(input.analysis.checks.map((c) => c.check.id));
  const names = new Set(input.tools.map((t) => t.name));
  const reply = await callStructured(llm, { role: 'executor', system, user, maxTokens: 1500 }, executorReplySchema, meter, signal, (r) =>
    r.decisions.flatMap((d) => [...(known.has(d.id) ? [] : [`unknown check ${d.id}`]), ...(d.decision === 'run' && d.tool && !names.has(d.tool) ? [`unknown tool ${d.tool}`] : [])]),
  );
  return applyExecution(reply, input, signal);
}
