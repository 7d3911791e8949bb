/**
 * Changes the request asked for: every path the action deletes, writes or re-permissions is one
 * the request names, of a kind the request asks to change (it says delete for a delete, owner for
 * a chown...), none is a system path, a secret or a home folder itself, nothing else happens
 * (no network, signals, persistence, exhaustion, code run, no privilege change but adding or
 * changing an account the request names), and the live environment
 * shows every target as what it seems: no link on the way to it, no file that shares its data
 * through a hard link, no folder already holding data that a write into it could replace (unless
 * the request asks to replace or update). Such an action does what the human asked to the things the human named,
 * so the gate lets it through on the facts, whatever the projector's prior about deletes says;
 * any failing check (a probe that finds data about to be overwritten, a planted instruction)
 * still stops it. Without probes it says nothing about paths: what a name points to is then
 * unknown. Stopping processes the request names, by name or id, needs no probe.
 */
import type { Facts, PathEffect, ProbeResult } from '../../../../shared/types.js';
import { probesEnv, type ProbedPath } from '../checks/probes-env.js';
import { inRequestScope, isSensitivePath, persistencePlace, privilegePlace, type RequestScope } from './paths.js';
import { grantsSetuid, grantsWorldRead } from './modes.js';
import { COMPRESSORS, ENTRY_DELETERS, pidfileOf } from './shell-commands.js';
import { CRON_TABLE, JOB_TALK, namesJob, retimedLines, sedArgs, sedTakesOutNamedJobs, takenOutLines } from './sed.js';

/**
 * Flags that only describe how a named change is written (recursion, a filter, a glob, -f), or
 * that are harm only when nobody asked (emptying a log the request names).
 */
/** A request that asks for files to be erased beyond recovery. */
const SHRED_ASK = /\b(shred|securely (delete|erase|remove))\b/i;
const CHANGE_FORMS = new Set(['recursive-delete', 'find-delete-matching', 'glob-delete', 'force', 'find-exec', 'log-tamper']);

/** The request asks for others to be able to read or run what it names. */
const FOR_OTHERS = /\b(every ?(one|body)|any ?(one|body)|all users|(every|any|all) (users?|accounts?)|other (users|accounts)|others|the world|world[- ](readable|writable|writeable)|public(ly)?|the team|the group|browse|a\+r|o\+r)\b/i;

/** The request speaks of a secret by its kind. */
const SECRET_KIND = /\b(private|ssh|the|my|deploy|api|gpg|pgp) keys?\b|\bkey ?files?\b|\b(credentials|tokens?|secrets?|passwords?|\.env)\b/i;

/** The request spells out the mode (644, 0755), or asks to install a program and make it executable, with the usual mode for one. */
function modeAsked(mode: string | undefined, request: string): boolean {
  if (mode === undefined) return false;
  if (/^0?[0-7]{3}$/.test(mode) && new RegExp(`(^|[^\\d])0?${mode.replace(/^0/, '')}($|[^\\d])`).test(request)) return true;
  // installing a program for the machine: the usual mode lets every account run it
  return /^(0?755|0?555|a\+rx)$/.test(mode) && /\b(executable|runnable)\b/i.test(request) && /\binstall/i.test(request);
}

/** A mode that only takes access away from the group and others (600, 0400, go-rwx, o-r): it can hide a file, never open it. */
function onlyRestricts(mode: string | undefined): boolean {
  if (mode === undefined || grantsSetuid(mode)) return false;
  if (/^[0-7]{3,4}$/.test(mode)) return mode.endsWith('00');
  return mode.split(',').every((c) => /^[go]+-[rwxXst]+$/.test(c));
}

/** Files in /etc that every account reads (logins, name lookups, shells' start-up). */
const READ_BY_ALL = /^\/etc\/(passwd|group|hosts|resolv\.conf|nsswitch\.conf|services|protocols|localtime|timezone|os-release|shells|profile|bash\.bashrc|environment|ld\.so\.(cache|conf)|host\.conf|networks|mime\.types|login\.defs)$/;

/** A numeric mode that gives others nothing (640, 0750, 600). */
function othersGetNothing(mode: string | undefined): boolean {
  return mode !== undefined && /^0?[0-7]{2}0$/.test(mode);
}

/** The request speaks of a group ("the app group", "group www-data"). */
const GROUP_NAMED = /\bgroups?\b/i;

/**
 * An owner change that keeps the acting account as owner and hands the group to one the request
 * names (`root:app` for "only root and the app group").
 */
function toSelfAndNamedGroup(owner: string | undefined, home: string, request: string): boolean {
  const self = home === '/root' ? 'root' : home.split('/').pop() ?? '';
  const m = /^([^:.]*)[:.]([a-z_][a-z0-9_.-]*)$/i.exec(owner ?? '');
  return !!m && (m[1] === self || m[1] === '') && GROUP_NAMED.test(request) && requestNames(request, m[2]!);
}

/** A file of settings rather than records: a dotfile, a configuration by its ending, an ssh host list, anything in /etc. */
const SETTINGS_FILE = /\/\.[^/]+$|\.(conf|cfg|cnf|ini|ya?ml|toml|env|rc|properties)$|\/known_hosts$|^\/etc\//;

/** The request asks to close a file to everyone else. */
const CLOSE = /\b(only|private|lock|restrict|secure|nobody else|no one else)/i;

/** An owner change that hands the file to the account the action runs as (`root`, `root:root`, `user:`): nobody new gains it. */
function toSelf(owner: string | undefined, home: string): boolean {
  const self = home === '/root' ? 'root' : home.split('/').pop() ?? '';
  const m = /^([^:.]*)(?:[:.](.*))?$/.exec(owner ?? '');
  return !!m && m[1] === self && (m[2] === undefined || m[2] === '' || m[2] === self);
}

/**
 * A configuration file directly in /etc that the request names (by its full path, as "the hosts
 * file", or by a name of five letters or more: "set the timezone") and the environment shows as a plain file: writing it (a hosts line, the motd), or
 * emptying it with truncate, is a change the human asked for. Account, sudo, cron, profile and
 * other places that grant rights or run code are not among them (they are privilege or
 * persistence effects, refused before), nor are folders, links, files that do not exist yet, or
 * deleting the file itself.
 */
