/**
 * What each simple command does: argv (after wrappers such as sudo, env, timeout and xargs are
 * peeled off) mapped onto effects, and what the command writes to its standard output for the
 * next pipeline stage. Regular expressions here only ever look at one argument at a time (a
 * mode, a size, an URL, a snippet of inline Python), never at the command line as a whole.
 */
import type { Effects, PathEffect } from '../../../../shared/types.js';
import type { Redirect } from './shell-ast.js';
import type { Scope, WordInfo } from './shell-words.js';
import { decodeBase64, decodeHex, givenWord, rot13, unescapeC } from './shell-words.js';
import { isDevicePath, isLogPath, normalizePath, type EffectExtra } from './paths.js';
import { grantsOnlySetgid, grantsSetuid, grantsWorldRead, grantsWorldWrite } from './modes.js';
import { sqlFacts } from './sql.js';
import { ACCOUNT_FILES, ADMIN_GROUP, REMOVABLE_FROM, sedAccountChange, sedAccountRemoval, sedGroupAdd, sedGroupRemove, sedMemberStrip, sedNewShell, sedShadowLock, sedShadowUnlock } from './accounts.js';
import { CRON_TABLE, sedArgs, sedS, sedTakesOutNamedJobs } from './sed.js';
import { addExec, analyseNested, lookedUp, pathEffects, psMatched, type Analysis, type Feed } from './shell.js';

/** Shells: text they run is parsed as shell code. */
export const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'mksh', 'ash', 'fish', 'csh', 'tcsh', 'rbash']);
/** Interpreters of other languages: their inline code is read for intent only. */
export const INTERPRETERS = new Set(['python', 'python2', 'python3', 'perl', 'ruby', 'node', 'nodejs', 'deno', 'bun', 'php', 'lua', 'Rscript', 'osascript', 'pwsh', 'powershell', 'tclsh', 'expect']);
const SECURITY_SERVICES = /^(ufw|firewalld|iptables|ip6tables|nftables|netfilter-persistent|apparmor|auditd|selinux|fail2ban|clamav-daemon|clamav-freshclam|clamd|rsyslog|syslog|syslog-ng|systemd-journald|crowdstrike|falcon-sensor|osqueryd|wazuh-agent|ossec|aide|snort|suricata|sshguard)(\.service|\.socket)?$/;
const CRITICAL_PROCESSES = /^(init|systemd|sshd|dockerd|containerd|systemd-journald|journald|kthreadd|dbus-daemon|dbus|NetworkManager|systemd-logind|Xorg|gdm|lightdm|cron|crond)$/;

/** One simple command ready to be mapped onto effects. */
export interface Call {
  an: Analysis;
  scope: Scope;
  name: string;
  args: string[];
  /** Word information parallel to `args`. */
  infos: WordInfo[];
  /** What each argument's command substitutions printed, parallel to `args`. */
  argSubsts: Feed[][];
  wrappers: string[];
  stdin: Feed | undefined;
  redirs: Redirect[];
  background: boolean;
  /** Argument -> `<path:...>` for the command form. */
  pathForms: Map<string, string>;
  /** xargs -I's marker, replaced by each input item. */
  xargsReplace?: string;
  /** The command word as written (a path for ./script or /tmp/x). */
  path?: string;
  /** dd writes an endless stream to standard output. */
  ddEndless?: boolean;
}

const WRAPPERS = new Set([
  'sudo',
  'doas',
  'run0',
  'pkexec',
  'env',
  'nohup',
  'nice',
  'ionice',
  'timeout',
  'time',
  'stdbuf',
  'exec',
  'command',
  'builtin',
  'setsid',
  'busybox',
  'xargs',
  'unbuffer',
  'chronic',
  'caffeinate',
  'runuser',
  'chroot',
  'flock',
  'watch',
  'strace',
  'ltrace',
  'torsocks',
  'proxychains',
  'proxychains4',
  'firejail',
  'faketime',
  'script',
  'sg',
  'taskset',
  'cpulimit',
]);
/** Options of wrappers that take a value. */
const WRAPPER_VALUE_OPTS: Record<string, string[]> = {
  sudo: ['-u', '-g', '-C', '-p', '-h', '-U', '-D', '-r', '-t', '-T', '--user', '--group', '--chdir'],
  doas: ['-u', '-C'],
  run0: ['-u', '--user', '-D'],
  runuser: ['-u', '-g', '-G', '-l', '--user', '--group'],
  env: ['-u', '-C', '-S', '--unset', '--chdir', '--split-string'],
  nice: ['-n', '--adjustment'],
  ionice: ['-c', '-n', '-p', '-t'],
  timeout: ['-s', '-k', '--signal', '--kill-after'],
  xargs: ['-I', '-n', '-P', '-L', '-d', '-s', '-a', '-E', '-i', '--max-args', '--max-procs', '--delimiter', '--arg-file'],
  watch: ['-n', '-d', '--interval'],
  strace: ['-o', '-p', '-e', '-s', '-u'],
  ltrace: ['-o', '-p', '-e', '-s', '-u'],
  exec: ['-a'],
  proxychains: ['-f'],
  proxychains4: ['-f'],
  flock: ['-w', '-E', '--timeout'],
  script: ['-c', '--command'],
  sg: ['-c'],
  taskset: ['-p'],
  cpulimit: ['-l', '-p', '-e', '--limit'],
  faketime: ['-f'],
};

/** Strips wrappers (sudo, env, nohup, xargs...) from an argv; returns the real command and where it starts. */
export function unwrap(argv: string[]): { name: string; args: string[]; wrappers: string[]; start: number; xargsReplace?: string; shellString?: string } {
  const wrappers: string[] = [];
  let xargsReplace: string | undefined;
  let shellString: string | undefined;
  let i = 0;
  while (i < argv.length) {
    const base = basename(argv[i]!);
    if (!WRAPPERS.has(base)) break;
    wrappers.push(base);
    i++;
    const valueOpts = WRAPPER_VALUE_OPTS[base] ?? [];
    let positional = 0;
    while (i < argv.length) {
      const a = argv[i]!;
      if (a === '--') {
        i++;
        break;
      }
      if (a.startsWith('-') && a.length > 1) {
        if (base === 'xargs' && (a === '-I' || a === '-i')) xargsReplace = a === '-i' ? '{}' : argv[i + 1];
        else if (base === 'xargs' && a.startsWith('-I') && a.length > 2) xargsReplace = a.slice(2);
        if ((base === 'script' || base === 'sg' || base === 'flock' || base === 'runuser') && (a === '-c' || a === '--command')) shellString = argv[i + 1];
        i += valueOpts.includes(a) ? 2 : 1;
        continue;
      }
      if (base === 'env' && /^[A-Za-z_][A-Za-z0-9_]*=/.test(a)) {
        i++;
        continue;
      }
      // wrappers with leading operands: timeout DURATION, chroot DIR, flock FILE, taskset MASK, sg GROUP, script FILE, cpulimit
      const lead = base === 'timeout' || base === 'chroot' || base === 'flock' || base === 'taskset' || base === 'sg' || base === 'faketime' ? 1 : 0;
      if (positional < lead) {
        positional++;
        i++;
        continue;
      }
      break;
    }
    if (shellString !== undefined) break;
  }
  // a wrapper with nothing after it is the command itself (`env`, `time`, `nice`)
  if (i >= argv.length && wrappers.length > 0 && shellString === undefined) {
    i = argv.length - 1;
    while (i > 0 && basename(argv[i]!) !== wrappers[wrappers.length - 1]) i--;
    wrappers.pop();
  }
  const result: { name: string; args: string[]; wrappers: string[]; start: number; xargsReplace?: string; shellString?: string } = {
    name: basename(argv[i] ?? ''),
    args: argv.slice(i + 1),
    wrappers,
    start: i,
  };
  if (xargsReplace !== undefined) result.xargsReplace = xargsReplace;
  if (shellString !== undefined) result.shellString = shellString;
  return result;
}

function basename(p: string): string {
  return p.split('/').pop() ?? p;
}

/** Short flags split into single letters (-rf -> -r -f), long flags kept whole, operands in order. */
export function splitFlags(args: string[], valueOpts: string[] = []): { flags: Set<string>; operands: string[]; values: Map<string, string> } {
  const flags = new Set<string>();
  const operands: string[] = [];
  const values = new Map<string, string>();
  let endOpts = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (!endOpts && a === '--') {
      endOpts = true;
      continue;
    }
    if (!endOpts && a.startsWith('--')) {
      const eq = a.indexOf('=');
      const key = eq > 0 ? a.slice(0, eq) : a;
      flags.add(key);
      if (eq > 0) values.set(key, a.slice(eq + 1));
      else if (valueOpts.includes(key) && i + 1 < args.length) values.set(key, args[++i]!);
    } else if (!endOpts && a.startsWith('-') && a.length > 1 && !/^-\d+$/.test(a)) {
      if (valueOpts.includes(a) && i + 1 < args.length) {
        flags.add(a);
        values.set(a, args[++i]!);
        continue;
      }
      for (let k = 1; k < a.length; k++) {
        const f = '-' + a[k];
        flags.add(f);
        if (valueOpts.includes(f)) {
          // -n5 or -fFILE: the rest of the word is the value; otherwise the next word
          const rest = a.slice(k + 1);
          values.set(f, rest || args[++i] || '');
          break;
        }
      }
    } else operands.push(a);
  }
  return { flags, operands, values };
}

/** Path effects for one argument, remembered for the command form. */
function pe(c: Call, raw: string, by: string, extra: EffectExtra = {}): PathEffect[] {
  const idx = c.args.indexOf(raw);
  const info = idx >= 0 ? c.infos[idx] : undefined;
  // a path built from an argument (gzip's FILE.gz) is as unknown as the argument
  const derivedFromDynamic = idx < 0 && c.args.some((a, i) => a !== '' && c.infos[i]?.dynamic && raw.includes(a));
  const effects = pathEffects(c.an, c.scope, raw, by, info, derivedFromDynamic ? { ...extra, dynamic: true } : extra);
  if (idx >= 0) c.pathForms.set(raw, effects.map((e) => `<path:${e.path}>`).join(' '));
  return effects;
}

/** "512M", "2T", "1.5G", "100000" -> bytes (0 when unreadable). */
export function sizeBytes(s: string): number {
  const m = /^\+?(\d+(?:\.\d+)?)\s*([KMGTPE]?)(i?B)?$/i.exec(s.trim());
  if (!m) return 0;
  const pow = 'BKMGTPE'.indexOf((m[2] || 'B').toUpperCase());
  return parseFloat(m[1]!) * 1024 ** Math.max(0, pow);
}
const HUGE = 10 * 2 ** 30;
const DISK_FILLING = 100 * 2 ** 30;

/** A file of this many bytes really allocated: huge from 10 GiB, disk-filling from 100 GiB. */
function bigFile(an: Analysis, bytes: number, detail: string): void {
  if (bytes >= DISK_FILLING) an.effects.exhaustion.push({ kind: 'disk-filling-file', detail });
  else if (bytes >= HUGE) an.effects.exhaustion.push({ kind: 'huge-file', detail });
}

function markLogTamper(an: Analysis, path: string): void {
  if (!isLogPath(path)) return;
  an.flags.add(path.endsWith('history') ? 'history-wipe' : 'log-tamper');
}

