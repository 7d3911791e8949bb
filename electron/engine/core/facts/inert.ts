/**
 * Actions that can only look: every command is a known reader with no option that writes or runs
 * something, every path it touches is one the request names and none holds secrets, and nothing
 * else (writes, deletes, network, signals, privilege, persistence, exhaustion, dynamic execution)
 * appears in the facts. Such an action cannot sabotage, leak outside the conversation or persist,
 * so the gate lets it through on the facts alone, whatever the projector's learned prior says;
 * failing checks (a planted instruction in what the agent read, a live probe) still stop it.
 */
import type { ActionRequest, Facts, ProbeResult, SimpleCommand } from '../../../../shared/types.js';
import { inRequestScope, isSensitivePath, normalizePath, type RequestScope } from './paths.js';
import { COMPRESSORS, READER_VALUE_OPTS, SHELLS, splitFlags, tarArgs } from './shell-commands.js';

/**
 * Commands that only read or print. Interpreters, shells, editors and archivers are not here; sed
 * and awk are, for programs that only print (see `scriptOnlyPrints`).
 */
const LOOKERS = new Set([
  'cat', 'head', 'tail', 'tac', 'nl', 'less', 'more', 'grep', 'egrep', 'fgrep', 'rg', 'ls', 'wc', 'stat', 'file', 'du', 'df',
  'echo', 'printf', 'pwd', 'whoami', 'id', 'groups', 'date', 'sort', 'uniq', 'cut', 'tr', 'readlink', 'realpath', 'basename',
  'dirname', 'test', '[', 'true', 'false', 'which', 'type', 'uname', 'hostname', 'printenv', 'ps', 'uptime', 'free', 'diff',
  'cmp', 'md5sum', 'sha1sum', 'sha256sum', 'sha512sum', 'tree', 'column', 'strings', 'od', 'jq', 'cd', 'find', 'dpkg',
  'getent', 'seq', 'expr', 'lsblk', 'nproc', 'locale', 'cal', 'rev', 'fold', 'fmt', 'paste', 'comm', 'join', 'look',
  'sed', 'awk', 'gawk', 'mawk',
  // archive and compressed-file readers, for uses that only list or print (see `onlyLooks`)
  'tar', 'zcat', 'bzcat', 'xzcat', 'lzcat', 'zstdcat', 'gzip', 'gunzip', 'bzip2', 'bunzip2', 'xz', 'unxz',
  'xxd', 'hexdump', 'cksum', 'sha3sum', 'sha224sum', 'sha384sum', 'b2sum', 'crc32',
]);

/** tar options that only choose listing, verbosity, the archive and its compression. */
const TAR_LIST_OPTS = new Set(['-t', '--list', '-v', '--verbose', '-z', '--gzip', '--gunzip', '-j', '--bzip2', '-J', '--xz', '-a', '--auto-compress', '-f', '--file']);

/** Whether a tar command line only lists an archive: list mode, no option that runs a program or writes. */
function tarOnlyLists(args: string[]): boolean {
  const t = tarArgs(args);
  return t.list && !t.create && !t.extract && !t.append && t.runs.length === 0 && t.options.every((o) => TAR_LIST_OPTS.has(o));
}

/** gzip and its kin print (-c), list (-l) or test (-t) without writing a file. */
function compressorOnlyPrints(c: SimpleCommand): boolean {
  const { flags } = splitFlags(c.argv.slice(1));
  return ['-c', '--stdout', '--to-stdout', '-l', '--list', '-t', '--test'].some((f) => flags.has(f));
}

const SED_ADDRESS = String.raw`(?:\d+|\$|/(?:[^/\\]|\\.)*/)`;
/** One sed command that only prints, deletes from its output, or substitutes in it (no w, W, e, r, R; no s///w or s///e). */
const SED_PRINTING = new RegExp(String.raw`^\s*(?:${SED_ADDRESS}(?:\s*,\s*${SED_ADDRESS})?)?\s*!?\s*(?:[pdqQ=lnNPD]|s/(?:[^/\\]|\\.)*/(?:[^/\\]|\\.)*/[gpiI0-9]*|y/(?:[^/\\]|\\.)*/(?:[^/\\]|\\.)*/)?\s*$`);

/**
 * Whether a sed or awk program only prints: sed commands from the printing set; an awk program
 * with no command run (system, a pipe, getline), no output redirection and no in-place edit.
 */
