/**
 * `warden hook`: the pre-tool-use hook of coding agents. The agent writes its hook event as JSON
 * on stdin; the decision goes back in the agent's own output format on stdout. Claude Code goes
 * ahead when a hook fails with any exit code but 2, so every failure here (malformed input, an
 * internal error) prints a deny decision AND exits 2: the tool call is blocked either way.
 *
 * Claude Code's UserPromptSubmit event is remembered per session, so the next tool calls are
 * judged against what the human actually asked.
 */
import type { Command } from 'commander';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { homedir } from 'node:os';
import { z } from 'zod';
import { EngineError } from '../../shared/errors.js';
import type { Action, ActionRequest, Decision } from '../../shared/types.js';
import { defaultDataDir } from '../engine/config.js';
import { connectGuard, failureReason, type Guard } from '../server/intake/guard-client.js';
import type { IntakeAnswer } from '../server/intake/schema.js';
import { readStdin } from './input.js';

/** Hook dialects `--format` accepts. */
export type HookFormat = 'claude' | 'gemini' | 'warden';

/** What the hook prints and how it exits. */
export interface HookResult {
  stdout: string;
  stderr: string;
  exitCode: number;
}

const MAX_EVENT_BYTES = 4 << 20;

const eventSchema = z.object({
  session_id: z.string().max(256).optional(),
  cwd: z.string().max(4096).optional(),
  hook_event_name: z.string({ error: 'hook_event_name must be a string' }),
  tool_name: z.string().min(1).max(256).optional(),
  tool_input: z.record(z.string(), z.unknown()).optional(),
  prompt: z.string().optional(),
});

type HookEvent = z.infer<typeof eventSchema>;

const SHELL_TOOLS: Record<HookFormat, RegExp> = { claude: /^Bash$/, gemini: /^run_shell_command$/, warden: /^$/ };
const PRE_TOOL_EVENT: Record<HookFormat, string> = { claude: 'PreToolUse', gemini: 'BeforeTool', warden: '' };
const AGENT: Record<HookFormat, string> = { claude: 'claude-code', gemini: 'gemini-cli', warden: 'agent' };

function sessionFile(dataDir: string, session: string): string {
  return join(dataDir, 'hook-sessions', `${session.replace(/[^\w.-]/g, '_').slice(0, 128)}.json`);
}

/** The human's last prompt in this session, if the prompt hook recorded one. */
function rememberedPrompt(dataDir: string, session: string | undefined): string | undefined {
  if (!session) return undefined;
  try {
    const o = JSON.parse(readFileSync(sessionFile(dataDir, session), 'utf8')) as { prompt?: unknown };
    return typeof o.prompt === 'string' && o.prompt.trim() ? o.prompt.slice(0, 8000) : undefined;
  } catch {
    return undefined;
  }
}

/** Maps one pre-tool event onto an ActionRequest (throws BAD_INPUT naming the field). */
export function eventToRequest(ev: HookEvent, format: HookFormat, opts: { prompt?: string; home?: string } = {}): ActionRequest {
  if (!ev.tool_name) throw new EngineError('BAD_INPUT', 'tool_name is missing', 'tool_name');
  const input = ev.tool_input ?? {};
  let action: Action;
  if (SHELL_TOOLS[format].test(ev.tool_name)) {
    const command = input['command'];
    if (typeof command !== 'string' || command.trim() === '') throw new EngineError('BAD_INPUT', `${ev.tool_name} needs tool_input.command as a non-empty string`, 'tool_input.command');
    action = { type: 'shell', command };
  } else {
    // file edits, web fetches and everything else: the tool facts read the path, URL or command out of the arguments
    action = { type: 'tool', name: ev.tool_name, arguments: input };
  }
  const where = ev.cwd ? ` in ${ev.cwd}` : '';
  const request = opts.prompt ?? `work on the project${where}`;
  return {
    request,
    action,
    context: { agent: AGENT[format], ...(ev.session_id ? { session: ev.session_id } : {}), ...(ev.cwd ? { cwd: ev.cwd } : {}), ...(opts.home ? { home: opts.home } : {}) },
  };
}

/** The decision in the agent's output format. */
export function formatDecision(format: HookFormat, decision: Decision, reason: string, id?: string): string {
  if (format === 'claude') return JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: decision, permissionDecisionReason: reason } });
  if (format === 'gemini') return JSON.stringify({ decision: decision === 'allow' ? 'allow' : 'deny', reason });
  return JSON.stringify({ decision, reason, ...(id ? { id } : {}) });
}

function denyOnFailure(format: HookFormat, e: unknown): HookResult {
  const reason = `Warden could not judge this action, so it is blocked (${failureReason(e)})`;
  return { stdout: formatDecision(format, 'deny', reason) + '\n', stderr: reason + '\n', exitCode: 2 };
}

