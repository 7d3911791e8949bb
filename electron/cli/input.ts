/**
 * Turning command-line flags and stdin into an ActionRequest.
 */
import type { Action } from '../../shared/types.js';
import { EngineError } from '../../shared/errors.js';
import { parseJson } from '../../shared/validate.js';

/** Flags `warden check` accepts for an action. */
export interface CheckFlags {
  request?: string;
  shell?: string;
  tool?: string;
  args?: string;
  sql?: string;
  identity?: string;
  text?: string;
  user?: string;
  cwd?: string;
  agent?: string;
}

/** Builds the request object from flags; validation happens in the engine. */
export function buildRequestFromFlags(f: CheckFlags): Record<string, unknown> {
  let action: Action;
  if (f.shell !== undefined) action = { type: 'shell', command: f.shell };
  else if (f.tool !== undefined) {
    const args = f.args === undefined ? {} : parseJson(f.args, '--args');
    if (typeof args !== 'object' || args === null || Array.isArray(args)) throw new EngineError('BAD_INPUT', '--args must be a JSON object', 'action.arguments');
    action = { type: 'tool', name: f.tool, arguments: args as Record<string, unknown> };
  } else if (f.sql !== undefined) action = { type: 'sql', query: f.sql, ...(f.identity ? { identity: f.identity } : {}) };
  else action = { type: 'text', content: f.text ?? '' };
  const context: Record<string, string> = {};
  if (f.user) context['user'] = f.user;
  if (f.cwd) context['cwd'] = f.cwd;
  if (f.agent) context['agent'] = f.agent;
  return { request: f.request ?? '', action, ...(Object.keys(context).length ? { context } : {}) };
}

/** Reads all of stdin as UTF-8; a terminal with nothing piped is a clear error. */
export async function readStdin(): Promise<string> {
  if (process.stdin.isTTY) throw new EngineError('BAD_INPUT', 'no action given: pass --shell/--tool/--sql/--text or pipe a JSON request on stdin', 'stdin');
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
