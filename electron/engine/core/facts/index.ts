/**
 * extractFacts: one action in, the facts the checks and the memory work on. Synchronous and
 * pure. A parse failure is recorded in `parseError` (the gate fails closed on it); it never throws
 * for a malformed action.
 */
import sqlParser from 'node-sql-parser';
import type { ActionRequest, Effects, Facts, SqlFacts } from '../../../../shared/types.js';
import { analyseShell } from './shell.js';
import { pathEffect, persistencePlace as persistence, privilegePlace as privilegeOf, requestPathsOf, requestWords } from './paths.js';
import { paraphraseOf, commandFormOf } from './paraphrase.js';

const SQL = new sqlParser.Parser();

function emptyEffects(): Effects {
  return { reads: [], writes: [], deletes: [], modeChanges: [], ownerChanges: [], network: [], signals: [], privilege: [], persistence: [], exhaustion: [], execution: [] };
}

/** Tool names that run a shell command given in an argument. */
const SHELL_TOOLS = /^(bash|shell|sh|run_?command|run_?shell|execute(_command)?|exec|terminal|run_terminal_cmd|run_in_terminal|cmd|powershell)$/i;
const WRITE_TOOLS = /^(write|write_?file|edit|edit_?file|multi_?edit|create_?file|str_replace(_editor)?|apply_?patch|notebook_?edit|save_?file|append_?file|move_?file|rename_?file)$/i;
const READ_TOOLS = /^(read|read_?file|view|cat|open_?file|get_?file|read_?multiple_?files|list_?directory|ls|glob|grep|search_?files)$/i;
const DELETE_TOOLS = /^(delete|delete_?file|remove_?file|rm|unlink|delete_?directory)$/i;
const NET_TOOLS = /^(web_?fetch|fetch|http_?request|http|curl|browse|navigate|send_?email|email|post|upload|webhook|send_?message|slack|gmail.*|send.*)$/i;

function firstString(args: Record<string, unknown>, keys: string[]): string | undefined {
  for (const k of keys) {
    const v = args[k];
    if (typeof v === 'string' && v.length > 0) return v;
  }
  return undefined;
}

function sqlFacts(query: string): SqlFacts {
  let lastError: unknown;
  for (const database of ['MySQL', 'PostgresQL', 'SQLite', 'BigQuery']) {
    try {
      const tables = SQL.tableList(query, { database }).map((t) => {
        const [op, , name] = t.split('::');
        return { name: (name ?? '').toLowerCase(), op: (op ?? '').toLowerCase() };
      });
      const columns = SQL.columnList(query, { database }).map((c) => {
        const [op, table, column] = c.split('::');
        return { table: table && table !== 'null' ? table.toLowerCase() : null, column: (column ?? '').toLowerCase(), op: (op ?? '').toLowerCase() };
      });
      const ast = SQL.astify(query, { database });
      const statements = (Array.isArray(ast) ? ast : [ast]).map((s) => String((s as { type?: string }).type ?? 'unknown').toLowerCase());
      return { statements, tables, columns };
    } catch (e) {
      lastError = e;
    }
  }
  throw new Error(`SQL syntax error: ${(lastError as Error)?.message ?? String(lastError)}`.slice(0, 500));
}

/** Facts for one validated action request. */
export function extractFacts(req: ActionRequest): Facts {
  const user = req.context?.user ?? 'user';
  const home = req.context?.home ?? (user === 'root' ? '/root' : '/home/user');
  // an agent without a stated working directory is taken to work in a project folder under home
  const cwd = req.context?.cwd ?? `${home}/work`;
  const requestPaths = requestPathsOf(req.request, cwd, home);
  const words = requestWords(req.request);
  const effects = emptyEffects();
  const flags = new Set<string>();
  const facts: Facts = { kind: req.action.type, commands: [], effects, flags: [], requestPaths, paraphrase: '', commandForm: '' };
  const ctx = { cwd, home, requestPaths, words, effects, flags, commands: facts.commands };
  const a = req.action;
  try {
    switch (a.type) {
      case 'shell':
        analyseShell(a.command, ctx);
        break;
      case 'sql':
        facts.sql = sqlFacts(a.query);
        break;
      case 'tool': {
        const args = a.arguments ?? {};
        const cmd = firstString(args, ['command', 'cmd', 'script', 'code', 'commands']);
        const path = firstString(args, ['file_path', 'path', 'filepath', 'filename', 'file', 'target', 'destination', 'notebook_path']);
        const url = firstString(args, ['url', 'uri', 'endpoint', 'to', 'recipient', 'recipients', 'channel', 'webhook']);
        const name = a.name.replace(/^mcp__[^_]+__/, '');
        if (SHELL_TOOLS.test(name) && cmd) analyseShell(cmd, ctx);
        else if (WRITE_TOOLS.test(name) && path) effects.writes.push(pathEffect(path, a.name, ctx));
        else if (READ_TOOLS.test(name) && path) effects.reads.push(pathEffect(path, a.name, ctx));
        else if (DELETE_TOOLS.test(name) && path) effects.deletes.push(pathEffect(path, a.name, ctx, { recursive: args['recursive'] === true }));
        else if (cmd && typeof args['command'] === 'string') analyseShell(cmd, ctx);
        if (NET_TOOLS.test(name) || (url && /^https?:|@/.test(url))) {
          const body = firstString(args, ['body', 'data', 'content', 'message', 'text', 'payload', 'attachment', 'attachments']);
          effects.network.push({ target: (url ?? name).slice(0, 300), by: a.name, sendsData: !!body || /send|post|upload|email|message/i.test(name) });
        }
        break;
      }
      case 'web':
      case 'text':
        break;
    }
  } catch (e) {
    facts.parseError = (e as Error).message ?? String(e);
  }
  // writes into persistence or privilege places are facts in their own right
  for (const w of [...effects.writes, ...effects.modeChanges]) {
    const place = persistence(w.path);
    if (place && !effects.persistence.some((p) => p.place === place)) effects.persistence.push({ place, by: w.by });
    const priv = privilegeOf(w.path);
    if (priv) effects.privilege.push({ kind: 'edits-' + priv.replace(/^\/etc\//, ''), detail: `${w.by} ${w.path}` });
  }
  facts.flags = [...flags].sort();
  facts.paraphrase = paraphraseOf(req, facts);
  facts.commandForm = commandFormOf(req, facts);
  return facts;
}