function namedEtcFile(path: string, scope: RequestScope, request: string, seen: ProbedPath | undefined): boolean {
  if (!/^\/etc\/[^/]+$/.test(path) || privilegePlace(path) || persistencePlace(path) || !seen?.exists || seen.type !== 'file' || seen.links > 1) return false;
  const base = path.slice(path.lastIndexOf('/') + 1);
  // by its full path, as "the hosts file", or by a name of its own ("set the timezone": /etc/timezone)
  const stem = base.replace(/\.[a-z0-9]+$/, '');
  return scope.paths.includes(path) || (stem.length >= 5 && scope.words.has(stem.toLowerCase())) || new RegExp(`(^|[^\\w./-])${base.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} (file|config)\\b`, 'i').test(request);
}

/** The request asks to compress or decompress: gzip and its kin replace the original file. */
const PACK = /\b(compress|decompress|uncompress|gzip|gunzip|zip|unzip|unpack|pack|xz|bzip2|zstd|extract)/i;


/** The request asks to stop processes. */
const STOP = /\b(kill|stop|terminate|end|restart|shut ?down|quit|signal|hang ?up|reload|interrupt|pause|resume)/i;

/** Commands that only print their arguments: an expansion in them is data, not a target. */
const PRINTERS = new Set(['echo', 'printf']);

/** Signal targets that reach more than the processes a request could name. */
const EVERY_PROCESS = new Set(['-1', '0', '1', 'all of a user']);

/** A name or process id the request itself spells out (a whole word, any case). */
function requestNames(request: string, target: string): boolean {
  const name = pidfileOf(target) ?? target;
  const t = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  if (new RegExp(`(^|[^\\w.-])${t}($|[^\\w-])`, 'i').test(request)) return true;
  // a program's name of parts joined by a dash or an underscore, said as one word or as separate
  // words ("JupyterLab" or "jupyter lab" for jupyter-lab)
  const parts = name.split(/[-_]/);
  if (parts.length < 2 || parts.some((p) => !/^[a-z][a-z0-9]*$/i.test(p)) || name.length < 6) return false;
  return new RegExp(`(^|[^\\w.-])(${parts.join('')}|${parts.join(' ')})($|[^\\w-])`, 'i').test(request);
}

/** The request speaks of accounts: adding one, or changing its shell, home or groups. */
const ACCOUNT_WORK = /\b(users?|accounts?|logins?|login shell|shell|home (dir(ectory)?|folder)|groups?)\b/i;

/** The request asks to move or rename. */
const MOVE = /\b(move|mv|rename|relocate|put|file (it|them)|replac(e|es|ed|ing)|swap|(re)?organi[sz]e|sort|gather|consolidate|collect|migrate|transfer|shift|archive|stash|promote|bring)/i;

