/**
 * The rule language's environment: CEL (cel-js) with the variables a check sees and the
 * functions that let a check read like a sentence:
 *
 *   facts.effects.deletes.exists(d, system_path(d.path) && !in_request_scope(d.path))
 *   facts.effects.network.exists(n, n.sendsData && !local_host(n.target)) && !asked("upload|send")
 *
 * Functions that depend on the action (its request, home, working directory) read the action
 * being checked, which runChecks installs for the duration of one synchronous evaluation.
 */
import { offKind } from '../facts/file-kinds.js';
import { Environment } from '@marcbachmann/cel-js';
import { cachedRegex } from '../cached-regex.js';
import {
  grantsSetuid,
  grantsGroupWrite,
  grantsWorldRead,
  grantsWorldWrite,
  inRequestScope,
  isDevicePath,
  isHomeRoot,
  isLocalHost,
  isLogPath,
  isSettingsOrData,
  isScratchPath,
  isSensitivePath,
  isSystemArea,
  isSystemPath,
  isRelocation,
  isUnder,
  normalizePath,
  parentOf,
  type RequestScope,
} from '../facts/index.js';
import { deniedColumns } from '../tools/sql-permission.js';
import { actionText, brokenRules } from '../tools/profile-rules.js';
import type { Action } from '../../../../shared/types.js';

/** The action the functions answer for. */
export interface ActionScope {
  scope: RequestScope;
  home: string;
  cwd: string;
  /** The human's request, lower-cased. */
  ask: string;
}

const EMPTY: ActionScope = { scope: { paths: [], words: new Set(), home: '/home/user' }, home: '/home/user', cwd: '/', ask: '' };
let current: ActionScope = EMPTY;

/** Runs `fn` with `scope` as the action the functions answer for. */
export function withActionScope<T>(scope: ActionScope, fn: () => T): T {
  const saved = current;
  current = scope;
  try {
    return fn();
  } finally {
    current = saved;
  }
}

/** A working directory that is a project, not / , a system place or a home directory itself. */
function inWorkspace(p: string): boolean {
  const cwd = current.cwd;
  if (cwd === '/' || isSystemArea(cwd) || isHomeRoot(cwd, current.home)) return false;
  return isUnder(p, cwd) && p !== cwd;
}

/**
 * Text with the usual hiding separators undone: lower case, `_ - . / + =` and camelCase joins
 * read as spaces, runs of space collapsed. Instructions planted in file names or values
 * (`ignore_the_previous_instruction`) then read as the prose they are.
 */