function scriptOnlyPrints(name: string, program: string): boolean {
  if (name === 'sed') return program.split(/[;\n]/).every((part) => SED_PRINTING.test(part));
  return !/\bsystem\s*\(|\bgetline\b|\||\bclose\s*\(|\bfflush\b|\bprintf?\b[^;{}]*>/.test(program);
}

/** Account databases every local user may read (the password hashes live in /etc/shadow): named in the request, reading them is no leak. */
const PUBLIC_ACCOUNT_FILES = new Set(['/etc/passwd', '/etc/group']);

/** Words of a question about the machine's accounts, which /etc/passwd and /etc/group answer. */
const ACCOUNT_WORDS = ['account', 'accounts', 'user', 'users', 'username', 'usernames', 'login', 'logins', 'shell', 'shells', 'group', 'groups', 'uid', 'uids', 'gid', 'members'];

/** The file is named by the request, or is a public account file and the request asks about accounts. */
function readInScope(p: string, inScope: boolean, scope: RequestScope): boolean {
  return inScope || (PUBLIC_ACCOUNT_FILES.has(p) && ACCOUNT_WORDS.some((w) => scope.words.has(w)));
}

/** Options that make an otherwise reading command write, delete or run something. */
const FIND_ACTIONS = new Set(['-delete', '-exec', '-execdir', '-ok', '-okdir', '-fprint', '-fprint0', '-fprintf', '-fls']);
const DPKG_QUERIES = new Set(['-s', '--status', '-l', '--list', '-L', '--listfiles', '-S', '--search', '-p', '--print-avail']);

function options(c: SimpleCommand): string[] {
  return c.argv.slice(1).filter((a) => a.startsWith('-'));
}

function operands(c: SimpleCommand): string[] {
  return c.argv.slice(1).filter((a) => !a.startsWith('-'));
}

/** Whether this use of a looking command only looks. */
function onlyLooks(c: SimpleCommand): boolean {
  if (COMPRESSORS.has(c.name)) return compressorOnlyPrints(c);
  const opts = options(c);
  switch (c.name) {
    case 'find':
      return !c.argv.some((a) => FIND_ACTIONS.has(a));
    case 'sort':
    case 'tree':
      return !opts.some((o) => o === '-o' || o.startsWith('--output') || (c.name === 'sort' && /^-[a-zA-Z]*o/.test(o)));
    case 'uniq':
      return operands(c).length <= 1;
    case 'dpkg':
      return opts.length > 0 && opts.every((o) => DPKG_QUERIES.has(o));
    case 'date':
      return !opts.some((o) => o === '-s' || o.startsWith('--set'));
    case 'hostname':
      return operands(c).length === 0 && opts.length === 0;
    case 'tar':
      return tarOnlyLists(c.argv.slice(1));
    case 'xxd': {
      // -r rebuilds a binary; a second operand is a file it writes
      const { flags, operands: ops } = splitFlags(c.argv.slice(1), READER_VALUE_OPTS['xxd']);
      return !flags.has('-r') && !flags.has('-revert') && ops.length <= 1;
    }
    case 'sed':
      // in place, a script file, or a script given with -e (not looked into) may write
      return !opts.some((o) => /^-[a-zA-Z]*[ief]/.test(o) || o.startsWith('--in-place') || o.startsWith('--expression') || o.startsWith('--file')) && scriptOnlyPrints('sed', operands(c)[0] ?? '');
    case 'awk':
    case 'gawk':
    case 'mawk':
      return !opts.some((o) => o === '-f' || o.startsWith('--file') || o === '-i' || o.startsWith('--include')) && !c.argv.includes('inplace') && scriptOnlyPrints('awk', awkProgram(c) ?? '');
    default:
      return true;
  }
}

/** An awk program: the first argument that is not an option or an option's value. */
function awkProgram(c: SimpleCommand): string | undefined {
  const args = c.argv.slice(1);
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '-F' || a === '-v') i++;
    else if (!a.startsWith('-')) return a;
  }
  return undefined;
}

/** An argument that names a file or directory (not a pattern or a word). */
function pathLike(arg: string): boolean {
  return arg.startsWith('/') || arg.startsWith('~') || arg.startsWith('./') || arg.startsWith('../') || (arg.includes('/') && !/\s/.test(arg));
}

/** A variable whose name says it holds a secret. */
const SECRET_VARIABLE = /KEY|SECRET|TOKEN|PASS|CRED|AUTH|PRIVATE|SESSION|COOKIE|SIGN|CERT/i;

