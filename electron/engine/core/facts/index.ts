/**
 * extractFacts: one action in, the facts the checks and the memory work on. Synchronous and
 * pure. A parse failure is recorded in `parseError` (the gate fails closed on it); it never
 * throws for a malformed action.
 */
import type { ActionRequest, Effects, Facts, PathEffect } from '../../../../shared/types.js';
import { analyseShell, type ShellSink } from './shell.js';
import { analyseTool } from './tool.js';
import { sqlFacts } from './sql.js';
import { sedArgs, sedS } from './sed.js';
import { etcFilesForJobs, homePlacesNamed, isLogPath, isUnder, normalizePath, persistencePlace, privilegePlace, requestPathsOf, requestWords, secretNamed, type RequestScope } from './paths.js';
import { paraphraseOf, commandFormOf } from './paraphrase.js';

import { inertReason } from './inert.js';
import { AUDIT_TRAIL } from './file-kinds.js';
import { onlyTakesAway } from './modes.js';
import { REPLACE_ASK } from './asked-change.js';
import { grepListing, splitFlags } from './shell-commands.js';
export { SHELL_LIMITS } from './shell.js';
export { inertReason, scriptRunReason } from './inert.js';
export { isDevicePath, isHomeRoot, isRelocation, resolveLinkTarget, isLogPath, isSettingsOrData, isScratchPath, isSensitivePath, isSystemArea, isSystemPath, isUnder, inRequestScope, normalizePath, parentOf, requestWords, type RequestScope } from './paths.js';
export { isLocalHost } from './shell-commands.js';
export { grantsGroupWrite, grantsSetuid, grantsWorldRead, grantsWorldWrite } from './modes.js';

/** Who acts, where, and from which home: the defaults every layer must agree on. */
export interface ActionBase {
  user: string;
  home: string;
  cwd: string;
}

/** The identity, home and working directory of a request, with the defaults filled in. */
export function actionBase(req: ActionRequest): ActionBase {
  const user = req.context?.user ?? 'user';
  const home = req.context?.home ?? (user === 'root' ? '/root' : '/home/user');
  // an agent without a stated working directory is taken to work in a project folder under home
  const cwd = req.context?.cwd ?? `${home}/work`;
  return { user, home, cwd };
}

/** What the request names, for scope decisions. */
export function requestScope(req: ActionRequest, base: ActionBase = actionBase(req)): RequestScope {
  const text = req.request ?? '';
  return { paths: [...new Set([...requestPathsOf(text, base.cwd, base.home), ...etcFilesForJobs(text), ...homePlacesNamed(text, base.home)])], words: requestWords(text), home: base.home, text };
}

function emptyEffects(): Effects {
  return { reads: [], writes: [], deletes: [], modeChanges: [], ownerChanges: [], network: [], signals: [], privilege: [], persistence: [], exhaustion: [], execution: [] };
}

function dedupePaths(list: PathEffect[]): PathEffect[] {
  const seen = new Map<string, PathEffect>();
  for (const e of list) {
    const key = `${e.path}\u0000${e.by}\u0000${e.mode ?? ''}`;
    const cur = seen.get(key);
    if (!cur) seen.set(key, e);
    else {
      cur.recursive ||= e.recursive;
      cur.dynamic ||= e.dynamic;
      cur.glob ||= e.glob;
      // the same file edited twice reads as account changes only when both edits do
      if (cur.accounts && e.accounts) cur.accounts = [...new Set([...cur.accounts, ...e.accounts])];
      else delete cur.accounts;
      // done now as well as by a job later, it is done now
      if (!e.job) delete cur.job;
    }
  }
  return [...seen.values()];
}

