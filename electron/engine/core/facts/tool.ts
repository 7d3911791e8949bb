/**
 * Facts from a tool call: common tool shapes (coding agents' Bash / Write / Edit / Read, MCP file
 * and HTTP servers, mail and chat senders) mapped onto the same effects as shell commands. A tool
 * that runs a shell command is analysed as one.
 */
import type { PathEffect } from '../../../../shared/types.js';
import { pathEffect } from './paths.js';
import { analysePersistedText, analyseShell, type ShellSink } from './shell.js';

const SHELL_TOOLS = /^(bash|bash_?tool|shell|sh|zsh|run_?command|run_?shell(_command)?|execute(_?command|_?shell|_?bash)?|exec(_command)?|terminal|run_terminal_cmd|run_in_terminal|cmd|powershell|shell_exec|run_script|container_exec|local_shell)$/i;
const WRITE_TOOLS = /^(write|write_?file|write_?to_?file|edit|edit_?file|multi_?edit|create_?file|str_replace(_based)?(_edit)?(_tool)?|str_replace_editor|apply_?patch|apply_?diff|notebook_?edit|save_?file|append_?file|append_?to_?file|insert_?content|replace_?in_?file|search_?replace|update_?file|create_?directory|mkdir|make_?directory)$/i;
const READ_TOOLS = /^(read|read_?file|read_?text_?file|view|view_?file|cat|open_?file|get_?file(_contents)?|read_?multiple_?files|list_?directory|list_?dir|ls|glob|grep|search_?files|find_?files|directory_?tree|get_?file_?info)$/i;
const DELETE_TOOLS = /^(delete|delete_?file|remove_?file|rm|unlink|delete_?directory|remove_?directory|rmdir|trash)$/i;
const MOVE_TOOLS = /^(move|move_?file|rename|rename_?file|mv)$/i;
const COPY_TOOLS = /^(copy|copy_?file|cp)$/i;
const CHMOD_TOOLS = /^(chmod|set_?permissions|change_?permissions)$/i;
const NET_TOOLS = /^(web_?fetch|fetch|fetch_?url|http_?request|http_?get|http_?post|http|curl|browse|browser_?navigate|navigate|open_?url|web_?search|search_?web|send_?email|email|send_?mail|gmail.*|outlook.*|post|post_?message|upload|upload_?file|webhook|send_?message|slack.*|discord.*|teams.*|tweet|post_?tweet|create_?issue|create_?gist|send.*|share.*|publish.*)$/i;
const SENDING = /send|post|upload|email|mail|message|tweet|webhook|share|publish|gist|issue|slack|discord|teams/i;

const PATH_KEYS = ['file_path', 'path', 'filepath', 'filename', 'file', 'target', 'target_file', 'notebook_path', 'dir', 'directory', 'absolute_path', 'relative_workspace_path'];
const SOURCE_KEYS = ['source', 'src', 'from', 'source_path', 'old_path'];
const DEST_KEYS = ['destination', 'dest', 'to_path', 'new_path', 'target_path', 'dst'];
const URL_KEYS = ['url', 'uri', 'endpoint', 'link', 'href', 'webhook', 'webhook_url'];
const RECIPIENT_KEYS = ['to', 'recipient', 'recipients', 'cc', 'bcc', 'channel', 'chat_id', 'user', 'email', 'repo'];
const BODY_KEYS = ['body', 'data', 'content', 'message', 'text', 'payload', 'json', 'form', 'html', 'new_string', 'new_str', 'file_text', 'patch', 'diff', 'description'];
const ATTACH_KEYS = ['attachment', 'attachments', 'files', 'file_paths', 'upload', 'upload_path'];

function strings(v: unknown): string[] {
  if (typeof v === 'string') return v.length > 0 ? [v] : [];
  if (Array.isArray(v)) return v.flatMap(strings);
  if (v && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    for (const k of ['path', 'file_path', 'filename', 'url']) if (typeof o[k] === 'string') return [o[k] as string];
  }
  return [];
}

function first(args: Record<string, unknown>, keys: string[]): string | undefined {
  for (const k of keys) {
    const s = strings(args[k]);
    if (s.length > 0) return s[0];
  }
  return undefined;
}

function all(args: Record<string, unknown>, keys: string[]): string[] {
  return keys.flatMap((k) => strings(args[k]));
}

function host(u: string): string {
  try {
    return new URL(u).hostname || u;
  } catch {
    return u;
  }
}

/** Files a patch touches (`*** Update File: x`, `+++ b/x`). */
function patchFiles(patch: string): { writes: string[]; deletes: string[] } {
  const writes: string[] = [];
  const deletes: string[] = [];
  for (const line of patch.split('\n').slice(0, 5000)) {
    const m = /^\*\*\* (Add|Update|Delete) File: (.+)$/.exec(line) ?? /^\+\+\+ (b\/)?(.+)$/.exec(line);
    if (!m) continue;
    const p = m[2]!.trim();
    if (p === '/dev/null') continue;
    if (m[1] === 'Delete') deletes.push(p);
    else writes.push(p);
  }
  return { writes, deletes };
}