/** Options of one hook run. */
export interface HookRunOptions {
  format: HookFormat;
  /** Connects to the guard only when an action must be judged. */
  guard: () => Promise<Guard>;
  dataDir?: string;
  /** The agent user's home directory (default: this process's), so `~` and "own home" mean theirs. */
  home?: string;
  /** Wait for a Warden reviewer on ask instead of handing the ask to the agent's own prompt. */
  wait?: boolean;
  timeoutMs?: number;
}

/**
 * One hook invocation from its stdin text to its output. Never throws: any failure is a deny.
 */
export async function runHook(stdinText: string, opts: HookRunOptions): Promise<HookResult> {
  const { format } = opts;
  try {
    if (Buffer.byteLength(stdinText) > MAX_EVENT_BYTES) throw new EngineError('BAD_INPUT', `the hook event is larger than ${MAX_EVENT_BYTES} bytes`, 'stdin');
    if (stdinText.includes('\uFFFD')) throw new EngineError('BAD_INPUT', 'the hook event is not valid UTF-8', 'stdin');
    let raw: unknown;
    try {
      raw = JSON.parse(stdinText);
    } catch (e) {
      throw new EngineError('BAD_INPUT', `the hook event is not valid JSON: ${(e as Error).message.slice(0, 200)}`, 'stdin');
    }
    let req: unknown;
    let agentAsks = false;
    if (format === 'warden') {
      req = raw;
    } else {
      const parsed = eventSchema.safeParse(raw);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        const field = issue?.path.map(String).join('.') || 'stdin';
        throw new EngineError('BAD_INPUT', `the hook event is malformed: ${field}: ${issue?.message ?? 'invalid'}`, field);
      }
      const ev = parsed.data;
      const dataDir = opts.dataDir ?? defaultDataDir();
      if (format === 'claude' && ev.hook_event_name === 'UserPromptSubmit') {
        if (ev.session_id && ev.prompt !== undefined) {
          mkdirSync(join(dataDir, 'hook-sessions'), { recursive: true });
          writeFileSync(sessionFile(dataDir, ev.session_id), JSON.stringify({ prompt: ev.prompt.slice(0, 8000), at: Date.now() }), { mode: 0o600 });
        }
        return { stdout: '', stderr: '', exitCode: 0 };
      }
      if (ev.hook_event_name !== PRE_TOOL_EVENT[format]) throw new EngineError('BAD_INPUT', `warden hook judges ${PRE_TOOL_EVENT[format]} events, not ${ev.hook_event_name}`, 'hook_event_name');
      const prompt = rememberedPrompt(dataDir, ev.session_id);
      req = eventToRequest(ev, format, { home: opts.home ?? homedir(), ...(prompt ? { prompt } : {}) });
      agentAsks = format === 'claude' && !opts.wait;
    }
    const guard = await opts.guard();
    let answer: IntakeAnswer;
    try {
      answer = await guard.submit(req, { wait: !agentAsks, ...(opts.timeoutMs ? { timeoutMs: opts.timeoutMs } : {}) });
    } finally {
      await guard.close();
    }
    // an ask only reaches the agent when it can put the question to its own user
    const decision: Decision = answer.decision === 'ask' && !agentAsks ? 'deny' : answer.decision;
    const reason = `Warden ${decision === 'allow' ? 'allowed' : decision === 'deny' ? 'denied' : 'asks'} (${answer.path}): ${answer.reason}`;
    return { stdout: formatDecision(format, decision, reason, answer.id) + '\n', stderr: '', exitCode: format === 'warden' && decision !== 'allow' ? 2 : 0 };
  } catch (e) {
    return denyOnFailure(format, e);
  }
}

/** Registers `warden hook`. */
export function registerHookCommand(program: Command): void {
  program
    .command('hook')
    .description("a coding agent's pre-tool-use hook: the event as JSON on stdin, the decision on stdout (blocks on any failure)")
    .option('--format <format>', 'claude (Claude Code PreToolUse / UserPromptSubmit), gemini (Gemini CLI BeforeTool), or warden (an ActionRequest in, {decision, reason, id} out)', 'claude')
    .option('--wait', 'on ask, wait for a Warden reviewer instead of asking in the agent')
    .option('--timeout <ms>', 'longest wait for a reviewer; then deny', (v) => parseInt(v, 10))
    .action(async (opts: { format: string; wait?: boolean; timeout?: number }) => {
      const format = (['claude', 'gemini', 'warden'].includes(opts.format) ? opts.format : 'claude') as HookFormat;
      let result: HookResult;
      if (format !== opts.format) result = denyOnFailure(format, new EngineError('BAD_INPUT', `--format must be claude, gemini or warden, not ${opts.format}`, 'format'));
      else {
        let text: string;
        try {
          text = await readStdin();
        } catch (e) {
          text = '';
          result = denyOnFailure(format, e);
        }
        result ??= await runHook(text, { format, guard: () => connectGuard(), ...(opts.wait ? { wait: true } : {}), ...(opts.timeout ? { timeoutMs: opts.timeout } : {}) });
      }
      process.stdout.write(result.stdout);
      process.stderr.write(result.stderr);
      process.exitCode = result.exitCode;
    });
}
