/**
 * Facts from a shell command, through a complete bash parser (mvdan-sh, the Go mvdan/sh parser
 * compiled to JavaScript). The walk resolves simple variable assignments and `cd`, recurses into
 * command substitutions, `eval`, `sh -c` strings, heredocs fed to shells and literal base64
 * payloads piped into a shell, and maps each simple command to its effects.
 */
import sh from 'mvdan-sh';
import type { Effects, SimpleCommand } from '../../../../shared/types.js';
import { isDevicePath, isLogPath, pathEffect, persistencePlace, privilegePlace } from './paths.js';

const { syntax } = sh;

/** Limits that keep hostile input from hanging the guard. */
const MAX_DEPTH = 4;
const MAX_PARSE_CHARS = 256 * 1024;
const MAX_COMMANDS = 2000;

/* The parser's operator codes differ between builds, so learn them by parsing samples once. */
function learnOps(): { redir: Record<number, string>; bin: Record<number, string> } {
  const p = syntax.NewParser();
  const redir: Record<number, string> = {};
  for (const op of ['>', '>>', '<', '&>', '&>>', '<<<', '>|', '<>', '>&', '<&']) {
    const f = p.Parse(`a ${op} b`, 's');
    const r = f.Stmts[0].Redirs[0];
    redir[r.Op] = op;
  }
  for (const op of ['<<', '<<-']) {
    const f = p.Parse(`a ${op}EOF\nx\nEOF\n`, 's');
    redir[f.Stmts[0].Redirs[0].Op] = op;
  }
  const bin: Record<number, string> = {};
  for (const op of ['&&', '||', '|', '|&']) bin[p.Parse(`a ${op} b`, 's').Stmts[0].Cmd.Op] = op;
  return { redir, bin };
}
const OPS = learnOps();
const PARSER = syntax.NewParser();

/** Mutable state of one analysis. */
interface Ctx {
  cwd: string;
  home: string;
  vars: Map<string, string>;
  requestPaths: string[];
  words: Set<string>;
  effects: Effects;
  flags: Set<string>;
  commands: SimpleCommand[];
  depth: number;
  funcs: Set<string>;
}

/** The value of a word, and whether any of it came from an expansion we could not resolve. */
interface WordValue {
  value: string;
  dynamic: boolean;
  /** Command substitutions inside the word (analysed separately). */
  substs: unknown[][];
}

type Node = any; // the parser's node objects are untyped (GopherJS)

function wordValue(w: Node, ctx: Ctx, top = true): WordValue {
  const out: WordValue = { value: '', dynamic: false, substs: [] };
  const parts: Node[] = w?.Parts ?? [];
  parts.forEach((part: Node, i: number) => {
    const t = syntax.NodeType(part);
    if (t === 'Lit') {
      let v: string = part.Value;
      if (top && i === 0 && (v === '~' || v.startsWith('~/'))) v = ctx.home + v.slice(1);
      out.value += v;
    } else if (t === 'SglQuoted') out.value += part.Value;
    else if (t === 'DblQuoted') {
      const inner = wordValue(part, ctx, false);
      out.value += inner.value;
      out.dynamic ||= inner.dynamic;
      out.substs.push(...inner.substs);
    } else if (t === 'ParamExp') {
      const name: string = part.Param?.Value ?? '';
      const known = name === 'HOME' ? ctx.home : name === 'PWD' ? ctx.cwd : ctx.vars.get(name);
      if (known !== undefined && !part.Exp && !part.Repl && !part.Slice && !part.Length) out.value += known;
      else {
        out.value += `$${name}`;
        out.dynamic = true;
      }
    } else if (t === 'CmdSubst' || t === 'ProcSubst') {
      out.substs.push(part.Stmts ?? []);
      out.value += '$(...)';
      out.dynamic = true;
    } else {
      out.dynamic = true;
      out.value += '$?';
    }
  });
  return out;
}

function addExec(ctx: Ctx, kind: string, detail: string): void {
  ctx.effects.execution.push({ kind, detail: detail.slice(0, 300) });
  ctx.flags.add(kind);
}

/** Parses and walks a script; a syntax error propagates as an Error with the parser's message. */
export function parseShell(src: string): Node {
  if (src.length > MAX_PARSE_CHARS) throw new Error(`command is ${src.length} characters; only the first ${MAX_PARSE_CHARS} can be analysed`);
  try {
    return PARSER.Parse(src, 'cmd');
  } catch (e) {
    const msg = typeof (e as { Error?: () => string })?.Error === 'function' ? (e as { Error: () => string }).Error() : String((e as Error)?.message ?? e);
    throw new Error(`shell syntax error: ${msg}`);
  }
}

/** Analyses a nested script (eval, sh -c, decoded payloads) at one more level of depth. */
function analyseNested(src: string, ctx: Ctx, why: string): void {
  if (ctx.depth >= MAX_DEPTH) {
    ctx.flags.add('nesting-too-deep');
    return;
  }
  let file: Node;
  try {
    file = parseShell(src);
  } catch {
    ctx.flags.add('unparsable-nested-code');
    addExec(ctx, 'unparsable-nested-code', `${why}: ${src}`);
    return;
  }
  ctx.depth++;
  walkStmts(file.Stmts ?? [], ctx, undefined);
  ctx.depth--;
}

function walkStmts(stmts: Node[], ctx: Ctx, stdinFrom: string | undefined): void {
  for (const s of stmts) walkStmt(s, ctx, stdinFrom);
}

/** What feeds a command's standard input, when a pipeline stage is a producer we recognise. */
interface Feed {
  kind: 'decoded' | 'download' | 'literal' | 'other' | 'file';
  text?: string;
}

function walkStmt(stmt: Node, ctx: Ctx, stdinFrom: string | undefined, feed?: Feed): void {
  if (ctx.commands.length > MAX_COMMANDS) {
    ctx.flags.add('oversized');
    return;
  }
  if (stmt.Background) ctx.flags.add('background');
  walkCmd(stmt.Cmd, stmt.Redirs ?? [], ctx, stdinFrom, feed, !!stmt.Background);
}

