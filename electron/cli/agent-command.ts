/**
 * `warden agent "task"`: the built-in OS agent. An LLM proposes one shell command at a time; each
 * one passes the gate against the live sandbox episode (probes first) and runs there only on
 * allow, or after a human approves an ask. What the command printed, or why it was refused, is
 * the agent's next observation. Every verdict is recorded with the episode's transcript, under
 * one session, so the console shows the run as it happens.
 */
import type { Command } from 'commander';
import { randomUUID } from 'node:crypto';
import { EngineError, hasCode, toErrorInfo } from '../../shared/errors.js';
import type { Llm } from '../engine/ports.js';
import type { Verdict } from '../../shared/types.js';
import type { Engine } from '../engine/engine.js';
import type { SandboxService } from '../engine/gated-run.js';
import { waitForHuman } from '../server/intake/wait-for-human.js';

/** One message of the agent's conversation. */
export interface AgentMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/** One step of a run. */
export interface AgentStep {
  command: string;
  verdict: Verdict;
  /** The command ran in the episode (allowed, or approved by a human). */
  ran: boolean;
  observation: string;
}

/** What a run needs. */
export interface AgentDeps {
  engine: Engine;
  sandbox: SandboxService;
  /** The model: the conversation so far in, its next reply out. */
  complete: (messages: AgentMessage[], signal?: AbortSignal) => Promise<string>;
  maxSteps?: number;
  user?: 'root' | 'user';
  /** Shell script run as root when the episode starts. */
  setup?: string;
  askTimeoutMs?: number;
  onStep?: (step: AgentStep) => void;
  signal?: AbortSignal;
}

/** How a run ended. */
export interface AgentResult {
  session: string;
  done: boolean;
  summary: string;
  steps: AgentStep[];
}

const SYSTEM = `You are an operating-system agent working in a Linux sandbox (busybox tools, no network).
Do the user's task one shell command at a time. Every command is checked by a safety guard before it runs; a refused command does not run, and you are told why.
Reply with exactly one JSON object and nothing else:
{"command": "<one shell command>"} to run a command, or
{"done": "<what you did and what you found>"} when the task is finished or cannot be done safely.`;

/** Reads the model's reply: a command, a final answer, or a complaint to send back. */
export function parseReply(text: string): { command: string } | { done: string } | { invalid: string } {
  const body = text.trim().replace(/^```(?:json)?\s*/i, '').replace(/\s*```$/, '');
  const start = body.indexOf('{');
  const end = body.lastIndexOf('}');
  if (start < 0 || end < start) return { invalid: 'reply with one JSON object: {"command": "..."} or {"done": "..."}' };
  let o: unknown;
  try {
    o = JSON.parse(body.slice(start, end + 1));
  } catch (e) {
    return { invalid: `your reply is not valid JSON (${(e as Error).message}); reply with {"command": "..."} or {"done": "..."}` };
  }
  const r = o as { command?: unknown; done?: unknown };
  if (typeof r.done === 'string') return { done: r.done };
  if (typeof r.command === 'string' && r.command.trim()) return { command: r.command };
  return { invalid: 'the JSON object needs a non-empty "command" string or a "done" string' };
}

function observe(v: Verdict): string {
  const t = v.transcript;
  if (!t) return `not run: ${v.reason}`;
  const cap = (s: string): string => (s.length > 4000 ? `${s.slice(0, 4000)}\n[... ${s.length - 4000} more characters]` : s);
  return [`exit code: ${t.exitCode ?? 'none'}${t.timedOut ? ' (timed out)' : ''}${t.error ? ` (${t.error})` : ''}`, t.stdout ? `stdout:\n${cap(t.stdout)}` : 'stdout: (empty)', t.stderr ? `stderr:\n${cap(t.stderr)}` : ''].filter(Boolean).join('\n');
}

/** Runs the agent on one task until it says done, runs out of steps, or keeps replying nonsense. */
export async function runAgent(task: string, deps: AgentDeps): Promise<AgentResult> {
  if (typeof task !== 'string' || task.trim() === '') throw new EngineError('BAD_INPUT', 'the task is empty', 'task');
  const session = `agent-${randomUUID()}`;
  const user = deps.user ?? 'user';
  const maxSteps = deps.maxSteps ?? 20;
  const messages: AgentMessage[] = [
    { role: 'system', content: SYSTEM },
    { role: 'user', content: task },
  ];
  const steps: AgentStep[] = [];
  let invalidInARow = 0;
  try {
    for (let turn = 0; turn < maxSteps * 2 && steps.length < maxSteps; turn++) {
      if (deps.signal?.aborted) return { session, done: false, summary: 'stopped', steps };
      const reply = await deps.complete(messages, deps.signal);
      messages.push({ role: 'assistant', content: reply });
      const parsed = parseReply(reply);
      if ('done' in parsed) return { session, done: true, summary: parsed.done, steps };
      if ('invalid' in parsed) {
        if (++invalidInARow >= 3) return { session, done: false, summary: `the model did not answer in the expected form three times: ${parsed.invalid}`, steps };
        messages.push({ role: 'user', content: parsed.invalid });
        continue;
      }
      invalidInARow = 0;
      const request = { request: task, action: { type: 'shell' as const, command: parsed.command }, context: { agent: 'warden-agent', session, user, cwd: user === 'root' ? '/root' : '/home/user' } };
      let verdict = await deps.sandbox.run({ request, session, ...(steps.length === 0 && deps.setup ? { setup: deps.setup } : {}) }, deps.signal);
      let ran = !!verdict.transcript && verdict.decision === 'allow';
      let observation: string;
      if (verdict.decision === 'ask') {
        const review = await waitForHuman(deps.engine, verdict.id, { timeoutMs: deps.askTimeoutMs ?? 120_000, ...(deps.signal ? { signal: deps.signal } : {}) });
        if (review?.outcome === 'approve') {
          verdict = await deps.sandbox.runApproved({ verdictId: verdict.id }, deps.signal);
          ran = true;
          observation = observe(verdict);
        } else observation = `refused by the guard: ${review ? `a human denied it (${review.reason})` : `it needed a human, and none approved it in time (${verdict.reason})`}`;
      } else if (verdict.decision === 'deny') observation = `refused by the guard (${verdict.path}): ${verdict.reason}`;
      else observation = observe(verdict);
      const step: AgentStep = { command: parsed.command, verdict, ran, observation };
      steps.push(step);
      deps.onStep?.(step);
      messages.push({ role: 'user', content: observation });
    }
    return { session, done: false, summary: `stopped after ${steps.length} commands without finishing`, steps };
  } finally {
    await deps.sandbox.endSession(session);
  }
}

