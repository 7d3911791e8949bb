/**
 * Edits of the account files (/etc/passwd, /etc/group) read as the account changes they make.
 * On a machine without useradd an administrator adds an account by appending its line, or changes
 * a login shell with `sed -i '/^user:/s#/bin/sh#/bin/ash#' /etc/passwd`. Read as bare writes,
 * those are edits of a password database; read line by line, they add or change one account the
 * request can name, which is what `useradd deploy` or `usermod -s` would do. Anything that cannot
 * be read that way (a line that is not an entry, a substitution that may touch ids, more than one
 * expression) stays a plain edit of the file.
 */

import type { Effects } from '../../../../shared/types.js';
import { sedS } from './sed.js';

/** An account the edit adds or changes, with the ids it gives when it adds one. */
export interface AccountEntry {
  name: string;
  /** The file holding it: passwd or group, or shadow for a locked password entry. */
  file: 'passwd' | 'group' | 'shadow';
  /** User id (passwd) or group id (group), as written; undefined for a change of an existing line. */
  id?: string;
  /** Primary group id of a passwd entry. */
  gid?: string;
  /** Members a group entry lists. */
  members?: string[];
}

/** The account files whose edits read as account changes. */
export const ACCOUNT_FILES: Record<string, AccountEntry['file']> = { '/etc/passwd': 'passwd', '/etc/group': 'group' };

const NAME = /^[a-z_][a-z0-9_.-]{0,31}\$?$/i;
const ID = /^\d{1,10}$/;

/**
 * The entries appended text adds to an account file, or undefined when a line is not a well-formed
 * entry (seven fields for passwd, four for group, a valid name and numeric ids).
 */
export function appendedAccounts(path: string, text: string): AccountEntry[] | undefined {
  if (path === '/etc/shadow') return appendedLockedEntries(text);
  const file = ACCOUNT_FILES[path];
  if (!file) return undefined;
  const lines = text.split('\n').filter((l) => l.trim() !== '');
  if (lines.length === 0) return undefined;
  const out: AccountEntry[] = [];
  for (const line of lines) {
    const f = line.split(':');
    if (file === 'passwd') {
      if (f.length !== 7 || !NAME.test(f[0]!) || !ID.test(f[2]!) || !ID.test(f[3]!)) return undefined;
      out.push({ name: f[0]!, file, id: f[2]!, gid: f[3]! });
    } else {
      if (f.length !== 4 || !NAME.test(f[0]!) || !ID.test(f[2]!)) return undefined;
      const members = f[3]!.split(',').filter(Boolean);
      if (!members.every((m) => NAME.test(m))) return undefined;
      out.push({ name: f[0]!, file, id: f[2]!, members });
    }
  }
  return out;
}

/**
 * The entries appended text adds to /etc/shadow when every line is a well-formed entry (nine
 * fields, a valid name) whose password is locked (`!`, `!!`, `*`, `!*`): the entry a new account
 * needs, with no way in yet. A hash or an empty password sets a way in, and stays a write of a secret.
 */
function appendedLockedEntries(text: string): AccountEntry[] | undefined {
  const lines = text.split('\n').filter((l) => l.trim() !== '');
  if (lines.length === 0) return undefined;
  const out: AccountEntry[] = [];
  for (const line of lines) {
    const f = line.split(':');
    if (f.length !== 9 || !NAME.test(f[0]!) || !/^(!!?|\*|!\*|\*LK\*)$/.test(f[1]!) || !f.slice(2, 7).every((x) => x === '' || ID.test(x))) return undefined;
    out.push({ name: f[0]!, file: 'shadow' });
  }
  return out;
}

/** `/^NAME:/` before a sed command: the one account line it applies to. */
const ACCOUNT_ADDRESS = /^\/\^([a-z_][a-z0-9_.-]{0,31}):\/\s*/i;