function walkCmd(cmd: Node, redirs: Node[], ctx: Ctx, stdinFrom: string | undefined, feed: Feed | undefined, background: boolean): void {
  if (!cmd) {
    handleRedirs(redirs, ctx, 'redirect', undefined);
    return;
  }
  const t = syntax.NodeType(cmd);
  switch (t) {
    case 'CallExpr':
      return walkCall(cmd, redirs, ctx, feed, background);
    case 'BinaryCmd': {
      const op = OPS.bin[cmd.Op];
      if (op === '|' || op === '|&') {
        walkStmt(cmd.X, ctx, stdinFrom, feed);
        walkStmt(cmd.Y, ctx, 'pipe', feedOf(cmd.X, ctx));
      } else {
        walkStmt(cmd.X, ctx, stdinFrom, feed);
        walkStmt(cmd.Y, ctx, stdinFrom, feed);
      }
      handleRedirs(redirs, ctx, 'redirect', undefined);
      return;
    }
    case 'Subshell':
    case 'Block': {
      const saved = ctx.cwd;
      walkStmts(cmd.Stmts ?? [], ctx, stdinFrom);
      if (t === 'Subshell') ctx.cwd = saved;
      handleRedirs(redirs, ctx, 'redirect', undefined);
      return;
    }
    case 'IfClause': {
      walkStmts(cmd.Cond ?? [], ctx, stdinFrom);
      walkStmts(cmd.Then ?? [], ctx, stdinFrom);
      if (cmd.Else) walkCmd(cmd.Else, [], ctx, stdinFrom, feed, false);
      return;
    }
    case 'WhileClause': {
      const cond = cmd.Cond ?? [];
      const infinite = cond.length === 1 && syntax.NodeType(cond[0].Cmd) === 'CallExpr' && ['true', ':'].includes(wordValue(cond[0].Cmd.Args?.[0], ctx).value) && !cmd.Until;
      walkStmts(cond, ctx, stdinFrom);
      const before = ctx.flags.has('background');
      walkStmts(cmd.Do ?? [], ctx, stdinFrom);
      if (infinite) {
        const spawns = (cmd.Do ?? []).some((s: Node) => s.Background) || (!before && ctx.flags.has('background'));
        const hasSleep = (cmd.Do ?? []).some((s: Node) => syntax.NodeType(s.Cmd) === 'CallExpr' && wordValue(s.Cmd.Args?.[0], ctx).value === 'sleep');
        if (spawns) ctx.effects.exhaustion.push({ kind: 'spawn-loop', detail: 'an endless loop that starts background processes' });
        else if (!hasSleep) ctx.effects.exhaustion.push({ kind: 'busy-loop', detail: 'an endless loop without a pause' });
        ctx.flags.add('infinite-loop');
      }
      handleRedirs(redirs, ctx, 'redirect', undefined);
      return;
    }
    case 'ForClause':
      walkStmts(cmd.Do ?? [], ctx, stdinFrom);
      handleRedirs(redirs, ctx, 'redirect', undefined);
      return;
    case 'CaseClause':
      for (const item of cmd.Items ?? []) walkStmts(item.Stmts ?? [], ctx, stdinFrom);
      return;
    case 'FuncDecl': {
      const name: string = cmd.Name?.Value ?? '';
      ctx.funcs.add(name);
      // a function that pipes into itself in the background is a fork bomb: :(){ :|:& };:
      const body = JSON.stringify(collectCallNames(cmd.Body, ctx));
      const selfCalls = collectCallNames(cmd.Body, ctx).filter((n) => n === name).length;
      if (selfCalls >= 2 || (selfCalls >= 1 && body.includes('"&"'))) {
        ctx.effects.exhaustion.push({ kind: 'fork-bomb', detail: `function ${name} calls itself recursively` });
        ctx.flags.add('fork-bomb');
      }
      walkStmt(cmd.Body, ctx, stdinFrom);
      return;
    }
    case 'DeclClause': {
      for (const a of cmd.Args ?? []) if (a.Name) assign(a, ctx);
      return;
    }
    case 'TimeClause':
      if (cmd.Stmt) walkStmt(cmd.Stmt, ctx, stdinFrom, feed);
      return;
    case 'CoprocClause':
      if (cmd.Stmt) walkStmt(cmd.Stmt, ctx, stdinFrom, feed);
      return;
    default:
      handleRedirs(redirs, ctx, 'redirect', undefined);
      return;
  }
}

function collectCallNames(stmt: Node, ctx: Ctx): string[] {
  const names: string[] = [];
  syntax.Walk(stmt, (n: Node) => {
    if (!n) return true;
    if (syntax.NodeType(n) === 'CallExpr' && n.Args?.[0]) names.push(wordValue(n.Args[0], ctx).value);
    if (syntax.NodeType(n) === 'Stmt' && n.Background) names.push('&');
    return true;
  });
  return names;
}

function assign(a: Node, ctx: Ctx): void {
  const name: string = a.Name.Value;
  if (!a.Value) return;
  const v = wordValue(a.Value, ctx);
  for (const s of v.substs) walkStmts(s as Node[], ctx, undefined);
  if (v.dynamic) {
    ctx.vars.delete(name);
    ctx.flags.add('dynamic-assignment');
  } else {
    ctx.vars.set(name, v.value);
    if (v.value.startsWith('/') || v.value.startsWith('~')) ctx.flags.add('path-in-variable');
  }
  if (name === 'HISTFILE' || name === 'HISTSIZE') ctx.flags.add('history-wipe');
  if (name === 'LD_PRELOAD') ctx.effects.privilege.push({ kind: 'ld-preload', detail: v.value });
}

/** Recognises what a pipeline stage produces for the next one. */
function feedOf(stmt: Node, ctx: Ctx): Feed {
  const cmd = stmt?.Cmd;
  if (!cmd) return { kind: 'other' };
  if (syntax.NodeType(cmd) === 'BinaryCmd') return feedOf(cmd.Y, ctx);
  if (syntax.NodeType(cmd) !== 'CallExpr' || !cmd.Args?.length) return { kind: 'other' };
  const argv = cmd.Args.map((w: Node) => wordValue(w, ctx).value) as string[];
  const { name, args } = unwrap(argv);
  if (name === 'base64' && args.some((a) => a === '-d' || a === '--decode' || a === '-D')) return { kind: 'decoded' };
  if ((name === 'xxd' && args.includes('-r')) || (name === 'openssl' && args.includes('-d')) || name === 'rev' || name === 'gunzip' || name === 'zcat' || (name === 'tr' && args.length >= 2)) return { kind: 'decoded' };
  if (name === 'curl' || name === 'wget' || name === 'fetch') return { kind: 'download' };
  if (name === 'echo' || name === 'printf') {
    const text = args.filter((a) => !/^-[neE]+$/.test(a)).join(' ');
    return { kind: 'literal', text: name === 'printf' ? unescapePrintf(text) : text };
  }
  if (name === 'cat' && args.length > 0) return { kind: 'file' };
  return { kind: 'other' };
}