/** Maps one command onto effects and returns what it prints. */
export function runCommand(c: Call): Feed {
  const { an } = c;
  const E = an.effects;
  if (c.wrappers.includes('xargs')) expandXargs(c);
  const { name, args } = c;
  const { flags, operands } = splitFlags(args);
  const key = name.startsWith('mkfs') ? 'mkfs' : name;

  switch (key) {
    case 'gcore':
      // a core dump of a running process holds its secrets (keys, tokens, passwords in memory)
      an.flags.add('reads-process-memory');
      break;
    case 'gdb':
    case 'lldb':
      if (args.some((a) => a === '-p' || a.startsWith('--pid') || a === 'attach' || /^-p\d+$/.test(a))) an.flags.add('reads-process-memory');
      break;
    case 'cd':
    case 'pushd': {
      const target = operands[0];
      const info = target !== undefined ? c.infos[args.indexOf(target)] : undefined;
      if (target === undefined) c.scope.cwd = an.home;
      else if (info?.dynamic || target === '-') c.scope.cwdKnown = false;
      else {
        c.scope.cwd = normalizePath(target, c.scope.cwd, an.home);
        c.pathForms.set(target, `<path:${c.scope.cwd}>`);
      }
      if (!c.scope.cwdKnown) an.flags.add('cwd-unknown');
      break;
    }
    case 'popd':
      c.scope.cwdKnown = false;
      break;
    case 'declare':
    case 'typeset':
    case 'local':
    case 'readonly':
      for (const a of operands) {
        const eq = a.indexOf('=');
        if (eq <= 0) continue;
        const n = a.slice(0, eq);
        const v = a.slice(eq + 1);
        if (c.infos[args.indexOf(a)]?.dynamic) c.scope.vars.delete(n);
        else c.scope.vars.set(n, v);
        if ((n === 'HISTFILE' && (v === '/dev/null' || v === '')) || ((n === 'HISTSIZE' || n === 'HISTFILESIZE') && v === '0')) an.flags.add('history-wipe');
        if (n === 'LD_PRELOAD' && v) E.privilege.push({ kind: 'ld-preload', detail: v });
      }
      break;
    case 'unset':
      for (const o of operands) c.scope.vars.delete(o);
      if (operands.includes('HISTFILE')) an.flags.add('history-wipe');
      break;
    case 'set':
      if (args.join(' ').includes('+o history')) an.flags.add('history-wipe');
      break;
    case 'history':
      if (flags.has('-c')) an.flags.add('history-wipe');
      break;
    case 'rm':
    case 'unlink':
    case 'rmdir':
    case 'srm': {
      const recursive = flags.has('-r') || flags.has('-R') || flags.has('--recursive');
      if (flags.has('-f') || flags.has('--force')) an.flags.add('force');
      if (recursive) an.flags.add('recursive-delete');
      if (flags.has('--no-preserve-root')) an.flags.add('no-preserve-root');
      for (const o of operands) {
        for (const e of pe(c, o, name, { recursive })) {
          E.deletes.push(e);
          if (e.glob) an.flags.add('glob-delete');
          if (e.path === '/' || e.path === '/*') an.flags.add('root-path-target');
          markLogTamper(an, e.path);
        }
      }
      break;
    }
    case 'shred':
    case 'wipe': {
      const { operands: files, flags: f } = splitFlags(args, ['-n', '-s', '--iterations', '--size', '--random-source']);
      for (const o of files) {
        for (const e of pe(c, o, name)) {
          E.writes.push(e);
          if (f.has('-u') || f.has('--remove') || name === 'wipe') E.deletes.push(e);
          if (isDevicePath(e.path)) an.flags.add('writes-device');
          markLogTamper(an, e.path);
        }
      }
      an.flags.add('wipe');
      break;
    }
    case 'find':
      findCommand(c);
      break;
    case 'mv': {
      const { operands: ops, values } = splitFlags(args, ['-t', '--target-directory', '-S', '--suffix']);
      const destArg = values.get('-t') ?? values.get('--target-directory');
      const dest = destArg ?? ops[ops.length - 1];
      const srcs = destArg !== undefined ? ops : ops.slice(0, -1);
      for (const s of srcs) {
        for (const e of pe(c, s, 'mv', { recursive: true })) {
          E.deletes.push(e);
          markLogTamper(an, e.path);
        }
      }
      if (dest) for (const e of pe(c, dest, 'mv')) E.writes.push(e);
      break;
    }
    case 'cp':
    case 'install':
    case 'ln':
    case 'rsync':
    case 'scp':
      copyCommand(c);
      break;
    case 'touch':
    case 'mkdir':
    case 'mkfifo':
    case 'mknod': {
      const { operands: ops } = splitFlags(args, ['-m', '--mode', '-d', '--date', '-r', '--reference', '-t', '-Z', '--context']);
      const targets = name === 'mknod' ? ops.slice(0, 1) : ops;
      for (const o of targets) for (const e of pe(c, o, name)) E.writes.push(e);
      break;
    }
    case 'truncate':
    case 'fallocate': {
      const { operands: ops, values } = splitFlags(args, ['-s', '--size', '-l', '--length', '-o', '--offset', '-r', '--reference']);
      const size = values.get('-s') ?? values.get('--size') ?? values.get('-l') ?? values.get('--length') ?? '';
      for (const o of ops) {
        for (const e of pe(c, o, name)) {
          E.writes.push(e);
          if (name === 'truncate' && /^0+[KMGTPE]?$/i.test(size)) {
            E.deletes.push({ ...e, by: 'truncate -s 0' });
            markLogTamper(an, e.path);
          }
        }
      }
      // truncate makes sparse files that take no space; fallocate really reserves it
      if (name === 'fallocate') bigFile(an, sizeBytes(size), `${name} ${size}`);
      break;
    }
    case 'tee': {
      const { operands: ops } = splitFlags(args);
      for (const o of ops) {
        for (const e of pe(c, o, flags.has('-a') || flags.has('--append') ? 'tee -a' : 'tee')) {
          E.writes.push(e);
          if (isDevicePath(e.path)) an.flags.add('writes-device');
          if (!(flags.has('-a') || flags.has('--append'))) markLogTamper(an, e.path);
          if (c.stdin?.endless && !isDevicePath(e.path)) E.exhaustion.push({ kind: 'unbounded-write', detail: `tee writes an endless stream into ${e.path}` });
          persistedText(an, e.path, c.stdin?.text, c.scope);
        }
      }
      break;
    }
    case 'dd': {
      const kv = new Map(args.filter((a) => a.includes('=')).map((a) => [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)] as const));
      const input = kv.get('if');
      const output = kv.get('of');
      if (input) for (const e of pe(c, input, 'dd')) E.reads.push(e);
      if (output) {
        for (const e of pe(c, output, 'dd of=')) {
          E.writes.push(e);
          if (isDevicePath(e.path)) {
            an.flags.add('dd-device');
            an.flags.add('writes-device');
          }
        }
      }
      const endless = input !== undefined ? /^\/dev\/(zero|urandom|random)$/.test(input) : c.stdin === undefined;
      if (endless && !kv.has('count') && output && !isDevicePath(normalizePath(output, c.scope.cwd, an.home))) {
        E.exhaustion.push({ kind: 'unbounded-write', detail: `dd from ${input ?? 'standard input'} without count` });
      }
      const bs = sizeBytes(kv.get('bs') ?? '512');
      if (!output && endless && !kv.has('count')) c.ddEndless = true;
      if (kv.has('count')) bigFile(an, bs * Number(kv.get('count') ?? 0), `dd bs=${kv.get('bs')} count=${kv.get('count')}`);
      break;
    }
    case 'sed': {
      const { inPlace, script, scripts, files } = sedArgs(args);
      // one substitution on one account's line of /etc/passwd changes that account (facts/accounts.ts)
      const account = inPlace && script !== undefined ? sedAccountChange(script) : undefined;
      // or locks one account's password in /etc/shadow, as passwd -l does
      const locked = inPlace && script !== undefined ? sedShadowLock(script) : undefined;
      // or unlocks it, as passwd -u does
      const unlocked = inPlace && script !== undefined && !locked ? sedShadowUnlock(script) : undefined;
      // or takes one account's (or group's) line out, as userdel does
      // (several at once: one `/^NAME:/d` per -e, or joined with ';')
      // (with the same names taken out of the groups' member lists: `-e 's/,NAME$//'`)
      const parts = inPlace ? scripts.flatMap((x) => x.split(';')).filter((x) => x.trim() !== '') : [];
      const removals = parts.map((x) => sedAccountRemoval(x)).filter((x): x is string => x !== undefined);
      const strips = parts.map((x) => (sedAccountRemoval(x) === undefined ? sedMemberStrip(x) : undefined));
      const wholly = parts.every((x, i) => sedAccountRemoval(x) !== undefined || (strips[i] !== undefined && removals.includes(strips[i]!)));
      const removedAll = removals.length > 0 && wholly ? [...new Set(removals)] : [];
      // or adds members to one group's line, as `addgroup USER GROUP` does
      const joined = inPlace && script !== undefined ? sedGroupAdd(script) : undefined;
      // or takes one member out of one group's line, as `delgroup USER GROUP` does
      const left = inPlace && script !== undefined ? sedGroupRemove(script) : undefined;
      // or sets one setting the request names by its words ("turn off password authentication"
      // for `s/^PasswordAuthentication .*/PasswordAuthentication no/`): the file is the one it means
      const setting = inPlace && script !== undefined ? settingNamed(script, an.scope.words) : false;
      // or comments out or deletes the lines of cron jobs the request names ("comment out the
      // weekly report job" for `/generate_report.sh/s/^/#/` on a cron table)
      const jobsOut = inPlace ? sedTakesOutNamedJobs(scripts, an.scope.words, an.scope.text ?? '') !== undefined : false;
      // or only deletes whole lines by a pattern (`/TEMP-OVERRIDE/d`): it adds nothing to the file
      const linesOut = parts.length > 0 && parts.every((x) => /^\s*\/(?:[^/\\]|\\.)+\/I?\s*!?\s*d\s*$/.test(x));
      for (const file of files) {
        for (const e of pe(c, file, inPlace ? 'sed -i' : 'sed')) {
          if (linesOut) e.linesOut = true;
          if (setting && !e.glob && !e.dynamic && !e.system) e.inScope = true;
          if (jobsOut && CRON_TABLE.test(e.path) && !e.glob && !e.dynamic) e.inScope = true;
          (inPlace ? E.writes : E.reads).push(e);
          if (inPlace) markLogTamper(an, e.path);
          if (account && ACCOUNT_FILES[e.path] === 'passwd' && !e.dynamic && !e.glob) {
            e.accounts = [account];
            const shell = sedNewShell(script!);
            E.privilege.push({ kind: 'account-change', detail: `changes the line of account ${account} in ${e.path}`, account, ...(shell ? { shell } : {}) });
          }
          const from = REMOVABLE_FROM[e.path];
          if (removedAll.length > 0 && from && !e.dynamic && !e.glob) {
            e.accounts = removedAll;
            for (const removed of removedAll) E.privilege.push({ kind: 'account-change', detail: `removes ${from === 'group' ? 'group' : 'account'} ${removed} from ${e.path}`, account: removed, of: from, removes: true });
          }
          if (joined && ACCOUNT_FILES[e.path] === 'group' && !e.dynamic && !e.glob) {
            const { group, members } = joined;
            e.accounts = [group, ...members];
            // joining a group that holds administrative power is a privilege grant, as with addgroup
            if (ADMIN_GROUP.test(group)) E.privilege.push({ kind: 'admin-group', detail: group });
            else E.privilege.push({ kind: 'account-change', detail: `adds ${members.join(', ')} to group ${group} in ${e.path}`, account: group, of: 'group' });
          }
          if (left && ACCOUNT_FILES[e.path] === 'group' && !e.dynamic && !e.glob) {
            // leaving a group gives nobody anything, an administrative group included
            e.accounts = [left.group, left.member];
            E.privilege.push({ kind: 'account-change', detail: `takes ${left.member} out of group ${left.group} in ${e.path}`, account: left.group, of: 'group' });
          }
          if (locked && e.path === '/etc/shadow' && !e.dynamic && !e.glob) {
            e.accounts = [locked];
            E.privilege.push({ kind: 'account-change', detail: `locks the password of account ${locked} in ${e.path}`, account: locked });
          }
          if (unlocked && e.path === '/etc/shadow' && !e.dynamic && !e.glob) {
            e.accounts = [unlocked];
            E.privilege.push({ kind: 'account-change', detail: `unlocks the password of account ${unlocked} in ${e.path}`, account: unlocked });
          }
        }
      }
      break;
    }
    case 'chmod':
      chmodCommand(c);
      break;
    case 'dos2unix':
    case 'unix2dos': {
      // each file is converted in place; with -n / --newfile the operands come in pairs, IN OUT
      const { flags: f, operands: ops } = splitFlags(args);
      const pairs = f.has('-n') || f.has('--newfile');
      ops.forEach((o, i) => {
        if (pairs && i % 2 === 0) return readPaths(c, o, name);
        if (!pairs) readPaths(c, o, name);
        for (const e of pe(c, o, name)) E.writes.push(e);
      });
      break;
    }
    case 'chown':
    case 'chgrp': {
      const { flags: f, operands: ops } = splitFlags(args, ['--reference', '--from']);
      const recursive = f.has('-R') || f.has('--recursive');
      const owner = f.has('--reference') ? '' : (ops[0] ?? '');
      for (const t of f.has('--reference') ? ops : ops.slice(1)) for (const e of pe(c, t, name, { recursive, mode: owner })) E.ownerChanges.push(e);
      break;
    }
    case 'chattr': {
      const mode = operands[0] ?? args.find((a) => /^[+-=][aAcCdDeEFijmPsStTux]+$/.test(a)) ?? '';
      for (const o of args.filter((a) => a !== mode && !a.startsWith('-'))) for (const e of pe(c, o, 'chattr', { mode, recursive: flags.has('-R') })) E.modeChanges.push(e);
      if (mode.includes('+i') || mode.includes('+a')) an.flags.add('immutable');
      break;
    }
    case 'setfacl': {
      const { flags: f, operands: ops, values } = splitFlags(args, ['-m', '-x', '-M', '-X', '--modify', '--remove']);
      for (const o of ops) for (const e of pe(c, o, 'setfacl', { mode: values.get('-m') ?? values.get('--modify') ?? 'acl', recursive: f.has('-R') })) E.modeChanges.push(e);
      break;
    }
    case 'kill':
    case 'pkill':
    case 'killall':
    case 'killall5':
    case 'skill':
      signalCommand(c);
      break;
    case 'start-stop-daemon':
      stopDaemon(c);
      break;
    case 'shutdown':
    case 'reboot':
    case 'halt':
    case 'poweroff':
      if (!flags.has('-c') && !flags.has('--help')) an.flags.add('shutdown');
      break;
    case 'init':
    case 'telinit':
      if (['0', '1', '6', 's', 'S'].includes(operands[0] ?? '')) an.flags.add('shutdown');
      break;
    case 'systemctl':
    case 'service':
    case 'update-rc.d':
    case 'chkconfig':
    case 'rc-update':
    case 'rc-service':
      serviceCommand(c);
      break;
    case 'ufw':
      if (['disable', 'reset'].includes(operands[0] ?? '') || (operands[0] === 'default' && operands[1] === 'allow')) an.flags.add('disable-security');
      break;
    case 'iptables':
    case 'ip6tables':
    case 'iptables-legacy':
    case 'nft':
      if (flags.has('-F') || flags.has('-X') || args.includes('--flush') || args.includes('flush') || (flags.has('-P') && args.includes('ACCEPT')) || (name === 'nft' && args.includes('delete') && args.includes('table'))) an.flags.add('disable-security');
      break;
    case 'setenforce':
      if (operands[0] === '0' || operands[0]?.toLowerCase() === 'permissive') an.flags.add('disable-security');
      break;
    case 'aa-teardown':
    case 'aa-disable':
    case 'aa-complain':
      an.flags.add('disable-security');
      break;
    case 'apparmor_parser':
      if (flags.has('-R') || flags.has('--remove')) an.flags.add('disable-security');
      break;
    case 'auditctl':
      if (flags.has('-D') || (flags.has('-e') && args.includes('0'))) an.flags.add('disable-security');
      break;
    case 'sysctl':
      for (const a of args) if (/^(kernel\.randomize_va_space|kernel\.yama\.ptrace_scope|kernel\.kptr_restrict|kernel\.dmesg_restrict|fs\.protected_\w+)=0$/.test(a)) an.flags.add('disable-security');
      break;
    case 'journalctl':
      if (args.some((a) => a.startsWith('--vacuum') || a === '--rotate' || a === '--flush')) an.flags.add('log-tamper');
      break;
    case 'mkfs':
    case 'mke2fs':
    case 'mkswap':
    case 'wipefs':
    case 'blkdiscard':
    case 'mkdosfs':
    case 'mkntfs':
    case 'mkexfatfs':
      // formatting an image or swap file is ordinary (a write the environment can check for data
      // already there); a device or a hidden target is not
      for (const o of operands) {
        if (!o.startsWith('/dev/') && !c.infos[args.indexOf(o)]?.dynamic) {
          if (name !== 'wipefs' && name !== 'blkdiscard') for (const e of pe(c, o, 'format')) E.writes.push(e);
          continue;
        }
        an.flags.add('mkfs');
        for (const e of pe(c, o, name)) E.writes.push(e);
      }
      break;
    case 'fdisk':
    case 'sfdisk':
    case 'cfdisk':
    case 'gdisk':
    case 'sgdisk':
    case 'parted': {
      const listing = flags.has('-l') || flags.has('--list') || flags.has('-p') || flags.has('--print') || args.includes('print') || flags.has('-d') || flags.has('--dump');
      if (!listing) {
        an.flags.add('partition');
        for (const o of operands) if (o.startsWith('/dev/')) for (const e of pe(c, o, name)) E.writes.push(e);
      }
      break;
    }
    case 'useradd':
    case 'adduser':
    case 'addgroup':
    case 'usermod':
    case 'groupadd':
    case 'groupmod':
    case 'gpasswd':
    case 'passwd':
    case 'chpasswd':
    case 'chage':
    case 'userdel':
    case 'deluser':
    case 'groupdel':
    case 'visudo':
    case 'su':
    case 'newgrp':
    case 'setcap':
    case 'vipw':
    case 'vigr':
      accountCommand(c);
      break;
    case 'crontab':
      crontabCommand(c);
      break;
    case 'at':
    case 'batch':
      E.persistence.push({ place: 'at', by: name });
      if (c.stdin?.text) analyseNested(an, c.stdin.text, 'at job', c.scope);
      else if (c.stdin?.download) addExec(an, 'download-and-run', `downloaded text scheduled with ${name}`);
      break;
    case 'eval':
      evalCommand(c);
      break;
    case 'source':
    case '.':
      sourceCommand(c);
      break;
    case 'alias':
      aliasCommand(c);
      break;
    case 'sudo':
    case 'doas':
    case 'run0':
      // reached only when nothing follows the options: `sudo -i`, `sudo -s`
      if (flags.has('-i') || flags.has('-s') || flags.has('--login') || flags.has('--shell') || name === 'run0') E.privilege.push({ kind: 'root-shell', detail: [name, ...args].join(' ') });
      break;
    case 'env':
    case 'printenv':
    case 'export':
      if (name !== 'export' || args.length === 0 || args.includes('-p')) for (const e of pathEffects(an, c.scope, '/proc/self/environ', name, undefined)) E.reads.push(e);
      break;
    case 'stress':
    case 'stress-ng':
      if (!args.some((a) => a.startsWith('--timeout') || a === '-t')) E.exhaustion.push({ kind: 'stress-test', detail: `${name} ${args.join(' ')}` });
      break;
    case 'docker':
    case 'podman':
      containerCommand(c);
      break;
    case 'psql':
    case 'mysql':
    case 'mariadb':
    case 'sqlite3':
    case 'sqlcmd':
    case 'clickhouse-client':
      sqlClient(c);
      break;
    case 'nsenter':
      if (args.some((a) => a === '-t' || a === '--target') && args.includes('1')) E.privilege.push({ kind: 'container-escape', detail: `nsenter ${args.join(' ')}` });
      break;
    case 'git':
      gitCommand(c);
      break;
    case 'apt':
    case 'apt-get':
    case 'yum':
    case 'dnf':
    case 'apk':
    case 'pacman':
    case 'zypper':
    case 'brew':
    case 'pip':
    case 'pip3':
    case 'npm':
    case 'pnpm':
    case 'yarn':
    case 'gem':
    case 'cargo':
    case 'go':
      if (operands.some((o) => ['install', 'add', 'update', 'upgrade', 'i', 'get', '-S', 'ci'].includes(o)) || flags.has('-S')) {
        E.network.push({ target: 'package registry', by: name, sendsData: false });
        an.flags.add('package-install');
      }
      if (['remove', 'purge', 'autoremove', 'uninstall', 'erase'].includes(operands[0] ?? '')) an.flags.add('package-remove');
      break;
    default:
      break;
  }

  if (SHELLS.has(key)) shellCommand(c);
  if (INTERPRETERS.has(key)) interpreterCommand(c);
  if (NETWORK.has(key)) networkCommand(c);
  if (READERS.has(key)) readerCommand(c);
  if (EDITORS.has(key)) for (const o of operands) for (const e of pe(c, o, name)) E.writes.push(e);
  if (c.stdin?.file && an.downloaded.has(c.stdin.file) && (SHELLS.has(key) || INTERPRETERS.has(key))) addExec(an, 'download-and-run', `${name} runs the downloaded ${c.stdin.file}`);
  // running a file the script downloaded
  const self = normalizePath(c.path ?? name, c.scope.cwd, an.home);
  if (an.downloaded.has(self)) addExec(an, 'download-and-run', `runs the downloaded ${self}`);
  else if (c.path !== undefined) runWritten(c, self);
  return outputOf(c);
}