/** A slash escaped inside a sed script is a plain slash. */
const plainSlashes = (x: string): string => x.replace(/\\\//g, '/');

/**
 * The account a `sed -i` script changes in /etc/passwd, when the script is one substitution
 * limited to one account's line (`/^NAME:/s...` or `s/^NAME:.../NAME:.../`) that keeps the line's
 * fields where they are and touches no digit, so no user or group id can change, or one that
 * rewrites only the line's last field (`s#^\(NAME:.*:\)/bin/sh$#\1/usr/sbin/nologin#`: every
 * colon stays inside the kept group). Undefined otherwise.
 */
export function sedAccountChange(script: string): string | undefined {
  let name: string | undefined;
  let rest = script.trim();
  const addr = ACCOUNT_ADDRESS.exec(rest);
  if (addr) {
    name = addr[1]!;
    rest = rest.slice(addr[0].length);
  }
  const s = sedS(rest);
  if (!s || !/^g?$/.test(s.flags)) return undefined;
  // `s#^\(NAME:.*:\)OLD$#\1NEW#` (or with the colon after the group, `s#^\(NAME:.*\):OLD$#\1:NEW#`):
  // the line's last field (its shell) and nothing before it
  const last = /^\^\\\(([a-z_][a-z0-9_.-]{0,31}):\.\*(:?)\\\)(:?)([^:\d\\*.[\]^$&]+)\$$/i.exec(plainSlashes(s.pattern));
  if (last && `${last[2]}${last[3]}` === ':' && (!name || name === last[1]) && new RegExp(`^\\\\1${last[3]}[^:\\d\\\\&]+$`).test(plainSlashes(s.replacement))) return last[1];
  // `s#^\(NAME:[^:]*:[^:]*:[^:]*:[^:]*:[^:]*:\).*$#\1NEW#`: the six fields before the shell kept
  // one by one (none can reach across a colon), the shell replaced
  const fields = /^\^\\\(([a-z_][a-z0-9_.-]{0,31}):(?:\[\^:\]\*:){5}\\\)(?:\.\*|\[\^:\]\*)\$$/i.exec(plainSlashes(s.pattern));
  if (fields && (!name || name === fields[1]) && /^\\1[^:\d\\&]+$/.test(plainSlashes(s.replacement))) return fields[1];
  // `s#^\(NAME:x:212:212:[^:]*:\)/nonexistent:#\1/var/lib/NAME:#`: the fields before one of the
  // last three (the comment, the home, the shell) kept whole, that one field replaced by literal
  // text; the ids are kept, so the account gains nothing
  const kept = /^\^\\\(([a-z_][a-z0-9_.-]{0,31}):((?:(?:[^:\\*.[\]^$&]*|\[\^:\]\*):)*)\\\)([^:\\*.[\]^$&]*)(:|\$)$/i.exec(plainSlashes(s.pattern));
  if (kept && (!name || name === kept[1])) {
    const field = (kept[2]!.replace(/\[\^:\]\*/g, '').match(/:/g)?.length ?? 0) + 2;
    const end = kept[4] === '$' ? '' : ':';
    if (field >= 5 && field <= 7 && (end === ':') === (field < 7) && new RegExp(`^\\\\1[^:\\\\&]*${end}$`).test(plainSlashes(s.replacement))) return kept[1];
  }
  if (!name) {
    const lead = /^\^([a-z_][a-z0-9_.-]{0,31}):/i.exec(s.pattern);
    if (!lead || !s.replacement.startsWith(`${lead[1]}:`)) return undefined;
    name = lead[1]!;
  }
  const colons = (x: string) => x.split(':').length;
  // literal text without digits: a wildcard, a class or a back-reference could reach across fields
  const literal = s.pattern.replace(/\\[^A-Za-z0-9]/g, 'x');
  if (!/^\^?[A-Za-z_/:, -]*\$?$/.test(literal) || /[\d&]/.test(s.replacement) || colons(s.pattern) !== colons(s.replacement)) return undefined;
  return name;
}

/**
 * The login shell a `sed -i` substitution on an account's line sets, when its pattern is anchored
 * at the line's end and its replacement ends in an absolute path after the last colon (or after
 * the kept group, `\1/usr/sbin/nologin`); undefined otherwise.
 */
export function sedNewShell(script: string): string | undefined {
  const s = sedS(script.trim().replace(ACCOUNT_ADDRESS, ''));
  if (!s || !s.pattern.endsWith('$')) return undefined;
  const tail = plainSlashes(s.replacement).replace(/^\\1/, '').split(':').pop() ?? '';
  return /^\/[A-Za-z0-9_./-]+$/.test(tail) ? tail : undefined;
}

/** The account files a line-deleting sed can take an account or group out of, and which of the two each holds. */
export const REMOVABLE_FROM: Record<string, 'passwd' | 'group'> = { '/etc/passwd': 'passwd', '/etc/shadow': 'passwd', '/etc/group': 'group', '/etc/gshadow': 'group' };

/** The account a `sed -i` script takes out of an account file (`/^NAME:/d`, its one line), else undefined. */
export function sedAccountRemoval(script: string): string | undefined {
  const t = script.trim();
  const addr = ACCOUNT_ADDRESS.exec(t);
  return addr && t.slice(addr[0].length) === 'd' ? addr[1] : undefined;
}

/**
 * A sed substitution with no address that only takes one name out of the member lists of
 * /etc/group (`s/,NAME$//`, `s/,NAME,/,/`, `s/:NAME,/:/`, `s/:NAME$/:/`): the name, else
 * undefined. Beside the lines of that account taken out, it is part of taking the account out.
 */
export function sedMemberStrip(script: string): string | undefined {
  const sub = sedS(script.trim());
  if (!sub || !/^g?$/.test(sub.flags)) return undefined;
  const m = /^([,:])([a-z_][a-z0-9_.-]{0,31})(,|\$)$/i.exec(sub.pattern);
  if (!m) return undefined;
  const [, before, name, after] = m;
  const kept = after === ',' ? before : before === ':' ? ':' : '';
  return sub.replacement === kept ? name : undefined;
}

/**
 * A sed script that only locks one account's password in /etc/shadow (`s/^NAME:/NAME:!/`, the
 * way `passwd -l` does, or with the hash's literal start kept: `s/^NAME:\$/NAME:!$/`, or its
 * hash field replaced by a lock mark: `s/^NAME:[^:]*:/NAME:!:/`, or the match given back: `s/^NAME:/&!/`):
 * the account's name, else undefined.
 */
export function sedShadowLock(script: string): string | undefined {
  const s = sedS(script.trim());
  // (or its hash field replaced whole by a lock mark: `s/^NAME:[^:]*:/NAME:!:/`)
  const whole = s && /^\^([a-z_][a-z0-9_.-]{0,31}):\[\^:\]\*:$/i.exec(s.pattern);
  if (s && whole && s.flags === '' && new RegExp(`^${whole[1]!.replace(/[.]/g, '\\.')}:(!|!!|\\*):$`).test(s.replacement)) return whole[1];
  // (or a lock mark put before the hash kept by a group: `s/^NAME:\([^!]\)/NAME:!\1/`)
  const kept = s && /^\^([a-z_][a-z0-9_.-]{0,31}):\\\((\[\^!\]|\[\^:\]\*|\.\*)\\\)(:?)$/i.exec(s.pattern);
  if (s && kept && s.flags === '' && s.replacement === `${kept[1]}:!\\1${kept[3]}`) return kept[1];
  const m = s && /^\^([a-z_][a-z0-9_.-]{0,31}):((?:\\\$|[A-Za-z0-9])*)$/i.exec(s.pattern);
  // (or the matched start given back by `&` with the mark after it: `s/^NAME:/&!/`)
  if (s && m && s.flags === '' && m[2] === '' && s.replacement === '&!') return m[1];
  if (!s || !m || s.flags !== '' || s.replacement !== `${m[1]}:!${m[2]!.replace(/\\\$/g, '$')}`) return undefined;
  return m[1];
}

/**
 * A sed script that only unlocks one account's password in /etc/shadow, taking the lock mark
 * from before its hash (`s/^NAME:!/NAME:/`, the way `passwd -u` does): the account's name, else
 * undefined.
 */
export function sedShadowUnlock(script: string): string | undefined {
  const s = sedS(script.trim());
  const m = s && /^\^([a-z_][a-z0-9_.-]{0,31}):(!{1,2}|\\!{1,2})$/i.exec(s.pattern);
  return s && m && s.flags === '' && s.replacement === `${m[1]}:` ? m[1] : undefined;
}

/** Names appended to a group line's member list: `user`, `,user`, `,alice,bob`. */
const MEMBERS_ADDED = /^,?([a-z_][a-z0-9_.-]{0,31}(,[a-z_][a-z0-9_.-]{0,31})*)$/i;

/**
 * The group a `sed -i` script on /etc/group adds members to, and the names it adds, when the
 * script is one substitution on one group's line that only appends to the line's end:
 * `/^docker:/s/$/,user/`, `s/^audio:x:29:$/audio:x:29:user/` (the replacement repeats the
 * literal line and adds names), or `s/^\(audio:.*\)$/\1,user/` (also with the line's first
 * fields spelled out, `s/^\(audio:x:29:.*\)$/\1,user/`, inside the group or before it). Undefined otherwise, and then
 * the edit stays a plain edit of the group file.
 */
export function sedGroupAdd(script: string): { group: string; members: string[] } | undefined {
  let rest = script.trim();
  const addr = ACCOUNT_ADDRESS.exec(rest);
  if (addr) rest = rest.slice(addr[0].length);
  const s = sedS(rest);
  if (!s || s.flags !== '') return undefined;
  const pattern = plainSlashes(s.pattern);
  const replacement = plainSlashes(s.replacement);
  const added = (tail: string): string[] | undefined => MEMBERS_ADDED.exec(tail)?.[1]!.split(',');
  // after an address, the end of that line
  if (addr && pattern === '$') {
    const members = added(replacement);
    return members ? { group: addr[1]!, members } : undefined;
  }
  // the whole line kept in a group, names added after it
  const kept = /^\^\\?\(([a-z_][a-z0-9_.-]{0,31}):(?:[A-Za-z0-9_!-]*:)*\.\*\\?\)\$$/i.exec(pattern);
  if (kept && (!addr || addr[1] === kept[1]) && replacement.startsWith('\\1')) {
    const members = added(replacement.slice(2));
    return members ? { group: kept[1]!, members } : undefined;
  }
  // the line's first fields spelled out and its member list kept, names added after it:
  // `s/^drone:x:1050:\(.*\)$/drone:x:1050:\1,user/`
  const head = /^\^(([a-z_][a-z0-9_.-]{0,31}):(?:[A-Za-z0-9_!-]*:)+)\\?\(\.\*\\?\)\$$/i.exec(pattern);
  if (head && (!addr || addr[1] === head[2]) && replacement.startsWith(`${head[1]}\\1`)) {
    const members = added(replacement.slice(head[1]!.length + 2));
    return members ? { group: head[2]!, members } : undefined;
  }
  // the literal line, repeated with names added
  const line = /^\^(([a-z_][a-z0-9_.-]{0,31}):[A-Za-z0-9_.,:!-]*)\$$/i.exec(pattern);
  if (line && (!addr || addr[1] === line[2]) && replacement.startsWith(line[1]!)) {
    const tail = replacement.slice(line[1]!.length);
    const members = added(tail);
    // a member list that already has names needs the comma; an empty one (line ends in ':') does not
    if (!members || (line[1]!.endsWith(':') ? tail.startsWith(',') : !tail.startsWith(','))) return undefined;
    return { group: line[2]!, members };
  }
  return undefined;
}

/**
 * The group a `sed -i` script on /etc/group takes one member out of, and that member, when the
 * script is addressed to one group's line and every substitution in it only cuts the name with
 * one comma or colon beside it: `/^docker:/{s/,olddev//;s/:olddev,/:/;s/:olddev$/:/}`,
 * `/^audio:/s/,bob\b//`. Undefined otherwise.
 */
export function sedGroupRemove(script: string): { group: string; member: string } | undefined {
  const t = script.trim();
  const addr = ACCOUNT_ADDRESS.exec(t);
  if (!addr) return undefined;
  let body = t.slice(addr[0].length).trim();
  const block = /^\{([^{}]*)\}$/.exec(body);
  if (block) body = block[1]!;
  const parts = body.split(';').map((x) => x.trim()).filter((x) => x !== '');
  let member: string | undefined;
  for (const part of parts) {
    const sub = sedS(part);
    if (!sub || !/^g?$/.test(sub.flags)) return undefined;
    // the name with its neighbour, as literal text (an end anchor and a word boundary say where it stops)
    const pattern = sub.pattern.replace(/\$$/, '').replace(/\\b$/, '');
    const m = /^([,:]?)([a-z_][a-z0-9_.-]{0,31})([,:]?)$/i.exec(pattern);
    if (!m || (member !== undefined && member !== m[2])) return undefined;
    const [, before, name, after] = m;
    // what stays: one separator, never both gone and never another name
    const kept = before === ':' || after === ':' ? ':' : before === ',' && after === ',' ? ',' : '';
    if (sub.replacement !== kept || (before === '' && after === '')) return undefined;
    member = name;
  }
  return member !== undefined ? { group: addr[1]!, member } : undefined;
}

/** Groups whose members hold administrative power. */
export const ADMIN_GROUP = /^(sudo|wheel|root|admin|adm|docker|disk|shadow|lxd|libvirt|kvm)$/;

/**
 * The privilege effects of appended entries: an account with id 0 (or in group 0), or an
 * administrative group, is a privilege grant; any other entry is an account change of that name.
 */
export function appendedAccountEffects(entries: AccountEntry[], path: string): Effects['privilege'] {
  return entries.map((e) => {
    if (e.file === 'passwd' && (e.id === '0' || e.gid === '0')) return { kind: 'root-uid', detail: `appends account ${e.name} with uid ${e.id} gid ${e.gid} to ${path}` };
    if (e.file === 'group' && (e.id === '0' || ADMIN_GROUP.test(e.name))) return { kind: 'admin-group', detail: e.name };
    if (e.file === 'shadow') return { kind: 'account-change', detail: `appends a locked password entry for ${e.name} to ${path}`, account: e.name, of: e.file };
    return { kind: 'account-change', detail: `appends ${e.file === 'passwd' ? 'account' : 'group'} ${e.name} (id ${e.id}) to ${path}`, account: e.name, of: e.file, ...(e.id !== undefined ? { id: e.id } : {}) };
  });
}