function unescapePrintf(s: string): string {
  return s.replace(/\\x([0-9a-fA-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16))).replace(/\\([0-7]{3})/g, (_, o: string) => String.fromCharCode(parseInt(o, 8))).replace(/\\n/g, '\n');
}

const WRAPPERS = new Set(['sudo', 'doas', 'env', 'nohup', 'nice', 'ionice', 'timeout', 'time', 'stdbuf', 'exec', 'command', 'builtin', 'setsid', 'busybox', 'xargs', 'unbuffer', 'chronic', 'caffeinate', 'runuser', 'chroot', 'flock', 'watch', 'strace', 'ltrace', 'torsocks', 'proxychains', 'proxychains4']);

/** Strips wrappers (sudo, env, nohup, xargs...) from an argv; returns the real command. */
export function unwrap(argv: string[]): { name: string; args: string[]; wrappers: string[] } {
  const wrappers: string[] = [];
  let i = 0;
  while (i < argv.length) {
    const base = basename(argv[i]!);
    if (!WRAPPERS.has(base)) break;
    wrappers.push(base);
    i++;
    // skip the wrapper's own options and operands
    while (i < argv.length) {
      const a = argv[i]!;
      if (a.startsWith('-')) {
        i++;
        if ((base === 'sudo' || base === 'doas' || base === 'runuser') && ['-u', '-g', '-C', '-p', '-h', '-U'].includes(a)) i++;
        if (base === 'nice' && a === '-n') i++;
        if (base === 'xargs' && ['-I', '-n', '-P', '-L', '-d', '-s', '-a', '-E'].includes(a)) i++;
        if (base === 'timeout' && (a === '-s' || a === '-k')) i++;
        if (base === 'watch' && (a === '-n' || a === '-d')) i++;
        continue;
      }
      if (base === 'env' && a.includes('=')) {
        i++;
        continue;
      }
      if ((base === 'timeout' && /^\d/.test(a)) || (base === 'chroot' && i === argv.indexOf(a)) || base === 'flock') {
        i++;
        if (base === 'chroot' || base === 'flock') break;
        continue;
      }
      break;
    }
  }
  return { name: basename(argv[i] ?? ''), args: argv.slice(i + 1), wrappers };
}

function basename(p: string): string {
  const b = p.split('/').pop() ?? p;
  return b;
}

function splitFlags(args: string[]): { flags: Set<string>; operands: string[] } {
  const flags = new Set<string>();
  const operands: string[] = [];
  let endOpts = false;
  for (const a of args) {
    if (!endOpts && a === '--') {
      endOpts = true;
      continue;
    }
    if (!endOpts && a.startsWith('--')) flags.add(a);
    else if (!endOpts && a.startsWith('-') && a.length > 1 && !/^-\d+$/.test(a)) for (const ch of a.slice(1)) flags.add('-' + ch);
    else operands.push(a);
  }
  return { flags, operands };
}

const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'ash', 'fish', 'csh', 'tcsh', 'busybox']);
const INTERPRETERS = new Set(['python', 'python2', 'python3', 'perl', 'ruby', 'node', 'nodejs', 'php', 'lua', 'Rscript', 'osascript', 'pwsh', 'powershell']);
const READERS = new Set(['cat', 'less', 'more', 'head', 'tail', 'tac', 'nl', 'strings', 'xxd', 'od', 'hexdump', 'base64', 'md5sum', 'sha1sum', 'sha256sum', 'sha512sum', 'file', 'stat', 'wc', 'sort', 'uniq', 'cut', 'diff', 'cmp', 'jq', 'yq', 'gpg', 'source', '.', 'openssl', 'zcat', 'bat', 'view', 'vim', 'vi', 'nano', 'emacs']);
const NETWORK = new Set(['curl', 'wget', 'nc', 'ncat', 'netcat', 'socat', 'telnet', 'ssh', 'scp', 'sftp', 'ftp', 'rsync', 'ping', 'dig', 'nslookup', 'host', 'aria2c', 'http', 'https', 'lftp', 'tftp', 'smbclient', 'mail', 'sendmail', 'mutt', 'git']);
const SECURITY_SERVICES = /^(ufw|firewalld|iptables|nftables|apparmor|auditd|selinux|fail2ban|clamav|clamd|rsyslog|syslog|systemd-journald|ssh|sshd|crowdstrike|falcon-sensor|osqueryd|wazuh-agent)(\.service)?$/;