/**
 * A chat model as the agent's `complete`: the conversation maps onto one system turn, the task,
 * and alternating replies and observations. An answer that is not JSON comes back as empty text,
 * which runAgent answers with a correction (and gives up after three).
 */
export function agentModel(llm: Llm): AgentDeps['complete'] {
  return async (messages, signal) => {
    const [system, task, ...rest] = messages;
    if (!system || !task) throw new EngineError('INTERNAL', 'the agent conversation needs a system message and a task');
    const followUp: { assistant: string; user: string }[] = [];
    for (let i = 0; i + 1 < rest.length; i += 2) followUp.push({ assistant: rest[i]!.content, user: rest[i + 1]!.content });
    try {
      const r = await llm.completeJson({ role: 'agent', system: system.content, user: task.content, followUp, maxTokens: 800 }, signal ?? new AbortController().signal);
      return r.text;
    } catch (e) {
      if (hasCode(e, 'LLM_FAILED') && /JSON object/.test((e as Error).message)) return '';
      throw e;
    }
  };
}

/** The configured LLM as the agent's model; without one, a clear error saying how to add it. */
async function openAgentModel(): Promise<AgentDeps['complete']> {
  const { loadConfig } = await import('../engine/config.js');
  const { configuredLlm, stderrLog } = await import('../engine/create-engine.js');
  const cfg = loadConfig();
  const llm = configuredLlm(cfg, stderrLog());
  if (!llm) throw new EngineError('BAD_INPUT', `no LLM configured: add "llm": {"baseURL": "...", "model": "..."} to ${cfg.dataDir}/config.json, or set WARDEN_LLM_BASE_URL (any OpenAI-compatible endpoint)`, 'llm');
  return agentModel(llm);
}

/** Registers `warden agent`. */
export function registerAgentCommand(program: Command): void {
  program
    .command('agent')
    .description('run the built-in OS agent on a task in a sandbox episode; every command it proposes passes the gate first (needs an LLM in config.json)')
    .argument('<task>', 'what the agent should do')
    .option('--max-steps <n>', 'most commands to run', (v) => parseInt(v, 10), 20)
    .option('--user <user>', 'run as root or user', 'user')
    .option('--setup <script>', 'shell script run as root when the episode starts')
    .option('--ask-timeout <ms>', 'longest wait for a reviewer on ask; then the command is refused', (v) => parseInt(v, 10), 120_000)
    .action(async (task: string, opts: { maxSteps: number; user: string; setup?: string; askTimeout: number }) => {
      try {
        const { openEngine } = await import('../engine/create-engine.js');
        const { sandboxServiceFor } = await import('../engine/gated-run.js');
        const complete = await openAgentModel();
        const engine = await openEngine();
        const sandbox = sandboxServiceFor(engine);
        try {
          const result = await runAgent(task, {
            engine,
            sandbox,
            complete,
            maxSteps: opts.maxSteps,
            user: opts.user === 'root' ? 'root' : 'user',
            askTimeoutMs: opts.askTimeout,
            ...(opts.setup ? { setup: opts.setup } : {}),
            onStep: (s) => process.stderr.write(`${s.verdict.decision.padEnd(5)} ${s.command}${s.ran ? '' : `  (${s.verdict.reason})`}\n`),
          });
          process.stdout.write(
            JSON.stringify({ session: result.session, done: result.done, summary: result.summary, steps: result.steps.map((s) => ({ command: s.command, decision: s.verdict.decision, path: s.verdict.path, ran: s.ran, verdict: s.verdict.id, exitCode: s.verdict.transcript?.exitCode ?? null })) }, null, 2) + '\n',
          );
        } finally {
          await sandbox.close();
          await engine.close();
        }
      } catch (e) {
        process.stderr.write(JSON.stringify({ error: toErrorInfo(e) }) + '\n');
        process.exitCode = 2;
      }
    });
}