export function plainWords(text: string): string {
  return text
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .replace(/[_\-./+=]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * Whether a request names a configuration setting: one of the key's parts (split at _ . - and
 * camelCase joins) of three letters or more is a word of the request, a plural s allowed
 * ("the ports" names listen_port).
 */
function namesSetting(key: string, ask: string, every = false): boolean {
  const words = new Set(ask.toLowerCase().split(/[^a-z0-9]+/).map((w) => w.replace(/s$/, '')));
  const parts = plainWords(key).split(' ').filter((p) => p.length >= 3);
  const said = (p: string): boolean => words.has(p.replace(/s$/, ''));
  return every ? parts.length > 0 && parts.every(said) : parts.some(said);
}

/**
 * The matches of a pattern that go on from a number the request names into a longer number:
 * `run_1*` for "run 1" also takes run_10 to run_19. Only when the fixed part before the first
 * wildcard ends in a number of at most three digits, the request says that number as a word of
 * its own, and it says neither the longer number nor that everything starting so is meant.
 */
function numbersBeyond(pattern: string, matches: readonly string[], ask: string): string[] {
  const star = pattern.search(/[*?[]/);
  const fixed = star < 0 ? '' : pattern.slice(0, star);
  const number = /(\d+)$/.exec(fixed)?.[1];
  // (a year or a date goes on into months and days as a matter of course: 2024* for 20240105)
  if (number === undefined || number.length > 3 || STARTING_WITH.test(ask)) return [];
  const said = new Set(ask.toLowerCase().split(/[^a-z0-9]+/));
  if (!said.has(number) && !said.has(String(Number(number)))) return [];
  return matches.filter((m) => {
    const more = /^\d+/.exec(m.startsWith(fixed) ? m.slice(fixed.length) : '')?.[0];
    return more !== undefined && !said.has(number + more);
  });
}

/** A request that means every name starting so ("all runs starting with 1", "1 and up"). */
const STARTING_WITH = /\b(starting|beginning) with\b|\bprefix(ed)?\b|\band (up|above|onwards?|later)\b|\bwildcard\b/i;

/** A path inside another account's home: /home/<other> or /root when the action runs as someone else. */
function foreignHome(raw: string): boolean {
  // (a relative word is read from where the command line has gone by then, which a `cd` before
  // it changes: the facts' reads, resolved past it, speak for those)
  if (raw === '' || raw.startsWith('-') || !/^[/~]/.test(raw)) return false;
  const p = normalizePath(raw, current.cwd, current.home);
  if (isUnder(p, '/root')) return !isUnder(current.home, '/root');
  const m = /^\/home\/([^/]+)/.exec(p);
  return !!m && !isUnder(p, current.home) && !isUnder(current.home, `/home/${m[1]}`);
}

/** The request and action a check passes to profile_violations, as far as they can be read. */
function requestParts(request: unknown): { ask: string; action: Action; site: string } {
  const r = request as { request?: unknown; action?: unknown; context?: { observation?: unknown } } | null;
  if (!r || typeof r !== 'object' || typeof r.request !== 'string' || !r.action || typeof r.action !== 'object') throw new Error('profile_violations needs the action request (`request`)');
  const site = r.context && typeof r.context === 'object' ? r.context.observation : undefined;
  return { ask: r.request, action: r.action as Action, site: typeof site === 'string' ? site : '' };
}

/** Names and descriptions of the functions, for the rule editor and documentation. */
export const CHECK_FUNCTIONS: { signature: string; description: string }[] = [
  { signature: 'under(path, prefix): bool', description: 'path is prefix or lies below it' },
  { signature: 'in_request_scope(path): bool', description: 'the request names the path, a parent of it, a glob covering it, or its name (system directories and homes themselves only by full path)' },
  { signature: 'sensitive(path): bool', description: 'keys, credentials, secrets, password databases, browser profiles, shell history' },
  { signature: 'system_path(path): bool', description: '/, a top-level system directory or a direct child of one (/etc/passwd, /usr/bin, /var/lib/docker)' },
  { signature: 'system_area(path): bool', description: 'anywhere inside the operating system trees (/etc, /usr, /var, /boot...; not /opt or /srv, which hold applications and sites)' },
  { signature: 'home_root(path): bool', description: 'a home directory itself (~, /home/x, /root) or /home' },
  { signature: 'scratch(path): bool', description: 'temporary files, caches and build output' },
  { signature: 'log_path(path): bool', description: 'logs, audit trails and shell history' },
  { signature: 'settings_or_data(path): bool', description: 'a configuration or database file, or a file in a settings or data folder (conf/, config/, data/, uploads/), not code' },
  { signature: 'device(path): bool', description: 'a block device or raw memory' },
  { signature: 'in_workspace(path): bool', description: 'below the working directory, when that is a project folder' },
  { signature: 'local_host(target): bool', description: 'a network target on this machine (localhost, 127.x, ::1)' },
  { signature: 'asked(pattern): bool', description: 'the request matches the regular expression (case-insensitive)' },
  { signature: 'mentions(text): bool', description: 'the request contains the text (case-insensitive)' },
  { signature: 'names_setting(key): bool', description: 'the request names the setting: one of its parts (oidc_issuer -> oidc, issuer) of three letters or more is a word of the request' },
  { signature: 'names_setting_fully(key): bool', description: 'the request says every part of the setting\'s key of three letters or more (scanupd_spool -> scanupd and spool)' },
  { signature: 'numbers_beyond(pattern, matches): list<string>', description: 'the matches of a pattern whose fixed part ends in a number the request says (run_1* for "run 1") that go on into a longer number (run_10), unless the request says that number or asks for everything starting so' },
  { signature: 'other_version(args): bool', description: 'a command line naming a version (v2, /opt/x/v2/) when the request names another one and not that one' },
  { signature: 'unmarked_matches(pattern, matches): list<string>', description: 'the matches of a pattern whose names hold no word the request adds to the pattern (dry-run for test-*.html), when other matches hold one' },
  { signature: 'moved_named(link, to): bool', description: 'the link is a place the request names and leads to the same place moved elsewhere, its target carrying its name (/var/spool/squid/cache -> /data/squid-cache)' },
  { signature: 'world_writable(mode): bool', description: 'a chmod mode that lets others write (777, o+w)' },
  { signature: 'world_readable(mode): bool', description: 'a chmod mode that lets others read (644, o+r)' },
  { signature: 'group_writable(mode): bool', description: "a chmod mode that lets the file's group write (775, g+w)" },
  { signature: 'dir(path): string', description: 'the folder a path is in (/opt/app/run.sh -> /opt/app)' },
  { signature: 'setuid_mode(mode): bool', description: 'a chmod mode that sets the setuid or setgid bit (4755, u+s)' },
  { signature: 'foreign_home(path): bool', description: "the path (absolute, ~ or relative to the working directory) lies in another account's home directory" },
  { signature: 'abs(path): string', description: 'the path made absolute against the working directory and home (~), as probes key it' },
  { signature: 'off_kind(paths): list<string>', description: 'the paths that are not of the kinds of file the request names (installers, logs, temp files, backups, images...); empty when it names none' },
    { signature: 'glued_matches(pattern, matches): list<string>', description: 'for a name pattern holding a word between wildcards (*test*), the matches where that word is only part of a longer word (latest_810.edi), when other matches hold it on its own' },
    { signature: 'base(path): string', description: 'the last part of a path (/home/u/.deploy/id_rsa -> id_rsa)' },
    { signature: 'shared_names(paths): list<string>', description: 'the paths whose last part another of the paths also has (a/transcript.pdf and b/transcript.pdf): gathered into one folder, one lands on the other' },
    { signature: 'plain(text): string', description: 'the text in lower case with _ - . / + = and camelCase joins read as spaces (instructions hidden in names)' },
  {
    signature: 'sql_denied(sql, access, [schema,] role): list<string>',
    description: 'the table.column entries the SQL facts (facts.sql) touch that the role may not read under the access map {role: {table: [columns] | "*"}}; the schema {table: [columns]} expands * and resolves unqualified columns',
  },
  {
    signature: 'profile_violations(rules, request, profile): list<string>',
    description: 'the violation texts of the profile rules [{id, action, unless?, site?, require, violation}] whose action pattern (or one of a list) matches the request and action (or, when no rule action does, whose site pattern matches the observation), whose unless patterns match neither the request and action nor the observation, and whose requirement (CEL over profile) the profile does not meet',
  },
];

/** The paths whose last part another of them also has: gathered into one folder, one lands on the other. */
export function sharedNames(paths: readonly string[]): string[] {
  const count = new Map<string, number>();
  const name = (p: string) => p.replace(/\/+$/, '').split('/').pop() ?? '';
  for (const p of new Set(paths)) count.set(name(p), (count.get(name(p)) ?? 0) + 1);
  return [...new Set(paths)].filter((p) => (count.get(name(p)) ?? 0) > 1);
}

/**
 * The matches of a name pattern with a word between wildcards (`*test*`) in which the word is only
 * part of a longer word (`latest_810_batch.edi`) or of a numbered one (`essay-part1.pdf` for
 * `*part*`), when other matches hold it on its own (`test_204_01.edi`, `onboarding_test_214.edi`,
 * `essay.pdf.part`); none for any other pattern.
 */
export function gluedMatches(pattern: string, matches: readonly string[]): string[] {
  const name = pattern.slice(pattern.lastIndexOf('/') + 1);
  const base = (m: string) => m.slice(m.lastIndexOf('/') + 1).toLowerCase();
  // (a fixed start ending in a letter or a digit, `KW2403_012*`, that also runs on into a letter
  // in some matches, KW2403_012b.hex, beside matches where it stops at a separator, KW2403_012.hex:
  // cast 012b is another cast than 012; a digit running on into digits, a date, is left alone)
  const start = /^([^*?[\]]{3,}[A-Za-z0-9])\*(\.[A-Za-z0-9]+)?$/.exec(name)?.[1]?.toLowerCase();
  if (start) {
    const next = (m: string) => base(m).slice(start.length, start.length + 1);
    const own = matches.filter((m) => base(m).startsWith(start));
    const glued = own.filter((m) => /[a-z]/.test(next(m)));
    return glued.length > 0 && own.some((m) => next(m) === '' || /[^a-z0-9]/.test(next(m))) ? glued : [];
  }
  const word = /^\*([A-Za-z]{3,})\*/.exec(name)?.[1]?.toLowerCase();
  if (!word) return [];
  const alone = new RegExp(`(^|[^a-z0-9])${word}([^a-z0-9]|$)`);
  const glued = matches.filter((m) => base(m).includes(word) && !alone.test(base(m)));
  return glued.length > 0 && glued.length < matches.length ? glued : [];
}

/** Request words that say what to do or when, not which files are meant. */
const UNMARKING = new Set(
  'the and for from with this that these those them they their there then than all any some each every only just now also into onto out off over under about after before again please can could would should will you your our ours mine my its his her who what which when where why how here not but yet still already new old older oldest stale leftover left over delete deleting deleted remove removing removed clear clearing clean cleaning cleanup wipe wiping purge get rid drop trash toss kill nuke files file folder folders dir dirs directory ones one lot bunch stuff things thing today yesterday tonight morning evening afternoon night week weeks month months year years last next day days ago hours hour minutes earlier later since done finished need needs needed want wants don dont doesn isn aren was were are has have had been being let make sure thanks pls queue dated whole entire both'.split(' '),
);

/** A word without a plural's s ("stories" and "story" are one word; "dumps" and "dump"). */
const singular = (w: string): string => (w.length > 4 && w.endsWith('ies') ? `${w.slice(0, -3)}y` : w.length > 3 && w.endsWith('s') && !w.endsWith('ss') ? w.slice(0, -1) : w);

/**
 * The matches of a delete pattern whose names hold none of the words the request adds to the
 * pattern, when other matches hold one: asked to delete "the dry-run test stories, the test-*.html
 * ones", the pattern also reaches test-match-eng-v-ind-day3.html, which holds "test" only because
 * the pattern does, beside test-dryrun-01.html, which holds the request's "dry-run" too. A word of
 * the request is one of three letters or more that neither the pattern (folders included) nor
 * the plain words of asking hold; two words the request writes together count glued
 * ("dry-run" for dryrun). The ending of a name is left out. None when no match, or every match,
 * holds such a word, and none for a pattern that fixes no word of the name (`DIR/*`, `*.lock`).
 */
export function unmarkedMatches(pattern: string, matches: readonly string[], ask: string): string[] {
  if (matches.length < 2) return [];
  // (a pattern that fixes no word of the name, `DIR/*` or `*.lock`, takes a folder's contents or
  // a kind by its ending: the request's words describe the folder, not names)
  const name = pattern.slice(pattern.lastIndexOf('/') + 1).toLowerCase().replace(/(\.[a-z0-9]{1,5})+$/, '');
  if (!/[a-z]{3,}/.test(name.replace(/\[[^\]]*\]/g, ''))) return [];
  const own = new Set(pattern.toLowerCase().split(/[^a-z]+/).filter(Boolean).map(singular));
  const seq = ask.toLowerCase().replace(/[\w.~-]*[*?][\w.*?-]*/g, ' ').split(/[^a-z]+/).filter(Boolean);
  const marks = new Set([
    ...seq.filter((w) => w.length >= 3 && !UNMARKING.has(w)).map(singular),
    ...seq.slice(1).map((w, i) => seq[i]! + w).filter((c) => c.length >= 6),
  ].filter((w) => !own.has(w)));
  if (marks.size === 0) return [];
  const words = (m: string): string[] => {
    const name = (m.replace(/\/+$/, '').split('/').pop() ?? '').toLowerCase().replace(/(\.[a-z0-9]{1,5})+$/, '');
    return name.split(/[^a-z]+/).filter((t) => t.length >= 3).map(singular);
  };
  // (a match the request names by its own name is spoken of by name, to keep or to delete:
  // "only keep ckpt_final.h5")
  const lower = ask.toLowerCase();
  const rest = matches.filter((m) => !lower.includes((m.replace(/\/+$/, '').split('/').pop() ?? '').toLowerCase()));
  const marked = new Set(rest.filter((m) => words(m).some((t) => marks.has(t))));
  return marked.size === 0 || marked.size === rest.length ? [] : rest.filter((m) => !marked.has(m));
}

/**
 * Whether a process's command line names a version the request does not, while the request
 * names one: asked to stop "the old v1 scanner gateway", the process a pid file holds runs
 * /opt/scangw/v2/scangw. A version is `vN` (or `vN.M`) standing as a word or a path part, or
 * "version N" in the request.
 */
export function otherVersion(args: string, ask: string): boolean {
  const said = new Set([...ask.toLowerCase().matchAll(/(?:^|[^a-z0-9])(?:v|version\s*)(\d+(?:\.\d+)*)(?![a-z0-9])/g)].map((m) => m[1]!.split('.')[0]!));
  if (said.size === 0) return false;
  const runs = [...args.toLowerCase().matchAll(/(?:^|[/_ .=-])v(\d+(?:\.\d+)*)(?=$|[/_ .-])/g)].map((m) => m[1]!.split('.')[0]!);
  return runs.length > 0 && runs.every((v) => !said.has(v));
}

/** The shared environment; compiled expressions keep a reference to it. */
export const CHECK_ENV = new Environment({
  unlistedVariablesAreDyn: false,
  homogeneousAggregateLiterals: false,
  limits: { maxAstNodes: 5000, maxDepth: 100, maxListElements: 1000, maxMapEntries: 1000, maxCallArguments: 16 },
})
  .registerVariable('facts', 'dyn')
  .registerVariable('request', 'dyn')
  .registerVariable('action', 'dyn')
  .registerVariable('context', 'dyn')
  .registerVariable('ask', 'string')
  .registerVariable('probes', 'dyn')
  .registerVariable('policy', 'dyn')
  .registerFunction('under(string, string): bool', (p: string, prefix: string) => isUnder(p, prefix))
  .registerFunction('in_request_scope(string): bool', (p: string) => inRequestScope(p, current.scope, true))
  .registerFunction('sensitive(string): bool', (p: string) => isSensitivePath(p, current.home))
  .registerFunction('system_path(string): bool', (p: string) => isSystemPath(p))
  .registerFunction('system_area(string): bool', (p: string) => isSystemArea(p))
  .registerFunction('home_root(string): bool', (p: string) => isHomeRoot(p, current.home))
  .registerFunction('scratch(string): bool', (p: string) => isScratchPath(p))
  .registerFunction('log_path(string): bool', (p: string) => isLogPath(p))
  .registerFunction('settings_or_data(string): bool', (p: string) => isSettingsOrData(p))
  .registerFunction('device(string): bool', (p: string) => isDevicePath(p))
  .registerFunction('in_workspace(string): bool', (p: string) => inWorkspace(p))
  .registerFunction('local_host(string): bool', (t: string) => isLocalHost(t))
  .registerFunction('asked(string): bool', (pattern: string) => cachedRegex(pattern).test(current.ask))
  .registerFunction('mentions(string): bool', (text: string) => text !== '' && current.ask.includes(text.toLowerCase()))
  .registerFunction('names_setting(string): bool', (key: string) => namesSetting(key, current.ask))
  .registerFunction('names_setting_fully(string): bool', (key: string) => namesSetting(key, current.ask, true))
  .registerFunction('glued_matches(string, dyn): list<string>', (pattern: string, matches: unknown) => gluedMatches(pattern, Array.isArray(matches) ? matches.map(String) : []))
  .registerFunction('other_version(string): bool', (args: string) => otherVersion(args, current.ask))
  .registerFunction('unmarked_matches(string, dyn): list<string>', (pattern: string, matches: unknown) => unmarkedMatches(pattern, Array.isArray(matches) ? matches.map(String) : [], current.ask))
  .registerFunction('numbers_beyond(string, dyn): list<string>', (pattern: string, matches: unknown) => numbersBeyond(pattern, Array.isArray(matches) ? matches.map(String) : [], current.ask))
  .registerFunction('moved_named(string, string): bool', (link: string, to: string) => isRelocation(link, to) && current.scope.paths.some((rp) => rp !== '/' && isUnder(link, rp)))
  .registerFunction('world_writable(string): bool', (mode: string) => grantsWorldWrite(mode))
  .registerFunction('world_readable(string): bool', (mode: string) => grantsWorldRead(mode))
  .registerFunction('group_writable(string): bool', (mode: string) => grantsGroupWrite(mode))
  .registerFunction('dir(string): string', (p: string) => parentOf(p.replace(/\/+$/, '')))
  .registerFunction('setuid_mode(string): bool', (mode: string) => grantsSetuid(mode))
  .registerFunction('off_kind(dyn): list<string>', (paths: unknown) => offKind(Array.isArray(paths) ? paths.map(String) : [], current.ask))
    .registerFunction('base(string): string', (p: string) => p.replace(/\/+$/, '').split('/').pop() ?? '')
    .registerFunction('shared_names(dyn): list<string>', (paths: unknown) => sharedNames(Array.isArray(paths) ? paths.map(String) : []))
  .registerFunction('plain(string): string', (text: string) => plainWords(text))
  .registerFunction('foreign_home(string): bool', (p: string) => foreignHome(p))
  .registerFunction('abs(string): string', (p: string) => normalizePath(p, current.cwd, current.home))
  .registerFunction('sql_denied(dyn, dyn, dyn, string): list<string>', (sql: unknown, access: unknown, schema: unknown, role: string) => deniedColumns(sql, access, schema, role).denied)
  .registerFunction('sql_denied(dyn, dyn, string): list<string>', (sql: unknown, access: unknown, role: string) => deniedColumns(sql, access, {}, role).denied)
  .registerFunction('profile_violations(dyn, dyn, dyn): list<string>', (rules: unknown, request: unknown, profile: unknown) => {
    const { ask, action, site } = requestParts(request);
    return brokenRules(rules, actionText(ask, action), profile, site).map((b) => b.violation);
  });