function quoteArg(s: string): string {
  return /^[\w@%+=:,./~-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

/** Maps one tool call onto `sink`; throws only when an embedded shell command does not parse. */
export function analyseTool(name: string, args: Record<string, unknown>, sink: ShellSink): void {
  const E = sink.effects;
  const bare = name.replace(/^mcp__.+?__/, '').replace(/^functions\./, '');
  const base = { cwd: sink.cwd, home: sink.home, scope: sink.scope };
  const fx = (p: string, extra: { recursive?: boolean; mode?: string } = {}): PathEffect => pathEffect(p, name, base, extra);
  const cmdArg = args['command'] ?? args['cmd'] ?? args['script'] ?? args['commands'] ?? args['code'];
  // an array is an argv (["bash", "-lc", "make test"]), each word quoted as the shell would need
  const command = Array.isArray(cmdArg) ? cmdArg.map((w) => quoteArg(String(w))).join(' ') : typeof cmdArg === 'string' ? cmdArg : undefined;
  const path = first(args, PATH_KEYS);
  const sub = typeof args['command'] === 'string' ? (args['command'] as string) : '';

  if (SHELL_TOOLS.test(bare) && command !== undefined) {
    analyseShell(command, sink);
  } else if (/str_replace|text_editor|edit_tool/i.test(bare) && ['view', 'create', 'str_replace', 'insert', 'undo_edit'].includes(sub) && path) {
    // the editor tool's `command` is a verb, not a shell command
    if (sub === 'view') E.reads.push(fx(path));
    else {
      E.writes.push(fx(path));
      const text = first(args, ['file_text', 'new_str', 'insert_text']);
      if (text) analysePersistedText(fx(path).path, text, sink);
    }
  } else if (/^apply_?patch$/i.test(bare)) {
    const patch = first(args, ['patch', 'input', 'diff', 'content']) ?? '';
    const files = patchFiles(patch);
    for (const w of files.writes) E.writes.push(fx(w));
    for (const d of files.deletes) E.deletes.push(fx(d));
  } else if (WRITE_TOOLS.test(bare) && path) {
    const e = fx(path);
    E.writes.push(e);
    const text = first(args, ['content', 'file_text', 'new_string', 'new_str', 'text', 'contents']);
    if (text) analysePersistedText(e.path, text, sink);
    if (Array.isArray(args['edits'])) for (const ed of args['edits'] as Record<string, unknown>[]) if (ed && typeof ed['new_string'] === 'string') analysePersistedText(e.path, ed['new_string'], sink);
  } else if (READ_TOOLS.test(bare) && (path || Array.isArray(args['paths']))) {
    for (const p of [...(path ? [path] : []), ...strings(args['paths'])]) E.reads.push(fx(p, { recursive: /glob|grep|search|tree|find/i.test(bare) }));
  } else if (DELETE_TOOLS.test(bare) && path) {
    E.deletes.push(fx(path, { recursive: args['recursive'] === true || /director/i.test(bare) }));
  } else if (MOVE_TOOLS.test(bare)) {
    const src = first(args, SOURCE_KEYS) ?? path;
    const dest = first(args, DEST_KEYS);
    if (src) E.deletes.push(fx(src, { recursive: true }));
    if (dest) E.writes.push(fx(dest));
  } else if (COPY_TOOLS.test(bare)) {
    const src = first(args, SOURCE_KEYS) ?? path;
    const dest = first(args, DEST_KEYS);
    if (src) E.reads.push(fx(src, { recursive: args['recursive'] === true }));
    if (dest) E.writes.push(fx(dest));
  } else if (CHMOD_TOOLS.test(bare) && path) {
    E.modeChanges.push(fx(path, { mode: String(args['mode'] ?? args['permissions'] ?? ''), recursive: args['recursive'] === true }));
  } else if (command !== undefined && typeof args['command'] === 'string' && !NET_TOOLS.test(bare)) {
    analyseShell(command, sink);
  }

  const url = first(args, URL_KEYS);
  const recipients = all(args, RECIPIENT_KEYS).filter((r) => r.includes('@') || r.startsWith('#') || /^https?:/.test(r) || /^[\w.-]+\/[\w.-]+$/.test(r));
  if (NET_TOOLS.test(bare) || (url !== undefined && /^[a-z][a-z0-9+.-]*:\/\//i.test(url))) {
    const body = first(args, BODY_KEYS);
    const method = String(args['method'] ?? '').toUpperCase();
    const attachments = all(args, ATTACH_KEYS);
    for (const a of attachments) E.reads.push(fx(a));
    const sends = body !== undefined || attachments.length > 0 || ['POST', 'PUT', 'PATCH'].includes(method) || (SENDING.test(bare) && !/fetch|search|browse|navigate|open/i.test(bare));
    const targets = url !== undefined ? [host(url)] : recipients.length ? recipients : [bare];
    for (const t of targets) E.network.push({ target: t.slice(0, 300), by: name, sendsData: sends });
  }
}