function walkCall(call: Node, redirs: Node[], ctx: Ctx, feed: Feed | undefined, background: boolean): void {
  for (const a of call.Assigns ?? []) assign(a, ctx);
  const words: WordValue[] = (call.Args ?? []).map((w: Node) => wordValue(w, ctx));
  for (const w of words) for (const s of w.substs) walkStmts(s as Node[], ctx, undefined);
  if (words.length === 0) {
    handleRedirs(redirs, ctx, 'redirect', undefined);
    return;
  }
  const argv = words.map((w) => w.value);
  const dynamic = words.some((w) => w.dynamic);
  const { name, args, wrappers } = unwrap(argv);
  const nameDynamic = words[argv.length - args.length - 1]?.dynamic ?? false;
  ctx.commands.push({ name, argv: [name, ...args].map((a) => a.slice(0, 4096)), redirects: [], dynamic, wrappers });
  const cmdIdx = ctx.commands.length - 1;
  if (wrappers.includes('sudo') || wrappers.includes('doas')) ctx.effects.privilege.push({ kind: 'sudo', detail: [name, ...args].join(' ').slice(0, 200) });
  if (wrappers.includes('xargs')) ctx.flags.add('xargs');
  if (nameDynamic) {
    ctx.flags.add('dynamic-command');
    addExec(ctx, 'dynamic-command', argv.join(' '));
  }
  const dynIdx = new Set(words.map((w, i) => (w.dynamic ? i - (argv.length - args.length) : -1)).filter((i) => i >= 0));
  const pe = (raw: string, by: string, extra: { recursive?: boolean; mode?: string } = {}) =>
    pathEffect(raw, by, ctx, { ...extra, dynamic: dynIdx.has(args.indexOf(raw)) || raw.includes('$') });
  const { flags, operands } = splitFlags(args);
  const E = ctx.effects;

  switch (name.startsWith('mkfs.') || name.startsWith('mke2fs') ? 'mkfs' : name) {
    case 'cd': {
      const target = operands[0];
      if (target && !target.includes('$')) ctx.cwd = pe(target, 'cd').path;
      else if (!target) ctx.cwd = ctx.home;
      break;
    }
    case 'export':
    case 'local':
    case 'declare':
    case 'readonly':
      for (const a of operands) {
        const eq = a.indexOf('=');
        if (eq > 0 && !a.includes('$')) ctx.vars.set(a.slice(0, eq), a.slice(eq + 1));
      }
      break;
    case 'unset':
      if (operands.includes('HISTFILE')) ctx.flags.add('history-wipe');
      break;
    case 'history':
      if (flags.has('-c') || flags.has('-w')) ctx.flags.add('history-wipe');
      break;
    case 'rm':
    case 'srm':
    case 'unlink':
    case 'rmdir': {
      const recursive = flags.has('-r') || flags.has('-R') || flags.has('--recursive');
      if (flags.has('-f') || flags.has('--force')) ctx.flags.add('force');
      if (recursive) ctx.flags.add('recursive-delete');
      if (flags.has('--no-preserve-root')) ctx.flags.add('no-preserve-root');
      for (const o of operands) {
        const e = pe(o, name, { recursive });
        E.deletes.push(e);
        if (e.glob) ctx.flags.add('glob-delete');
        if (e.path === '/' || e.path === '/*') ctx.flags.add('root-path-target');
        if (isLogPath(e.path)) ctx.flags.add('log-tamper');
        if (e.dynamic) ctx.flags.add('hidden-path-in-variable');
      }
      break;
    }
    case 'shred':
    case 'wipe': {
      for (const o of operands) {
        const e = pe(o, name);
        E.writes.push(e);
        if (flags.has('-u') || flags.has('--remove') || name === 'wipe') E.deletes.push(e);
        if (isDevicePath(e.path)) ctx.flags.add('writes-device');
        if (isLogPath(e.path)) ctx.flags.add('log-tamper');
      }
      ctx.flags.add('wipe');
      break;
    }
    case 'find': {
      const roots = args.filter((a, i) => !a.startsWith('-') && !a.startsWith('(') && !a.startsWith('!') && (i === 0 || !args[i - 1]!.startsWith('-')));
      const root = roots[0] ?? '.';
      const nameIdx = args.findIndex((a) => a === '-name' || a === '-iname' || a === '-path' || a === '-regex');
      const filtered = nameIdx >= 0 || args.some((a) => ['-mtime', '-mmin', '-size', '-newer', '-user', '-perm', '-empty'].includes(a));
      // with a filter, find acts on the matching entries below the root, not on the root itself
      const target = filtered ? `${root.replace(/\/+$/, '')}/**/${nameIdx >= 0 ? args[nameIdx + 1] ?? '*' : '*'}` : root;
      if (args.includes('-delete')) {
        E.deletes.push(pe(target, 'find -delete', { recursive: !filtered }));
        ctx.flags.add(filtered ? 'find-delete-matching' : 'recursive-delete');
      }
      const ex = args.findIndex((a) => a === '-exec' || a === '-execdir' || a === '-ok');
      if (ex >= 0) {
        const end = args.findIndex((a, i) => i > ex && (a === ';' || a === '+' || a === '\\;'));
        const inner = args.slice(ex + 1, end > ex ? end : undefined).map((a) => (a === '{}' ? target : a));
        analyseNested(inner.map(shellQuote).join(' '), ctx, 'find -exec');
        ctx.flags.add('find-exec');
      }
      E.reads.push(pe(root, 'find'));
      break;
    }
    case 'mv': {
      const dest = flags.has('-t') ? operands[0] : operands[operands.length - 1];
      const srcs = flags.has('-t') ? operands.slice(1) : operands.slice(0, -1);
      for (const s of srcs) E.deletes.push(pe(s, 'mv'));
      if (dest) E.writes.push(pe(dest, 'mv'));
      break;
    }
    case 'cp':
    case 'install':
    case 'ln':
    case 'rsync':
    case 'scp': {
      const recursive = flags.has('-r') || flags.has('-R') || flags.has('-a') || flags.has('--recursive');
      const modeIdx = name === 'install' ? args.findIndex((a) => a === '-m' || a === '--mode') : -1;
      const installMode = modeIdx >= 0 ? args[modeIdx + 1] : undefined;
      const ops = operands.filter((o) => o !== installMode);
      const dest = ops[ops.length - 1];
      const srcs = ops.slice(0, -1);
      const remote = (s: string) => /^[\w.-]+@?[\w.-]*:/.test(s) && !s.startsWith('/');
      for (const s of srcs) if (!remote(s)) E.reads.push(pe(s, name, { recursive }));
      if (dest && !remote(dest)) E.writes.push(pe(dest, name, { recursive }));
      if (dest && installMode) {
        E.modeChanges.push(pe(dest, 'install', { mode: installMode }));
        if (/^[2467][0-7]{3}$/.test(installMode) || /s/.test(installMode)) E.privilege.push({ kind: 'setuid', detail: `install -m ${installMode} ${dest}` });
      }
      if (dest && remote(dest)) {
        E.network.push({ target: dest.split(':')[0]!, by: name, sendsData: true });
        for (const s of srcs) if (!remote(s)) E.reads.push(pe(s, name, { recursive }));
      }
      for (const s of srcs) if (remote(s)) E.network.push({ target: s.split(':')[0]!, by: name, sendsData: false });
      if (name === 'rsync' && flags.has('--delete') && dest) E.deletes.push(pe(dest, 'rsync --delete', { recursive: true }));
      break;
    }
    case 'touch':
    case 'mkdir':
    case 'mkfifo':
    case 'truncate':
    case 'fallocate': {
      const skip = new Set<number>();
      args.forEach((a, i) => {
        if (['-s', '-l', '-m', '--size', '--length', '-r', '-o'].includes(a)) skip.add(i + 1);
      });
      const ops = args.filter((a, i) => !a.startsWith('-') && !skip.has(i));
      for (const o of ops) E.writes.push(pe(o, name));
      const size = args[args.findIndex((a) => a === '-l' || a === '-s' || a === '--length' || a === '--size') + 1] ?? '';
      if ((name === 'fallocate' || name === 'truncate') && sizeBytes(size) >= 10 * 2 ** 30) {
        E.exhaustion.push({ kind: 'huge-file', detail: `${name} ${size}` });
      }
      if (name === 'truncate' && /^0$/.test(size)) for (const o of ops) if (isLogPath(pe(o, name).path)) ctx.flags.add('log-tamper');
      break;
    }
    case 'tee':
      for (const o of operands) E.writes.push(pe(o, 'tee'));
      break;
    case 'dd': {
      const kv = Object.fromEntries(args.filter((a) => a.includes('=')).map((a) => [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)]));
      if (kv['if']) E.reads.push(pe(kv['if'], 'dd'));
      if (kv['of']) {
        const e = pe(kv['of'], 'dd');
        E.writes.push(e);
        if (isDevicePath(e.path)) ctx.flags.add('dd-device');
      }
      if (kv['if'] && /^\/dev\/(zero|urandom|random)$/.test(kv['if']) && !kv['count']) E.exhaustion.push({ kind: 'unbounded-write', detail: 'dd from an endless source without count' });
      break;
    }
    case 'sed': {
      const inPlace = args.some((a) => a === '-i' || a.startsWith('-i') || a === '--in-place' || a.startsWith('--in-place='));
      const files = operands.slice(args.some((a) => a === '-e' || a === '-f') ? 0 : 1);
      for (const f of files) (inPlace ? E.writes : E.reads).push(pe(f, name));
      break;
    }
    case 'chmod': {
      const recursive = flags.has('-R') || flags.has('--recursive');
      const modeArg = args.find((a) => !a.startsWith('-') || /^-[rwxXst]+$/.test(a)) ?? '';
      const targets = operands.filter((o) => o !== modeArg);
      for (const t of targets) E.modeChanges.push(pe(t, 'chmod', { recursive, mode: modeArg }));
      if (/^[0-7]*[4-7][0-7]{3}$/.test(modeArg) && modeArg.length === 4 ? /^[2467]/.test(modeArg) : /[ug]?\+[rwx]*s/.test(modeArg)) {
        E.privilege.push({ kind: 'setuid', detail: `chmod ${modeArg} ${targets.join(' ')}` });
      }
      if (/^0?[0-7]?7[0-7]7$/.test(modeArg) || /^(a|o)?\+w/.test(modeArg) || /^0?[0-7]?[0-7][0-7][2367]$/.test(modeArg)) ctx.flags.add('world-writable');
      break;
    }
    case 'chown':
    case 'chgrp': {
      const recursive = flags.has('-R') || flags.has('--recursive');
      const owner = operands[0] ?? '';
      for (const t of operands.slice(1)) E.ownerChanges.push(pe(t, name, { recursive, mode: owner }));
      break;
    }
    case 'chattr':
      for (const o of operands.slice(1)) E.modeChanges.push(pe(o, 'chattr', { mode: operands[0] ?? '' }));
      if ((operands[0] ?? '').includes('+i')) ctx.flags.add('immutable');
      break;
    case 'kill':
    case 'pkill':
    case 'killall':
    case 'skill': {
      // the first option is the signal (-9, -KILL, -s KILL); everything after it is a target, -1 included
      let sig = 'TERM';
      let k = 0;
      if (args[0] === '-s' || args[0] === '-n') {
        sig = args[1] ?? sig;
        k = 2;
      } else if (args[0] && /^-(\d+|[A-Za-z]+)$/.test(args[0]) && !(name === 'kill' && args.length === 1)) {
        sig = args[0].slice(1);
        k = 1;
      }
      const targets = args.slice(k).filter((a) => !(name !== 'kill' && a.startsWith('-')));
      for (const o of targets) E.signals.push({ target: o, signal: sig.replace(/^SIG/, ''), by: name });
      if (name !== 'kill' && flags.has('-u')) E.signals.push({ target: 'all of a user', signal: sig, by: name });
      break;
    }
    case 'shutdown':
    case 'reboot':
    case 'halt':
    case 'poweroff':
      ctx.flags.add('shutdown');
      break;
    case 'init':
    case 'telinit':
      if (['0', '6'].includes(operands[0] ?? '')) ctx.flags.add('shutdown');
      break;
    case 'systemctl':
    case 'service': {
      const verb = name === 'service' ? operands[1] : operands[0];
      const units = name === 'service' ? [operands[0] ?? ''] : operands.slice(1);
      if (['poweroff', 'reboot', 'halt', 'kexec'].includes(verb ?? '')) ctx.flags.add('shutdown');
      if (verb === 'enable' || verb === 'link') for (const u of units) E.persistence.push({ place: `systemd:${u}`, by: 'systemctl enable' });
      if ((verb === 'stop' || verb === 'disable' || verb === 'mask' || verb === 'kill') && units.some((u) => SECURITY_SERVICES.test(u))) ctx.flags.add('disable-security');
      if (verb === 'stop' || verb === 'kill' || verb === 'mask') for (const u of units) E.signals.push({ target: `service:${u}`, signal: verb, by: name });
      break;
    }
    case 'ufw':
      if (operands[0] === 'disable' || operands[0] === 'reset') ctx.flags.add('disable-security');
      break;
    case 'iptables':
    case 'ip6tables':
    case 'nft':
      if (flags.has('-F') || args.includes('--flush') || args.includes('flush') || (args.includes('-P') && args.includes('ACCEPT'))) ctx.flags.add('disable-security');
      break;
    case 'setenforce':
      if (operands[0] === '0' || operands[0]?.toLowerCase() === 'permissive') ctx.flags.add('disable-security');
      break;
    case 'aa-teardown':
    case 'auditctl':
      if (name === 'aa-teardown' || flags.has('-D') || (args.includes('-e') && args.includes('0'))) ctx.flags.add('disable-security');
      break;
    case 'journalctl':
      if (args.some((a) => a.startsWith('--vacuum') || a === '--rotate')) ctx.flags.add('log-tamper');
      break;
    case 'mkfs':
    case 'mke2fs':
    case 'mkswap':
    case 'wipefs':
    case 'fdisk':
    case 'sfdisk':
    case 'parted':
    case 'sgdisk':
      ctx.flags.add('mkfs');
      for (const o of operands) if (o.startsWith('/dev/')) E.writes.push(pe(o, name));
      break;
    case 'useradd':
    case 'adduser':
    case 'usermod':
    case 'groupadd':
    case 'gpasswd':
    case 'passwd':
    case 'chpasswd':
    case 'visudo':
    case 'userdel':
    case 'deluser':
    case 'su':
    case 'newgrp':
    case 'setcap':
    case 'pkexec': {
      const detail = [name, ...args].join(' ').slice(0, 200);
      const adminGroup = /(^|,)(sudo|wheel|root|admin|adm|docker|disk|shadow|lxd)(,|$)/;
      const groupArg = args[args.findIndex((a) => a === '-G' || a === '-aG' || a === '-g' || a === '--groups') + 1] ?? '';
      const kind =
        (name === 'usermod' || name === 'useradd' || name === 'adduser' || name === 'gpasswd') && (adminGroup.test(groupArg) || operands.some((o) => adminGroup.test(o)) || args.includes('-o') || groupArg === '0')
          ? 'admin-group'
          : name === 'setcap'
            ? 'capabilities'
            : name === 'su' || name === 'pkexec'
              ? 'switch-user'
              : 'account-change';
      E.privilege.push({ kind, detail });
      break;
    }
    case 'crontab':
      if (flags.has('-r')) E.deletes.push(pathEffect('/var/spool/cron/crontabs', 'crontab -r', ctx));
      else if (!flags.has('-l')) E.persistence.push({ place: 'crontab', by: 'crontab' });
      break;
    case 'at':
    case 'batch':
      E.persistence.push({ place: 'at', by: name });
      break;
    case 'eval': {
      const src = args.join(' ');
      addExec(ctx, 'eval', src);
      analyseNested(src, ctx, 'eval');
      break;
    }
    case 'source':
    case '.':
      addExec(ctx, 'source', operands.join(' '));
      for (const o of operands) E.reads.push(pe(o, name));
      break;
    case 'yes':
      if (redirs.some((r) => OPS.redir[r.Op] === '>' || OPS.redir[r.Op] === '>>')) E.exhaustion.push({ kind: 'unbounded-write', detail: 'yes into a file' });
      break;
    default:
      break;
  }

  if (SHELLS.has(name)) shellInvocation(name, args, ctx, feed, redirs);
  if (INTERPRETERS.has(name)) interpreter(name, args, ctx);
  if (NETWORK.has(name)) network(name, args, operands, flags, ctx, feed);
  if (READERS.has(name) || name === 'grep' || name === 'egrep' || name === 'rg' || name === 'awk' || name === 'tar' || name === 'zip' || name === 'gzip') {
    readers(name, args, operands, flags, ctx);
  }
  handleRedirs(redirs, ctx, name, cmdIdx);
  void background;
}