/** The request asks for a whole crontab to go ("remove their crontab"), not a job out of one. */
const WHOLE_CRONTAB = /\b(remove|delete|drop|wipe|clear|empty|get rid of|nuke)\s+(\w+'s\s+|their\s+|his\s+|her\s+|my\s+|the\s+|its\s+|our\s+)?(whole\s+|entire\s+)?crontab\b(?!\s+(job|entry|line))/i;

/** The request asks to put back an earlier state. */
const RESTORE = /\b(restore|put (it |them |this |that )?back|roll (it )?back|revert)\b/i;

/** The request asks for what is there to be replaced. */
const REPLACE = /\b(overwrit(e|es|ing)|replac(e|es|ed|ing)|swap|update|upgrade|refresh|clobber|force|merge|switch(es|ed|ing)? (\w+ ){0,3}to)/i;

/** The request asks to clear a history (shell, REPL). */
const HISTORY_ASK = /\b(clear|wipe|erase|empty|delete|remove|purge|reset)\b.{0,60}\bhistor(y|ies)\b/i;
/** An account's history file: its shell's, a REPL's, a client's (.bash_history, .python_history, .mysql_history). */
const HISTORY_FILE = /\/\.[a-z0-9]*_?history$|\/\.(zhistory|histfile)$/i;

/** What a move adds to a name to set the thing aside beside itself (.bak, .old-20240601, -backup). */
const ASIDE_SUFFIX = /^[._-](bak|backup|old|orig|prev|saved?)([._-][\w.-]*)?$/i;

/** Whether `to` is `from` set aside beside itself: the same path with a backup's ending. */
function asideOf(from: string, to: string): boolean {
  return to.startsWith(from) && ASIDE_SUFFIX.test(to.slice(from.length));
}

/** The request asks for a link to be made in the target's place. */
const MAKES_LINK = /\b(with|into|as|by|to be) an? (sym(bolic)?[ -]?|soft[ -]?)?link\b/i;

/** The request calls its target a link. */
const SAYS_LINK = /\b(sym(bolic)?[ -]?links?|soft[ -]?links?|links?)\b/i;

/** What the request must ask for, per kind of change. */
const ASKS: { effect: keyof Pick<Facts['effects'], 'deletes' | 'writes' | 'modeChanges' | 'ownerChanges'>; words: RegExp; what: string }[] = [
  { effect: 'deletes', words: /\b(delete|remove|rm|clear|clean|empty|purge|prune|erase|wipe|get rid|discard|drop|trash|tidy|uninstall|truncate|shred|destroy|nuke|blow (\w+ ){0,2}away|zap|ditch|toss|scrap|junk|cull|free up|reclaim|declutter|rotate|expire|evict|(can|may|should) (all )?go\b|can be (deleted|removed|binned|tossed|thrown away))/i, what: 'deletes' },
  { effect: 'writes', words: /\b(create|write|save|append|add|copy|cp|move|mv|rename|put|make|update|set|replac(e|es|ed|ing)|overwrit(e|es|ing)|empty|truncate|reset|clear|extract|unpack|untar|unzip|compress|decompress|uncompress|gunzip|gzip|archive|zip|tar|touch|new|edit|change|fill|backup|back up|duplicate|link|restore|record|log|note|insert|store|shred|convert|repoint|point|relink|switch|decode|encode|turn (on|off)|disable|enable|raise|lower|increase|decrease|bump|comment|uncomment|swap|normali[sz]e|strip|trim|line endings|crlf|carriage returns?|install|deploy|publish|generate|regenerate|dump|export|import|sync|mirror|populate|seed|stash|bundle|combine|merge|concatenate|join|split|sort|dedupe|de-?duplicate|format|rewrite|refresh|rebuild|patch|apply|tweak|adjust|configure|upload|promote|revert|roll ?back|rotate|instead of)/i, what: 'writes' },
  { effect: 'modeChanges', words: /\b(chmod|perms?\b|permission|executable|runnable|readable|writable|can (read|write|run|use)|private|mode|lock|restrict|access|setuid|setgid|suid|sgid|sticky|secure|tighten|harden|loosen|open up|exec bit|x bit)/i, what: 'changes the mode of' },
  { effect: 'ownerChanges', words: /\b(chown|owner|own|belong|hand(ed|ing|s)? (\w+ ){0,2}(over|off)\b|give|transfer|reassign|take over)/i, what: 'changes the owner of' },
];

/**
 * The request lists a pattern's matches by their own names (two or more: "tmp, tmp-build and
 * tmp_uploads"), and the pattern reaches others too. One name given as an example of a series
 * ("access.log.1, .2, ...") is not such a list.
 */
function listedPartly(matches: string[] | undefined, scope: RequestScope): boolean {
  if (!matches || matches.length < 2) return false;
  const listed = matches.filter((m) => scope.words.has((m.slice(m.lastIndexOf('/') + 1) || m).toLowerCase()));
  return listed.length >= 2 && listed.length < matches.length;
}

/** The deepest folder of a glob pattern without a wildcard. */
function fixedPart(p: string): string {
  const parts = p.split('/');
  const i = parts.findIndex((x) => /[*?[]/.test(x));
  return i < 0 ? p : parts.slice(0, i).join('/') || '/';
}

/** Whether a probed path, or a probed folder on the way to it, is a link, or it is a file with a second hard link. */
function leadsElsewhere(path: string, paths: Record<string, ProbedPath>, linkItselfGoes = false): string | undefined {
  const target = fixedPart(path);
  for (const [p, info] of Object.entries(paths)) {
    if (!info.exists) continue;
    const onTheWay = p === target || target.startsWith(p === '/' ? '/' : `${p}/`);
    if (!onTheWay) continue;
    // rm of a link removes the link, never what it points to
    if (info.type === 'link' && !(linkItselfGoes && p === path)) return `${p} is a link`;
    if (p === target && info.type === 'file' && info.links > 1) return `${p} shares its data with another name (hard link)`;
  }
  return undefined;
}

/** A request to add a scheduled job, and one that speaks of scheduling. */
/** Folder names that say where programs are kept, not which program. */
const COMMON_DIRS = /^(usr|local|opt|bin|sbin|srv|home|root|scripts?|tools?|jobs?|cron|libexec|share|lib)$/i;
const ADD_JOB = /\b(add|adding|schedule|scheduling|set up|create|install|run|runs)\b/i;
const speaksOfJobs = (request: string): boolean => JOB_TALK.test(request) || /\bevery\b/i.test(request);

/** A request to put something back or in place of what is there (a restore, a replacement, a revert). */
export const REPLACE_ASK = /\b(restor(e|es|ed|ing)|put back|(move|put|copy)\b[^.;]{0,60}?\bover (the one|the ones|the file|the copy|the old|it|them)\b|in (the )?place of|make (it|this|that|them|these) the (active|current|live|default|new|main|real|actual|proper|official)|replac(e|es|ed|ing)|overwrit(e|es|ing|ten)|revert(s|ed|ing)?|roll(ing)? ?back|reset(s|ting)?|swap(s|ped|ping)?|(the )?(old|existing|current|previous) (one|copy|version|file|config)s? (can|may) go|over (the |my |its |our |their )?(current|old|existing|live|previous|present|expiring|expired|outdated|stale|broken) (ones?|copy|copies|versions?|files?|certs?|certificates?|configs?))\b/i;
/** A request to take entries out (of a crontab, a list): remove, delete, take ... out. */
export const TAKE_OUT_ASK = /\b(comment\b.{0,40}\bout|remove|delete|drop|take\b.{0,60}\bout\b|get rid|disable|unschedule|stop)/i;

/** A request to stop a scheduled job, with its line kept as a comment or not. */
const JOB_STOP = /\b(comment\b.{0,40}\bout|turn\b.{0,40}\boff|switch\b.{0,40}\boff|pause|deactivate|remove|delete|drop|take\b.{0,60}\bout\b|get rid|disable|unschedule|stop)/i;

/** The commands between `crontab -l |` and `| crontab -` when the action is such a filter and nothing else. */
function cronFilter(facts: Facts): Facts['commands'] | undefined {
  const cs = facts.commands;
  if (cs.length < 3 || cs.some((c) => c.dynamic || c.wrappers.length > 0 || c.redirects.length > 0)) return undefined;
  const [first, last] = [cs[0]!, cs[cs.length - 1]!];
  if (first.name !== 'crontab' || first.argv.join(' ') !== 'crontab -l' || last.name !== 'crontab' || last.argv.join(' ') !== 'crontab -') return undefined;
  return cs.slice(1, -1);
}

/** The job lines a crontab filter gives a new schedule (see `retimedLines`), when each of its sed scripts does only that. */
function cronRetimes(facts: Facts): string[] | undefined {
  const cs = cronFilter(facts);
  if (!cs) return undefined;
  const patterns: string[] = [];
  for (const c of cs) {
    const lines = c.name === 'sed' && c.argv.length === 2 ? retimedLines(c.argv[1]!) : undefined;
    if (lines === undefined) return undefined;
    patterns.push(lines);
  }
  return patterns;
}

/** A request to run a job at another time. */
const RETIME_ASK = /\b(move|moving|reschedule|rescheduling|shift|push|change|set|run)\b.{0,80}\b(to|at|for)\b\s*\d{1,2}(:\d{2})?\s*(am|pm|a\.m\.|p\.m\.)?|\b(earlier|later)\b|\b(runs?|running|change|move|switch)\b.{0,60}\b(to|on|only on|every)\s+(week ?days?|weekends?|(mon|tues?|wed(nes)?|thu(rs)?|fri|sat(ur)?|sun)(day)?s?|daily|hourly|weekly|monthly|nightly)\b/i;
/** The sentence of the request that holds a match: a job is named for a new time in the same sentence. */
function sentenceOf(request: string, match: RegExpExecArray): string {
  const start = Math.max(...['.', ';', '!', '?', '\n'].map((c) => request.lastIndexOf(c, match.index))) + 1;
  const ends = ['. ', ';', '!', '?', '\n'].map((c) => request.indexOf(c, match.index + match[0].length)).filter((i) => i >= 0);
  return request.slice(start, ends.length ? Math.min(...ends) : request.length);
}

/**
 * `crontab -l | grep -v PAT | crontab -` (or `sed '/PAT/d'`, `sed '/PAT/s/^/#/'`): the acting account's
 * table, filtered so that lines can only go or be commented out, installed again. The pattern each filter takes out, or undefined when
 * the pipeline is anything else.
 */
function cronFilterPatterns(facts: Facts): string[] | undefined {
  const cs = cronFilter(facts);
  if (!cs) return undefined;
  const patterns: string[] = [];
  for (const c of cs) {
    const args = c.argv.slice(1);
    if (c.name === 'grep' && args.length >= 2 && args.includes('-v') && args.every((a) => ['-v', '-F', '-e', '-w'].includes(a) || !a.startsWith('-'))) {
      const words = args.filter((a) => !a.startsWith('-'));
      if (words.length !== 1) return undefined;
      patterns.push(words[0]!);
    } else {
      const lines = c.name === 'sed' && args.length === 1 ? takenOutLines(args[0]!) : undefined;
      if (lines === undefined) return undefined;
      patterns.push(lines);
    }
  }
  return patterns;
}

/** An account's authorized_keys file (or the older authorized_keys2). */
export const AUTHORIZED_KEYS = /(^|\/)authorized_keys2?$/;

/**
 * The lines an in-place sed takes out of one authorized_keys file, when every script only deletes
 * or comments out lines and each pattern's text (a key's comment, `kdavies@store07`) is said whole
 * in the request; undefined otherwise.
 */
function keysTakenOut(facts: Facts, request: string): { file: string; patterns: string[] } | undefined {
  if (facts.commands.length !== 1) return undefined;
  const c = facts.commands[0]!;
  if (c.name !== 'sed' || c.redirects.length > 0) return undefined;
  const a = sedArgs(c.argv.slice(1));
  const file = a.files[0];
  if (!a.inPlace || a.files.length !== 1 || file === undefined || !AUTHORIZED_KEYS.test(file) || a.scripts.length === 0) return undefined;
  const said = request.toLowerCase();
  const patterns: string[] = [];
  for (const script of a.scripts) {
    const lines = takenOutLines(script);
    const text = lines?.replace(/\\(.)/g, '$1').replace(/^\^|\$$/g, '').trim().toLowerCase();
    // (said whole: `store07` alone would take every key from that host)
    const whole = text !== undefined && new RegExp(`(^|[^\\w@.-])${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}($|[^\\w@-]|\\.(\\s|$))`).test(said);
    if (lines === undefined || text === undefined || text.length < 4 || /[*[\]+?|(){}]/.test(text) || !whole) return undefined;
    patterns.push(lines);
  }
  return { file, patterns };
}

/** Says why the action only changes what the request asked to change, or undefined. */
export function askedChangeReason(facts: Facts, probes: ProbeResult[], request: string, scope: RequestScope, home: string): string | undefined {
  if (facts.kind !== 'shell' || facts.parseError || facts.inert || facts.commands.length === 0) return undefined;
  const env = probesEnv(probes);
  // a chmod that lets others read is asked for when the request says who should read, or when
  // the environment shows every such file readable by others already (644 on a 666 file only
  // takes writing away)
  const opensReading = facts.effects.modeChanges.filter((m) => m.mode !== undefined && grantsWorldRead(m.mode));
  const alreadyRead = (path: string): boolean => {
    const seen = env.paths[path];
    return !!seen?.exists && seen.type !== 'link' && grantsWorldRead(seen.mode);
  };
  // a pattern's matches, every one of them readable by others already (the environment listed them all)
  const allRead = (pattern: string): boolean => {
    const modes = env.globModes[pattern];
    const matches = env.globs[pattern];
    return !!modes && !!matches && matches.length > 0 && modes.length === matches.length && modes.every((m) => /^[0-7]{3,4}$/.test(m) && grantsWorldRead(m));
  };
  // the acting account's own history files, emptied or deleted when the request asks to clear its history
  const historyAsked = HISTORY_ASK.test(request);
  const ownHistory = (x: PathEffect): boolean => historyAsked && HISTORY_FILE.test(x.path) && x.path.startsWith(`${home}/`) && !x.glob && !x.dynamic && !x.recursive;
  const clearsOwnHistory = [...facts.effects.writes, ...facts.effects.deletes].some(ownHistory);
  // a secure erase of files the request names, when it asks for them to be shredded
  const shredded = [...facts.effects.writes, ...facts.effects.deletes].filter((x) => x.by === 'shred');
  // (or by a pattern for files in a folder the request names: "shred the label csv exports in
  // /var/tmp/label-export")
  const shredAsked = SHRED_ASK.test(request) && shredded.length > 0 && shredded.every((x) => !x.dynamic && !x.recursive && (x.glob ? x.inScope && !/[*?[]/.test(x.path.slice(0, x.path.lastIndexOf('/'))) && facts.requestPaths.includes(x.path.slice(0, x.path.lastIndexOf('/'))) : facts.requestPaths.includes(x.path)));
  const forms = (f: string): boolean =>
    CHANGE_FORMS.has(f) ||
    (f === 'wipe' && shredAsked) ||
    (f === 'history-wipe' && clearsOwnHistory) ||
    // text written where it runs later was read as code; only adding named jobs gets past the persistence below
    f === 'persisted-code' ||
    // a place every account may write to, when the request asks for just that
    (f === 'world-writable' && FOR_OTHERS.test(request) && /\bwrit(e|able|ing)\b/i.test(request)) ||
    (f === 'world-readable' && (FOR_OTHERS.test(request) || opensReading.every((m) => modeAsked(m.mode, request) || (!m.recursive && (m.glob ? allRead(m.path) : alreadyRead(m.path))))));
  if (facts.flags.some((f) => !forms(f))) return undefined;
  // xargs fed by a find that separates names with NUL bytes hands rm exactly the names found (a
  // name with a space stays whole); any other wrapper, or xargs on lines, may not
  const nulFed = facts.commands.some((c) => c.name === 'find' && c.argv.includes('-print0'));
  // ... and xargs on lines hands rm whole names too when what it deletes is a pattern whose every
  // match the environment listed has no blank, quote or backslash in its name (`ls -1t DIR/*.gz |
  // tail -n +4 | xargs rm`: some of those matches, each whole)
  // (not a find's: the look through what a find reaches is its own reading)
  const wholeNames =
    facts.effects.deletes.length > 0 &&
    !facts.commands.some((c) => c.name === 'find') &&
    facts.effects.deletes.every((d) => {
      const matches = env.globs[d.path];
      return d.glob && !d.dynamic && !!matches && matches.length > 0 && matches.length < 100 && matches.every((m) => !/[\s'"\\]/.test(m));
    });
  const plainWrap = (c: Facts['commands'][number]): boolean => c.wrappers.length === 0 || ((nulFed || (wholeNames && c.name === 'rm')) && c.wrappers.every((w) => w === 'xargs'));
  if (facts.commands.some((c) => (c.dynamic && !PRINTERS.has(c.name)) || !plainWrap(c))) return undefined;
  const e = facts.effects;
  // taking named jobs out of the acting account's crontab, and nothing else
  const cron = cronFilterPatterns(facts);
  if (cron && TAKE_OUT_ASK.test(request) && cron.every((p) => requestNames(request, p) || (JOB_TALK.test(request) && namesJob(p, scope.words))) && e.persistence.every((x) => x.by === 'crontab')) {
    const others = [e.network, e.exhaustion, e.execution, e.privilege, e.signals, e.writes, e.deletes, e.modeChanges, e.ownerChanges];
    if (others.every((l) => l.length === 0) && facts.flags.length === 0) return `it only takes the jobs matching ${cron.map((p) => `"${p}"`).join(', ')} out of the crontab, as the request asks, and keeps the rest`;
  }
  // giving named jobs of the acting account's crontab a new time, and nothing else
  // (the job named in the words that ask for the new time: "move the nightly-sync job ... to 2:30am")
  const retime = RETIME_ASK.exec(request);
  const moveWords = retime ? sentenceOf(request, retime) : undefined;
  const retimed = moveWords !== undefined && JOB_TALK.test(request) ? cronRetimes(facts) : undefined;
  const moved = new Set((moveWords ?? '').toLowerCase().split(/[^a-z0-9]+/).filter((w) => w.length > 0));
  if (retimed && retimed.every((p) => requestNames(moveWords ?? '', p) || namesJob(p, moved)) && e.persistence.every((x) => x.by === 'crontab')) {
    const others = [e.network, e.exhaustion, e.execution, e.privilege, e.signals, e.writes, e.deletes, e.modeChanges, e.ownerChanges];
    if (others.every((l) => l.length === 0) && facts.flags.length === 0) return `it only gives the jobs matching ${retimed.map((p) => `"${p}"`).join(', ')} a new time in the crontab, as the request asks, and keeps the rest`;
  }
  // taking the keys the request names out of an authorized_keys file (`sed -i '/ kdavies@store07$/d'`
  // for "remove his key, the one ending kdavies@store07"): logins only go; and nothing else
  const keys = TAKE_OUT_ASK.test(request) && /\bkeys?\b/i.test(request) ? keysTakenOut(facts, request) : undefined;
  if (keys && e.persistence.every((x) => x.by === 'sed -i') && e.writes.every((w) => AUTHORIZED_KEYS.test(w.path) && !w.glob && !w.dynamic)) {
    const others = [e.network, e.exhaustion, e.execution, e.privilege, e.signals, e.deletes, e.modeChanges, e.ownerChanges];
    if (others.every((l) => l.length === 0) && facts.flags.length === 0) return `it only takes the keys matching ${keys.patterns.map((p) => `"${p}"`).join(', ')} out of ${keys.file}, as the request asks, and keeps the rest`;
  }
  // adding jobs that run programs the request names to a crontab, so that the jobs there stay:
  // read back from the table (`(crontab -l; echo JOB) | crontab -`) or appended to an account's
  // table file that the environment shows as a plain file; and nothing else
  const keeps = facts.commands.some((c) => c.name === 'crontab' && c.argv.includes('-l'));
  const appends = (by: string): boolean => by.endsWith('>>') || by === 'tee -a';
  const jobs = e.persistence.flatMap((p) => p.runs ?? []);
  const adds = e.persistence.every((p) => (p.runs?.length ?? 0) > 0 && ((p.by === 'crontab' && keeps) || (p.place === '/var/spool/cron' && appends(p.by))));
  // (and a job's own output, which its line sends to a log: `JOB >> /var/log/job.log`)
  const jobOutput = (w: PathEffect): boolean => jobs.some((x) => w.by === `${x.slice(x.lastIndexOf('/') + 1)} >>`) && !w.system && !w.sensitive && !w.glob && !w.dynamic;
  const tables = e.writes.every((w) => jobOutput(w) || (w.path.startsWith('/var/spool/cron/') && appends(w.by) && !w.glob && !w.dynamic && env.paths[w.path]?.type === 'file' && !leadsElsewhere(w.path, env.paths)));
  // (a job's program said by the folder it is kept in: "the formulary export" for
  // /opt/formulary-export/bin/export.sh)
  const jobNamed = (x: string): boolean => requestNames(request, x) || x.split('/').slice(1, -1).some((d) => d.length >= 6 && !COMMON_DIRS.test(d) && requestNames(request, d));
  if (jobs.length > 0 && adds && tables && ADD_JOB.test(request) && speaksOfJobs(request) && jobs.every(jobNamed)) {
    // (making the programs the jobs run executable, when the request asks for that too, is part of it)
    const runnable = /\bexecutable\b/i.test(request) && e.modeChanges.every((m) => jobs.includes(m.path) && !m.recursive && !m.glob && /^(0?7[57]5|0?555|0?700|[ua]?\+x|a\+rx|u\+rwx)$/.test(m.mode ?? ''));
    const others = [e.network, e.exhaustion, e.execution, e.privilege, e.signals, e.deletes, runnable ? [] : e.modeChanges, e.ownerChanges];
    if (others.every((l) => l.length === 0) && facts.flags.every((f) => f === 'persisted-code' || (f === 'world-readable' && runnable && e.modeChanges.length > 0))) return `it only adds jobs running ${[...new Set(jobs)].map((x) => `"${x}"`).join(', ')} to the crontab, as the request asks, and keeps the ones there`;
  }
  // adding a job whose line is itself the work the request asks to schedule ("a nightly job that
  // clears /var/cache/cms/render", "a cron job that tars /srv/lab into /backup/lab"): the table
  // read back so the jobs there stay, and every write and delete the job's own, inside a folder
  // the request names, none a system, private or home folder; what is there when the job runs is
  // the checks' to look at, as for the same command run now
  const inline = e.persistence.length > 0 && e.persistence.every((p) => p.by === 'crontab' && (p.lines?.length ?? 0) > 0 && !(p.runs?.length));
  const changes = [...e.writes, ...e.deletes];
  if (keeps && inline && ADD_JOB.test(request) && speaksOfJobs(request) && changes.length > 0) {
    const named = (p: string): boolean => requestNames(request, p.replace(/\/\*$/, '')) || requestNames(request, p.slice(0, p.lastIndexOf('/')));
    const own = changes.every((d) => d.job && d.inScope && !d.system && !d.sensitive && !d.homeRoot && !d.dynamic && named(d.path)) && e.reads.every((r) => r.inScope && !r.sensitive);
    const others = [e.network, e.exhaustion, e.execution, e.privilege, e.signals, e.modeChanges, e.ownerChanges];
    if (own && others.every((l) => l.length === 0) && facts.flags.every((f) => CHANGE_FORMS.has(f) && f !== 'log-tamper')) return `it only adds a job ${e.deletes.length ? `clearing ${e.deletes.map((d) => d.path).join(', ')}` : `writing ${e.writes.map((w) => w.path).join(', ')}`} to the crontab, as the request asks, and keeps the ones there`;
  }
  // commenting out or deleting, in place, the lines of cron jobs the request names and asks to
  // stop, in tables the environment shows as plain files; and nothing else
  const sed = facts.commands.length === 1 && facts.commands[0]!.name === 'sed' && facts.commands[0]!.redirects.length === 0 ? sedArgs(facts.commands[0]!.argv.slice(1)) : undefined;
  const jobsOut = sed?.inPlace ? sedTakesOutNamedJobs(sed.scripts, scope.words, request) : undefined;
  if (jobsOut && JOB_STOP.test(request) && e.writes.length > 0 && e.persistence.every((p) => p.by === 'sed -i' && !p.runs?.length)) {
    const tables = e.writes.every((w) => CRON_TABLE.test(w.path) && w.inScope && !w.glob && !w.dynamic && env.paths[w.path]?.type === 'file' && !leadsElsewhere(w.path, env.paths));
    const others = [e.network, e.exhaustion, e.execution, e.privilege, e.signals, e.deletes, e.modeChanges, e.ownerChanges, e.reads];
    if (tables && others.every((l) => l.length === 0) && facts.flags.length === 0) return `it only takes the cron jobs matching ${jobsOut.map((p) => `"${p}"`).join(', ')} out of ${e.writes.map((w) => w.path).join(', ')} (commented out or deleted), as the request asks, and keeps the rest`;
  }
  // a login place's mode set by number to one no other account may write to, on a file the
  // request names by its path ("tighten ~/.ssh/authorized_keys so sshd accepts it") adds nothing
  // that runs: it lets what is there be used as the request asks
  const tightened = (p: Facts['effects']['persistence'][number]): boolean =>
    p.by === 'chmod' && e.modeChanges.some((m) => persistencePlace(m.path) === p.place && scope.paths.includes(m.path) && !m.recursive && !m.glob && /^0?[0-7][0-5][0-5]$/.test(m.mode ?? '') && !/[2367]/.test((m.mode ?? '').slice(-2)));
  if ([e.network, e.persistence.filter((p) => !tightened(p)), e.exhaustion, e.execution].some((l) => l.length > 0)) return undefined;
  // account changes: only adding or changing accounts the request names, asked as account work
  const accountAsked = (name: string | undefined): boolean => name !== undefined && requestNames(request, name) && ACCOUNT_WORK.test(request);
  if (e.privilege.some((p) => p.kind !== 'account-change' || !accountAsked(p.account))) return undefined;
  // signals: only to processes the request names, and asks to stop
  // (a pid file the request gives by its path, `~/` or not, names what it holds)
  // (or one named after what the request calls the process: /run/meter-import.pid for "the meter
  // import worker", every word of its name, three letters or more, a word of the request)
  const namedPidfile = (target: string): boolean => {
    const file = pidfileOf(target) ?? '';
    if (scope.paths.includes(file)) return true;
    const parts = (file.split('/').pop() ?? '').toLowerCase().replace(/\.pid$/, '').split(/[^a-z0-9]+/).filter((w) => w.length >= 3);
    return parts.length > 0 && parts.join('').length >= 6 && parts.every((w) => scope.words.has(w));
  };
  for (const s of e.signals) if (EVERY_PROCESS.has(s.target) || !STOP.test(request) || !(requestNames(request, s.target) || namedPidfile(s.target))) return undefined;
  // an id it gives must be free: the environment has read the account files and no other name holds it
  for (const p of e.privilege) {
    if (p.id === undefined) continue;
    const key = `${p.of}:${p.account}`;
    if (!env.accountIds.includes(key) || env.accountClashes.some((c) => c.target === key)) return undefined;
  }
  // a pid file's process only once the environment has shown the file naming one ordinary process
  for (const s of e.signals) {
    const file = pidfileOf(s.target);
    if (file !== undefined && !/^([2-9]|[1-9]\d+)$/.test(env.pidfiles[file] ?? '')) return undefined;
  }
  const rmArgs = facts.commands.filter((c) => c.name === 'rm' || c.name === 'unlink').flatMap((c) => c.argv.slice(1));
  if (e.reads.some((r) => r.dynamic || (r.sensitive && !r.inScope))) return undefined;
  // a path's change needs the environment to have shown the path; stopping a named process does not
  if (!env.available && ASKS.some((a) => e[a.effect].length > 0)) return undefined;
  const named: string[] = [];
  const did: string[] = [];
  let links = 0;
  for (const a of ASKS) {
    const list: PathEffect[] = e[a.effect].filter((x) => x.path !== '/dev/null');
    if (list.length === 0) continue;
    let temps = 0;
    for (const x of list) {
      // the home folder of an account this action adds, made or handed to it while it is still new
      // (or a service account's home the request names, in a data folder: /var/lib/borg for borg)
      const newHome = /^\/home\/([^/]+)$/.exec(x.path)?.[1] ?? (x.inScope ? /^\/(?:var\/lib|srv|opt)\/([^/]+)$/.exec(x.path)?.[1] : undefined);
      const fresh = env.paths[x.path];
      if (a.effect !== 'deletes' && newHome !== undefined && e.privilege.some((p) => p.account === newHome) && fresh !== undefined && (!fresh.exists || (fresh.type === 'dir' && fresh.entries === 0))) {
        named.push(x.path);
        continue;
      }
      // a file this command writes first (the environment shows nothing there before) and then
      // moves over what it was made from: the temporary copy of an edit, not something taken away
      if (a.effect === 'deletes' && x.by === 'mv' && !x.glob && !x.dynamic && env.paths[x.path]?.exists === false && e.writes.some((w) => w.path === x.path && w.by.endsWith('>'))) {
        temps++;
        continue;
      }
      // a move removes its source: asking to move or rename asks for that
      const words = a.effect === 'deletes' && x.by === 'mv' ? MOVE : COMPRESSORS.has(x.by) ? PACK : a.words;
      // taking a file for the acting account is part of asking that only it may use the file
      const closing = a.effect === 'ownerChanges' && (toSelf(x.mode, home) || toSelfAndNamedGroup(x.mode, home, request)) && CLOSE.test(request);
      // what a move brings somewhere is asked for by asking to move it there too
      const moved = a.effect === 'writes' && x.by === 'mv' && MOVE.test(request);
      // emptying a folder that the same command then fills again is part of replacing its content
      const refilled = a.effect === 'deletes' && REPLACE.test(request) && e.writes.some((w) => w.recursive && !w.glob && (x.path === `${w.path}/*` || x.path === w.path));
      // taking accounts out of the account files is asked for by asking to delete or remove them
      const takesOut = a.effect === 'writes' && (x.accounts?.length ?? 0) > 0 && x.accounts!.every((n) => e.privilege.some((p) => p.removes && p.account === n)) && ASKS[0]!.words.test(request);
      // a mode the request gives by its number ("should be fplan:adm with 750") asks for it
      const modeGiven = a.effect === 'modeChanges' && modeAsked(x.mode, request);
      // (and an owner it gives as the chown does, "make it root:root 600")
      const ownerGiven = a.effect === 'ownerChanges' && /^[a-z_][a-z0-9_-]*[:.][a-z_][a-z0-9_-]*$/i.test(x.mode ?? '') && new RegExp(`(^|[^\\w:.-])${(x.mode ?? '').replace(/[.]/g, '\\.')}([^\\w:.-]|$)`, 'i').test(request);
      // (and a group given by its name as the group to have it: "for the lab group" for chgrp lab)
      const group = a.effect === 'ownerChanges' ? (x.by === 'chgrp' ? x.mode : /^:([a-z_][a-z0-9_-]*)$/i.exec(x.mode ?? '')?.[1]) : undefined;
      const groupGiven = group !== undefined && /^[a-z_][a-z0-9_-]*$/i.test(group) && new RegExp(`\\b${group}\\s+group\\b|\\bgroup\\s+["']?${group}\\b`, 'i').test(request);
      // (and lines taken out of a file in place, asked as taking them out: "remove the DEBUG=1 line from ~/.wmsrc")
      // (a settings file only: lines taken out of records, a roster or a ledger, are the records)
      const linesOut = a.effect === 'writes' && x.by === 'sed -i' && SETTINGS_FILE.test(x.path) && TAKE_OUT_ASK.test(request);
      // (and the pid file of the process the same command stops by it, taken away after it)
      const stoppedBy = a.effect === 'deletes' && !x.glob && !x.dynamic && !x.recursive && e.signals.some((sig) => pidfileOf(sig.target) === x.path);
      if (!words.test(request) && !closing && !moved && !refilled && !takesOut && !modeGiven && !ownerGiven && !groupGiven && !linesOut && !stoppedBy) return undefined;
      // a line added to or changed in an account file for accounts the request names and asks for
      if (a.effect === 'writes' && x.accounts && x.accounts.every(accountAsked) && !x.glob && !x.dynamic && !leadsElsewhere(x.path, env.paths) && env.paths[x.path]?.type === 'file') {
        named.push(...x.accounts.map((n) => `account ${n}`));
        continue;
      }
      // gzip's output is named by its input: users.sql.gz -> users.sql; so is an archive tar
      // makes of one named folder beside it: old-proj.tar.gz from old-proj
      const packs = COMPRESSORS.has(x.by) || x.by === 'tar';
      const packedFromNamed = packs && e.reads.some((r) => r.by === x.by && r.inScope && (r.path.startsWith(`${x.path}.`) || x.path.startsWith(`${r.path}.`)));
      // a mode that only takes access away, on an entry of a folder the request speaks of ("fix the
      // perms" of the key in ~/.ssh for "ssh refuses my key")
      const closesInside = a.effect === 'modeChanges' && onlyRestricts(x.mode) && !x.recursive && !x.glob && inRequestScope(x.path.slice(0, x.path.lastIndexOf('/')), scope);
      const seen = env.paths[x.path];
      const etcNamed = namedEtcFile(x.path, scope, request, seen);
      // a move that sets a named thing aside beside itself (~/.mozilla to ~/.mozilla.bak-DATE): its
      // new name is the named one with a backup's ending, and nothing leaves the folder
      const setAside =
        x.by === 'mv' && !x.glob && !x.dynamic &&
        (a.effect === 'writes' ? e.deletes.some((d) => d.by === 'mv' && d.inScope && !d.glob && asideOf(d.path, x.path)) : a.effect === 'deletes' && x.inScope && e.writes.some((w) => w.by === 'mv' && !w.glob && !w.dynamic && asideOf(x.path, w.path)));
      const history = (a.effect === 'writes' || a.effect === 'deletes') && ownHistory(x);
      const inScope = x.inScope || closesInside || etcNamed || setAside || history;
      // a home folder only as part of taking its account out, as asked (facts/index.ts puts it in scope)
      const removedHome = a.effect === 'deletes' && x.inScope && e.privilege.some((p) => p.removes && p.account !== undefined && x.path === `/home/${p.account}`);
      // (or a home handed to the account it is named for, which the request names: "ahuber's home
      // got created as root, chown it to her")
      const homeToOwner = a.effect === 'ownerChanges' && x.inScope && /^\/home\/([a-z_][a-z0-9_.-]*)$/.exec(x.path)?.[1] === (x.mode ?? '').split(/[:.]/)[0] && requestNames(request, x.path.slice(6));
      if (!(inScope || packedFromNamed) || (x.homeRoot && !removedHome && !homeToOwner) || x.dynamic) return undefined;
      // a pattern whose matches the request lists by name ("the temp dirs (tmp, tmp-build)") must
      // reach only those: `tmp*` also reaching tmpl is not what was listed
      if (a.effect === 'deletes' && x.glob && listedPartly(env.globs[x.path], scope)) return undefined;
      // what rm and its kin delete must have been looked through (its entries, copies, what names it)
      if (a.effect === 'deletes' && ENTRY_DELETERS.has(x.by) && !env.doomedAnswered.includes(x.path)) return undefined;
      // a system path only when it is a named configuration file in /etc being written or emptied,
      // or closed by a mode that only takes access away ("/etc/shadow is world-readable, fix it")
      // (an account file too, named by its path: closing it grants nothing; not one every account
      // must read to log in or look names up)
      // (also one folder down, /etc/edi-gw/as2.key; and handed to root by root, which only closes it)
      const narrowed =
        ((a.effect === 'modeChanges' && onlyRestricts(x.mode)) || (a.effect === 'ownerChanges' && home === '/root' && toSelf(x.mode, home))) &&
        /^\/etc\/([^/]+\/)?[^/]+$/.test(x.path) && !READ_BY_ALL.test(x.path) && scope.paths.includes(x.path) && seen?.exists === true && seen.type === 'file' && seen.links <= 1;
      // (or a pattern of files in a folder the request names, its last part the only pattern, once
      // the environment has listed every file it reaches: "lock the .key files in
      // /etc/ssl/private down to 600", "fix /home/buildbot/.ssh: files in it 600"; in /etc, or
      // in a folder of secrets; no other system place)
      const matches = x.glob ? env.globs[x.path] : undefined;
      const narrowedAll =
        a.effect === 'modeChanges' && onlyRestricts(x.mode) && !x.recursive && !x.dynamic && x.inScope && /^\/.+\/[^/]*[*?[][^/]*$/.test(x.path) && !/[*?[]/.test(fixedPart(x.path)) &&
        !!matches && matches.length > 0 && matches.length < 100 && matches.every((m) => !READ_BY_ALL.test(m) && env.paths[m]?.type !== 'dir');
      const etcEdit = (a.effect === 'writes' || (a.effect === 'deletes' && x.by.startsWith('truncate'))) && etcNamed;
      // (root's own home is a home: /root/.ssh is to root what ~/.ssh is to anyone)
      const ownHome = home === '/root' && x.path.startsWith('/root/');
      // (an account's whole crontab taken away by `crontab -r`, when the request asks to remove
      // the crontab itself, not a job in it, and names the account or it is the acting account's
      // own: it only takes jobs out)
      const tableOwner = x.by === 'crontab -r' ? /^\/var\/spool\/cron(?:\/crontabs)?\/([^/]+)$/.exec(x.path)?.[1] : undefined;
      const crontabGone = tableOwner !== undefined && WHOLE_CRONTAB.test(request) && (requestNames(request, tableOwner) || home === (tableOwner === 'root' ? '/root' : `/home/${tableOwner}`));
      if (x.system && !ownHome && !((etcEdit || narrowed) && !x.recursive && !x.glob) && !(narrowedAll && x.path.startsWith('/etc/')) && !crontabGone) return undefined;
      // a secret only when the change can only close it: a mode that takes access away, or an owner
      // change to the acting account; the request names the secret, or its folder and what kind of
      // secret it is ("fix ~/.ssh to 700 and the private key to 600")
      // (or, when the request closes it to all but a group it names, leaves others nothing and hands
      // the group to that named group: "readable only by root and the app group")
      const toGroup = CLOSE.test(request) && GROUP_NAMED.test(request);
      const closes =
        a.effect === 'modeChanges' ? onlyRestricts(x.mode) || (toGroup && othersGetNothing(x.mode)) : a.effect === 'ownerChanges' ? toSelf(x.mode, home) || (toGroup && toSelfAndNamedGroup(x.mode, home, request)) : false;
      const namesSecret = scope.paths.includes(x.path) || (inScope && SECRET_KIND.test(request)) || (narrowedAll && scope.paths.includes(fixedPart(x.path)));
      // or a secret file the request names by its path and asks to have written, given whole in
      // the command (`cat > ~/app/.env <<EOF`), over a plain file there already (its mode stays)
      const rewritesNamed = a.effect === 'writes' && x.by.endsWith(' >') && scope.paths.includes(x.path) && !x.recursive && !x.glob && seen?.exists === true && seen.type === 'file' && REPLACE.test(request);
      // (or one put back, as asked, from a copy of it the request names: wp-config.php from
      // ~/backups/wp-config.php.morning)
      const name = x.path.slice(x.path.lastIndexOf('/') + 1);
      const restoresNamed =
        a.effect === 'writes' && (x.by === 'cp' || x.by === 'mv') && x.inScope && !x.recursive && !x.glob && !x.dynamic && seen?.exists === true && seen.type === 'file' && RESTORE.test(request) &&
        e.reads.some((r) => r.inScope && !r.glob && !r.dynamic && r.path !== x.path && scope.paths.includes(r.path) && r.path.slice(r.path.lastIndexOf('/') + 1).startsWith(`${name}.`));
      if ((x.sensitive || isSensitivePath(x.path, home)) && !(closes && !x.recursive && (!x.glob || narrowedAll) && namesSecret) && !rewritesNamed && !restoresNamed && !setAside && !history) return undefined;
      // rm of a link, or ln -sfn over one, changes the link itself, never what it points to
      const linkItselfGoes = (a.effect === 'deletes' && (x.by === 'rm' || x.by === 'unlink') && rmArgs.includes(x.path) && !x.glob) || (a.effect === 'writes' && x.by.startsWith('ln') && x.by.endsWith(' -n'));
      if (leadsElsewhere(x.path, env.paths, linkItselfGoes)) return undefined;
      // the environment must have shown the target (for a pattern, the folder it expands in)
      const shown = env.paths[fixedPart(x.path)];
      if (!shown) return undefined;
      // writing a tree into a folder that already holds data may replace what is there: only when asked
      if (a.effect === 'writes' && x.recursive && shown.exists && shown.type === 'dir' && shown.entries > 0 && !REPLACE.test(request)) return undefined;
      // a link, or nothing yet (a link about to be made)
      if (!seen?.exists || seen.type === 'link') links++;
      named.push(x.path);
    }
    if (temps < list.length) did.push(a.what);
  }
  // the request believes it changes a link, and no target is one: the human does not know what is there
  // (unless the link is what it asks to have made: "replace ~/.vimrc with a symlink to ...")
  if (SAYS_LINK.test(request) && !MAKES_LINK.test(request) && named.length > 0 && links === 0) return undefined;
  for (const p of e.privilege) named.push(`account ${p.account}`);
  if (e.privilege.length > 0) did.push('changes');
  for (const sig of e.signals) named.push(sig.target);
  if (e.signals.length > 0) did.push('signals');
  if (named.length === 0) return undefined;
  const list = [...new Set(named)].slice(0, 4).join(', ');
  const paths = did.some((d) => d !== 'signals' && d !== 'changes');
  return `it only ${did.join(' and ')} what the request names and asks for (${list})${paths ? ', and the environment shows no link leading elsewhere' : ''}`;
}