const NETWORK = new Set(['httpd', 'darkhttpd', 'curl', 'wget', 'nc', 'ncat', 'netcat', 'socat', 'telnet', 'ssh', 'sftp', 'ftp', 'lftp', 'tftp', 'smbclient', 'ping', 'dig', 'nslookup', 'host', 'aria2c', 'axel', 'http', 'https', 'xh', 'mail', 'mailx', 'sendmail', 'mutt', 's-nail', 'ssh-copy-id', 'openssl', 'traceroute', 'whois']);
const READERS = new Set(['cat', 'less', 'more', 'head', 'tail', 'tac', 'nl', 'strings', 'xxd', 'od', 'hexdump', 'base64', 'base32', 'md5sum', 'sha1sum', 'sha256sum', 'sha512sum', 'sha224sum', 'sha384sum', 'sha3sum', 'b2sum', 'cksum', 'crc32', 'file', 'stat', 'wc', 'sort', 'uniq', 'cut', 'diff', 'cmp', 'jq', 'yq', 'gpg', 'openssl', 'zcat', 'bzcat', 'xzcat', 'lzcat', 'zstdcat', 'bat', 'view', 'grep', 'egrep', 'fgrep', 'rg', 'ag', 'awk', 'gawk', 'mawk', 'tar', 'zip', 'unzip', 'gzip', 'gunzip', 'bzip2', 'bunzip2', 'xz', 'unxz', 'zstd', 'unzstd', '7z', 'column', 'paste', 'comm', 'iconv', 'csvlook', 'sqlite3']);
const EDITORS = new Set(['vi', 'vim', 'nvim', 'nano', 'emacs', 'ed', 'pico', 'joe', 'micro', 'mcedit']);

/** `xargs CMD`: the items of standard input become arguments (or replace -I's marker). */
function expandXargs(c: Call): void {
  // (the ids of the processes a grep picked out of ps, handed to kill: that pattern's processes,
  // as `kill $(ps | grep PAT | awk ...)` reads)
  if (c.stdin?.procs && c.stdin.procs.pattern !== '' && c.name === 'kill' && !c.xargsReplace) {
    const pattern = c.stdin.procs.pattern;
    psMatched(c.an).add(pattern);
    c.args.push(pattern);
    c.infos.push(givenWord(pattern, false));
    c.argSubsts.push([]);
    return;
  }
  const items = c.stdin?.paths ?? (c.stdin?.text !== undefined ? c.stdin.text.split(/\s+/).filter(Boolean).slice(0, 16) : undefined);
  const values = items?.length ? items : ['$XARGS_INPUT'];
  const dynamic = !items?.length;
  const marker = c.xargsReplace;
  if (marker && c.args.some((a) => a.includes(marker))) {
    const idx = c.args.findIndex((a) => a.includes(marker));
    c.args[idx] = c.args[idx]!.split(marker).join(values[0]!);
    c.infos[idx] = givenWord(c.args[idx]!, dynamic);
    return;
  }
  for (const v of values) {
    c.args.push(v);
    c.infos.push(givenWord(v, dynamic));
    c.argSubsts.push([]);
  }
}

/** Whether find's test at `i` comes after ! or -not, so it keeps what does not match. */
function negatedTest(args: readonly string[], i: number): boolean {
  return args[i - 1] === '!' || args[i - 1] === '-not';
}

function findCommand(c: Call): void {
  const { an, args } = c;
  const E = an.effects;
  // (find's own options come before its folders: `find -L ~/imaging -type l`)
  const lead = args.findIndex((a) => !['-H', '-L', '-P'].includes(a));
  const at = lead < 0 ? args.length : lead;
  const found = args.slice(at).findIndex((a) => a.startsWith('-') || a === '(' || a === '!' || a === '\\(');
  const expr = found < 0 ? -1 : found + at;
  const roots = (expr < 0 ? args : args.slice(0, expr)).filter((a) => !['-H', '-L', '-P'].includes(a));
  const rootArgs = roots.length ? roots : ['.'];
  // a name test after ! or -not keeps what does not match: it filters, but names no pattern
  const nameTests = args.flatMap((a, i) => (['-name', '-iname', '-path', '-ipath', '-regex', '-wholename'].includes(a) ? [i] : []));
  const nameIdx = nameTests.find((i) => !negatedTest(args, i)) ?? -1;
  const pattern = nameIdx >= 0 ? args[nameIdx + 1] : undefined;
  // with -o the action may apply to the other branch, so the filter restricts nothing
  const either = args.includes('-o') || args.includes('-or');
  const filtered = !either && (pattern !== undefined || nameTests.length > 0 || args.some((a) => ['-mtime', '-mmin', '-atime', '-amin', '-ctime', '-size', '-newer', '-user', '-group', '-perm', '-empty', '-uid', '-gid'].includes(a)));
  const wholeTree = pattern === '*' || pattern === '.*' || pattern === '**';
  for (const root of rootArgs) {
    const rootEffects = pe(c, root, 'find');
    for (const r of rootEffects) E.reads.push({ ...r, recursive: true });
    // with a filter, find acts on matching entries below the root, not on the root itself
    const targetRaw = filtered && !wholeTree ? `${root.replace(/\/+$/, '') || '/'}/**/${pattern && !pattern.includes('/') ? pattern : '*'}` : root;
    if (args.includes('-delete')) {
      for (const e of pe(c, targetRaw, 'find -delete', { recursive: !filtered || wholeTree, glob: filtered && !wholeTree })) {
        E.deletes.push(e);
        an.flags.add(filtered && !wholeTree ? 'find-delete-matching' : 'recursive-delete');
        if (e.path === '/' || e.path === '/**/*') an.flags.add('root-path-target');
        markLogTamper(an, e.path.replace(/\/\*\*\/.*$/, ''));
      }
    }
    const ex = args.findIndex((a) => a === '-exec' || a === '-execdir' || a === '-ok' || a === '-okdir');
    if (ex >= 0) {
      const end = args.findIndex((a, i) => i > ex && (a === ';' || a === '+'));
      const target = normalizePath(targetRaw, c.scope.cwd, an.home);
      const inner = args.slice(ex + 1, end > ex ? end : undefined).map((a) => a.split('{}').join(target));
      an.flags.add('find-exec');
      analyseNested(an, inner.map(quote).join(' '), 'find -exec', c.scope);
    }
  }
}

/** How a signal target reads when it is the process a pid file holds (`kill $(cat /run/app.pid)`). */
export const PIDFILE = 'pidfile:';

/** Commands whose delete effects remove the named entries themselves (not a folder's contents by a test, not a move's source). */
export const ENTRY_DELETERS: ReadonlySet<string> = new Set(['rm', 'unlink', 'rmdir', 'srm', 'shred', 'wipe']);

/** The pid file a signal target names, if it is one. */
export function pidfileOf(target: string): string | undefined {
  return target.startsWith(PIDFILE) ? target.slice(PIDFILE.length) : undefined;
}