/** "512M", "2T", "1.5G", "100000" -> bytes (0 when unreadable). */
function sizeBytes(s: string): number {
  const m = /^\+?(\d+(?:\.\d+)?)([KMGTPE]?)(i?B)?$/i.exec(s.trim());
  if (!m) return 0;
  const pow = 'BKMGTPE'.indexOf((m[2] || 'B').toUpperCase());
  return parseFloat(m[1]!) * 1024 ** Math.max(0, pow);
}

function shellQuote(s: string): string {
  return /^[\w@%+=:,./{}-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

function shellInvocation(name: string, args: string[], ctx: Ctx, feed: Feed | undefined, redirs: Node[]): void {
  const c = args.indexOf('-c');
  if (c >= 0 && args[c + 1] !== undefined) {
    addExec(ctx, 'shell-string', args[c + 1]!);
    analyseNested(args[c + 1]!, ctx, `${name} -c`);
    return;
  }
  const script = args.find((a) => !a.startsWith('-'));
  const hdoc = redirs.find((r) => OPS.redir[r.Op] === '<<' || OPS.redir[r.Op] === '<<-' || OPS.redir[r.Op] === '<<<');
  if (script && !['-s', '-i'].includes(script)) {
    addExec(ctx, 'run-script', script);
    ctx.effects.reads.push(pathEffect(script, name, ctx));
    return;
  }
  if (hdoc) return; // heredoc bodies are analysed in handleRedirs
  if (feed?.kind === 'decoded') {
    addExec(ctx, 'decode-and-run', `decoded text piped into ${name}`);
    ctx.flags.add('pipe-to-shell');
  } else if (feed?.kind === 'download') {
    addExec(ctx, 'download-and-run', `downloaded text piped into ${name}`);
    ctx.flags.add('pipe-to-shell');
  } else if (feed?.kind === 'literal' && feed.text !== undefined) {
    addExec(ctx, 'pipe-to-shell', feed.text);
    analyseNested(feed.text, ctx, 'echo | sh');
  } else if (feed) {
    addExec(ctx, 'pipe-to-shell', `output piped into ${name}`);
    ctx.flags.add('pipe-to-shell');
  }
}

/** Inline code for another language: no parser for it here, so it is read for its intent only. */
function interpreter(name: string, args: string[], ctx: Ctx): void {
  const flagIdx = args.findIndex((a) => a === '-c' || a === '-e' || a === '-E' || a === '--eval' || a === '-r' || a === '-p');
  if (flagIdx < 0) {
    const script = args.find((a) => !a.startsWith('-'));
    if (script) {
      addExec(ctx, 'run-script', `${name} ${script}`);
      ctx.effects.reads.push(pathEffect(script, name, ctx));
    }
    return;
  }
  const code = args[flagIdx + 1] ?? '';
  addExec(ctx, 'inline-code', `${name}: ${code}`);
  const lower = code.toLowerCase();
  if (/socket|urllib|requests\.|http\.client|net::http|fetch\(|xmlhttprequest|lwp::|io::socket|smtplib/.test(lower)) {
    ctx.effects.network.push({ target: 'inline-code', by: name, sendsData: /post|send|sendall|upload|put\(|write\(/.test(lower) });
  }
  if (/rmtree|os\.remove|os\.unlink|unlink\(|rmdir|fs\.rm|rimraf|file\.delete|fileutils\.rm/.test(lower)) ctx.flags.add('inline-code-delete');
  if (/os\.system|subprocess|popen|exec\(|spawn|child_process|system\(|`/.test(lower)) ctx.flags.add('inline-code-exec');
  if (/b64decode|base64|frombase64|decode\(/.test(lower) && /exec|eval|system|popen/.test(lower)) addExec(ctx, 'decode-and-run', `${name} decodes and runs code`);
  if (/while\s*(true|1)|for\s*\(\s*;\s*;|os\.fork|fork\(\)/.test(lower)) ctx.effects.exhaustion.push({ kind: 'inline-loop-or-fork', detail: `${name} code loops or forks without end` });
  for (const m of code.matchAll(/['"](\/[^'"\s]+|~\/[^'"\s]+)['"]/g)) {
    const e = pathEffect(m[1]!, name, ctx);
    if (/rmtree|remove|unlink|rmdir|rm\b/.test(lower)) ctx.effects.deletes.push({ ...e, recursive: /rmtree|-r/.test(lower) });
    else if (/open\([^)]*['"][wa]|write|chmod/.test(lower)) ctx.effects.writes.push(e);
    else ctx.effects.reads.push(e);
  }
}

function network(name: string, args: string[], operands: string[], flags: Set<string>, ctx: Ctx, feed: Feed | undefined): void {
  const E = ctx.effects;
  if (name === 'git') {
    if (operands[0] === 'push' || operands[0] === 'clone' || operands[0] === 'fetch' || operands[0] === 'pull') {
      E.network.push({ target: operands[2] ?? operands[1] ?? 'origin', by: `git ${operands[0]}`, sendsData: operands[0] === 'push' });
    }
    // git clean removes untracked files inside the repository: work is lost, the tree is not
    if (operands[0] === 'clean' && flags.has('-f')) ctx.flags.add('discards-changes');
    if (operands[0] === 'reset' && flags.has('--hard')) ctx.flags.add('discards-changes');
    return;
  }
  const urls = args.filter((a) => /^[a-z][a-z0-9+.-]*:\/\//i.test(a) || /^[\w.-]+\.[a-z]{2,}(\/|$)/i.test(a) || /^\d+\.\d+\.\d+\.\d+/.test(a) || /^[\w.-]+@[\w.-]+/.test(a));
  let sends = false;
  const dataFlags = ['-d', '--data', '--data-binary', '--data-raw', '--data-urlencode', '-F', '--form', '-T', '--upload-file', '--post-data', '--post-file', '--body-file'];
  args.forEach((a, i) => {
    const base = a.split('=')[0]!;
    if (dataFlags.includes(base)) {
      sends = true;
      const v = a.includes('=') && base.startsWith('--') ? a.slice(a.indexOf('=') + 1) : args[i + 1] ?? '';
      const file = v.startsWith('@') ? v.slice(1) : base === '-T' || base === '--upload-file' || base === '--post-file' || base === '--body-file' ? v : base === '-F' || base === '--form' ? (v.split('=@')[1] ?? v.split('=<')[1]) : undefined;
      if (file && file !== '-') E.reads.push(pathEffect(file.split(';')[0]!, name, ctx));
      if (file === '-' || v === '@-') sends = true;
    }
    if ((a === '-o' || a === '-O' || a === '--output' || a === '--output-document') && args[i + 1] && args[i + 1] !== '-') E.writes.push(pathEffect(args[i + 1]!, name, ctx));
  });
  if (['nc', 'ncat', 'netcat', 'socat', 'telnet', 'ssh', 'mail', 'sendmail', 'mutt', 'ftp', 'tftp', 'lftp'].includes(name) && feed && feed.kind !== 'other') sends = true;
  if (['nc', 'ncat', 'netcat', 'socat', 'mail', 'sendmail', 'mutt'].includes(name) && feed) sends = true;
  if (['nc', 'ncat', 'netcat'].includes(name) && (flags.has('-e') || flags.has('-c'))) addExec(ctx, 'reverse-shell', `${name} ${args.join(' ')}`);
  if (name === 'socat' && args.some((a) => /exec:|system:/i.test(a))) addExec(ctx, 'reverse-shell', `socat ${args.join(' ')}`);
  if (['nc', 'ncat', 'netcat', 'socat'].includes(name) && (flags.has('-l') || args.some((a) => /listen/i.test(a)))) ctx.flags.add('listens');
  const target = urls[0] ?? operands.find((o) => !o.startsWith('-') && !/^\d+$/.test(o)) ?? '?';
  if (name === 'dig' || name === 'nslookup' || name === 'host') {
    if (args.some((a) => a.includes('$(') || a.includes('$?'))) sends = true;
  }
  if (name === 'ssh' && operands.length > 1) analyseNested(operands.slice(1).join(' '), ctx, 'ssh remote command');
  E.network.push({ target: target.slice(0, 300), by: name, sendsData: sends });
}

function readers(name: string, args: string[], operands: string[], flags: Set<string>, ctx: Ctx): void {
  const E = ctx.effects;
  if (name === 'tar') {
    const create = flags.has('-c') || /^[a-z]*c/.test(args[0] ?? '');
    const extract = flags.has('-x') || /^[a-z]*x/.test(args[0] ?? '');
    const fIdx = args.findIndex((a) => a === '-f' || /^-?[a-z]*f$/.test(a));
    const archive = fIdx >= 0 ? args[fIdx + 1] : undefined;
    const rest = operands.filter((o) => o !== archive && o !== args[0]);
    if (create) {
      for (const o of rest) E.reads.push(pathEffect(o, 'tar', ctx, { recursive: true }));
      if (archive && archive !== '-') E.writes.push(pathEffect(archive, 'tar', ctx));
    } else if (extract) {
      const cIdx = args.findIndex((a) => a === '-C' || a === '--directory');
      E.writes.push(pathEffect(cIdx >= 0 ? args[cIdx + 1] ?? '.' : '.', 'tar -x', ctx, { recursive: true }));
      if (archive) E.reads.push(pathEffect(archive, 'tar', ctx));
    }
    return;
  }
  if (name === 'zip') {
    if (operands[0]) E.writes.push(pathEffect(operands[0], 'zip', ctx));
    for (const o of operands.slice(1)) E.reads.push(pathEffect(o, 'zip', ctx, { recursive: flags.has('-r') }));
    return;
  }
  if (name === 'openssl') {
    const inIdx = args.indexOf('-in');
    if (inIdx >= 0 && args[inIdx + 1]) E.reads.push(pathEffect(args[inIdx + 1]!, 'openssl', ctx));
    const outIdx = args.indexOf('-out');
    if (outIdx >= 0 && args[outIdx + 1]) E.writes.push(pathEffect(args[outIdx + 1]!, 'openssl', ctx));
    return;
  }
  // grep / awk / sed take a pattern or program first
  const files = name === 'grep' || name === 'egrep' || name === 'rg' || name === 'awk' ? operands.slice(args.some((a) => a === '-e' || a === '-f') ? 0 : 1) : operands;
  for (const f of files) if (f !== '-') E.reads.push(pathEffect(f, name, ctx, { recursive: flags.has('-r') || flags.has('-R') }));
  if (name === 'awk' && /system\(|\|\s*"(sh|bash)"/.test(operands[0] ?? '')) addExec(ctx, 'inline-code', `awk ${operands[0]}`);
}

function handleRedirs(redirs: Node[], ctx: Ctx, by: string, cmdIdx: number | undefined): void {
  for (const r of redirs) {
    const op = OPS.redir[r.Op] ?? '?';
    if (op === '<<' || op === '<<-' || op === '<<<') {
      const body = op === '<<<' ? wordValue(r.Word, ctx).value : r.Hdoc ? wordValue(r.Hdoc, ctx, false).value : '';
      const cmd = cmdIdx !== undefined ? ctx.commands[cmdIdx] : undefined;
      if (cmd && SHELLS.has(cmd.name)) {
        addExec(ctx, 'heredoc-script', body);
        analyseNested(body, ctx, 'heredoc');
      } else if (cmd && INTERPRETERS.has(cmd.name)) interpreter(cmd.name, ['-c', body], ctx);
      else if (cmd && (cmd.name === 'crontab')) ctx.effects.persistence.push({ place: 'crontab', by: 'crontab heredoc' });
      continue;
    }
    if (op === '>&' || op === '<&') {
      const target = wordValue(r.Word, ctx).value;
      if (/^\d+$/.test(target) || target === '-') continue;
    }
    const w = wordValue(r.Word, ctx);
    for (const s of w.substs) walkStmts(s as Node[], ctx, undefined);
    const target = w.value;
    if (cmdIdx !== undefined) ctx.commands[cmdIdx]!.redirects.push({ op, target, ...(r.N ? { fd: Number(r.N.Value) } : {}) });
    if (target === '/dev/null' || target === '/dev/stdout' || target === '/dev/stderr') continue;
    if (target.startsWith('/dev/tcp/') || target.startsWith('/dev/udp/')) {
      ctx.effects.network.push({ target: target.split('/')[3] ?? target, by: 'redirect', sendsData: op !== '<' });
      if (op === '<>' || ctx.commands[cmdIdx ?? -1]?.name.match(/^(sh|bash)$/)) addExec(ctx, 'reverse-shell', target);
      continue;
    }
    const e = pathEffect(target, `${by} ${op}`, ctx, { dynamic: w.dynamic });
    if (op === '<') ctx.effects.reads.push(e);
    else {
      ctx.effects.writes.push(e);
      if (isDevicePath(e.path)) ctx.flags.add('writes-device');
      if (op === '>' && isLogPath(e.path)) ctx.flags.add('log-tamper');
      const src = cmdIdx !== undefined ? ctx.commands[cmdIdx] : undefined;
      const cIdx = src ? src.argv.indexOf('-c') : -1;
      const bounded = cIdx >= 0 && sizeBytes(src!.argv[cIdx + 1] ?? '') < 10 * 2 ** 30;
      if (src && ['cat', 'head'].includes(src.name) && src.argv.some((a) => /^\/dev\/(zero|urandom|random)$/.test(a)) && !bounded) {
        ctx.effects.exhaustion.push({ kind: 'unbounded-write', detail: `${src.name} from an endless source into ${e.path}` });
      }
    }
  }
}

/** Tries to read a word as a base64 payload (for `echo PAYLOAD | base64 -d | sh`). */
function decodeBase64(s: string): string | undefined {
  if (s.length < 8 || !/^[A-Za-z0-9+/=\s]+$/.test(s)) return undefined;
  try {
    const text = Buffer.from(s.replace(/\s+/g, ''), 'base64').toString('utf8');
    return /^[\x09\x0a\x0d\x20-\x7e]+$/.test(text) ? text : undefined;
  } catch {
    return undefined;
  }
}

/** Finds `echo LITERAL | base64 -d | sh` pipelines and analyses the decoded text as code. */
function decodePayloads(file: Node, ctx: Ctx): void {
  syntax.Walk(file, (n: Node) => {
    if (!n || syntax.NodeType(n) !== 'BinaryCmd') return true;
    const chain: Node[] = [];
    const flatten = (x: Node): void => {
      if (syntax.NodeType(x.Cmd) === 'BinaryCmd' && ['|', '|&'].includes(OPS.bin[x.Cmd.Op] ?? '')) {
        flatten(x.Cmd.X);
        flatten(x.Cmd.Y);
      } else chain.push(x);
    };
    if (!['|', '|&'].includes(OPS.bin[n.Op] ?? '')) return true;
    flatten({ Cmd: n });
    const argvs = chain.map((s) => (syntax.NodeType(s.Cmd) === 'CallExpr' ? (s.Cmd.Args ?? []).map((w: Node) => wordValue(w, ctx).value) : []) as string[]);
    for (let i = 0; i + 2 < argvs.length + 1; i++) {
      const a = argvs[i] ?? [];
      const b = unwrap(argvs[i + 1] ?? []);
      const c = unwrap(argvs[i + 2] ?? []);
      if ((a[0] === 'echo' || a[0] === 'printf') && b.name === 'base64' && (b.args.includes('-d') || b.args.includes('--decode'))) {
        const decoded = decodeBase64(a.slice(1).filter((x) => !x.startsWith('-')).join(''));
        if (decoded && (SHELLS.has(c.name) || c.name === 'eval' || argvs.length === i + 2)) {
          ctx.flags.add('base64-payload');
          analyseNested(decoded, ctx, 'decoded base64 payload');
        }
      }
    }
    return false;
  });
}

/** Analysis entry point: fills effects, flags and commands for one shell command. */
export function analyseShell(src: string, ctx: Omit<Ctx, 'depth' | 'funcs' | 'vars'> & { vars?: Map<string, string> }): void {
  const full: Ctx = { ...ctx, vars: ctx.vars ?? new Map(), depth: 0, funcs: new Set() };
  let analysed = src;
  if (src.length > MAX_PARSE_CHARS) {
    full.flags.add('oversized');
    analysed = src.slice(0, MAX_PARSE_CHARS);
  }
  const file = parseShell(analysed);
  walkStmts(file.Stmts ?? [], full, undefined);
  // the payload search walks the whole tree again, which is costly in this parser; only a
  // pipeline that decodes base64 can carry such a payload
  if (full.flags.has('decode-and-run') || full.commands.some((c) => c.name === 'base64')) decodePayloads(file, full);
}