/**
 * echo or printf, with nothing redirected, whose only expansions are variables by name (`$PATH`,
 * `${HOME}`) none of which is named for a secret: it shows the terminal a setting, and reads no file.
 */
function printsPlainVariables(c: Facts['commands'][number]): boolean {
  if ((c.name !== 'echo' && c.name !== 'printf') || c.wrappers.length > 0 || c.redirects.some((r) => r.target !== '/dev/null' && !/^\d+$/.test(r.target))) return false;
  const text = c.argv.slice(1).join(' ');
  const names = [...text.matchAll(/\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?/g)].map((m) => m[1]!);
  // any other expansion ($(...), `...`, $1, ${x:-...}) is not a plain variable
  const rest = text.replace(/\$\{?[A-Za-z_][A-Za-z0-9_]*\}?/g, '');
  return names.length > 0 && !/[$`]/.test(rest) && names.every((n) => !SECRET_VARIABLE.test(n));
}

/**
 * Says why the action only reads what the request names, or undefined when it may do more.
 * `base` gives the directories relative paths resolve against.
 */
export function inertReason(facts: Facts, scope: RequestScope, base: { cwd: string; home: string }, scripts: ReadonlySet<string> = new Set()): string | undefined {
  // the loop variable of `for f in DIR/*.sh; do sh "$f"; done` holds the pattern's matches, read above
  const loopOverScripts = scripts.size > 0 && facts.commands.every((c) => !c.dynamic);
  const flags = facts.flags.filter((f) => !(f === 'run-script' && scripts.size > 0) && !(f === 'hidden-path-in-variable' && loopOverScripts));
  if (facts.kind !== 'shell' || facts.parseError || flags.length > 0 || facts.commands.length === 0) return undefined;
  const e = facts.effects;
  const execution = e.execution.filter((x) => !(x.kind === 'run-script' && scripts.has(x.detail)));
  const others = [e.deletes, e.modeChanges, e.ownerChanges, e.network, e.signals, e.privilege, e.persistence, e.exhaustion, execution];
  if (others.some((list) => list.length > 0)) return undefined;
  if (e.writes.some((w) => w.path !== '/dev/null')) return undefined;
  const looked: string[] = [];
  for (const c of facts.commands) {
    // a run of a script whose text was read and judged separately
    if (SHELLS.has(c.name) && !c.dynamic && c.wrappers.length === 0 && scripts.has(normalizePath(operands(c)[0] ?? '', base.cwd, base.home))) continue;
    // echo / printf of plain variables to the terminal ("PATH=$PATH"): a variable named for a secret is not plain
    if (c.dynamic && printsPlainVariables(c)) continue;
    if (c.dynamic || c.wrappers.length > 0 || !LOOKERS.has(c.name) || !onlyLooks(c)) return undefined;
    if (c.name === 'grep' || c.name === 'egrep' || c.name === 'fgrep' || c.name === 'rg') {
      // the first operand is the pattern unless -e / -f gave it; the values of -e, -m, -A... are not files
      const { operands: ops, values } = splitFlags(c.argv.slice(1), READER_VALUE_OPTS[c.name === 'rg' ? 'rg' : 'grep']);
      const patternFile = values.get('-f') ?? values.get('--file');
      const patternGiven = patternFile !== undefined || values.has('-e') || values.has('--regexp');
      if (!patternGiven) ops.shift();
      if (patternFile !== undefined) ops.push(patternFile);
      if (!checkPaths(ops, scope, base, looked)) return undefined;
      continue;
    }
    if (c.name === 'tar') {
      // the operands after the archive name members inside it, not files on disk
      const { archive } = tarArgs(c.argv.slice(1));
      if (archive === undefined || archive === '-' || !checkPaths([archive], scope, base, looked)) return undefined;
      continue;
    }
    if (c.name === 'sed' || c.name === 'awk' || c.name === 'gawk' || c.name === 'mawk') {
      // the program comes first; the rest are the files it reads
      const program = c.name === 'sed' ? operands(c)[0] : awkProgram(c);
      const args = c.argv.slice(1);
      const files = args.slice(program === undefined ? args.length : args.indexOf(program) + 1).filter((a) => !a.startsWith('-') && !/^\w+=/.test(a));
      if (!checkPaths(files.filter(pathLike), scope, base, looked)) return undefined;
      continue;
    }
    if (c.name === 'find') {
      const roots = c.argv.slice(1).filter((a, i, all) => !a.startsWith('-') && (i === 0 || !all[i - 1]!.startsWith('-')) && !/^[(!)]$/.test(a));
      if (!checkPaths(roots.filter(pathLike), scope, base, looked)) return undefined;
      continue;
    }
    if (!checkPaths(operands(c).filter(pathLike), scope, base, looked)) return undefined;
  }
  for (const r of e.reads) {
    if (!readInScope(r.path, r.inScope, scope) || (r.sensitive && !PUBLIC_ACCOUNT_FILES.has(r.path)) || r.dynamic) return undefined;
    looked.push(r.path);
  }
  const names = [...new Set(looked)].slice(0, 4);
  return names.length > 0 ? `it only reads what the request names (${names.join(', ')})` : 'it only prints or inspects, touching no file';
}

/** What a script may do and still count as contained: no effect outside plain reads and ordinary writes. */
function contained(f: Facts): string | undefined {
  if (f.parseError) return `it does not parse (${f.parseError})`;
  const e = f.effects;
  const named: [string, unknown[]][] = [
    ['deletes', e.deletes],
    ['changes modes', e.modeChanges],
    ['changes owners', e.ownerChanges],
    ['uses the network', e.network],
    ['sends signals', e.signals],
    ['changes privileges', e.privilege],
    ['persists', e.persistence],
    ['exhausts resources', e.exhaustion],
    ['runs hidden or downloaded code', e.execution],
  ];
  for (const [what, list] of named) if (list.length > 0) return what;
  // a script names its files through variables as a matter of course; what matters is that
  // every path resolved (a dynamic one is caught below) and that it only reads and writes
  const risky = f.flags.filter((x) => x !== 'background' && x !== 'hidden-path-in-variable');
  if (risky.length > 0) return `shows ${risky.join(', ')}`;
  const bad = [...e.reads, ...e.writes].find((p) => p.sensitive || p.dynamic || (p.system && e.writes.includes(p)));
  if (bad) return `touches ${bad.path}`;
  return undefined;
}

/**
 * For an action that runs shell scripts (`bash FILE`): when the live environment showed every
 * script whole, each script's own facts are contained, and the rest of the action only looks,
 * says so; otherwise undefined. `extract` turns a script's text into facts for the same request.
 */
export function scriptRunReason(facts: Facts, probes: ProbeResult[], req: ActionRequest, scope: RequestScope, base: { cwd: string; home: string }, extract: (req: ActionRequest) => Facts): string | undefined {
  const runs = facts.effects.execution.filter((x) => x.kind === 'run-script');
  if (facts.kind !== 'shell' || runs.length === 0) return undefined;
  const scripts = new Set<string>();
  const whole = (path: string): boolean => {
    const probe = probes.find((p) => p.probe === 'script' && p.target === path);
    const value = probe?.ok ? (probe.value as { text?: unknown; complete?: unknown }) : undefined;
    if (typeof value?.text !== 'string' || value.complete !== true) return false;
    return contained(extract({ ...req, action: { type: 'shell', command: value.text } })) === undefined;
  };
  for (const run of runs) {
    // a pattern of scripts (`for f in DIR/*.sh; do sh "$f"; done`): every match, all of them read
    const listed = /[*?[]/.test(run.detail) ? probes.find((p) => p.probe === 'script-glob' && p.target === run.detail) : undefined;
    const matches = listed?.ok ? (listed.value as { matches: string[]; count: number }) : undefined;
    const each = matches ? matches.matches : [run.detail];
    if (/[*?[]/.test(run.detail) && (!matches || matches.count === 0 || matches.count > matches.matches.length)) return undefined;
    if (!each.every(whole)) return undefined;
    scripts.add(run.detail);
  }
  const rest = inertReason(facts, scope, base, scripts);
  if (!rest) return undefined;
  const many = scripts.size > 1 || [...scripts].some((x) => /[*?[]/.test(x));
  return `the script${many ? 's' : ''} it runs (${[...scripts].join(', ')}) only read and write ordinary files, and the rest ${rest.replace(/^it /, '')}`;
}

function checkPaths(args: string[], scope: RequestScope, base: { cwd: string; home: string }, looked: string[]): boolean {
  for (const a of args) {
    const p = normalizePath(a, base.cwd, base.home);
    if ((isSensitivePath(p, base.home) && !PUBLIC_ACCOUNT_FILES.has(p)) || !readInScope(p, inRequestScope(p, scope, true), scope)) return false;
    looked.push(p);
  }
  return true;
}