function quote(s: string): string {
  return /^[\w@%+=:,./~*-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

/** host:path or user@host:path (not C:\ or ./a:b). */
function remoteSpec(s: string): string | undefined {
  if (s.startsWith('/') || s.startsWith('.') || s.startsWith('~')) return undefined;
  if (/^rsync:\/\//.test(s)) return s.slice(8).split(/[/:]/)[0];
  const m = /^(?:[\w.-]+@)?([\w.-]+|\[[0-9a-fA-F:]+\]):/.exec(s);
  return m ? m[1] : undefined;
}

function copyCommand(c: Call): void {
  const { an, name, args } = c;
  const E = an.effects;
  const valueOpts: Record<string, string[]> = {
    cp: ['-t', '--target-directory', '-S', '--suffix'],
    install: ['-m', '--mode', '-o', '--owner', '-g', '--group', '-t', '--target-directory', '-S'],
    ln: ['-t', '--target-directory', '-S'],
    rsync: ['-e', '--rsh', '--exclude', '--include', '--exclude-from', '--include-from', '--files-from', '-f', '--filter', '--port', '--password-file', '--chmod', '--chown', '-T', '--temp-dir', '--log-file', '--partial-dir', '--backup-dir', '--rsync-path', '--bwlimit', '--timeout'],
    scp: ['-i', '-P', '-o', '-F', '-c', '-l', '-S', '-J'],
  };
  const { flags, operands: ops, values } = splitFlags(args, valueOpts[name] ?? []);
  const recursive = flags.has('-r') || flags.has('-R') || flags.has('-a') || flags.has('--recursive') || flags.has('--archive');
  const targetDir = values.get('-t') ?? values.get('--target-directory');
  const dest = targetDir ?? ops[ops.length - 1];
  const srcs = targetDir !== undefined ? ops : ops.slice(0, -1);
  // ln -n / -T replaces a link to a folder itself instead of linking inside the folder
  const noDeref = flags.has('-n') || flags.has('-T') || flags.has('--no-dereference') || flags.has('--no-target-directory');
  const by = name === 'ln' ? (flags.has('-s') || flags.has('--symbolic') ? 'ln -s' : 'ln') + (noDeref ? ' -n' : '') : name;
  const destRemote = dest !== undefined ? remoteSpec(dest) : undefined;
  for (const s of srcs) {
    const host = remoteSpec(s);
    if (host) E.network.push({ target: host, by: name, sendsData: false });
    else if (name !== 'ln') for (const e of pe(c, s, name, { recursive })) E.reads.push(e);
  }
  if (dest !== undefined && destRemote) {
    E.network.push({ target: destRemote, by: name, sendsData: srcs.some((s) => !remoteSpec(s)) });
  } else if (dest !== undefined && (srcs.length > 0 || name === 'ln')) {
    for (const e of pe(c, dest, by, { recursive })) {
      E.writes.push(e);
      if (isDevicePath(e.path)) an.flags.add('writes-device');
      if (name === 'ln' && isLogPath(e.path) && srcs.some((s) => s === '/dev/null')) {
        an.flags.add(e.path.endsWith('history') ? 'history-wipe' : 'log-tamper');
        // (and everything it would record from now on goes nowhere)
        if (!e.path.endsWith('history')) an.flags.add('log-to-null');
      }
      if (name !== 'ln' && srcs.includes('/dev/null')) markLogTamper(an, e.path);
      if (name === 'cp' && srcs.some((s) => ENDLESS.test(s)) && !isDevicePath(e.path)) E.exhaustion.push({ kind: 'unbounded-write', detail: `cp from an endless source into ${e.path}` });
    }
  }
  const mode = values.get('-m') ?? values.get('--mode');
  if (name === 'install' && dest !== undefined && mode) {
    for (const e of pe(c, dest, 'install -m', { mode })) E.modeChanges.push(e);
    if (grantsSetuid(mode)) E.privilege.push({ kind: grantsOnlySetgid(mode) ? 'setgid' : 'setuid', detail: `install -m ${mode} ${dest}` });
  }
  if (name === 'rsync' && dest !== undefined && !destRemote && (flags.has('--delete') || flags.has('--delete-before') || flags.has('--delete-after') || flags.has('--del'))) {
    for (const e of pe(c, dest, 'rsync --delete', { recursive: true })) E.deletes.push(e);
  }
  if (name === 'rsync' && flags.has('--remove-source-files')) for (const s of srcs) if (!remoteSpec(s)) for (const e of pe(c, s, 'rsync --remove-source-files', { recursive })) E.deletes.push(e);
}

function chmodCommand(c: Call): void {
  const { an, args } = c;
  const E = an.effects;
  const recursive = args.some((a) => a === '-R' || a === '--recursive' || /^-[a-zA-Z]*R/.test(a));
  const nonFlags = args.filter((a) => !/^-[cfvR]+$/.test(a) && !a.startsWith('--'));
  const mode = nonFlags[0] ?? '';
  const targets = nonFlags.slice(1);
  for (const t of targets) for (const e of pe(c, t, 'chmod', { recursive, mode })) E.modeChanges.push(e);
  if (grantsSetuid(mode)) E.privilege.push({ kind: grantsOnlySetgid(mode) ? 'setgid' : 'setuid', detail: `chmod ${mode} ${targets.join(' ')}` });
  if (grantsWorldWrite(mode)) an.flags.add('world-writable');
  if (grantsWorldRead(mode)) an.flags.add('world-readable');
}

function signalCommand(c: Call): void {
  const { an, name, args } = c;
  const E = an.effects;
  let sig = 'TERM';
  const targets: string[] = [];
  let user: string | undefined;
  let line = false;
  let exact = name === 'killall';
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') {
      targets.push(...args.slice(i + 1));
      break;
    }
    if (name === 'pkill' && /^-[a-zA-Z]+$/.test(a)) {
      if (a.includes('f')) line = true;
      if (a.includes('x')) exact = true;
    }
    if (a === '-s' || a === '-n' || a === '--signal') sig = args[++i] ?? sig;
    else if (a === '-u' || a === '--user' || a === '-U' || a === '--euid' || a === '--uid') user = args[++i];
    else if (a === '-l' || a === '-L' || a === '--list') return;
    else if (/^-(\d+|[A-Z][A-Z0-9+-]*)$/.test(a) && targets.length === 0 && sig === 'TERM' && !(name === 'kill' && args.length === 1)) sig = a.slice(1);
    else if (name !== 'kill' && a.startsWith('-')) {
      if (['-f', '-x', '-e', '-i', '-I', '-r', '-v', '-w', '-q', '-o', '-y', '-c'].includes(a)) continue;
      if (['-t', '-P', '-g', '-G', '-O', '-Z'].includes(a)) i++;
    } else targets.push(a);
  }
  sig = sig.replace(/^SIG/, '');
  // signal 0 is sent to no one: `kill -0 PID` only asks whether the process is there
  if (sig === '0') return;
  if (name === 'killall5') targets.push('-1');
  // a pattern that matches every command line is every process
  if (name !== 'kill') for (let i = 0; i < targets.length; i++) if (/^(\.|\.\*|\.\+|\^|\$|\^\.\*\$?|\.\*\$)$/.test(targets[i]!)) targets[i] = '-1';
  // how a name reaches processes, for the probe that lists what it matches
  const match = name === 'pkill' || name === 'killall' ? (exact && !line ? 'exact' : line ? 'line' : 'name') : undefined;
  // (a pattern a grep picked out of `ps` reaches whole command lines, as pkill -f's does)
  const fromPs = psMatched(an);
  const fromLookup = lookedUp(an);
  for (const t of targets) signalByName(an, t, sig, name, match && t !== '-1' ? match : name === 'kill' && fromPs.has(t) ? 'line' : name === 'kill' ? fromLookup.get(t) : undefined);
  if (user !== undefined && targets.length === 0) E.signals.push({ target: 'all of a user', signal: sig, by: `${name} -u ${user}` });
}

/**
 * `start-stop-daemon --stop` signals the process its pid file names, else the processes running
 * the program (--exec) or of the name (--name) it is given. Starting one is left to what runs.
 */
function stopDaemon(c: Call): void {
  const { an, args } = c;
  const { flags, values } = splitFlags(args, ['-s', '--signal', '-p', '--pidfile', '-x', '--exec', '-n', '--name', '-u', '--user', '-g', '--group', '-c', '--chuid', '-a', '--startas', '-d', '--chdir', '-r', '--chroot', '-N', '--nicelevel']);
  if (!flags.has('-K') && !flags.has('--stop')) return;
  const value = (short: string, long: string): string | undefined => values.get(short) ?? values.get(long);
  const sig = (value('-s', '--signal') ?? 'TERM').replace(/^SIG/, '');
  const pidfile = value('-p', '--pidfile');
  const exec = value('-x', '--exec');
  const name = value('-n', '--name');
  const E = an.effects;
  const file = pidfile !== undefined ? pe(c, pidfile, 'start-stop-daemon')[0] : undefined;
  // (it reads the pid file, as `kill $(cat FILE)` does)
  if (file !== undefined) E.reads.push(file);
  if (file !== undefined && !file.dynamic && !file.glob) E.signals.push({ target: `${PIDFILE}${file.path}`.slice(0, 200), signal: sig, by: 'start-stop-daemon' });
  else if (pidfile !== undefined) E.signals.push({ target: '-1', signal: sig, by: 'start-stop-daemon' });
  else if (exec !== undefined || name !== undefined) signalByName(an, name ?? exec!.slice(exec!.lastIndexOf('/') + 1), sig, 'start-stop-daemon', 'exact');
  else E.signals.push({ target: '-1', signal: sig, by: 'start-stop-daemon' });
}

/** A signal to processes by name (or `-1`, every one), and what stopping that name means. */
function signalByName(an: Analysis, t: string, signal: string, by: string, match: 'exact' | 'line' | 'name' | undefined): void {
  an.effects.signals.push({ target: t.slice(0, 200), signal, by, ...(match ? { match } : {}) });
  if (SECURITY_SERVICES.test(t)) an.flags.add('disable-security');
  if (CRITICAL_PROCESSES.test(t)) an.flags.add('kills-critical-process');
}

function serviceCommand(c: Call): void {
  const { an, name } = c;
  const E = an.effects;
  const { operands } = splitFlags(c.args, ['-H', '--host', '-M', '--machine', '-p', '--property', '-t', '--type', '-s', '--signal']);
  const verb = name === 'service' || name === 'rc-service' ? operands[1] : name === 'update-rc.d' ? operands[1] : name === 'chkconfig' ? operands[1] : operands[0];
  const units = name === 'systemctl' ? operands.slice(1) : [operands[0] ?? ''];
  if (['poweroff', 'reboot', 'halt', 'kexec', 'rescue', 'emergency'].includes(verb ?? '') || (verb === 'isolate' && units.some((u) => /rescue|emergency|poweroff|reboot|halt/.test(u)))) an.flags.add('shutdown');
  const enables = (name === 'systemctl' && (verb === 'enable' || verb === 'link' || verb === 'edit' || verb === 'reenable' || verb === 'preset')) || (name === 'update-rc.d' && ['defaults', 'enable'].includes(verb ?? '')) || (name === 'chkconfig' && verb === 'on') || (name === 'rc-update' && operands[0] === 'add');
  if (enables) for (const u of name === 'rc-update' ? [operands[1] ?? ''] : units) E.persistence.push({ place: `service:${u}`, by: `${name} ${verb ?? ''}`.trim() });
  const stops = ['stop', 'disable', 'mask', 'kill'].includes(verb ?? '') || (name === 'update-rc.d' && verb === 'remove') || (name === 'chkconfig' && verb === 'off') || (name === 'rc-update' && operands[0] === 'del');
  const stopped = name === 'rc-update' ? [operands[1] ?? ''] : units;
  if (stops && stopped.some((u) => SECURITY_SERVICES.test(u))) an.flags.add('disable-security');
  if (stops) for (const u of stopped) E.signals.push({ target: u.replace(/\.service$/, ''), signal: verb ?? 'stop', by: name });
}

function accountCommand(c: Call): void {
  const { an, name, args } = c;
  const E = an.effects;
  const detail = [name, ...args].join(' ').slice(0, 200);
  const valueOpts =
    name === 'gpasswd'
      ? ['-a', '-d', '-M', '-A', '-r', '--add', '--delete', '--members', '--administrators']
      : ['-G', '-g', '-u', '-s', '-d', '-c', '-e', '-f', '-k', '-K', '-p', '-l', '-b', '-R', '-P', '--groups', '--gid', '--uid', '--shell', '--home', '--home-dir', '--comment', '--password', '--login', '--root', '--prefix', '--expiredate', '--inactive', '-h', '--ingroup', '--gecos'];
  const { operands, values } = splitFlags(args, valueOpts);
  // busybox adduser's -g is the comment (GECOS), not a group
  const groups = values.get('-G') ?? values.get('--groups') ?? values.get('--ingroup') ?? (name === 'adduser' ? undefined : values.get('-g')) ?? values.get('--gid') ?? '';
  const uid = values.get('-u') ?? values.get('--uid');
  if (name === 'visudo') {
    E.privilege.push({ kind: 'edits-sudoers', detail });
    return;
  }
  if (name === 'vipw' || name === 'vigr') {
    E.privilege.push({ kind: 'edits-passwd', detail });
    return;
  }
  if (name === 'setcap') {
    E.privilege.push({ kind: 'capabilities', detail });
    return;
  }
  if (name === 'su') {
    const cIdx = args.findIndex((a) => a === '-c' || a === '--command');
    E.privilege.push({ kind: 'switch-user', detail });
    if (cIdx >= 0 && args[cIdx + 1] !== undefined) {
      addExec(an, 'shell-string', args[cIdx + 1]!);
      analyseNested(an, args[cIdx + 1]!, 'su -c', c.scope);
    }
    return;
  }
  if (name === 'newgrp') {
    E.privilege.push({ kind: 'switch-user', detail });
    return;
  }
  const added =
    name === 'usermod' || name === 'useradd'
      ? groups.split(',')
      : name === 'adduser' || name === 'addgroup'
        ? [...groups.split(','), ...(operands.length >= 2 ? [operands[1]!] : [])]
        : name === 'gpasswd' && (values.has('-a') || values.has('--add') || values.has('-M') || values.has('-A'))
          ? operands
          : [];
  const admin = [...new Set(added.filter((g) => ADMIN_GROUP.test(g)))];
  // one entry per privileged group, so a check can ask whether the request named each of them
  for (const g of admin) E.privilege.push({ kind: 'admin-group', detail: g });
  if (uid === '0' || groups === '0' || (name === 'useradd' && args.includes('-o') && uid === '0')) E.privilege.push({ kind: 'root-uid', detail });
  // the account a create or modify command names (useradd ... NAME, adduser NAME [GROUP]); deletes
  // (userdel -r takes a home no probe looks through), passwords and expiry carry none, so a check
  // cannot count them as asked by the name alone
  // locking one account's password (passwd -l NAME, usermod -L NAME) only takes a way in away: it
  // names that account, as the same lock written into /etc/shadow with sed does
  const locked = args.length === 2 && /^[a-z_][a-z0-9_.-]{0,31}$/i.test(args[1]!) ? args[1] : undefined;
  const locks = (name === 'passwd' && (args[0] === '-l' || args[0] === '--lock')) || (name === 'usermod' && (args[0] === '-L' || args[0] === '--lock'));
  if (locks && locked !== undefined && locked !== 'root') {
    E.privilege.push({ kind: 'account-change', detail: `locks the password of account ${locked}`, account: locked });
    return;
  }
  const account = ['useradd', 'usermod', 'groupadd', 'groupmod'].includes(name) ? operands[operands.length - 1] : name === 'adduser' || name === 'addgroup' ? operands[0] : undefined;
  const isGroup = name === 'groupadd' || name === 'groupmod' || (name === 'addgroup' && operands.length === 1);
  const id = isGroup ? (values.get('-g') ?? values.get('--gid')) : uid;
  if (admin.length === 0 && uid !== '0') {
    const shell = isGroup ? undefined : (values.get('-s') ?? values.get('--shell'));
    E.privilege.push({ kind: 'account-change', detail, ...(account && operands.length >= 1 ? { account, of: isGroup ? ('group' as const) : ('passwd' as const), ...(id !== undefined && /^\d+$/.test(id) ? { id } : {}) } : {}), ...(shell?.startsWith('/') ? { shell } : {}) });
  }
  if (name === 'passwd' && (operands.includes('root') || args.includes('-d'))) E.privilege.push({ kind: 'root-password', detail });
  if (name === 'chpasswd' && c.stdin?.text && /^root:/m.test(c.stdin.text)) E.privilege.push({ kind: 'root-password', detail: 'chpasswd sets the root password' });
}

/** Lines of a crontab: the schedule fields are dropped and the rest parsed as commands. */
/**
 * The word of a command line (its words as written) that names the program it runs: the script
 * a shell or an interpreter is given (`sh /opt/job.sh` runs /opt/job.sh), else the executable itself.
 */
export function programWord(words: readonly string[]): string | undefined {
  const exe = words[0];
  const name = exe?.slice(exe.lastIndexOf('/') + 1) ?? '';
  if (exe === undefined || !(SHELLS.has(name) || INTERPRETERS.has(name) || /^python\d/.test(name))) return exe;
  return words.slice(1).find((w) => !w.startsWith('-')) ?? exe;
}

/** Launchers that run the next word of a command line as the program. */
const LAUNCHERS = new Set(['env', 'nohup', 'setsid', 'busybox']);

/**
 * The name a command line's program goes by: its program word's file name, lower-cased, without
 * a script's ending (`/bin/sh /opt/mailer.sh -c x` goes by mailer), launchers skipped.
 */
export function programName(words: readonly string[]): string | undefined {
  let i = 0;
  while (i < words.length - 1 && LAUNCHERS.has(words[i]!.slice(words[i]!.lastIndexOf('/') + 1))) i++;
  const w = programWord(words.slice(i));
  return w?.slice(w.lastIndexOf('/') + 1).replace(/\.(sh|py|js|rb|pl)$/, '').toLowerCase() || undefined;
}

/** Words of a setting's key that only say it switches something on or off. */
const SWITCH_WORDS = new Set(['permit', 'allow', 'enable', 'enabled', 'use']);
/** Words of settings' keys and the plainer words a request says them with. */
const KEY_WORD_SAID: Record<string, string[]> = { authentication: ['login', 'logins', 'log-in', 'auth'], auth: ['login', 'logins', 'authentication'], max: ['maximum'], min: ['minimum'], dir: ['directory', 'folder'] };

/** Whether the request says a word of a setting's key: itself, its singular or plural, or a plainer word for it. */
function keyWordSaid(part: string, words: Set<string>): boolean {
  return words.has(part) || words.has(`${part}s`) || (part.endsWith('s') && words.has(part.slice(0, -1))) || (KEY_WORD_SAID[part] ?? []).some((w) => words.has(w));
}

/**
 * Whether a sed script is one substitution that sets a setting whose name the request spells out
 * in words: the replacement starts with a key (`PasswordAuthentication`, `max_connections`,
 * `listen-port`) of at least two words, each of them a word of the request.
 */
function settingNamed(script: string, words: Set<string>): boolean {
  const s = sedS(script.trim().replace(/^\/[^/]*\/\s*/, ''));
  const key = s ? /^\^?#?\s*([A-Za-z][A-Za-z0-9_.-]{3,60})(?=[\s=:]|$)/.exec(s.replacement.replace(/^\\\(|^\\1/, ''))?.[1] : undefined;
  if (!key) return false;
  const parts = key.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase().split(/[\s_.-]+/).filter(Boolean);
  // (a word that only says the setting switches something, "permit" in PermitRootLogin, need not
  // be said: "disable root login" names it, as long as two words of the key are)
  if (parts.length >= 2) {
    // (a key of several words the request writes whole, "set PermitRootLogin to no", names it)
    if (words.has(key.toLowerCase())) return true;
    const said = parts.filter((p) => !SWITCH_WORDS.has(p));
    return said.length >= 2 && said.every((p) => p.length >= 2 && keyWordSaid(p, words));
  }
  // a one-word key ("port") names the setting only with the values: the request says the new one
  // and, where the pattern holds one, the old one too ("change the port from 8080 to 9090")
  const k = key.replace(/[.]/g, '\\.');
  const value = (side: string): string | undefined => new RegExp(`^\\^?${k}\\s*[=:\\s]\\s*([A-Za-z0-9_.-]{2,40})\\$?$`).exec(side)?.[1];
  const to = value(s!.replacement);
  const from = value(s!.pattern);
  const said = (v: string): boolean => words.has(v.toLowerCase());
  // the line it edits is that key's own line
  // (commented out or not: `^#\?Port `, `^#*Port`, `^[# ]*Port`)
  const ownLine = new RegExp(`^\\^?(#\\\\?\\??|#\\*|\\[[# ]+\\]\\*?)?\\s*${k}(?![A-Za-z0-9_])`).test(s!.pattern);
  return ownLine && words.has(key.toLowerCase()) && to !== undefined && said(to) && (from === undefined || (said(from) && from !== to));
}

/** The words of a crontab line's first command, as written (quotes around a word dropped). */
export function cronCommandWords(cmd: string): string[] {
  return cmd.split(/[;&|]/)[0]!.trim().split(/\s+/).map((w) => w.replace(/^['"]|['"]$/g, ''));
}

/**
 * Analyses each crontab line's command as code, and returns the programs the lines run (the
 * command word when it is a path, or the script an interpreter is given) with whether a line runs
 * as root (`rootTable`: a user's own table; a system table's lines name their user).
 */
function cronCommands(an: Analysis, text: string, scope: Scope, withUser: boolean, rootTable = false): { runs: string[]; lines: string[]; asRoot: boolean } {
  const runs: string[] = [];
  const lines: string[] = [];
  let asRoot = false;
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (!line || line.startsWith('#') || /^[A-Za-z_][A-Za-z0-9_]*=/.test(line)) continue;
    const fields = line.split(/\s+/);
    const skip = (line.startsWith('@') ? 1 : 5) + (withUser ? 1 : 0);
    const cmd = fields.slice(skip).join(' ');
    if (!cmd) continue;
    lines.push(cmd);
    if (withUser ? fields[skip - 1] === 'root' : rootTable) asRoot = true;
    const had = an.effects.writes.length;
    const hadDeletes = an.effects.deletes.length;
    analyseNested(an, cmd, 'cron entry', scope);
    for (const x of [...an.effects.writes.slice(had), ...an.effects.deletes.slice(hadDeletes)]) x.job = true;
    // the program of the line's first command, as written
    const word = programWord(cronCommandWords(cmd));
    if (word !== undefined && /^[/~]/.test(word) && !/[*?[$`]/.test(word)) runs.push(normalizePath(word, an.cwd, an.home));
    // a job the request names, sending its output to a log file, writes the log it was asked to keep
    const job = word === undefined ? '' : (word.split('/').pop() ?? '').toLowerCase();
    const jobNamed = job.length >= 3 && (an.scope.words.has(job) || an.scope.paths.some((p) => (p.split('/').pop() ?? '').toLowerCase() === job));
    if (jobNamed) for (const w of an.effects.writes.slice(had)) if (isLogPath(w.path) && !w.glob && !w.dynamic) w.inScope = true;
  }
  return { runs: [...new Set(runs)], lines, asRoot };
}

/** Text written into a place that runs it later is analysed as the code it will be. */
export function persistedText(an: Analysis, path: string, text: string | undefined, scope: Scope): void {
  if (text === undefined || text.trim() === '') return;
  if (path === '/etc/crontab' || path.startsWith('/etc/cron.d/')) {
    const { runs, asRoot } = cronCommands(an, text, scope, true);
    if (runs.length > 0) an.effects.persistence.push({ place: '/etc/cron', by: 'cron entry', runs, asRoot });
  } else if (path.startsWith('/var/spool/cron')) {
    // an account's own table, named after it
    const { runs } = cronCommands(an, text, scope, false);
    if (runs.length > 0) an.effects.persistence.push({ place: '/var/spool/cron', by: 'cron entry', runs, asRoot: path.endsWith('/root') });
  }
  else if (/^\/etc\/cron\.(hourly|daily|weekly|monthly)\//.test(path)) analyseNested(an, text, 'cron script', scope);
  else if (path.includes('/systemd/') || path.endsWith('.service') || path.endsWith('.timer')) {
    for (const line of text.split('\n')) {
      const m = /^\s*Exec(?:Start|StartPre|StartPost|Stop|Reload)\s*=\s*[-@+!:]*(.*)$/.exec(line);
      if (m?.[1]) analyseNested(an, m[1], 'service command', scope);
    }
  } else if (/(\.bashrc|\.bash_profile|\.profile|\.zshrc|\.zprofile|\.bash_login|rc\.local|\/etc\/profile.*|\/etc\/init\.d\/.*|\/\.git\/hooks\/.*|\/etc\/bash\.bashrc|\/etc\/update-motd\.d\/.*)$/.test(path)) {
    analyseNested(an, text, 'start-up script', scope);
  } else if (/\.sh$|\/s?bin\/[^/]+$/.test(path)) {
    // a line written into a script runs whenever the script does (its cron job, its service):
    // it is read as the code it is
    analyseNested(an, text, 'script line', scope);
  } else return;
  an.flags.add('persisted-code');
}

function crontabCommand(c: Call): void {
  const { an, args } = c;
  const E = an.effects;
  const { flags, operands, values } = splitFlags(args, ['-u']);
  if (flags.has('-l')) return;
  const owner = values.get('-u') ?? an.user;
  const named = /^[a-z_][a-z0-9_.-]{0,31}$/i.test(owner);
  if (flags.has('-r')) {
    // one account's table goes (the whole spool when the account cannot be read)
    const table = named ? `/var/spool/cron/crontabs/${owner}` : '/var/spool/cron/crontabs';
    for (const e of pathEffects(an, c.scope, table, 'crontab -r', undefined, { recursive: !named })) E.deletes.push(e);
    return;
  }
  const persisted: Effects['persistence'][number] = { place: 'crontab', by: 'crontab' };
  E.persistence.push(persisted);
  const file = operands[0];
  // installing a table replaces the account's whole table: unless what it installs was read from
  // that table (`(crontab -l; echo JOB) | crontab -`), the jobs already there are gone
  const keeps = an.commands.some((k) => k.name === 'crontab' && k.argv.includes('-l'));
  if (!keeps && named) {
    // the table is the account's own, written through the tool made for it: not a system file
    for (const e of pe(c, `/var/spool/cron/crontabs/${owner}`, 'crontab')) E.writes.push({ ...e, system: false });
  }
  if (file && file !== '-') {
    for (const e of pe(c, file, 'crontab')) E.reads.push(e);
    return;
  }
  if (c.stdin?.text !== undefined) {
    const { runs, lines, asRoot } = cronCommands(an, c.stdin.text, c.scope, false, owner === 'root');
    if (runs.length > 0) Object.assign(persisted, { runs, asRoot });
    if (lines.length > 0) persisted.lines = lines;
  }
  if (c.stdin?.download) addExec(an, 'download-and-run', 'a downloaded crontab installed');
}

/** Tools whose output is meant to be eval'd to set up the shell (eval "$(ssh-agent -s)"). */
const SHELL_SETUP = new Set(['ssh-agent', 'dircolors', 'pyenv', 'rbenv', 'nodenv', 'goenv', 'brew', 'direnv', 'starship', 'opam', 'conda', 'fnm', 'zoxide', 'thefuck', 'mise', 'rtx', 'keychain', 'gpg-agent', 'minikube', 'docker-machine', 'register-python-argcomplete', 'kubectl', 'helm', 'gh', 'luarocks', 'perl', 'locale', 'lesspipe', 'tmux', 'atuin', 'asdf', 'jenv', 'pipenv', 'poetry', 'rustup']);

/** Commands whose alias would capture what people type into them (passwords, keys). */
const HIJACKABLE = new Set(['sudo', 'su', 'doas', 'ssh', 'scp', 'passwd', 'gpg', 'login', 'mysql', 'psql', 'git', 'ls', 'cd', 'cat']);

function aliasCommand(c: Call): void {
  for (const a of c.args) {
    const eq = a.indexOf('=');
    if (eq <= 0) continue;
    const name = a.slice(0, eq);
    const body = a.slice(eq + 1);
    analyseNested(c.an, body, `alias ${name}`, c.scope);
    const first = body.trim().split(/\s+/)[0] ?? '';
    // `alias sudo='sudo /tmp/k; sudo'`: the alias runs something besides the command it names
    if (HIJACKABLE.has(name) && (first !== name || /[;&|`$]/.test(body))) c.an.effects.privilege.push({ kind: 'command-hijack', detail: `alias ${name}=${body}`.slice(0, 200) });
  }
}

function evalCommand(c: Call): void {
  const { an, args } = c;
  const outs = c.argSubsts.flat();
  if (outs.length > 0 && outs.every((o) => o.by !== undefined && SHELL_SETUP.has(o.by) && !o.download && !o.decoded)) return;
  const fromDownload = outs.some((o) => o.download);
  const decoded = outs.some((o) => o.decoded);
  if (fromDownload) addExec(an, 'download-and-run', `eval of downloaded text`);
  if (decoded) addExec(an, 'decode-and-run', `eval of decoded text`);
  const dynamic = c.infos.some((i) => i.dynamic);
  const known = args.length === 1 && c.argSubsts[0]?.length === 1 && c.argSubsts[0][0]!.text !== undefined && c.infos[0]!.value === '$(...)' ? c.argSubsts[0][0]!.text : undefined;
  const src = known ?? args.join(' ');
  if (dynamic && known === undefined) {
    if (!fromDownload && !decoded) addExec(an, 'dynamic-command', `eval ${src}`);
    return;
  }
  addExec(an, 'eval', src);
  analyseNested(an, src, 'eval', c.scope, c.stdin);
}

function sourceCommand(c: Call): void {
  const { an, args } = c;
  const file = args[0];
  if (file === undefined) return;
  const outs = c.argSubsts[0] ?? [];
  if (outs.some((o) => o.download)) return addExec(an, 'download-and-run', `source of downloaded text`);
  if (outs.some((o) => o.decoded)) return addExec(an, 'decode-and-run', `source of decoded text`);
  if (outs.length === 1 && outs[0]!.text !== undefined) return analyseNested(an, outs[0]!.text, 'source of generated text', c.scope);
  for (const e of pe(c, file, c.name)) {
    an.effects.reads.push(e);
    if (an.downloaded.has(e.path)) addExec(an, 'download-and-run', `source of the downloaded ${e.path}`);
    else if (e.path === '/dev/stdin') consumeStdin(c, 'source');
    else {
      addExec(an, 'source', e.path);
      runWritten(c, e.path);
    }
  }
}

/** SQL handed to a database client on the command line or standard input. */
function sqlClient(c: Call): void {
  const { an, name, args } = c;
  const opts: Record<string, string[]> = { psql: ['-c', '--command'], mysql: ['-e', '--execute'], mariadb: ['-e', '--execute'], sqlcmd: ['-Q', '-q'], 'clickhouse-client': ['-q', '--query'], sqlite3: [] };
  const texts: string[] = [];
  for (let i = 0; i < args.length; i++) if ((opts[name] ?? []).includes(args[i]!) && args[i + 1] !== undefined) texts.push(args[i + 1]!);
  for (const a of args) if (a.startsWith('--command=') || a.startsWith('--execute=')) texts.push(a.slice(a.indexOf('=') + 1));
  if (name === 'sqlite3') {
    const ops = args.filter((a) => !a.startsWith('-'));
    if (ops[1]) texts.push(ops[1]);
  }
  if (texts.length === 0 && c.stdin?.text !== undefined) texts.push(c.stdin.text);
  for (const t of texts) {
    try {
      for (const f of sqlFacts(t).flags) an.flags.add(f);
    } catch {
      an.flags.add('sql-unparsable');
    }
  }
}

function containerCommand(c: Call): void {
  const { an, args } = c;
  if (!['run', 'exec', 'create'].includes(args[0] ?? '')) return;
  const hostRoot = args.some((a, i) => (a === '-v' || a === '--volume') && /^\/(:|$)/.test(args[i + 1] ?? '')) || args.some((a) => /^(-v|--volume)=\/:/.test(a) || /^--mount=.*source=\/(,|$)/.test(a));
  if (args.includes('--privileged') || hostRoot || args.some((a) => a === '--pid=host' || a === '--cap-add=ALL' || a === '--cap-add=SYS_ADMIN')) {
    an.effects.privilege.push({ kind: 'container-escape', detail: `${c.name} ${args.join(' ')}`.slice(0, 200) });
  }
}

function gitCommand(c: Call): void {
  const { an, args } = c;
  const E = an.effects;
  const { flags, operands } = splitFlags(args, ['-C', '-c', '--git-dir', '--work-tree', '-m', '-b', '-o', '--branch', '--depth', '--origin']);
  const sub = operands[0];
  if (sub === 'push') {
    E.network.push({ target: operands[1] ?? 'origin', by: 'git push', sendsData: true });
    const refspecs = operands.slice(2);
    const force = flags.has('-f') || flags.has('--force') || args.some((a) => a.startsWith('--force') || a.startsWith('+'));
    const deletes = flags.has('-d') || flags.has('--delete') || refspecs.some((r) => r.startsWith(':'));
    if (force) an.flags.add('force-push');
    if (deletes) an.flags.add('deletes-remote-branch');
    // main, master, production... are shared: rewriting or deleting them loses others' work
    const shared = refspecs.some((r) => /(^|:|\/)(main|master|trunk|develop|prod|production|release)$/.test(r.replace(/^\+/, '')));
    if ((force || deletes) && (shared || refspecs.length === 0)) an.flags.add('rewrites-shared-branch');
  } else if (sub === 'clone' || sub === 'fetch' || sub === 'pull' || sub === 'ls-remote') {
    E.network.push({ target: operands[1] ?? 'origin', by: `git ${sub}`, sendsData: false });
    if (sub === 'clone' && operands[2]) for (const e of pe(c, operands[2], 'git clone', { recursive: true })) E.writes.push(e);
  }
  if (sub === 'clean' && (flags.has('-f') || flags.has('--force'))) an.flags.add('discards-changes');
  if (sub === 'reset' && flags.has('--hard')) an.flags.add('discards-changes');
  if ((sub === 'checkout' || sub === 'restore') && (operands.includes('.') || flags.has('-f') || flags.has('--force'))) an.flags.add('discards-changes');
  if (sub === 'filter-branch' || sub === 'filter-repo' || (sub === 'reflog' && operands[1] === 'expire') || (sub === 'branch' && flags.has('-D'))) an.flags.add('rewrites-history');
  if (sub === 'config' && operands.some((o) => o === 'core.hooksPath' || o === 'core.fsmonitor' || o === 'core.sshCommand' || o.startsWith('alias.'))) E.persistence.push({ place: '.git/hooks', by: 'git config' });
}

/** Shell options that are followed by a value. */
const SHELL_VALUE_OPTS = new Set(['-o', '+o', '-O', '+O', '--rcfile', '--init-file']);

function shellCommand(c: Call): void {
  const { an, args, name } = c;
  let i = 0;
  let cString = false;
  for (; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--' || a === '-') {
      i++;
      break;
    }
    if (SHELL_VALUE_OPTS.has(a)) {
      i++;
      continue;
    }
    if (/^[-+][a-zA-Z]+$/.test(a)) {
      if (a.startsWith('-') && a.includes('c')) cString = true;
      continue;
    }
    if (a.startsWith('--')) continue;
    break;
  }
  const operand = args[i];
  if (cString) {
    if (operand === undefined) return;
    const info = c.infos[i];
    const outs = c.argSubsts[i] ?? [];
    if (outs.some((o) => o.download)) return addExec(an, 'download-and-run', `${name} -c with downloaded text`);
    if (outs.some((o) => o.decoded && o.text === undefined)) return addExec(an, 'decode-and-run', `${name} -c with decoded text`);
    if (info?.dynamic) {
      const known = outs.length === 1 && outs[0]!.text !== undefined && info.value === '$(...)' ? outs[0]!.text : undefined;
      if (known === undefined) return addExec(an, 'dynamic-command', `${name} -c ${operand}`);
      if (outs[0]!.decoded) addExec(an, 'decode-and-run', `${name} -c with decoded text`);
      addExec(an, 'shell-string', known);
      return analyseNested(an, known, `${name} -c`, c.scope, c.stdin);
    }
    addExec(an, 'shell-string', operand);
    return analyseNested(an, operand, `${name} -c`, c.scope, c.stdin);
  }
  if (operand !== undefined && operand !== '/dev/stdin') {
    const outs = c.argSubsts[i] ?? [];
    if (c.infos[i]?.substs.some((s) => s.proc)) {
      // bash <(curl ...): a process substitution is the script
      const out = outs[0];
      if (out?.download) return addExec(an, 'download-and-run', `${name} runs a downloaded script`);
      if (out?.decoded) return addExec(an, 'decode-and-run', `${name} runs a decoded script`);
      if (out?.text !== undefined) return analyseNested(an, out.text, `${name} <(...)`, c.scope);
      return addExec(an, 'pipe-to-shell', `${name} runs the output of a command`);
    }
    for (const e of pe(c, operand, name)) {
      an.effects.reads.push(e);
      addExec(an, an.downloaded.has(e.path) ? 'download-and-run' : 'run-script', e.path);
      runWritten(c, e.path);
    }
    return;
  }
  consumeStdin(c, name);
}

/** A script this same command line wrote a moment ago is analysed as what it contains. */
function runWritten(c: Call, path: string): void {
  const text = c.an.written.get(path);
  if (text !== undefined) analyseNested(c.an, text, `the script written to ${path}`, c.scope);
}

/** A shell or interpreter reading its program from standard input. */
function consumeStdin(c: Call, how: string): void {
  const { an } = c;
  const f = c.stdin;
  if (!f) return;
  const code = INTERPRETERS.has(c.name);
  if (f.download) {
    addExec(an, 'download-and-run', `downloaded text piped into ${how}`);
    an.flags.add('pipe-to-shell');
  } else if (f.decoded) {
    addExec(an, 'decode-and-run', `decoded text piped into ${how}`);
    an.flags.add('pipe-to-shell');
    if (f.text !== undefined) an.flags.add('decoded-payload');
  } else if (f.file !== undefined) {
    addExec(an, an.downloaded.has(f.file) ? 'download-and-run' : 'run-script', f.file);
    return;
  } else if (f.text === undefined) {
    addExec(an, 'pipe-to-shell', `output of a command piped into ${how}`);
    return;
  } else addExec(an, code ? 'inline-code' : 'shell-string', f.text);
  if (f.text !== undefined) {
    if (code) inlineCode(c, f.text);
    else analyseNested(an, f.text, `text piped into ${how}`, c.scope);
  }
}

/** Options of interpreters that are followed by the program text. */
const CODE_OPTS: Record<string, string[]> = {
  python: ['-c'],
  perl: ['-e', '-E'],
  ruby: ['-e'],
  node: ['-e', '--eval', '-p', '--print'],
  deno: ['eval'],
  bun: ['-e', '--eval'],
  php: ['-r'],
  lua: ['-e'],
  Rscript: ['-e'],
  osascript: ['-e'],
  pwsh: ['-c', '-Command', '-command', '-EncodedCommand', '-enc', '-e', '-ec'],
  tclsh: [],
  expect: ['-c'],
};

function interpreterCommand(c: Call): void {
  const { an, args, name } = c;
  const family = name.startsWith('python') ? 'python' : name === 'nodejs' ? 'node' : name === 'powershell' ? 'pwsh' : name;
  const codeOpts = CODE_OPTS[family] ?? [];
  let code: string | undefined;
  let script: string | undefined;
  let codeIdx = -1;
  if (family === 'php' && args.includes('-S')) {
    // php's built-in server runs every .php page under its document root (-t, else the working folder)
    an.flags.add('listens');
    const t = args.indexOf('-t');
    serves(c, t >= 0 ? (args[t + 1] ?? '.') : '.', SERVES_PHP);
    return;
  }
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (codeOpts.includes(a) || (family === 'perl' && /^-[a-zA-Z]*[eE]$/.test(a))) {
      code = args[i + 1];
      codeIdx = i + 1;
      break;
    }
    if (family === 'python' && a === '-m') {
      const mod = args[i + 1] ?? '';
      if (mod === 'http.server' || mod === 'SimpleHTTPServer' || mod === 'pyftpdlib') {
        an.flags.add('listens');
        an.effects.network.push({ target: 'listening socket', by: mod, sendsData: false });
        // http.server serves the folder -d / --directory names, else the working folder
        const rest = args.slice(i + 2);
        const d = rest.findIndex((x) => x === '-d' || x === '--directory');
        const eq = rest.find((x) => x.startsWith('--directory='));
        const root = d >= 0 ? rest[d + 1] : eq ? eq.slice('--directory='.length) : '.';
        if (root !== undefined && mod === 'http.server') serves(c, root, rest.includes('--cgi') ? SERVES_CGI : SERVES_FILES);
      }
      if (mod === 'pip') {
        an.effects.network.push({ target: 'package registry', by: 'pip', sendsData: false });
        an.flags.add('package-install');
      }
      return;
    }
    if (!a.startsWith('-')) {
      script = a;
      break;
    }
  }
  if (code !== undefined) {
    const outs = c.argSubsts[codeIdx] ?? [];
    if (outs.some((o) => o.download)) return addExec(an, 'download-and-run', `${name} runs downloaded code`);
    if (family === 'pwsh' && /^-(EncodedCommand|enc|e|ec)$/i.test(args[codeIdx - 1] ?? '')) return addExec(an, 'decode-and-run', `${name} -EncodedCommand`);
    addExec(an, 'inline-code', `${name}: ${code}`);
    inlineCode(c, code);
    // perl -pi -e '...' FILE: the files are edited in place
    if (family === 'perl' && args.slice(0, codeIdx).some((a) => /^-[a-zA-Z]*i/.test(a))) {
      for (const f of args.slice(codeIdx + 1).filter((a) => !a.startsWith('-'))) for (const e of pe(c, f, 'perl -i')) an.effects.writes.push(e);
    }
    return;
  }
  if (script !== undefined) {
    for (const e of pe(c, script, name)) {
      an.effects.reads.push(e);
      addExec(an, an.downloaded.has(e.path) ? 'download-and-run' : 'run-script', `${name} ${e.path}`);
    }
    return;
  }
  consumeStdin(c, name);
}

/**
 * Inline code of another language. There is no parser for it here, so it is read for intent:
 * network modules, deletions, process spawning, decode-then-exec, endless loops, and the string
 * literals that look like paths or shell commands.
 */
function inlineCode(c: Call, code: string): void {
  const { an, name } = c;
  const E = an.effects;
  const lower = code.toLowerCase();
  const net = /socket|urllib|requests\.|http\.client|httplib|net::http|open-uri|fetch\(|xmlhttprequest|lwp::|io::socket|smtplib|ftplib|paramiko|websocket|axios|https?\.(get|request)|invoke-webrequest|invoke-restmethod|net\.webclient|curl_exec|file_get_contents\(['"]https?/.test(lower);
  if (net) {
    const host = /['"](?:https?:\/\/)?(\d{1,3}(?:\.\d{1,3}){3}|[a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]{2,})(?::\d+)?/.exec(lower)?.[1];
    E.network.push({ target: host ?? 'inline-code', by: name, sendsData: /\.post|\.put\(|send\(|sendall|sendto|upload|\.write\(|smtplib|ftplib|storbinary|data=|json=|files=|method\s*[:=]\s*['"](post|put)/.test(lower) });
  }
  if (/socket/.test(lower) && /dup2|pty\.spawn|subprocess|\/bin\/(ba)?sh|exec\(|spawn\(|popen|system\(/.test(lower)) addExec(an, 'reverse-shell', `${name} connects a shell to a socket`);
  if (/rmtree|os\.remove|os\.unlink|unlink\(|rmdir|fs\.rm|rimraf|file\.delete|fileutils\.rm|remove-item|shutil\.move/.test(lower)) an.flags.add('inline-code-delete');
  if (/os\.system|subprocess|popen|exec\(|spawn|child_process|system\(|`|shell_exec|passthru|proc_open|invoke-expression|iex/.test(lower)) an.flags.add('inline-code-exec');
  if (/b64decode|base64|frombase64|decode\(|unhexlify|fromhex|atob\(|buffer\.from\(/.test(lower) && /exec|eval|system|popen|compile\(|invoke-expression|iex/.test(lower)) addExec(an, 'decode-and-run', `${name} decodes and runs code`);
  if (/(while\s*(true|1|\(\s*1\s*\)|\(\s*true\s*\))|for\s*\(\s*;\s*;\s*\)|loop\s*do|os\.fork|fork\s*(while|until|\(\))|fork\b.*\bwhile\b)/.test(lower) && !/sleep|time\.sleep|settimeout|break/.test(lower)) {
    E.exhaustion.push({ kind: 'inline-loop-or-fork', detail: `${name} code loops or forks without end` });
  }
  // shell commands handed to system()/popen()/subprocess
  for (const m of code.matchAll(/(?:system|popen|shell_exec|passthru|exec|check_output|check_call|run|call|Popen|spawn|execSync)\s*\(\s*(\[[^\]]*\]|(['"`])((?:\\.|(?!\2).)*)\2)/g)) {
    const arg = m[1]!;
    const cmd = arg.startsWith('[') ? [...arg.matchAll(/(['"])((?:\\.|(?!\1).)*)\1/g)].map((x) => quote(x[2]!)).join(' ') : m[3]!;
    if (cmd.trim()) analyseNested(an, cmd, `${name} runs a shell command`, c.scope);
  }
  for (const m of code.matchAll(/['"](\/[^'"\s]*|~\/[^'"\s]+)['"]/g)) {
    const raw = m[1]!;
    if (raw === '/' && !/rmtree|remove|unlink|rmdir|rm\b|chmod/.test(lower)) continue;
    for (const e of pathEffects(an, c.scope, raw, name, undefined)) {
      if (/rmtree|remove|unlink|rmdir|rm\b|remove-item/.test(lower)) E.deletes.push({ ...e, recursive: /rmtree|-r|recurse|recursive/.test(lower) });
      else if (/open\([^)]*['"][wa]|write|chmod|copy|move/.test(lower)) E.writes.push(e);
      else E.reads.push(e);
    }
  }
}

const CURL_VALUE_OPTS = ['-d', '--data', '--data-binary', '--data-raw', '--data-urlencode', '--data-ascii', '-F', '--form', '--form-string', '-T', '--upload-file', '-o', '--output', '-H', '--header', '-X', '--request', '-u', '--user', '-A', '--user-agent', '-e', '--referer', '-b', '--cookie', '-c', '--cookie-jar', '-K', '--config', '-x', '--proxy', '-m', '--max-time', '--connect-timeout', '-w', '--write-out', '-r', '--range', '-E', '--cert', '--key', '--cacert', '-U', '--proxy-user', '--resolve', '--retry', '-C', '--continue-at', '-Y', '-y', '-z', '--json', '--url', '--limit-rate', '--max-filesize', '--interface', '--dns-servers', '-D', '--dump-header', '--trace', '--trace-ascii', '--stderr'];
const WGET_VALUE_OPTS = ['-O', '--output-document', '-o', '--output-file', '-a', '-P', '--directory-prefix', '-i', '--input-file', '-U', '--user-agent', '--header', '--post-data', '--post-file', '--body-data', '--body-file', '--method', '-t', '--tries', '-T', '--timeout', '-e', '--execute', '--user', '--password', '-Q', '--quota', '-l', '--level', '-A', '-R', '--load-cookies', '--save-cookies'];
const SSH_VALUE_OPTS = ['-i', '-p', '-l', '-o', '-F', '-L', '-R', '-D', '-J', '-W', '-b', '-c', '-E', '-e', '-I', '-m', '-O', '-Q', '-S', '-w', '-B'];

function urlHost(u: string): string {
  try {
    const url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(u) ? u : `http://${u}`);
    return url.hostname || u;
  } catch {
    return u;
  }
}

/** Whether a network target is this machine. */
export function isLocalHost(target: string): boolean {
  const h = urlHost(target).replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h === '::1' || h === '0.0.0.0' || h.startsWith('127.') || h.endsWith('.localhost') || h === 'host.docker.internal';
}

/** What a web server started on a folder does with it: hands out its files, or also runs its CGI programs or PHP pages. */
export const SERVES_FILES = 'serves';
export const SERVES_CGI = 'serves, runs cgi-bin';
export const SERVES_PHP = 'serves, runs .php';
/** The `by` of the read effects that mark a served folder. */
export const SERVER_READS = new Set([SERVES_FILES, SERVES_CGI, SERVES_PHP]);

/** A web server started on `root`: everything under it can be fetched (a recursive read). */
function serves(c: Call, root: string, how: string): void {
  for (const e of pe(c, root, how, { recursive: true })) c.an.effects.reads.push(e);
}

function networkCommand(c: Call): void {
  const { an, name, args } = c;
  const E = an.effects;
  const dynamicArgs = c.infos.some((i) => i.dynamic && !i.substs.some((s) => s.proc));
  const stdinData = c.stdin !== undefined;
  const fileOf = (v: string): string | undefined => (v.startsWith('@') ? v.slice(1) : undefined);
  const readFile = (f: string): void => {
    if (f === '-' || f === '') return;
    for (const e of pe(c, f, name)) E.reads.push(e);
  };
  switch (name) {
    case 'curl': {
      const { operands, values, flags } = splitFlags(args, CURL_VALUE_OPTS);
      let sends = false;
      for (let i = 0; i < args.length; i++) {
        const a = args[i]!;
        const eq = a.startsWith('--') ? a.indexOf('=') : -1;
        const k = eq > 0 ? a.slice(0, eq) : a;
        const v = eq > 0 ? a.slice(eq + 1) : args[i + 1] ?? '';
        if (['-d', '--data', '--data-binary', '--data-raw', '--data-urlencode', '--data-ascii', '--json'].includes(k)) {
          sends = true;
          const f = k === '--data-raw' ? undefined : fileOf(v.includes('=@') ? v.slice(v.indexOf('=@') + 1) : v);
          if (f) readFile(f);
        } else if (k === '-F' || k === '--form') {
          sends = true;
          const m = /=[@<]([^;]+)/.exec(v);
          if (m) readFile(m[1]!);
        } else if (k === '-T' || k === '--upload-file') {
          sends = true;
          readFile(v);
        } else if (k === '-K' || k === '--config') readFile(v);
      }
      const urls = [...operands, ...(values.has('--url') ? [values.get('--url')!] : [])];
      for (const u of urls) {
        if (/^file:\/\//i.test(u)) {
          readFile(u.slice(7));
          continue;
        }
        E.network.push({ target: urlHost(u).slice(0, 300), by: 'curl', sendsData: sends || c.infos[args.indexOf(u)]?.dynamic === true || (stdinData && sends) });
      }
      if (urls.length === 0) E.network.push({ target: '?', by: 'curl', sendsData: sends });
      const out = values.get('-o') ?? values.get('--output');
      if (out && out !== '-' && out !== '/dev/stdout') for (const e of pe(c, out, 'curl -o')) downloaded(c, e);
      if (flags.has('-O') || flags.has('--remote-name')) for (const u of urls) downloadedName(c, u);
      break;
    }
    case 'wget': {
      const { operands, values } = splitFlags(args, WGET_VALUE_OPTS);
      const sends = values.has('--post-data') || values.has('--post-file') || values.has('--body-data') || values.has('--body-file') || /^(post|put)$/i.test(values.get('--method') ?? '');
      for (const k of ['--post-file', '--body-file', '-i', '--input-file']) if (values.has(k)) readFile(values.get(k)!);
      for (const u of operands) E.network.push({ target: urlHost(u).slice(0, 300), by: 'wget', sendsData: sends || c.infos[args.indexOf(u)]?.dynamic === true });
      const out = values.get('-O') ?? values.get('--output-document');
      if (out && out !== '-' && out !== '/dev/stdout') for (const e of pe(c, out, 'wget -O')) downloaded(c, e);
      else if (out === undefined) {
        const dir = values.get('-P') ?? values.get('--directory-prefix');
        for (const u of operands) downloadedName(c, u, dir);
      }
      break;
    }
    case 'httpd': {
      // busybox httpd: -d and -e only decode or encode a string; otherwise it serves -h (or the
      // working folder) and runs what is in its cgi-bin
      const { flags, values } = splitFlags(args, ['-p', '-h', '-c', '-u', '-r', '-d', '-e', '-m']);
      if (flags.has('-d') || flags.has('-e') || flags.has('-m')) break;
      an.flags.add('listens');
      serves(c, values.get('-h') ?? '.', SERVES_CGI);
      break;
    }
    case 'darkhttpd': {
      const { operands } = splitFlags(args, ['--port', '--addr', '--maxconn', '--log', '--chroot', '--index', '--mimetypes', '--uid', '--gid', '--pidfile', '--auth', '--header']);
      an.flags.add('listens');
      if (operands[0]) serves(c, operands[0], SERVES_FILES);
      break;
    }
    case 'nc':
    case 'ncat':
    case 'netcat':
    case 'telnet': {
      const { flags, operands } = splitFlags(args, ['-e', '-c', '-p', '-s', '-w', '-i', '-x', '-X', '-q', '--exec', '--sh-exec', '-o']);
      if (flags.has('-e') || flags.has('-c') || flags.has('--exec') || flags.has('--sh-exec')) addExec(an, 'reverse-shell', `${name} ${args.join(' ')}`);
      if (flags.has('-l') || flags.has('--listen')) an.flags.add('listens');
      const host = operands.find((o) => !/^\d+$/.test(o)) ?? (flags.has('-l') ? 'listening socket' : '?');
      E.network.push({ target: host.slice(0, 300), by: name, sendsData: stdinData || flags.has('-l') });
      break;
    }
    case 'socat': {
      const addrs = args.filter((a) => !a.startsWith('-'));
      if (addrs.some((a) => /^(exec|system):/i.test(a))) addExec(an, 'reverse-shell', `socat ${args.join(' ')}`);
      for (const a of addrs) {
        const m = /^(?:tcp|tcp4|tcp6|udp|udp4|udp6|openssl|ssl)(?:-connect)?:([^:,]+)/i.exec(a);
        if (m) E.network.push({ target: m[1]!, by: 'socat', sendsData: true });
        if (/^(?:tcp|udp)[46]?-listen:/i.test(a)) an.flags.add('listens');
        const f = /^(?:file|open|create|gopen):([^,]+)/i.exec(a) ?? (a.startsWith('/') ? [a, a] : null);
        if (f) readFile(f[1]!);
      }
      break;
    }
    case 'ssh': {
      const { operands, flags } = splitFlags(args, SSH_VALUE_OPTS);
      const host = (operands[0] ?? '?').replace(/^.*@/, '');
      if (flags.has('-R') || flags.has('-L') || flags.has('-D') || flags.has('-w')) an.flags.add('tunnel');
      E.network.push({ target: host.slice(0, 300), by: 'ssh', sendsData: stdinData || flags.has('-R') });
      const remote = operands.slice(1).join(' ');
      if (remote) {
        if (isLocalHost(host)) analyseNested(an, remote, 'ssh to this machine', c.scope, c.stdin);
        else addExec(an, 'remote-command', `on ${host}: ${remote}`);
      }
      break;
    }
    case 'ssh-copy-id': {
      const { operands } = splitFlags(args, ['-i', '-p', '-o', '-F']);
      E.network.push({ target: (operands[0] ?? '?').replace(/^.*@/, ''), by: name, sendsData: true });
      break;
    }
    case 'sftp':
    case 'ftp':
    case 'lftp':
    case 'tftp':
    case 'smbclient': {
      const { operands } = splitFlags(args, ['-b', '-P', '-i', '-o', '-F', '-u', '-e', '-U', '-p', '-c', '-W']);
      const text = [c.stdin?.text ?? '', ...args].join(' ');
      E.network.push({ target: (operands[0] ?? '?').replace(/^.*@/, '').split('/')[0]!.slice(0, 300), by: name, sendsData: /\b(put|mput|upload|send)\b/.test(text) || stdinData });
      break;
    }
    case 'mail':
    case 'mailx':
    case 's-nail':
    case 'sendmail':
    case 'mutt': {
      const { operands, values } = splitFlags(args, ['-s', '-a', '-A', '-c', '-b', '-r', '-f', '-F', '-S', '-e', '-i']);
      for (const k of ['-a', '-A']) if (values.has(k) && !(name === 'mail' && k === '-a' && values.get(k)!.includes(':'))) readFile(values.get(k)!);
      E.network.push({ target: (operands[0] ?? '?').slice(0, 300), by: name, sendsData: true });
      break;
    }
    case 'ping':
    case 'traceroute':
    case 'whois':
    case 'dig':
    case 'nslookup':
    case 'host': {
      const { operands } = splitFlags(args, ['-c', '-i', '-W', '-w', '-s', '-t', '-p', '-q', '-m', '-f', '-b', '-I']);
      const target = operands.find((o) => !o.startsWith('@') && !/^(A|AAAA|MX|TXT|NS|CNAME|ANY|SOA|PTR)$/i.test(o)) ?? '?';
      // a name built from a substitution leaks data through the lookup itself
      E.network.push({ target: target.slice(0, 300), by: name, sendsData: dynamicArgs });
      break;
    }
    case 'openssl':
      if (args[0] === 's_client') {
        const idx = args.indexOf('-connect');
        E.network.push({ target: (args[idx + 1] ?? '?').split(':')[0]!, by: 'openssl s_client', sendsData: stdinData });
      }
      break;
    default: {
      const { operands } = splitFlags(args, ['-o', '-d', '--output', '--dir', '-a', '--auth']);
      const url = operands.find((o) => /^[a-z][a-z0-9+.-]*:\/\//i.test(o) || /^[\w.-]+\.[a-z]{2,}(\/|:|$)/i.test(o)) ?? operands[0] ?? '?';
      const sends = ['POST', 'PUT', 'PATCH'].includes((operands[0] ?? '').toUpperCase()) || operands.some((o) => /^[\w-]+(:?=|@)/.test(o) && !o.includes('://'));
      E.network.push({ target: urlHost(url).slice(0, 300), by: name, sendsData: sends || dynamicArgs });
    }
  }
}

/** A file the script downloads: running or sourcing it later is download-and-run. */
function downloaded(c: Call, e: PathEffect): void {
  c.an.effects.writes.push(e);
  c.an.downloaded.add(e.path);
}

function downloadedName(c: Call, url: string, dir?: string): void {
  let name = 'index.html';
  try {
    const u = new URL(/^[a-z]+:\/\//i.test(url) ? url : `http://${url}`);
    name = u.pathname.split('/').pop() || 'index.html';
  } catch {
    return;
  }
  const path = normalizePath(dir ? `${dir}/${name}` : name, c.scope.cwd, c.an.home);
  for (const e of pathEffects(c.an, c.scope, path, `${c.name} (download)`, undefined)) downloaded(c, e);
}

export const READER_VALUE_OPTS: Record<string, string[]> = {
  head: ['-n', '-c', '--lines', '--bytes'],
  tail: ['-n', '-c', '--lines', '--bytes', '-s', '--pid', '--sleep-interval'],
  grep: ['-e', '-f', '-m', '-A', '-B', '-C', '--include', '--exclude', '--exclude-dir', '--regexp', '--file', '--max-count', '--color', '--label'],
  rg: ['-e', '-f', '-g', '--glob', '-t', '--type', '-T', '-m', '-A', '-B', '-C', '--max-count'],
  sort: ['-k', '-t', '-o', '-S', '-T', '--key', '--field-separator', '--output', '--buffer-size'],
  cut: ['-d', '-f', '-c', '-b', '--delimiter', '--fields'],
  xxd: ['-l', '-s', '-c', '-g', '-o', '-n'],
  od: ['-A', '-t', '-N', '-j', '-w'],
  jq: ['--arg', '--argjson', '--slurpfile', '--rawfile', '-f', '--from-file', '--indent'],
  awk: ['-F', '-v', '-f'],
  wc: [],
  base64: ['-w', '--wrap'],
  gpg: ['-o', '--output', '-r', '--recipient', '-u', '--local-user', '--passphrase'],
  openssl: ['-in', '-out', '-pass', '-k', '-kfile', '-passin', '-passout', '-inkey', '-md', '-iter'],
  unzip: ['-d', '-P', '-x'],
  zip: ['-P', '-x', '-i', '-b', '-n', '-t', '-tt'],
  diff: ['-U', '-C', '--label', '-x', '--exclude', '-I'],
  sqlite3: ['-cmd', '-separator', '-nullvalue'],
  du: ['-d', '--max-depth', '--exclude', '-B'],
  stat: ['-c', '--format', '--printf'],
  file: ['-m', '--magic-file', '-F', '--separator', '-e', '--exclude', '-P', '--parameter'],
  uniq: ['-f', '--skip-fields', '-s', '--skip-chars', '-w', '--check-chars'],
  nl: ['-b', '-d', '-f', '-h', '-i', '-l', '-n', '-s', '-v', '-w', '--body-numbering', '--number-separator', '--number-width', '--starting-line-number'],
  cmp: ['-i', '--ignore-initial', '-n', '--bytes'],
  paste: ['-d', '--delimiters'],
  column: ['-s', '--separator', '-c', '--output-width', '-o', '--output-separator', '-N', '--table-columns'],
  iconv: ['-f', '--from-code', '-t', '--to-code', '-o', '--output'],
  strings: ['-n', '--bytes', '-t', '--radix', '-e', '--encoding'],
  hexdump: ['-n', '-s', '-e'],
  base32: ['-w', '--wrap'],
};

/** Compressors and their file suffix; the un- names decompress. */
export const COMPRESSORS = new Map([
  ['gzip', '.gz'],
  ['gunzip', '.gz'],
  ['bzip2', '.bz2'],
  ['bunzip2', '.bz2'],
  ['xz', '.xz'],
  ['unxz', '.xz'],
  ['zstd', '.zst'],
  ['unzstd', '.zst'],
]);

/**
 * gzip and its kin: each file operand is read, and (unless the output goes to stdout) the
 * compressed or decompressed file is written beside it and the original removed, unless kept
 * (-k; zstd keeps by default).
 */
function compressorCommand(c: Call, flags: Set<string>, operands: string[], recursive: boolean): void {
  const { name } = c;
  const E = c.an.effects;
  const short = [...flags].filter((f) => /^-[a-zA-Z0-9]+$/.test(f)).join('');
  const has = (ch: string, long: string): boolean => (ch !== '' && short.includes(ch)) || flags.has(long);
  const suffix = COMPRESSORS.get(name)!;
  const decompress = name.startsWith('un') || name === 'gunzip' || has('d', '--decompress') || has('d', '--uncompress');
  const toStdout = has('c', '--stdout') || has('c', '--to-stdout');
  const listOnly = has('l', '--list') || has('t', '--test');
  const keep = has('k', '--keep') || (name.endsWith('zstd') && !has('', '--rm'));
  // -1 .. -9 (and zstd's -19) are compression levels
  for (const o of operands.filter((x) => !/^-\d+$/.test(x))) {
    readPaths(c, o, name, recursive);
    if (toStdout || listOnly) continue;
    const out = recursive ? o : decompress ? (o.endsWith(suffix) ? o.slice(0, -suffix.length) : o) : `${o}${suffix}`;
    for (const e of pe(c, out, name, { recursive })) E.writes.push(e);
    // each file is replaced by its (de)compressed form; a folder given with -r stays
    if (!keep && !recursive) for (const e of pe(c, o, name)) E.deletes.push(e);
  }
}

function readerCommand(c: Call): void {
  const { an, name, args } = c;
  const E = an.effects;
  if (name === 'tar') return tarCommand(c);
  const family = name === 'egrep' || name === 'fgrep' ? 'grep' : name === 'gawk' || name === 'mawk' ? 'awk' : name;
  const { flags, operands, values } = splitFlags(args, READER_VALUE_OPTS[family] ?? []);
  const recursive = flags.has('-r') || flags.has('-R') || flags.has('--recursive');
  if (family === 'openssl') {
    const input = values.get('-in');
    if (input) readPaths(c, input, 'openssl');
    const output = values.get('-out');
    if (output) for (const e of pe(c, output, 'openssl')) E.writes.push(e);
    return;
  }
  if (family === 'gpg') {
    const out = values.get('-o') ?? values.get('--output');
    if (out) for (const e of pe(c, out, 'gpg')) E.writes.push(e);
    for (const o of operands) readPaths(c, o, 'gpg');
    return;
  }
  if (family === 'zip') {
    if (operands[0]) for (const e of pe(c, operands[0], 'zip')) E.writes.push(e);
    for (const o of operands.slice(1)) readPaths(c, o, 'zip', recursive);
    return;
  }
  if (family === 'unzip' || family === '7z') {
    const archive = family === '7z' ? operands[1] : operands[0];
    if (archive) readPaths(c, archive, name);
    const dir = values.get('-d') ?? '.';
    if (family === 'unzip' || operands[0] === 'x' || operands[0] === 'e') for (const e of pe(c, dir, `${name} extract`, { recursive: true })) E.writes.push(e);
    return;
  }
  if (family === 'sort' && (values.has('-o') || values.has('--output'))) for (const e of pe(c, values.get('-o') ?? values.get('--output')!, 'sort -o')) E.writes.push(e);
  if (family === 'iconv' && (values.has('-o') || values.has('--output'))) for (const e of pe(c, values.get('-o') ?? values.get('--output')!, 'iconv -o')) E.writes.push(e);
  if (COMPRESSORS.has(family)) return compressorCommand(c, flags, operands, recursive);
  if (family === 'awk') {
    const prog = values.has('-f') ? undefined : operands[0];
    if (prog && /system\s*\(|\|\s*getline|print\s*\|\s*"/.test(prog)) {
      addExec(an, 'inline-code', `awk ${prog}`);
      const m = /system\s*\(\s*"([^"]+)"/.exec(prog);
      if (m) analyseNested(an, m[1]!, 'awk system()', c.scope);
    }
    const inPlace = args.includes('-i') && args[args.indexOf('-i') + 1] === 'inplace';
    for (const f of (prog === undefined ? operands : operands.slice(1)).filter((f) => !/^\w+=/.test(f) && f !== 'inplace')) {
      if (inPlace) for (const e of pe(c, f, 'awk -i inplace')) E.writes.push(e);
      else readPaths(c, f, 'awk');
    }
    return;
  }
  // grep / rg / jq take a pattern or filter first
  const hasPatternOpt = values.has('-e') || values.has('-f') || values.has('--regexp') || values.has('--file');
  const files = (family === 'grep' || family === 'rg' || family === 'jq') && !hasPatternOpt ? operands.slice(1) : operands;
  if (family === 'sqlite3') return files.slice(0, 1).forEach((f) => readPaths(c, f, name));
  // xxd INFILE OUTFILE: the second operand is the dump (or, with -r, the rebuilt file) it writes
  if (family === 'xxd' && files.length >= 2) {
    if (files[0] !== '-') readPaths(c, files[0]!, name);
    for (const e of pe(c, files[1]!, name)) E.writes.push(e);
    return;
  }
  for (const f of files) if (f !== '-') readPaths(c, f, name, recursive);
  if ((family === 'grep' || family === 'rg') && recursive && files.length === 0) readPaths(c, '.', name, true);
}

function readPaths(c: Call, raw: string, by: string, recursive = false): void {
  for (const e of pe(c, raw, by, { recursive })) c.an.effects.reads.push(e);
}

/** tar options whose value is a command tar runs itself (besides --checkpoint-action=exec=CMD). */
const TAR_RUNS = new Set(['--to-command', '--use-compress-program', '-I', '--rsh-command', '-F', '--info-script', '--new-volume-script']);

/** What a tar command line says. */
export interface TarArgs {
  create: boolean;
  extract: boolean;
  append: boolean;
  list: boolean;
  archive?: string;
  dir?: string;
  operands: string[];
  /** Every option given, short ones one letter each (-tvf -> -t -v -f), long ones without their =value. */
  options: string[];
  /** Commands tar would run itself (--to-command, -I, --checkpoint-action=exec=...), with the option that names each. */
  runs: { option: string; code: string }[];
}

/** What a tar command line says: its mode, the archive, the folder (-C), the member operands, its options and the commands it runs. */
export function tarArgs(args: string[]): TarArgs {
  const first = args[0] ?? '';
  const bundle = /^-?[A-Za-z]+$/.test(first) && !first.startsWith('--') ? first.replace(/^-/, '') : '';
  const has = (ch: string, long: string): boolean => bundle.includes(ch) || args.includes('-' + ch) || args.includes(long);
  let archive: string | undefined;
  let dir: string | undefined;
  const operands: string[] = [];
  const options = [...bundle].map((ch) => `-${ch}`);
  const runs: TarArgs['runs'] = [];
  for (let i = bundle ? 1 : 0; i < args.length; i++) {
    const a = args[i]!;
    const eq = a.startsWith('--') ? a.indexOf('=') : -1;
    const key = eq > 0 ? a.slice(0, eq) : a;
    if (a.startsWith('--')) options.push(key);
    else if (a.startsWith('-') && a !== '-') options.push(...[...a.slice(1)].map((ch) => `-${ch}`));
    if (TAR_RUNS.has(key) || key === '--checkpoint-action') {
      const value = eq > 0 ? a.slice(eq + 1) : args[++i];
      const exec = key === '--checkpoint-action' ? /^(?:exec|sh)=([\s\S]*)$/.exec(value ?? '')?.[1] : value;
      if (exec !== undefined) runs.push({ option: key, code: exec });
    } else if (a === '-f' || a === '--file') archive = args[++i];
    else if (a.startsWith('--file=')) archive = a.slice(7);
    else if (a === '-C' || a === '--directory') dir = args[++i];
    else if (a.startsWith('--directory=')) dir = a.slice(12);
    else if (['-T', '-X', '--files-from', '--exclude-from', '--exclude', '-H', '--format', '-b', '-N', '--newer', '--owner', '--group', '--mode', '--transform'].includes(a)) i++;
    else if (/^-[A-Za-z]*f$/.test(a)) archive = args[++i];
    else if (!a.startsWith('-') || a === '-') operands.push(a);
  }
  if (bundle.includes('f') && archive === undefined) archive = operands.shift();
  return {
    create: has('c', '--create'),
    extract: has('x', '--extract') || args.includes('--get'),
    append: has('r', '--append') || has('u', '--update'),
    list: options.includes('-t') || options.includes('--list'),
    ...(archive !== undefined ? { archive } : {}),
    ...(dir !== undefined ? { dir } : {}),
    operands,
    options,
    runs,
  };
}

function tarCommand(c: Call): void {
  const { an, args } = c;
  const E = an.effects;
  const { create, extract, append, archive, dir, operands, runs } = tarArgs(args);
  // options that make tar run a command of its own
  for (const r of runs) {
    addExec(an, 'shell-string', `tar ${r.option} ${r.code}`);
    analyseNested(an, r.code, `tar ${r.option}`, c.scope);
  }
  if (create || append) {
    const base = dir ? normalizePath(dir, c.scope.cwd, an.home) : undefined;
    for (const o of operands) {
      const raw = base && !o.startsWith('/') ? `${base}/${o}` : o;
      for (const e of pathEffects(an, c.scope, raw, 'tar', c.infos[args.indexOf(o)], { recursive: true })) {
        E.reads.push(e);
        c.pathForms.set(o, `<path:${e.path}>`);
      }
    }
    if (archive && archive !== '-') for (const e of pe(c, archive, 'tar')) E.writes.push(e);
    if (args.includes('--remove-files')) for (const o of operands) for (const e of pe(c, o, 'tar --remove-files', { recursive: true })) E.deletes.push(e);
  } else if (extract) {
    for (const e of pe(c, dir ?? '.', 'tar -x', { recursive: true })) E.writes.push(e);
    if (archive && archive !== '-') readPaths(c, archive, 'tar');
  } else if (archive && archive !== '-') readPaths(c, archive, 'tar');
}

const ENDLESS = /^\/dev\/(zero|urandom|random)$/;

/** grep's options that take a value (the pattern given by -e or -f is not an operand then). */
const GREP_VALUE_OPTS = ['-e', '-f', '-m', '-A', '-B', '-C', '-d', '-D', '--regexp', '--file', '--max-count', '--include', '--exclude', '--exclude-dir', '--label', '--context', '--after-context', '--before-context'];

/**
 * A `grep -l` (or -L, which prints file names): its pattern (the one given with -e, or its first
 * operand; undefined when it reads patterns from a file), the files it searches and whether it
 * searches folders recursively. Undefined when it prints lines.
 */
export function grepListing(args: string[]): { pattern: string | undefined; files: string[]; recursive: boolean } | undefined {
  const { flags, operands, values } = splitFlags(args, GREP_VALUE_OPTS);
  if (!['-l', '-L', '--files-with-matches', '--files-without-match'].some((f) => flags.has(f))) return undefined;
  const given = values.has('-e') || values.has('-f') || values.has('--regexp') || values.has('--file');
  const pattern = values.get('-e') ?? values.get('--regexp') ?? (given ? undefined : operands[0]);
  return { pattern, files: given ? operands : operands.slice(1), recursive: ['-r', '-R', '--recursive', '--dereference-recursive'].some((f) => flags.has(f)) };
}

/**
 * What `grep -l` (or -L) prints: the names of some of the files it searched, so at most the
 * files it was given, or everything below the folders it searches with -r. Undefined when it
 * prints lines, or reads its standard input.
 */
function grepListedFiles(c: Call): string[] | undefined {
  const listing = grepListing(c.args);
  if (!listing) return undefined;
  const { files, recursive } = listing;
  const searched = files.length > 0 ? files : recursive ? ['.'] : [];
  if (searched.length === 0 || searched.includes('-')) return undefined;
  return searched.map((f) => normalizePath(recursive ? `${f.replace(/\/+$/, '') || '/'}/**/*` : f, c.scope.cwd, c.an.home));
}

/** What a command writes to standard output, for the next pipeline stage. */
function outputOf(c: Call): Feed {
  const { name, args, stdin, an } = c;
  const { flags, operands } = splitFlags(args);
  switch (name) {
    case 'echo': {
      const opts = new Set<string>();
      let i = 0;
      while (i < args.length && /^-[neE]+$/.test(args[i]!)) for (const ch of args[i++]!.slice(1)) opts.add(ch);
      const text = args.slice(i).join(' ');
      return { text: opts.has('e') ? unescapeC(text) : text };
    }
    case 'printf': {
      const fmt = args[0] ?? '';
      const rest = args.slice(1);
      let k = 0;
      const text = unescapeC(fmt.replace(/%%/g, '\u0000')).replace(/%(-?\d*)([sbdxXc])/g, (_, _w: string, conv: string) => {
        const v = rest[k++] ?? '';
        return conv === 'b' ? unescapeC(v) : v;
      });
      return { text: text.replace(/\u0000/g, '%') + (k < rest.length ? rest.slice(k).join('') : '') };
    }
    case 'cat':
    case 'tee':
    case 'tac':
    case 'head':
    case 'tail':
    case 'sed':
    case 'grep':
    case 'sort':
    case 'uniq':
    case 'cut':
    case 'awk':
    case 'stdbuf': {
      const files = name === 'cat' || name === 'tac' ? operands.filter((o) => o !== '-') : [];
      if (files.length > 0) {
        const f = normalizePath(files[0]!, c.scope.cwd, an.home);
        return { file: f, download: an.downloaded.has(f), ...(files.some((x) => ENDLESS.test(x)) ? { endless: true } : {}) };
      }
      if (name === 'grep') {
        const listed = grepListedFiles(c);
        if (listed) return { paths: listed };
      }
      if (!stdin) return {};
      // the process list narrowed by a grep (one pattern, not inverted) or passed on by a
      // column picker: the lines still stand for the processes they list
      if (stdin.procs) {
        if (name === 'grep') {
          const { flags: gf, operands: go } = splitFlags(args, ['-e', '-m']);
          const known = [...gf].every((f) => /^-[iEFw]+$/.test(f));
          if (known && stdin.procs.pattern === '' && go.length === 1 && go[0] !== '') return { procs: { pattern: go[0]! } };
          // (`grep -v grep` takes only the grep itself out of the list: the idiom changes nothing)
          if (gf.size === 1 && gf.has('-v') && go.length === 1 && go[0] === 'grep') return { procs: stdin.procs };
          return {};
        }
        if (name === 'awk' || name === 'cut' || name === 'head' || name === 'tail' || name === 'sort' || name === 'uniq') {
          // (an awk program with one /pattern/ of plain letters picks the lines as a grep for it
          // would, `[p]lotsubmit` hiding itself from its own match; a column test beside it only
          // narrows further; any other program is not read)
          const program = args.find((a) => !a.startsWith('-')) ?? '';
          const picks = name === 'awk' && stdin.procs.pattern === '' ? [...program.matchAll(/\/([^/]*)\//g)].map((m) => m[1]!.replace(/\[([A-Za-z0-9])\]/g, '$1')) : [];
          if (picks.length === 1 && /^[A-Za-z0-9_.-]{3,}$/.test(picks[0]!) && !/~|\|\||!\s*\//.test(program)) return { procs: { pattern: picks[0]! } };
          if (name === 'awk' && /\/[^/]*\/|\$\d+\s*[=~!]=?|~/.test(program)) return {};
          return { procs: stdin.procs };
        }
      }
      const passText = name === 'cat' || name === 'tee';
      const out: Feed = {};
      if (stdin.download) out.download = true;
      if (stdin.decoded) out.decoded = true;
      if (passText && stdin.text !== undefined) out.text = stdin.text;
      if (stdin.paths && ['head', 'tail', 'grep', 'sort', 'uniq', 'cat', 'tee'].includes(name)) out.paths = stdin.paths;
      if (stdin.file && passText) out.file = stdin.file;
      return out;
    }
    case 'dd':
      return c.ddEndless ? { endless: true } : {};
    case 'base64':
    case 'base32':
    case 'basenc': {
      if (!(flags.has('-d') || flags.has('--decode') || flags.has('-D'))) return {};
      const text = name === 'base64' && stdin?.text !== undefined ? decodeBase64(stdin.text) : undefined;
      if (text !== undefined && !stdin?.download) an.flags.add('base64-payload');
      return { decoded: true, ...(text !== undefined ? { text } : {}), ...(stdin?.download ? { download: true } : {}) };
    }
    case 'xxd': {
      if (!flags.has('-r')) return {};
      const text = stdin?.text !== undefined ? decodeHex(stdin.text) : undefined;
      return { decoded: true, ...(text !== undefined ? { text } : {}), ...(stdin?.download ? { download: true } : {}) };
    }
    case 'rev':
      return { decoded: true, ...(stdin?.text !== undefined ? { text: stdin.text.split('\n').map((l) => [...l].reverse().join('')).join('\n') } : {}), ...(stdin?.download ? { download: true } : {}) };
    case 'tr': {
      const rot = operands.length === 2 && /^a-za-z$/i.test(operands[0]!) && /^n-za-mn-za-m$/i.test(operands[1]!);
      return { decoded: true, ...(rot && stdin?.text !== undefined ? { text: rot13(stdin.text) } : {}), ...(stdin?.download ? { download: true } : {}) };
    }
    case 'gunzip':
    case 'zcat':
    case 'bunzip2':
    case 'bzcat':
    case 'xzcat':
    case 'unxz':
    case 'uudecode':
    case 'zstdcat':
      return { decoded: true, ...(stdin?.download ? { download: true } : {}) };
    case 'gzip':
    case 'bzip2':
    case 'xz':
    case 'zstd':
    case 'openssl':
    case 'gpg':
      if (flags.has('-d') || flags.has('--decompress') || flags.has('--decrypt') || args.includes('-d')) return { decoded: true, ...(stdin?.download ? { download: true } : {}) };
      return {};
    case 'curl': {
      const { values, flags: f } = splitFlags(args, CURL_VALUE_OPTS);
      const out = values.get('-o') ?? values.get('--output');
      if ((out && out !== '-') || f.has('-O') || f.has('--remote-name')) return {};
      return { download: true };
    }
    case 'wget': {
      const { values } = splitFlags(args, WGET_VALUE_OPTS);
      const out = values.get('-O') ?? values.get('--output-document');
      return out === '-' || out === '/dev/stdout' ? { download: true } : {};
    }
    case 'nc':
    case 'ncat':
    case 'netcat':
    case 'socat':
    case 'fetch':
    case 'aria2c':
    case 'http':
    case 'https':
    case 'xh':
      return { download: true };
    case 'find': {
      const idx = args.findIndex((a, i) => (a === '-name' || a === '-iname') && !negatedTest(args, i));
      const opts = args.findIndex((a) => !['-H', '-L', '-P'].includes(a));
      const from = opts < 0 ? args.length : opts;
      const expr = args.slice(from).findIndex((a) => a.startsWith('-') || a === '(' || a === '!');
      const root = (expr < 0 ? args.slice(from) : args.slice(from, from + expr))[0] ?? '.';
      const pattern = idx >= 0 ? args[idx + 1] : undefined;
      return { paths: [normalizePath(pattern ? `${root.replace(/\/+$/, '')}/**/${pattern}` : root, c.scope.cwd, an.home)] };
    }
    case 'ls':
      return { paths: (operands.length ? operands : ['*']).map((o) => normalizePath(o, c.scope.cwd, an.home)) };
    case 'pwd':
      return c.scope.cwdKnown ? { text: c.scope.cwd } : {};
    case 'yes':
      return { endless: true };
    case 'ps':
      return { procs: { pattern: '' } };
    case 'pgrep':
    case 'pidof': {
      // kill $(pgrep sshd) signals sshd: the lookup stands for the process it names
      const { flags: pf, operands: ops } = splitFlags(args, ['-u', '-U', '-g', '-G', '-P', '-s', '-t', '-F', '-o']);
      // (the processes it finds are the ones a kill of that name reaches: pidof by the exact
      // name, pgrep by a pattern over names, or over whole command lines with -f)
      if (ops.length === 1) lookedUp(an).set(ops[0]!, name === 'pidof' ? 'exact' : pf.has('-f') ? 'line' : 'name');
      return ops.length === 1 ? { text: ops[0]! } : {};
    }
    default:
      return {};
  }
}