function dedupe<T>(list: T[]): T[] {
  const seen = new Set<string>();
  return list.filter((x) => {
    const k = JSON.stringify(x);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

/** Writes and deletes that switch a security control off. */
function disablesSecurity(e: PathEffect, how: 'write' | 'delete'): boolean {
  if (how === 'write') return ['/proc/sys/kernel/randomize_va_space', '/proc/sys/kernel/yama/ptrace_scope', '/etc/selinux/config', '/sys/kernel/security'].some((p) => isUnder(e.path, p));
  return ['/etc/apparmor.d', '/etc/audit', '/etc/selinux', '/etc/ufw', '/etc/fail2ban'].some((p) => isUnder(e.path, p));
}

/**
 * A setting written that switches a control off: an audit, a PIN or a witness required, a second
 * factor, a verification, or a safety alarm and where it is sent (`audit=off`, `require_pin=no`,
 * `verify_signatures: false`, `overspeed_trip=none`, `customs_hold_check=off`).
 */
const CONTROL_OFF = /^\s*([\w.-]*audit[\w.-]*|[\w.-]*pin_?required|require_?pin[\w.-]*|[\w.-]*witness[\w.-]*|[\w.-]*(mfa|2fa|two_?factor|otp)[\w.-]*|[\w.-]*verification[\w.-]*|verify_?[\w.-]*|[\w.-]*signatures?_?required|[\w.-]*(alarm|alerts?|overspeed|fire|smoke|trip|safety|emergency|intrusion|tamper)[\w.-]*|[\w.-]*(hold_?check|inspection|quarantine|compliance|sanctions?|embargo|interlock|lockout)[\w.-]*)\s*[=:]\s*["']?(off|no|false|0|disabled?|none|never)["']?\s*$/i;

/** A setting written that opens an access control by default: a door controller's or a filter's default policy made allow (`default_policy=allow`). */
const ACCESS_OPENED = /^\s*[\w.-]*(default_?(policy|action|access|rule|verdict)|fail_?mode)\s*[=:]\s*["']?(allow|accept|permit|open|unlocked|pass)["']?\s*$/i;

/** File endings of configuration: an audit's settings are not its trail. */
const CONFIG_ENDING = /\.(conf|cfg|ini|ya?ml|json|toml|rules|properties|env|xml)$/;
/** A file name without the marker a corrected or new copy carries (`pump_curves.fixed.csv` -> `pump_curves.csv`), or '' when it has none. */
function unmarked(name: string): string {
  const m = /^(.+?)[._-](fixed|corrected|new|updated|patched|edited|final|good|v\d+)(\.[A-Za-z0-9]+)?$/i.exec(name);
  return m ? `${m[1]}${m[3] ?? ''}` : '';
}
/** A file listing people who asked not to be contacted. */
const CONSENT_LIST = /(^|[^a-z])(opt[-_]?outs?|unsubscribe[sd]?|unsubs|suppression|do[-_]?not[-_]?(call|contact|mail|email|text|sms)|dnc)([^a-z]|$)/i;
/**
 * A substitution (after an address, or one of several commands) whose pattern holds a failure and
 * whose replacement a pass; or one with no address, so on every line, that turns what is owed or
 * refused into paid or approved (`s/,OVERDUE,/,PAID,/`: every overdue member marked paid).
 */
function failTurnedPass(script: string): boolean {
  for (const m of script.matchAll(/(^|[\s;{}/0-9$])(?=s[^\sa-zA-Z0-9\\])/g)) {
    const at = (m.index ?? 0) + m[1]!.length;
    const sub = sedS(script.slice(at));
    if (sub && /\bFAIL(ED|S|URE)?\b/i.test(sub.pattern) && /\bPASS(ED|ES)?\b/i.test(sub.replacement)) return true;
    const everyLine = /^\s*(;\s*)?$/.test(script.slice(0, at).replace(/^[\s\S]*;/, ''));
    if (sub && everyLine && /\b(OVERDUE|UNPAID|OUTSTANDING|ARREARS|DECLINED|REJECTED|DENIED)\b/i.test(sub.pattern) && /\b(PAID|SETTLED|APPROVED|ACCEPTED|CLEARED)\b/i.test(sub.replacement)) return true;
  }
  return false;
}

/** sshd settings that open logins up: root by password, passwords at all, empty passwords, loose key files. */
const WEAK_SSHD = /\b(PermitRootLogin\s+yes|PasswordAuthentication\s+yes|PermitEmptyPasswords\s+yes|StrictModes\s+no)\b/i;

/**
 * What a command writes as text: for sed with one script, its substitutions' replacements and the
 * text it appends, inserts or changes (not what it searches for); else all its arguments.
 */
function writtenWords(c: Facts['commands'][number]): string[] {
  // (every script a sed is given, `-e A -e B`, not only its first)
  const scripts = c.name === 'sed' ? sedArgs(c.argv.slice(1)).scripts : undefined;
  if (scripts === undefined || scripts.length === 0) return c.argv.slice(1);
  return scripts.flatMap((script) => script.split(/[;\n]/)).flatMap((part) => {
    // past its address (a pattern or line numbers), a substitution writes its replacement and
    // an append, insert or change command its text
    const cmd = part.trim().replace(/^(\/[^/]*\/|\d+(,\d+)?|\$)\s*/, '');
    const s = sedS(cmd);
    return s ? [s.replacement] : /^[aic]\b/.test(cmd) ? [cmd.slice(1)] : [];
  });
}

/** Programs that replace a file by its compressed copy. */
const COMPRESSORS = new Set(['gzip', 'bzip2', 'xz', 'zstd', 'lzma', 'lz4']);

/**
 * A request whose author vouches, in person, for what a list file holds: "I went through it and
 * everything on it can go" (a list a tool wrote, "supposed to be" junk, is no such word).
 */
const LIST_ASK = /\b(I|we)('ve| have)?\s+(went|gone|been) through\b|\b(I|we)('ve| have)?\s+(checked|reviewed|vetted|verified|confirmed|approved|gone over)\b|\b(everything|all|each|every (file|path|one|entry)|whatever)\s+(on|in)\s+(it|there|that|this|the|my)\b[^.;]{0,30}\b(can go|is safe|are safe|can be (deleted|removed)|is junk|is garbage)\b/i;
/** A request that asks for what a list holds by its place on the list ("the duplicates listed in ~/x.txt"). */
const LISTED = /\b(listed|named) (in|on)\b|\b(on|in) the list\b/i;
/** A request that only hopes a list is right, or says a program wrote it. */
const LIST_HEDGE = /\b(supposed to|should be|probably|apparently|i think|i guess|hopefully|generated|tool|script|report|scan(ner)?|automatic(ally)?)\b/i;
/** Whether the request names account `name`'s home as that account's: "NAME's home", "the NAME account ... its own home". */
function homeNamed(name: string, request: string): boolean {
  const n = name.replace(/[.]/g, '\\.');
  return new RegExp(`\\b${n}'s (old )?home( dir| directory| folder)?\\b|\\b${n}['"]? (account|user)\\b[^.;]{0,40}\\b(its|his|her|their) (own )?home\\b`, 'i').test(request);
}

/** A request that says a named file's companions go with it ("and its journal files", "with its -wal and -shm files"). */
const COMPANIONS_ASK = /\b(and|with|plus) (its|the|their) ([\w.-]+ ){0,3}(files?|companions|sidecars?|journals?|siblings)\b/i;

/** A request to empty something in place. */
/** A request to remove a lock ("remove the lock", "clear the stale lock file"). */
const LOCK_ASK = /\b(remove|delete|clear|rm|get rid of|drop|nuke|kill)\b[^.;]{0,40}\block( ?files?|s)?\b|\b(stale|old|leftover|dead|orphaned) lock/i;
const EMPTY_ASK = /\b(empty|truncate|zero|clear|blank)\b/i;

/** A request that speaks of an account's home folder. */
const HOME_ASK = /\bhomes?\b/i;

/** Facts for one validated action request. */
export function extractFacts(req: ActionRequest): Facts {
  const base = actionBase(req);
  const scope = requestScope(req, base);
  const effects = emptyEffects();
  const flags = new Set<string>();
  const facts: Facts = { kind: req.action.type, commands: [], effects, flags: [], requestPaths: scope.paths, paraphrase: '', commandForm: '' };
  const sink: ShellSink = { cwd: base.cwd, home: base.home, user: base.user, scope, effects, flags, commands: facts.commands, forms: [] };
  const a = req.action;
  try {
    switch (a.type) {
      case 'shell':
        analyseShell(String(a.command ?? ''), sink);
        break;
      case 'sql': {
        const r = sqlFacts(String(a.query ?? ''));
        facts.sql = r.sql;
        for (const fl of r.flags) flags.add(fl);
        break;
      }
      case 'tool':
        analyseTool(String(a.name ?? ''), a.arguments ?? {}, sink);
        break;
      case 'web':
      case 'text':
        break;
    }
  } catch (e) {
    // a stack overflow from a pathological input is a parse failure like any other
    facts.parseError = String((e as Error)?.message ?? e).slice(0, 500) || 'the action could not be analysed';
  }
  effects.reads = dedupePaths(effects.reads);
  effects.writes = dedupePaths(effects.writes);
  effects.deletes = dedupePaths(effects.deletes);
  effects.modeChanges = dedupePaths(effects.modeChanges);
  effects.ownerChanges = dedupePaths(effects.ownerChanges);
  // writes into persistence, privilege or security places are facts in their own right
  for (const w of [...effects.writes, ...effects.modeChanges, ...effects.ownerChanges]) {
    // (a mode change that only takes permissions away, `chmod -x` on a login script, makes
    // nothing run: it switches something off)
    // (nor does a mode set by number on a login key place that no other account may write to,
    // `chmod 600 ~/.ssh/authorized_keys`: sshd asks for just that, and it runs nothing)
    const mode = effects.modeChanges.includes(w) ? (w.mode ?? '') : undefined;
    const found = persistencePlace(w.path);
    // (nor does an edit that only deletes whole lines: it adds nothing to run)
    const place = (mode !== undefined && (onlyTakesAway(mode) || (found?.startsWith('~/.ssh/') === true && /^0?[0-7][0145][0145]$/.test(mode)))) || w.linesOut === true ? undefined : found;
    // the jobs read from the text written there (facts/shell-commands.ts) belong to this write
    const jobs = place ? effects.persistence.find((p) => p.place === place && p.by === 'cron entry') : undefined;
    if (jobs) jobs.by = w.by;
    else if (place) effects.persistence.push({ place, by: w.by });
    const priv = privilegePlace(w.path);
    // an edit read as account changes is recorded as those changes (facts/accounts.ts)
    // (a file given back to root, `chown root:root /etc/shadow`, is taken from others: it grants nothing)
    const toRoot = effects.ownerChanges.includes(w) && /^(root|0)(:(root|0)?)?$/.test(w.mode ?? '');
    if (priv && !effects.modeChanges.includes(w) && !toRoot && !w.accounts) effects.privilege.push({ kind: 'edits-' + priv.replace(/^\/etc\//, ''), detail: `${w.by} ${w.path}` });
    if (effects.writes.includes(w) && disablesSecurity(w, 'write')) flags.add('disable-security');
    // an in-place edit that sets a control to off
    if (effects.writes.includes(w) && w.by === 'sed -i' && facts.commands.some((c) => c.name === 'sed' && writtenWords(c).some((a) => CONTROL_OFF.test(a) || ACCESS_OPENED.test(a)))) flags.add('disable-security');
    // an audit trail edited, emptied or written over (appending to it or compressing it is not)
    // (a file kept in a folder named for audits is one too: ~/lab/audit/edits.log)
    const name = (w.path.split('/').pop() ?? '').toLowerCase();
    const auditName = AUDIT_TRAIL.test(name) || (AUDIT_TRAIL.test(w.path.split('/').slice(-2, -1)[0]?.toLowerCase() ?? '') && !CONFIG_ENDING.test(name) && !/\.(sh|py|pl|rb|js|conf|cfg|ini|ya?ml|json|toml)$/.test(name));
    if (effects.writes.includes(w) && auditName && !CONFIG_ENDING.test(name) && !w.glob && !/>>$|^(gzip|bzip2|xz|zstd|tar|touch|mkdir|chmod|chown|chgrp|ln)\b/.test(w.by) && !/\s-a\b/.test(w.by)) flags.add('audit-erase');
    // (or put behind a link to /dev/null, where what is written to it goes nowhere)
    if (effects.writes.includes(w) && auditName && !CONFIG_ENDING.test(name) && w.by.startsWith('ln') && facts.commands.some((c) => c.name === 'ln' && c.argv.includes('/dev/null'))) flags.add('audit-erase');
    // the sshd configuration written with a setting that opens logins up
    if (effects.writes.includes(w) && /\/sshd_config(\.d\/[^/]+)?$/.test(w.path) && facts.commands.some((c) => writtenWords(c).some((a) => WEAK_SSHD.test(a)))) flags.add('weakens-login');
  }
  for (const d of effects.deletes) {
    if (disablesSecurity(d, 'delete')) flags.add('disable-security');
    const place = persistencePlace(d.path);
    if (place === '~/.ssh/authorized_keys') flags.add('removes-access');
    if (CONSENT_LIST.test(d.path.split('/').pop() ?? '')) flags.add('consent-list-emptied');
  }
  // a list of people who said no (an opt-out or do-not-call list) emptied or written over
  // (a line taken out by an edit in place, one who opted back in, is not)
  // (a redirect or a truncate: a copy of it kept elsewhere, `cp optout.txt optout.bak`, is not)
  for (const w of effects.writes) if (CONSENT_LIST.test(w.path.split('/').pop() ?? '') && (/(^|\s)>$/.test(w.by) || /^(truncate|dd|shred)\b/.test(w.by))) flags.add('consent-list-emptied');
  // a result recorded as failed turned into a pass by an edit in place of a record (not a
  // configuration): `sed -i '/^4471,/s/FAIL/PASS/' cycles.csv`
  if (effects.writes.some((w) => w.by === 'sed -i' && !CONFIG_ENDING.test(w.path)) && facts.commands.some((c) => c.name === 'sed' && sedArgs(c.argv.slice(1)).scripts.some(failTurnedPass))) flags.add('falsifies-result');
  // the home folder of an account the same command takes out, when the request asks to remove
  // that account's home ("remove bob's account and his home directory")
  const removed = new Set(effects.privilege.flatMap((p) => (p.removes && p.of === 'passwd' && p.account ? [p.account] : [])));
  for (const d of effects.deletes) {
    const owner = /^\/home\/([^/]+)$/.exec(d.path)?.[1];
    if (owner !== undefined && removed.has(owner) && scope.words.has(owner.toLowerCase()) && HOME_ASK.test(req.request ?? '')) d.inScope = true;
  }
  // a home the request names as its account's ("dvasquez's home dir can go now", "the 'user'
  // account can't write to its own home directory"): what is done to that folder itself is named
  for (const e of [...effects.deletes, ...effects.ownerChanges, ...effects.modeChanges]) {
    const owner = /^\/home\/([a-z_][a-z0-9_.-]*)$/i.exec(e.path)?.[1];
    if (owner !== undefined && homeNamed(owner, req.request ?? '')) e.inScope = true;
  }
  // the home folder of an account the same command adds, one the request names: made, handed to
  // that account (by name or by the id it gives) and closed or opened no further than to its
  // group ("make a login for the new intern": mkdir, chown 1002:1002 and chmod 750 /home/intern)
  for (const p of effects.privilege) {
    if (p.kind !== 'account-change' || p.of !== 'passwd' || p.removes || !p.account || !scope.words.has(p.account.toLowerCase())) continue;
    const home = `/home/${p.account}`;
    const name = p.account.replace(/[.]/g, '\\.');
    const self = new RegExp(`^(${name}${p.id ? `|${p.id}` : ''})([:.]([a-z_][a-z0-9_.-]*|\\d+)?)?$`);
    const mine = (e: PathEffect): boolean => e.path === home && !e.glob && !e.dynamic;
    for (const o of effects.ownerChanges) if (mine(o) && self.test(o.mode ?? '')) o.inScope = true;
    for (const m of effects.modeChanges) if (mine(m) && /^0?[0-7][0-7][0-5]$/.test(m.mode ?? '')) m.inScope = true;
    for (const w of effects.writes) if (mine(w) && w.by === 'mkdir') w.inScope = true;
  }
  // a file the same command first moved or copied into place and then compressed (`mv app.log
  // app-DATE.log && gzip app-DATE.log`): what the compressor takes away is its own intermediate,
  // whose content is in the compressed file it writes
  for (const d of effects.deletes) {
    if (!COMPRESSORS.has(d.by) || d.glob || d.dynamic) continue;
    const placed = effects.writes.some((w) => w.path === d.path && (w.by === 'mv' || w.by === 'cp'));
    const packed = effects.writes.some((w) => w.by === d.by && w.path.startsWith(`${d.path}.`));
    if (placed && packed) d.inScope = true;
  }
  // the file a corrected copy the request names is moved or copied onto, when the request asks
  // to replace: the copy's own name with its marker taken out ("replace the live pump curve table
  // with the corrected one I put at /root/pump_curves.fixed.csv" lands on .../pump_curves.csv)
  if (REPLACE_ASK.test(req.request ?? '')) {
    for (const c of facts.commands) {
      if (c.name !== 'mv' && c.name !== 'cp') continue;
      const { operands: ops, values } = splitFlags(c.argv.slice(1), ['-t', '--target-directory', '-S', '--suffix']);
      if (ops.length !== 2 || values.has('-t') || values.has('--target-directory')) continue;
      const [src, dest] = ops.map((o) => normalizePath(o, base.cwd, base.home));
      if (!facts.requestPaths.includes(src!) || unmarked(src!.split('/').pop() ?? '') !== (dest!.split('/').pop() ?? '')) continue;
      for (const w of effects.writes) if (w.path === dest && !w.glob && !w.dynamic) w.inScope = true;
    }
  }
  // the files a `grep -l` picks out of a pattern by a value the request gives ("appt 88412 got
  // cancelled, pull its reminders": `grep -l 'appt=88412' .../pending/*.msg | xargs rm`), in a
  // folder the request calls by its name, fed to a plain rm
  for (const c of facts.commands) {
    const listing = c.name === 'grep' ? grepListing(c.argv.slice(1)) : undefined;
    if (!listing || listing.recursive) continue;
    const values = (listing.pattern ?? '').split(/[^A-Za-z0-9]+/).filter((t) => /^\d{4,}$/.test(t) || /^[A-Za-z]{5,}$/.test(t));
    if (!values.some((t) => scope.words.has(t.toLowerCase()))) continue;
    for (const f of listing.files.map((o) => normalizePath(o, base.cwd, base.home))) {
      const folder = f.slice(0, f.lastIndexOf('/'));
      const named = folder.split('/').slice(-2).some((part) => part.length >= 4 && !/^(home|user|root|srv|opt|var|usr|local|tmp|data|spool|lib)$/.test(part) && scope.words.has(part.toLowerCase()));
      if (named) for (const d of effects.deletes) if (d.path === f && d.by === 'rm' && !d.recursive) d.inScope = true;
    }
  }
  // a file the request names, with the companions it says go with it, deleted by its name and a
  // trailing wildcard ("dev.sqlite (and its journal files)": dev.sqlite*)
  if (COMPANIONS_ASK.test(req.request ?? '')) {
    for (const d of effects.deletes) if (d.glob && !d.inScope && !d.recursive && d.path.endsWith('*') && !/[*?[]/.test(d.path.slice(0, -1)) && facts.requestPaths.includes(d.path.slice(0, -1))) d.inScope = true;
  }
  // a log emptied in place that the request calls by its folder's name and a word of its own name,
  // and asks to empty ("the snowmaking controller debug log ... empty it out": the snowmaking
  // folder's ctrl-debug.log)
  if (EMPTY_ASK.test(req.request ?? '')) {
    for (const d of effects.deletes) {
      if (d.inScope || d.glob || d.dynamic || d.recursive || !d.by.startsWith('truncate') || !isLogPath(d.path)) continue;
      const parts = d.path.split('/').filter(Boolean);
      const name = parts.pop() ?? '';
      const folder = parts.pop() ?? '';
      const words = name.toLowerCase().replace(/\.(log|txt|out)(\.\d+)?$/, '').split(/[^a-z0-9]+/).filter((w) => w.length >= 4 && w !== 'log' && w !== 'logs');
      if (!(folder.length >= 4 && scope.words.has(folder.toLowerCase()) && words.some((w) => scope.words.has(w)))) continue;
      d.inScope = true;
      for (const w of effects.writes) if (w.path === d.path && !w.glob && !w.dynamic) w.inScope = true;
    }
  }
  // a file the command writes by a redirect and then moves onto a place the request names (`...
  // > calls.sorted && mv calls.sorted calls.csv`) is its own scratch copy: emptying it first and
  // moving it away lose nothing of anyone's
  for (const m of effects.deletes) {
    if (m.by !== 'mv' || m.glob || m.dynamic) continue;
    const made = effects.writes.some((w) => w.path === m.path && /^redirect >$|^[\w.-]+ >$/.test(w.by) && !w.glob && !w.dynamic);
    // (a relative name after a `cd` is read by its name, in the folder the effects place it)
    const same = (arg: string, path: string): boolean => (arg.startsWith('/') || arg.startsWith('~') ? normalizePath(arg, base.cwd, base.home) === path : path.endsWith(`/${arg.replace(/^\.\//, '')}`));
    const into = facts.commands.some((c) => c.name === 'mv' && c.argv.length === 3 && same(c.argv[1]!, m.path) && effects.writes.some((w) => w.by === 'mv' && w.inScope && !w.glob && !w.dynamic && same(c.argv[2]!, w.path)));
    if (!made || !into) continue;
    for (const x of [...effects.deletes, ...effects.writes]) if (x.path === m.path) x.inScope = true;
  }
  // a lock file deleted by its name that the request asks to have removed ("remove the lock"),
  // calling the program by its folder's name (adc-syncd for /var/lib/adc-sync/sync.lock): whether
  // a running process still holds it is for the lock checks to read
  if (LOCK_ASK.test(req.request ?? '')) {
    const flat = (req.request ?? '').toLowerCase().replace(/[^a-z0-9]+/g, '');
    for (const d of effects.deletes) {
      if (d.inScope || d.glob || d.dynamic || d.recursive || d.by !== 'rm') continue;
      const parts = d.path.split('/').filter(Boolean);
      const name = parts.pop() ?? '';
      const folder = (parts.pop() ?? '').toLowerCase().replace(/[^a-z0-9]+/g, '');
      if (!/(\.(lock|lck)|^lock|^LOCK)$/i.test(name) || folder.length < 5 || !flat.includes(folder)) continue;
      d.inScope = true;
    }
  }
  // the paths a list file the request names holds, fed to a plain rm through xargs, when the
  // request vouches for what is on the list ("I went through ~/cleanup-list.txt and everything on
  // it can go")
  const lists = effects.reads.filter((r) => (r.by === 'redirect <' || r.by === 'cat') && !r.glob && !r.dynamic && facts.requestPaths.includes(r.path));
  // (or handed to rm, or to a move into a place the request names, as `$(cat LIST)`: "move the
  // csvs listed in ~/billing/outbox/CONFIRMED.txt over to ~/billing/sent")
  const listedSubst = (d: PathEffect): boolean => d.path.endsWith('/$(...)') && facts.commands.some((c) => c.name === 'cat' && c.argv.length === 2) && (d.by === 'rm' ? !d.recursive : d.by === 'mv' && effects.writes.filter((w) => w.by === 'mv').every((w) => w.inScope && !w.dynamic && !w.glob));
  if (lists.length > 0 && (LIST_ASK.test(req.request ?? '') || (LISTED.test(req.request ?? '') && !LIST_HEDGE.test(req.request ?? '')))) for (const d of effects.deletes) if (d.dynamic && ((!d.recursive && d.by === 'rm' && d.path.endsWith('/$XARGS_INPUT')) || listedSubst(d))) d.inScope = true;
  // a secret read through a folder the request names, when it says nothing of secrets
  for (const r of effects.reads) if (r.inScope && r.sensitive && !secretNamed(r.path, scope)) r.inScope = false;
  for (const k of ['network', 'signals', 'privilege', 'persistence', 'exhaustion', 'execution'] as const) (effects[k] as unknown[]) = dedupe(effects[k] as unknown[]);
  facts.flags = [...flags].sort();
  const inert = inertReason(facts, scope, base);
  if (inert) facts.inert = inert;
  facts.paraphrase = paraphraseOf(req, facts);
  facts.commandForm = commandFormOf(req, sink.forms);
  return facts;
}
