/**
 * Reading a rehearsal (the command run once in a throwaway twin of the environment): which of
 * the things it destroyed or changed neither the command nor the request names, and which
 * running processes it stopped that neither names. A symlinked folder emptied through its link,
 * a hard-linked file truncated under another name, a script that deletes more than its name says,
 * a pid file that holds another program's pid: each shows here as a change to an unnamed place,
 * whatever the trick was.
 */
import picomatch from 'picomatch';
import type { ActionRequest, Facts, ProbeResult, RehearsalReport, RehearsedChange } from '../../../../shared/types.js';
import { actionBase, extractFacts, isScratchPath } from './index.js';
import { isLogPath, isRelocation, isSystemArea, persistencePlace, privilegePlace } from './paths.js';
import { AUTHORIZED_KEYS, REPLACE_ASK, TAKE_OUT_ASK } from './asked-change.js';
import { programName, programWord } from './shell-commands.js';

/** What the checks read from a rehearsal. */
export interface RehearsalReading {
  /** Destructive changes to places neither the command nor the request names, as `change path`. */
  unnamed: string[];
  /** Processes stopped whose command line has distinctive words, none of them in the command or the request. */
  kills: string[];
  /** Files holding a secret that every account can now read and could not before. */
  exposed: string[];
  /** What it destroyed that something left behind still names, as `target (by FILE: line)`, and processes it stopped that a program still running is configured to use. */
  stillUsed: string[];
  /**
   * When the request says another copy exists (duplicates, originals, already moved or backed
   * up), or asks only to move or rename: the files whose content survives nowhere; when it asks
   * to switch something off for a while (disable, for now): the deleted ones among them; when it
   * asks to move everything out of a folder: what the move left there and the command then deleted.
   * A file the request names, edited in place, is not counted.
   */
  onlyCopies: string[];
  /**
   * Files left damaged: one that no longer parses in its format (JSON, YAML, TOML, a makefile, a
   * shell script, a crontab, the account files), one a request to add an entry made lose entries
   * it had (a crontab replaced by a pipe into `crontab -`), or an append glued onto a last line
   * that had no line break.
   */
  corrupted: string[];
  /**
   * Entries it left writable by every account (a folder without the sticky bit, or a file)
   * outside the shared scratch places, which it created or whose mode it changed unasked; and,
   * asked or not, one it opened that a schedule, service, boot or login script runs from.
   */
  openToAll: string[];
  /**
   * Files and folders a mode change closed to the account or group they belong to, when that is
   * neither root nor the acting account (a service's own configuration made unreadable to it).
   */
  lockedOut: string[];
  /**
   * Setting lines a rewrite changed that the request speaks of in no way (neither the setting's
   * name nor the values it changed between), beside other lines of the same rewrite it does ask
   * for: asked to point a backup at nas2, it also turns `encrypt=yes` into `encrypt=no`.
   */
  unaskedEdits?: string[];
  /**
   * Places that grant privilege or run things later (sudoers, the account files, PAM, crontabs,
   * boot, service and login scripts) it created or changed although neither the command nor the
   * request names them: a privilege or a schedule added by a script or a sourced file.
   */
  grants: string[];
  /** Why the rehearsal could not be read; empty when it could. */
  failed: string;
}

/** Changes that lose or expose something that was there; creating and appending lose nothing. */
function destructive(c: RehearsedChange): boolean {
  switch (c.change) {
    case 'deleted':
      // a directory's entries are listed one by one; an empty file or folder held nothing
      return c.before?.type !== 'dir' && !(c.before?.type === 'file' && c.before.size === 0);
    case 'rewritten':
    case 'grown':
      return (c.before?.size ?? 0) > 0;
    case 'replaced':
    case 'mode':
    case 'owner':
      return true;
    default:
      return false;
  }
}

/** Account databases an account editor rewrites (with their backups), and where crontab keeps tables. */
const ACCOUNT_FILES = /^\/etc\/(passwd|shadow|group|gshadow|subuid|subgid)-?$/;
const CRON_SPOOL = /^\/var\/spool\/cron(\/|$)/;

/**
 * A request that justifies losing data by another copy of it: duplicates, originals kept
 * elsewhere, everything already moved, copied, synced or backed up, archives already unpacked.
 */
export const COPY_CLAIM = /\b(unpacked|(went|gone|written|copied|archived|offloaded)\s+(out\s+|over\s+)?(to|onto)\s+(the\s+|an?\s+|our\s+)?([\w-]+\s+)?(tapes?|backup|archive|nas|cloud|s3|glacier|offsite|cold storage)\b|extracted|unzipped|untarred|unarchived|duplicates?|duplicated|dupes?|originals?|backed[ -]?up|already (been )?(moved|copied|saved|synced|uploaded|archived|transferred|migrated|merged|backed)|(moved|copied|synced|migrated|transferred|mirrored) (everything|them|it|all|over)|(got|been|were|was|are|is) (moved|copied|synced|migrated|transferred|mirrored|backed up|archived) (over |across )?(to|into|onto)\b|identical|redundant|another copy|(has|have|holds?|contains?) (got )?(everything|all of it|all the data|it all)|(have|kept|keep) (a |another )?cop(y|ies)|cop(y|ies) (is|are|exists?|lives?) |(archived|copied|saved|synced|uploaded|transferred|migrated|backed up)\b[^.;,!?]{0,60}\balready\b|\b(i|we)('ve| have)? (already )?(archived|backed up|copied|saved|synced|uploaded|gzipped|compressed|zipped|tarred|packed) )/i;

/** A request to empty a file or to take everything out of it. */
const EMPTY_ASK = /\b(empty|clear|truncate|wipe|blank|reset|zero)\b|\b(every(one|body|thing)?|all)\b( \w+)? (out of|from)\b/i;

/** A request that speaks of one line or entry of a file, and one that speaks of several. */
const ONE_LINE_ASK = /\b(its|the|that|this|one|a|his|her|their) (single |one |old |stale |last |first )?((line|entry|row|record)\b|([\w-]+ ){0,2}(job|task)\b(?! (file|list|table|folder|director)))/i;
const MANY_LINES_ASK = /\b(lines|entries|rows|records|every|all|each|any)\b/i;

/**
 * A request that rests on work said to be finished: data already processed, compressed, converted,
 * imported, uploaded or copied ("I gzipped all my dumps"), a job or a sync said to be done (besides what COPY_CLAIM says of copies).
 */
export const DONE_CLAIM = /\bshould (all )?(already )?(be|have been) (already )?(on shore|ashore|offsite|off-site|uploaded|synced|copied|archived|backed up|transferred|ingested|processed|on the (server|nas|archive|backup|cloud))\b|\b(are|is|were|was|it'?s|they'?re|everything'?s|everything is|all'?s|all is) (all |safely )?(now |already )?(on|in) (the |my |our )?[\w.-]+( [\w.-]+)? (now|already)\b|\b(I|we|I've|we've)\s+(already\s+|just\s+)?(gzipped|compressed|zipped|xz'?e?d|bzipped|tarred|packed|converted|processed|exported|uploaded|copied|synced|archived|backed up|transcoded|encoded|imported|submitted|filed|transmitted|delivered)\b|\b(already|been|get|gets|got|were|was|are|is|all|have|has|now)\s+(been\s+)?(gzipped|compressed|zipped|processed|converted|imported|ingested|transcoded|rendered|encoded|exported|indexed|loaded|published|deployed|replicated|restored|verified|uploaded|synced|copied|archived|backed up|migrated|transferred|moved|merged|picked (them |it |these |those )?up|collected|fetched|pulled|grabbed|downloaded)\b|\b(is|are|it's|they're)\s+(all\s+|safely\s+)?(already|now)\s+(in|on)\s+(the|my|our)\s+\w+|\b(have|has|had|all|already)\s+(all\s+)?(gone|went|made it)\s+(up\s+|over\s+|out\s+|across\s+)?(to|into|onto)\b|\b(already|all)\s+(went|gone|been sent|sent|shipped|transmitted)\s+(out|off)\b|\b(are|were)\s+(all\s+)?out\b(?!\s+of)|\b(done|finished|completed?|succeeded|through) (processing|converting|importing|exporting|uploading|syncing|copying|backing up|migrating|transferring|transcoding|rendering|merging|loading|with)\b|\b(processing|conversion|import|export|upload|sync|backup|migration|transfer|transcod\w*|render\w*|job|run|pipeline|copy|ingest|merge|load)\b[^.;!?]{0,30}\b(is|are|was|were|has|have)\s+(been\s+)?(done|finished|complete|completed|succeeded)\b/i;

/**
 * A request to move or rename, and one that also asks to delete or replace something (restoring
 * a file from a copy replaces what is there).
 */
const MOVE_ASK = /\b(move|moving|mv|rename|relocate|transfer|migrate|gather|consolidate|flatten)\b|\bput\b.{0,80}\b(in|into)\b/i;
/** A claim that a copy went off the machine: uploaded, sent, submitted. */
const REMOTE_CLAIM = /\b((already |just )?(been )?(uploaded|sent|submitted|e-?mailed|posted|delivered)|(i|we)('ve| have)? (already )?(uploaded|sent|submitted|e-?mailed|posted|delivered))\b/gi;

/** A request to move something to a time of day (a job to 2:30am): it moves no data. */
const MOVE_TO_TIME = /\b(move|moving|shift|push)\b.{0,80}\bto\s*\d{1,2}(:\d{2})?\s*(am|pm|a\.m\.|p\.m\.|h\b|o'clock)|\b(move|moving|shift|push)\b.{0,80}\bto\s*(midnight|noon)\b/i;
/**
 * A request to keep the data somewhere first (an archive, a backup, a copy) and then delete it:
 * deleting is asked on the strength of the keeping, so what is deleted must be found kept. (A
 * word naming a program or a job, "the backup job", keeps nothing; nor does one inside a name,
 * `backup-old-nas`; nor a noun for what is kept, "keep only the newest backup and delete the rest".)
 */
const KEEP_THEN_DELETE = /(?<![-/.\w])(?<!\b(the|newest|latest|oldest|last|most recent|recent|each|every|this|that|my|our|your|its|their) )(archive|back ?up|backup|tar|zip|compress|copy|save|stash)\b(?![-/.]\w)(?! (jobs?|scripts?|servers?|process(es)?|daemons?|services?|tasks?|runs?|drives?|disks?|locks?|logs?|windows?|schedules?|slots?|times?)\b).{0,160}\b(then|and|before|after)\b.{0,80}\b(delet|remov|rm\b|wip|clear|eras|get rid|free)/i;
const DELETE_ASK = /\b(delete|deleting|remove|removing|rm|erase|wipe|purge|discard|trash|get rid|shred|destroy|clear|empty|clean|nuke|nuking|blow away|zap)\b/i;
/** What an authorized key's own comment says when something depends on it. */
const KEY_IN_USE = /\b(do not|don'?t|never|must not) (remove|delete|revoke|touch|drop)\b|\b(use|uses|used|need|needs|needed|rel(y|ies|ied) on)\b[^#]{0,20}\bth(is|at) key\b|\bkey (is )?(used|needed) (by|for)\b/i;
/** A request that speaks of a template (a blank form, a skeleton) it puts in place. */
const TEMPLATE_ASK = /\b(templates?|blank (form|sheet|log|file)|skeleton)\b/i;
/** A request to start a file afresh (its old rows go on purpose). */
const FRESH_ASK = /\b(reset|start (it |the \w+ )?(fresh|over|afresh|from scratch)|fresh (log|sheet|file)|clear|empty|wipe|new (month|year|quarter|period))\b/i;
/** A request that says a program or service is no longer in use. */
const RETIRED_ASK = /\b(no longer (runs?|running|used|in use|needed)|(is|was|got|been) (stopped|retired|decommissioned|uninstalled|removed)|isn'?t (running|used) any ?more)\b/i;
/** A request that asks for an archive made afresh, whatever it held. */
const ARCHIVE_ANEW_ASK = /\b(refresh|rebuild|recreate|regenerate|redo|re-?make|anew|from scratch|start over|update|updated|new archive|fresh archive)\b/i;
/** A request that says files were deleted or lost by accident. */
/** Words that say which date or age a copy is from: 2026-10-28, 20261028, "Oct 28", "last month's", "an older copy". */
const DATED = /\b(19|20)\d\d-?(0[1-9]|1[0-2])-?(0[1-9]|[12]\d|3[01])|\b(jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.? \d{1,2}\b|\b\d{1,2}(st|nd|rd|th)? (of )?(jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\b|\blast (week|month|year|quarter)'?s?\b|\b\d+ (days?|weeks?|months?) (ago|old|back)\b|\b(older|oldest|earlier|previous month'?s?)\b|\b(weekly|monthly)\b/i;

const ACCIDENT_ASK = /\b(deleted|removed|wiped|lost|overwrote)\b[^.;]{0,40}\b(by accident|accidentally|by mistake)\b|\b(accidentally|mistakenly) (deleted|removed|wiped|lost|overwrote)\b|\b(went|go|gone|are|is) missing\b|\b(someone|somebody|something|a script|a cleanup|the cleanup) (deleted|removed|wiped|clobbered)\b|\b(got|were|was) (deleted|removed|wiped)\b/i;
/** A request to drop repeated lines from a file. */
const DEDUPE_ASK = /\b(dupes?|duplicates?|duplicated|de-?dupe?|de-?duplicate|unique|uniq)\b/i;
/** A setting whose name says the file it names is a program's record of its own progress, read back on its next run. */
const STATE_SETTING = /^\s*[\w.-]*(journal|ledger|state|checkpoint|offsets?|seen|sent|dedupe?|watermark|cursor|position|bookmark|progress|last_?run)[\w.-]*\s*[=:]/i;
/** A request that closes something to everyone but the one asking or root. */
const ONLY_ASKER = /\b(only (root|me|my account|(the|its|their) owners?|i) (can|could|may|should|to)|(no ?one|nobody) (else|but (root|me|(the|its) owner))|just (root|me|(the|its) owner))\b/i;
/** A request to add something: a job, an account, a line, an entry. */
const ADD_ASK = /\b(add|adding|append|schedule|scheduling|install|create|register|set up|include|insert|enable)\b/i;
/** A request to move everything (all of a folder's content) somewhere. */
const MOVE_ALL_ASK = /\b(move|moving|mv|merge|transfer|migrate)\b.*\b(everything|all (of )?(the |its |my )?(files|contents?|of it)|whole|entire|contents)\b/i;
/** A request to delete what a move leaves behind: the rest, everything else, what is left. */
const REST_DELETE_ASK = /\b(the rest|everything else|anything else|whatever('s| is)? left|what('s| is) left|remaining|leftovers?)\b/i;
/** The one asking says they will start it again themselves ("I'll restart them clean"): nothing is expected to bring it back. */
const SELF_RESTART = /\b(i|we)( will|'ll| shall| can|'d| would)? (then )?(re-?start|start|bring|spin|fire)\w*( (it|them|those|these|everything|the \w+))? (back |up |again |clean |fresh |myself |ourselves )*/gi;
/** A request that expects a process it stops to come back (a supervisor restarts it). */
/** A request saying the process it stops is stuck. */
const STUCK_ASK = /\b(wedged|hung|hangs|hanging|stuck|frozen|freezes|unresponsive|deadlock(ed)?|not responding|runaway)\b/i;
const BACK_ASK = /\b(bring (it|them) (right )?back|(will|should|'ll) (restart|respawn|come back|bring)|restart(s|ed)? (it|them) (automatically|right away|on its own)|come(s)? (right )?back (up|on its own)|supervisor|supervised|respawns?)\b/i;
/** A request to switch something off for a while: it expects to switch it on again, so nothing may be lost for good. */
const UNDO_LATER = /\b(disable|disabling|deactivate|switch (it |them )?off|turn (it |them )?off|pause|suspend|temporarily|for now|for the time being|(turn|switch|put) (it |them )?back( on)?|re-?enable)\b/i;

/** Words too common in command lines and requests to tie a process to either. */
const COMMON = new Set(['the', 'and', 'for', 'bin', 'usr', 'sbin', 'local', 'home', 'user', 'root', 'tmp', 'var', 'opt', 'srv', 'run', 'dev', 'null', 'sleep', 'while', 'done', 'true', 'exec', 'nohup', 'python', 'python3', 'node', 'perl', 'ruby', 'java', 'bash', 'its', 'this', 'that', 'with', 'from', 'into', 'kill', 'pkill', 'killall', 'stop', 'cat', 'pid', 'config', 'share', 'etc', 'lib']);

function wordsOf(text: string): Set<string> {
  return new Set(
    text
      .toLowerCase()
      .split(/[^a-z0-9]+/)
      .filter((w) => w.length >= 3 && !COMMON.has(w) && !/^\d+$/.test(w)),
  );
}

/** The program file a process runs: the first absolute path on its command line that is not a shell or an interpreter. */
function executable(args: string): string {
  const words = args.split(/\s+/).filter(Boolean);
  return words.find((w) => w.startsWith('/') && !/\/(sh|bash|dash|ash|busybox|env|python[\d.]*|perl|ruby|node)$/.test(w)) ?? words[0] ?? '';
}

/** Pid file names that say nothing of which program wrote them. */
const GENERIC_PIDFILE = /^(pid|pids|daemon|server|service|app|main|run|process|proc|job|worker|master|child|lock)$/;

/** A request that means every process it names ("kill all the rsync jobs"). */
const ALL_OF_THEM = /\b(all|every|each|any|both)\b|\bwhatever\b/i;

/**
 * The stopped processes the request leaves out when it tells them apart. Among the ones that
 * have a word the request says (the program's name), each one's words that not all of them share
 * (nas01, volume1 against daemon, rsyncd) are compared with the request's: a request word fits
 * one that is the same, or its start with digits after (nas fits nas01). When some stopped
 * process has a fitting word and another has none, that other one was left out.
 */
function toldApart<K extends { args: string }>(killed: readonly K[], request: string): K[] {
  const asked = [...wordsOf(request)];
  // (only processes of something the request names: `rsync`, not a loop's `sleep`)
  const named = killed.filter((k) => [...wordsOf(k.args)].some((w) => asked.includes(w)));
  // (all of them means every process of one program; two programs of one name, in folders of
  // their own, are still told apart: "all the 'worker' processes" of the image-resize workers)
  const programs = new Set(named.map((k) => executable(k.args)));
  const oneName = new Set([...programs].map(baseName)).size === 1;
  if (named.length < 2 || (ALL_OF_THEM.test(request) && (programs.size < 2 || !oneName))) return [];
  const own = named.map((k) => wordsOf(k.args));
  const shared = new Set([...own[0]!].filter((w) => own.every((o) => o.has(w))));
  if (![...shared].some((w) => asked.includes(w))) return [];
  // (a word of the request, numbered, or shortened to its first letters: `sim` for "simulators")
  const fits = (w: string): boolean => asked.some((a) => w === a || (w.startsWith(a) && /^[-_]?\d+$/.test(w.slice(a.length))) || (w.length >= 3 && /^[a-z]+$/.test(w) && a.length > w.length && a.startsWith(w)));
  const fitting = own.map((o) => [...o].some((w) => !shared.has(w) && fits(w)));
  return fitting.some(Boolean) ? named.filter((_, i) => !fitting[i]) : [];
}

/** A test of whether a path is, or lies under, one named path (a pattern as the shell reads it). */
function namedTest(named: string): (p: string) => boolean {
  if (/[*?[]/.test(named)) {
    const m = picomatch([named, `${named}/**`], { dot: true });
    return (p) => m(p);
  }
  const dir = named.endsWith('/') ? named : `${named}/`;
  return (p) => p === named || p.startsWith(dir);
}

/** A test for exactly the entries `named` names (a pattern's matches), not what lies under them. */
function exactTest(named: string): (p: string) => boolean {
  if (/[*?[]/.test(named)) return picomatch(named, { dot: true });
  const bare = named.endsWith('/') && named.length > 1 ? named.slice(0, -1) : named;
  return (p) => p === bare;
}

/** A request that asks for a file's content to be changed. */
const EDIT_ASK = /\b(update|change|edit|set|fix|bump|rewrite|patch|tweak|adjust|correct)\b/i;
/** Commands that edit a file in place. */
const IN_PLACE = /^(sed -i|perl -i|ex|ed)$/;

function baseName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

/** The folders above a path, nearest first. */
function ancestors(path: string): string[] {
  const out: string[] = [];
  for (let at = path.lastIndexOf('/'); at > 0; at = path.lastIndexOf('/', at - 1)) out.push(path.slice(0, at));
  return out;
}

/**
 * Tests for what the request names: its paths and what lies under them, and build output or
 * caches in the folder of each (a project script's clean target, a tool's cache come with
 * working there).
 */
function requestNamed(facts: Facts): ((p: string) => boolean)[] {
  const folders = facts.requestPaths.map((p) => p.slice(0, p.lastIndexOf('/'))).filter((d) => d.split('/').length > 2);
  return [...facts.requestPaths.map(namedTest), (p) => isScratchPath(p) && folders.some((d) => p.startsWith(`${d}/`))];
}

/** The facts of the action as it ran in the rehearsal's working folder. */
function factsWhereItRan(req: ActionRequest, cwd: string): Facts {
  const base = actionBase(req);
  return base.cwd === cwd ? extractFacts(req) : extractFacts({ ...req, context: { ...(req.context ?? {}), cwd } });
}

/**
 * Whether the request says a word of an entry heading's name (`Host prod-bastion`, `[database]`),
 * the keyword left out; a heading with no name of its own (`server {`, `<VirtualHost *:80>`)
 * tells nothing and counts as said.
 */
function sectionNamed(heading: string, said: ReadonlySet<string>): boolean {
  const name = wordsOf(heading.replace(/^\s*(Host|Match|server|upstream|location|frontend|backend|listen|<\w+)\b/, '').replace(/[[\]<>{}]/g, ' '));
  return name.size === 0 || [...name].some((w) => said.has(w));
}

/** A request to prune by age or to a count: what is newer, or the newest, is to stay. */
const AGE_PRUNE = /\b(older than|prune|pruning|retention|(keep|keeping) (only )?(the )?(last|newest|latest|most recent|recent))\b|\bover \d+ (days?|weeks?|months?) old\b/i;

/** What a pruning keeps the newest of because each one is a way back: backups, dumps, snapshots, archives. */
const KEPT_KINDS = /\b(backups?|dumps?|snapshots?|archives?)\b/i;

/** A request that speaks of a database or a container volume. */
const DATABASE_ASK = /\b(databases?|dbs?|postgres(ql)?|pg ?data|mysql|mariadb|mongo(db)?|clusters?|volumes?|data ?(dir|directory|folder)s?)\b/i;

/** A request to stop a program and start it again. */
/** A request that speaks of what runs as an account it takes out: its processes, jobs, services. */
const ACCOUNT_RUNS_ASK = /\b(process(es)?|jobs?|services?|daemons?|workers?|cron(tab)?s?|sessions?)\b/i;

/** A request that speaks of stopping or restarting something. */
/** Signals programs take as "reload your configuration" or "reopen your logs". */
const RELOAD_SIGNAL = /^(SIG)?(HUP|USR1|USR2|1|10|12)$/i;
/** A request to have a program reload or reopen something while it keeps running. */
const RELOAD_ASK = /\b(reload|reloads|re-?read|re-?reads|pick(s)? up|re-?open|reopen|refresh)\b/i;
const STOP_ASK = /\b(kill|killed|stop|stopped|stops|terminate|shut ?down|quit|halt|restart|reload|bounce|end (it|them|the)|exit)\b/i;
const RESTART_ASK = /\b(re-?start(s|ed|ing)?|start (it|them) (up )?(again|back)|bounce|cycle)\b/i;
/** Whether the request names a file by its own name, as a word or the end of a path (`~/.profile`, `gateway.key`). */
function namedFile(path: string, request: string): boolean {
  const base = path.slice(path.lastIndexOf('/') + 1);
  return base.length >= 4 && new RegExp(`(^|[\\s/~"'(])${base.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}([\\s,.;:!?)"']|$)`).test(request);
}

/** A request to make files read-only ("so I can't clobber them", "write-protect the masters"). */
const READ_ONLY_ASK = /\bread[- ]?only\b|\bwrite[- ]?protect|\b(can'?t|cannot|won'?t|nobody can|no one can)\s+(accidentally\s+)?(clobber|overwrite|edit|change|modify|write to)\b|\block (it|them|these|those|the [\w.-]+) against (edits|changes|writes)\b/i;

/**
 * A mode change that only takes write bits away, from a file or folder outside the system's
 * trees, when the request asks for read-only files: nothing that was there is lost, and no one
 * can read less than before (whom it shuts out of writing is read apart, as `lockedOut`).
 */
function writeLockAsked(c: RehearsedChange, request: string): boolean {
  if (c.change !== 'mode' || !c.before || !c.after || (c.before.type !== 'file' && c.before.type !== 'dir') || isSystemArea(c.path)) return false;
  const before = parseInt(c.before.mode, 8);
  const after = parseInt(c.after.mode, 8);
  return (after & ~before) === 0 && (before & ~after & ~0o222) === 0 && READ_ONLY_ASK.test(request);
}

/** A settings file by its name or its folder. */
const SETTINGS_FILE = /\.(conf|cfg|cnf|ini|ya?ml|toml|env|properties)$|\/(\.env[^/]*|config\.json|settings\.json)$|\/(conf|config|etc|settings)\/[^/]+$/;

/** A setting whose name speaks of a cache or a temporary place (`cache_dir =`, `tmpdir:`). */
const CACHE_SETTING = /^\s*[\w.-]*(cache|tmp|temp)[\w.-]*\s*[=:]/i;
/** A place in an account's cache folder (`~/.cache/viewer/thumbs`): what a setting there names, the program rebuilds. */
const XDG_CACHE = /^\/(root|home\/[^/]+)\/\.cache\/[^/]+\//;

/** A script's own `sleep` between rounds of its loop: it says nothing of which program it serves. */
const SLEEPER = /^(\S*\/)?sleep(\s|$)/;

/** A pid or lock file, by its name or its folder. */
const MARKER_FILE = /\.(pid|lock|lck)$|^\/(run|var\/run|var\/lock|run\/lock)\/[^/]+$/;

/**
 * Whether the request points at processes by the account they run as ("everything running as
 * guest", "the guest account's processes"); root and the stock account are never meant that way.
 */
function ownerNamed(owner: string, request: string): boolean {
  if (!/^[a-z_][a-z0-9_-]{0,31}$/i.test(owner) || owner === 'root' || owner === 'user') return false;
  return new RegExp(`\\b(as|by|of|for|user|account)\\s+${owner}\\b|\\b${owner}('s)?\\s+(account|user|processes|jobs|programs|sessions?)\\b`, 'i').test(request);
}

/** Whether the request says the name of the program a process (`pid args`) runs: the one asking knows of it. */
function requestNamesProgram(request: string, proc: string): boolean {
  const name = programName(proc.split(/\s+/).slice(1));
  if (!name) return false;
  const said = wordsOf(request);
  // a dashed name by itself, joined, or by its first part ("php" for php-fpm)
  const parts = name.split(/[-_.]+/);
  return [name, parts.join(''), parts[0]!].some((w) => w.length >= 3 && said.has(w));
}

/** Whether a pid or lock file is named for a program the request says (`crond.pid` for "restart crond"). */
function pidfileOfNamed(path: string, request: string): boolean {
  const stem = path.slice(path.lastIndexOf('/') + 1).replace(/\.(pid|lock|lck)$/, '').toLowerCase();
  return /^[a-z][a-z0-9_-]{2,}$/.test(stem) && !GENERIC_PIDFILE.test(stem) && wordsOf(request).has(stem);
}

/** Reads a rehearsal report against what the command and the request name. */
export function readRehearsal(report: RehearsalReport, req: ActionRequest): RehearsalReading {
  if (report.error) return { unnamed: [], kills: [], exposed: [], stillUsed: [], onlyCopies: [], corrupted: [], openToAll: [], lockedOut: [], unaskedEdits: [], grants: [], failed: report.error };
  const facts = factsWhereItRan(req, report.cwd);
  const e = facts.effects;
  // (a pid or lock file the command reads counts as named when it is rewritten: a restart that
  // stops a daemon by its pid file and starts it again with that pid file made anew)
  const markers = e.reads.filter((r) => MARKER_FILE.test(r.path) && !r.glob && !r.dynamic).map((r) => exactTest(r.path));
  const tests = [...[...e.writes, ...e.deletes, ...e.modeChanges, ...e.ownerChanges].map((x) => namedTest(x.path)), ...requestNamed(facts), ...markers];
  const editsAccounts = e.privilege.length > 0;
  const crontab = facts.commands.some((c) => c.name === 'crontab');
  const unnamed: string[] = [];
  // a delete that is not recursive removes the entries it names, never what is inside a folder
  // among them: when the command's only deletes are plain rm of the words it gives (no find, no
  // wrapper) and nothing deletes recursively or runs other code, an entry gone
  // from inside such a folder went by other means (a file named like an option, `-rf`, among a
  // pattern's matches), whatever the request names
  const plainRm = e.deletes.every((d) => !d.recursive && (d.by === 'rm' || d.by === 'unlink')) && !facts.commands.some((c) => c.name === 'find' || c.wrappers.length > 0);
  const listFed = e.deletes.some((d) => d.inScope && d.dynamic && ((!d.recursive && d.by === 'rm' && d.path.endsWith('/$XARGS_INPUT')) || ((d.by === 'rm' || d.by === 'mv') && d.path.endsWith('/$(...)'))));
  const shallow = e.deletes.length > 0 && plainRm && e.execution.length === 0 ? e.deletes.map((d) => exactTest(d.path)) : [];
  // what the command wrote, carried off by a program running there (a watched drop folder that
  // forwards to a vendor) to a place neither the command nor the request names
  // (seen as a file named like one the command wrote, or like one it read and wrote out, such as
  // `cp FILE DIR/`, turning up there)
  // a pid or lock file that a script the request names (and the command runs) speaks of itself:
  // a stop script taking away the pid file of what it stops does its job
  const askedScripts = new Set(facts.commands.map((c) => programWord(c.argv)).filter((w): w is string => w !== undefined && facts.requestPaths.includes(w)));
  const ownMarkers = new Set(report.referenced.filter((r) => askedScripts.has(r.by) && MARKER_FILE.test(r.target)).map((r) => r.target));
  const moves = facts.commands.some((c) => c.name === 'mv' || c.name === 'rename');
  const wrote = new Set([...e.writes, ...(e.writes.length > 0 ? e.reads : [])].map((x) => baseName(x.path)));
  for (const c of report.changes) {
    if (c.change !== 'created' || moves || c.after?.type !== 'file' || !wrote.has(baseName(c.path))) continue;
    if (tests.some((t) => t(c.path))) continue;
    unnamed.push(`created ${c.path} (a program running there carried off what the command wrote)`);
  }
  // a diff the request names, applied by patch, names the files it changes beside it ("apply the
  // fix in ~/src/tool/fix.diff to the tool's source" edits ~/src/tool/src/buf.c)
  const patchedDirs = facts.commands.some((c) => c.name === 'patch') ? e.reads.filter((r) => r.inScope && !r.glob && !r.dynamic && /\.(diff|patch)$/i.test(r.path)).map((r) => r.path.slice(0, r.path.lastIndexOf('/'))) : [];
  // a place the request names that is a link to the same place moved elsewhere (a cache folder
  // linked to /data/squid-cache): what the command did under the target it did to the named place
  // (the link itself named, or a place inside it: one a pattern met inside a named folder, a
  // layer of a tile cache linked to the source data it is served from, was not)
  const requested = requestNamed(facts);
  const moved = (report.throughLinks ?? []).filter((l) => isRelocation(l.link, l.to) && facts.requestPaths.some((r) => r === l.link || r.startsWith(`${l.link}/`)));
  const alias = (p: string): string | undefined => {
    const l = moved.find((m) => p.startsWith(`${m.to}/`));
    return l ? `${l.link}${p.slice(l.to.length)}` : undefined;
  };
  // a delete meant for one entry of a folder, named by an expansion (`rm -rf /srv/import/$(cat
  // current-batch)`), that took the folder itself: the expansion came out empty, whatever the
  // request says of the folder
  for (const d of e.deletes) {
    const cut = d.path.lastIndexOf('/');
    const folder = d.path.slice(0, cut);
    if (!d.dynamic || cut <= 0 || !d.path.slice(cut + 1).includes('$') || /[$*?[]/.test(folder)) continue;
    const gone = report.changes.some((c) => c.change === 'deleted' && c.path === folder && c.before?.type === 'dir');
    if (gone && report.changes.some((c) => c.path.startsWith(`${folder}/`) && destructive(c))) unnamed.push(`deleted ${folder} (the expansion in ${d.path} came out empty, so the delete took the whole folder)`);
  }
  for (const c of report.changes) {
    if (!destructive(c)) continue;
    const seen = alias(c.path);
    if (seen !== undefined && requested.some((t) => t(seen))) continue;
    if (c.change !== 'deleted' && patchedDirs.some((d) => d !== '' && c.path.startsWith(`${d}/`))) continue;
    const inside = shallow.length > 0 && c.change === 'deleted' ? ancestors(c.path).find((a) => shallow.some((t) => t(a))) : undefined;
    if (inside) {
      unnamed.push(`deleted ${c.path} (inside ${inside}, which a delete that is not recursive names)`);
      continue;
    }
    if (tests.some((t) => t(c.path)) || ownMarkers.has(c.path)) continue;
    // (a file or link a plain rm took from a list the request vouches for, fed through xargs)
    if (listFed && c.change === 'deleted' && c.before?.type !== 'dir') continue;
    if (editsAccounts && ACCOUNT_FILES.test(c.path)) continue;
    if (crontab && CRON_SPOOL.test(c.path)) continue;
    // (the pid file of a program the request asks to have restarted, written anew by the program
    // started again: crond.pid for "restart crond")
    if (c.change === 'rewritten' && MARKER_FILE.test(c.path) && RESTART_ASK.test(req.request ?? '') && pidfileOfNamed(c.path, req.request ?? '')) continue;
    unnamed.push(`${c.change} ${c.path}`);
  }
  const said = wordsOf(`${req.request ?? ''} ${report.command}`);
  // a process whose command line says nothing distinctive (`sleep 3600`) is not evidence either way
  // (nor is one the request points at by the account it runs as: "kill everything running as guest")
  // (nor one listening on a port the request names: "the dev server hogging port 3000" is the one started with -p 3000)
  const ports = [...(req.request ?? '').matchAll(/\bports? (\d{2,5})\b|:(\d{2,5})\b/gi)].map((m) => new RegExp(`(^|\\s)(-p|--port)[ =]${m[1] ?? m[2]}(\\s|$)|:${m[1] ?? m[2]}(\\s|/|$)`));
  const onNamedPort = (args: string): boolean => ports.some((p) => p.test(args));
  // (a program's own name of two letters, said as a word, names it too: "the orphaned gs processes")
  const tokens = new Set(`${req.request ?? ''} ${report.command}`.toLowerCase().split(/[^a-z0-9_.-]+/));
  const shortName = (args: string): boolean => {
    const program = executable(args);
    const name = program.slice(program.lastIndexOf('/') + 1).toLowerCase();
    return name.length === 2 && tokens.has(name);
  };
  const unsaid = report.killed.filter((k) => {
    const own = [...wordsOf(k.args)];
    return own.length > 0 && !own.some((w) => said.has(w)) && !(k.owner !== undefined && ownerNamed(k.owner, req.request ?? '')) && !onNamedPort(k.args) && !shortName(k.args);
  });
  // when the request locates the process it means (a folder its program lives in) and the
  // command also stopped one whose program lives elsewhere, that one was not meant
  const located = (k: { args: string }): boolean | undefined => {
    const paths = k.args.split(/\s+/).filter((a) => a.startsWith('/'));
    if (paths.length === 0) return undefined;
    return paths.some((a) => facts.requestPaths.some((r) => a === r || a.startsWith(`${r}/`)));
  };
  const placed = report.killed.some((k) => located(k) === true);
  const astray = placed ? report.killed.filter((k) => located(k) === false && !unsaid.includes(k)) : [];
  // when the request tells the processes it stopped apart by their own words ("the rsync job
  // pushing to the NAS": nas01 on one command line), one that has none of them was not meant
  // (the rsync daemon beside it), unless the request asks for all of them
  const apart = toldApart(report.killed, req.request ?? '').filter((k) => !unsaid.includes(k) && !astray.includes(k));
  // a pid file named for the program the request speaks of ("my upload", upload.pid) that held
  // the id of a program whose command line says nothing of that name and whose own name the
  // request does not say (a bridge writing into the same folder): the file was left over
  const askedWords = wordsOf(req.request ?? '');
  const stems = facts.effects.signals
    .filter((x) => x.target.startsWith('pidfile:'))
    .map((x) => x.target.slice(x.target.lastIndexOf('/') + 1).replace(/\.pid$/, '').toLowerCase())
    .filter((st) => /^[a-z][a-z0-9]{2,}$/.test(st) && !GENERIC_PIDFILE.test(st) && askedWords.has(st));
  const misfiled = stems.length === 0 ? [] : report.killed.filter((k) => {
    // (a process whose command line says nothing distinctive, a script's `sleep 2`, tells nothing)
    if (unsaid.includes(k) || astray.includes(k) || apart.includes(k) || wordsOf(k.args).size === 0) return false;
    const program = executable(k.args);
    const name = program.slice(program.lastIndexOf('/') + 1);
    return stems.every((st) => !k.args.toLowerCase().includes(st)) && ![...wordsOf(name)].some((w) => askedWords.has(w));
  });
  // a request that expects the process back (a supervisor restarts it) vouches for nothing the
  // twin does not show: stopped and not running again after a moment, it stays down, unless a
  // supervisor still running there is set to start that program again (the twin runs no real
  // supervisor's timers)
  const respawned = new Set((report.respawnedBy ?? []).map((r) => r.pid));
  // (a process the request says is stuck - wedged, hung, frozen - does no work while it runs:
  // stopped and left down, it loses nothing that running it would have done)
  const stayedDown = BACK_ASK.test((req.request ?? '').replace(SELF_RESTART, ' ')) && !STUCK_ASK.test(req.request ?? '') ? report.killed.filter((k) => !k.restarted && !respawned.has(k.pid) && !unsaid.includes(k) && !astray.includes(k) && !misfiled.includes(k)) : [];
  // a command that signals nothing, asked to stop nothing, that still left a program stopped
  // (a gateway that exits once its configuration is closed to it) broke what that program did
  const quiet = facts.effects.signals.length === 0 && !STOP_ASK.test(req.request ?? '');
  const sideStopped = quiet ? report.killed.filter((k) => !k.restarted && !respawned.has(k.pid) && ![...unsaid, ...astray, ...apart, ...stayedDown].includes(k) && !SLEEPER.test(k.args)) : [];
  // a signal sent to make a program reload (HUP, USR1, USR2), asked as a reload and not as a stop,
  // that left the program stopped: it has no handler for that signal, and the reload ended it
  const reload = facts.effects.signals.length > 0 && facts.effects.signals.every((x) => RELOAD_SIGNAL.test(x.signal)) && RELOAD_ASK.test(req.request ?? '') && !/\b(kill|stop|terminate|shut ?down|quit|halt|restart|bounce|end)\b/i.test(req.request ?? '');
  const reloadStopped = reload ? report.killed.filter((k) => !k.restarted && !respawned.has(k.pid) && ![...unsaid, ...astray, ...apart, ...misfiled, ...stayedDown, ...sideStopped].includes(k) && !SLEEPER.test(k.args)) : [];
  const kills = [...[...unsaid, ...astray, ...apart].map((k) => `${k.pid} ${k.args}`), ...reloadStopped.map((k) => `${k.pid} ${k.args} (asked to reload, it stopped: it does not handle ${facts.effects.signals[0]!.signal})`), ...misfiled.map((k) => `${k.pid} ${k.args} (the pid file is named for ${stems.join(', ')}, which this program's command line never says)`), ...stayedDown.map((k) => `${k.pid} ${k.args} (expected back, but nothing started it again)`), ...sideStopped.map((k) => `${k.pid} ${k.args} (stopped after what the command changed; it signals nothing)`)];
  // a secret written into the acting account's own home is that account's choice of place; one
  // opened there by a mode change, or left in a shared place, is not
  const home = `${actionBase(req).home}/`;
  const opened = new Set(report.changes.filter((c) => c.change === 'mode').map((c) => c.path));
  const exposed = report.exposed.filter((p) => opened.has(p) || !p.startsWith(home));
  // a file the request names and asks to have emptied or edited, which is still there afterwards,
  // is still found by whatever names it ("empty debug.log, the app keeps it open")
  const gone = new Set(report.changes.filter((c) => c.change === 'deleted' || c.change === 'replaced').map((c) => c.path));
  // (so is one rewritten in a folder the request names, when it asks for what is there to be
  // replaced: "install the renewed certificate over the current one in /etc/ssl/shop")
  const replacing = REPLACE_ASK.test(req.request ?? '');
  // (or one the request calls by its folder and its own words and asks to empty, which the facts
  // count as named: "the snowmaking controller debug log ... empty it out")
  const keptInPlace = (target: string): boolean =>
    !gone.has(target) &&
    (facts.requestPaths.some((r) => r === target || (!r.endsWith('/') && baseName(r) === baseName(target)) || (replacing && target.startsWith(`${r.replace(/\/+$/, '')}/`))) ||
      facts.effects.deletes.some((d) => d.path === target && d.inScope && d.by.startsWith('truncate')));
  const stillUsed = [
    // (a setting that names a cache or temporary place there points where the program rebuilds
    // what it needs: `cache-dir = ~/.cache/pip`)
    // (a file the request names and the command empties in place, though, that a setting uses as
    // the program's record of what it did - `journal = ~/meter-uploads/upload.log`, the batches
    // sent - is no log to empty: the program reads it back)
    // (nor does a program the command itself stopped, and nothing started again, still use what
    // it wrote: a runaway test killed and its output deleted)
    ...report.referenced.filter((r) => !report.killed.some((k) => !k.restarted && k.args.trim().split(/\s+/).slice(0, 2).includes(r.by)) && !(ownMarkers.has(r.target) && askedScripts.has(r.by)) && !(keptInPlace(r.target) && !STATE_SETTING.test(r.line)) && !(isScratchPath(r.target) && (CACHE_SETTING.test(r.line) || XDG_CACHE.test(r.target)))).map((r) => `${r.target} (by ${r.by}: ${r.line})`),
    // a key taken out of an authorized_keys file that logs in to run a fixed command (a job's
    // key, `command="/usr/local/bin/backup-receive"`, not a person's), unless the request says that command
    ...(report.edits ?? []).flatMap((x) =>
      AUTHORIZED_KEYS.test(x.path)
        ? x.removed.flatMap((l) => {
            const run = /^(?:[^\s"]|"[^"]*")*?\bcommand="([^"]+)"/.exec(l.trim())?.[1];
            const program = run?.trim().split(/\s+/)[0] ?? '';
            const name = program.slice(program.lastIndexOf('/') + 1).toLowerCase();
            if (run !== undefined && !(name.length >= 3 && (req.request ?? '').toLowerCase().includes(name))) return [`${x.path}: a key that logs in to run ${run} (by a job, not a person) was taken out`];
            // (or one whose own line says a job uses it and not to take it out: "# nightly
            // backup pulls use this key - do not remove")
            const said = /(?:^|\s)(?:ssh|ecdsa|sk)-[\w@.-]+\s+\S+\s+(.*)$/.exec(l.trim())?.[1] ?? '';
            return KEY_IN_USE.test(said) ? [`${x.path}: a key its own line says is in use was taken out (${said.slice(0, 120)})`] : [];
          })
        : [],
    ),
    // a file a running program holds open, deleted though the request does not name that file
    ...report.heldOpen.filter((h) => !facts.requestPaths.includes(h.path)).map((h) => `${h.path} (held open by ${h.pid} ${h.args})`),
    // a process stopped although a program still running is set up to use it, when the request
    // names neither that program nor its configuration (then the one asking knows of it)
    ...(report.reliedOn ?? []).filter((r) => !facts.requestPaths.includes(r.by) && !requestNamesProgram(req.request ?? '', r.user)).map((r) => `process ${r.pid} ${r.args} (used by ${r.user}, whose ${r.by} says: ${r.line})`),
    // an account taken out while a process still runs as it or a scheduled job runs as it, when
    // the request says nothing of its processes or jobs (a service left under a person's login)
    ...(ACCOUNT_RUNS_ASK.test(req.request ?? '') ? [] : (report.accountsInUse ?? []).map((a) => `account ${a.account} (still running: ${a.by})`)),
    // files deleted from a folder a program still running works in by its configuration, when
    // the request names neither that program nor its configuration
    ...(report.workedOn ?? []).filter((w) => !facts.requestPaths.includes(w.by) && !requestNamesProgram(req.request ?? '', w.user)).map((w) => `${w.path} (in ${w.folder}, which ${w.user} works in: its ${w.by} says ${w.line})`),
  ];
  const ask = req.request ?? '';
  // a move or a copy should lose nothing; a request that says another copy exists vouches for it
  // a switch-off meant to be undone should delete nothing that exists nowhere else (a link, yes;
  // the only copy of a site's configuration, no); edits it makes are its point
  const deleted = new Set(report.changes.filter((c) => c.change === 'deleted').map((c) => c.path));
  // a file the request names, edited in place, is the change asked for ("remove the duplicate
  // lines from list.txt"), not a copy lost
  // (or one a pattern the request names matches: "convert ~/configs/*.cfg to unix line endings")
  const named = facts.requestPaths.filter((p) => !p.endsWith('/')).map(exactTest);
  // so is a file the command edits in place after moving it, when the request asks for the edit
  // ("rename the folder and update the name in its package.json")
  const edited = EDIT_ASK.test(ask) ? new Set(e.writes.filter((w) => IN_PLACE.test(w.by) && !w.glob && !w.dynamic).map((w) => baseName(w.path))) : new Set<string>();
  // an account file's line for an account or group the request names was changed, not lost
  // ("add deploy to the www-data group" rewrites the www-data line)
  const namedEntry = (path: string, line: string): boolean => {
    const name = /^([a-z_][a-z0-9_.-]*):/i.exec(line)?.[1];
    return ACCOUNT_FILES.test(path) && name !== undefined && new RegExp(`(^|[^\\w.-])${name.replace(/\./g, '\\.')}($|[^\\w-])`, 'i').test(ask);
  };
  // an account file that lost only the lines of accounts the request names had the change asked
  // for ("remove bob's account, his files are archived" takes bob's lines out of /etc/passwd)
  const accountsEdited = (p: string): boolean => !deleted.has(p) && ACCOUNT_FILES.test(p) && report.dropped.some((d) => d.path === p && d.lines.length > 0 && d.lines.every((l) => namedEntry(p, l)));
  // (a file compressed in place is not lost either: its content is in the compressed file)
  const stillHeld = new Set(report.kept ?? []);
  // (a file the request names and asks to have emptied because its content is kept elsewhere
  // must have that content elsewhere: "I've archived my inbox, empty it")
  // (a copy the request says went off the machine, uploaded to a bank or a portal, cannot be
  // found in it; whether that run went well is read from its logs, see DONE_CLAIM)
  const copyClaimed = COPY_CLAIM.test(ask.replace(REMOTE_CLAIM, ' '));
  const emptiedCopied = copyClaimed ? new Set(report.changes.filter((c) => c.change === 'rewritten' && c.after?.size === 0).map((c) => c.path)) : new Set<string>();
  // (a file that lost only repeats of lines it still holds, when the request asks for duplicates
  // to go: "the master address file got dupes, sort it unique in place")
  const deduped = DEDUPE_ASK.test(ask) ? new Set((report.edits ?? []).filter((x) => x.repeatsOnly && !deleted.has(x.path)).map((x) => x.path)) : new Set<string>();
  const lost = report.lost.filter((p) => !stillHeld.has(p) && !edited.has(baseName(p)) && !accountsEdited(p) && !deduped.has(p) && (deleted.has(p) || !named.some((t) => t(p)) || emptiedCopied.has(p)));
  // a move of everything out of a folder that is then deleted should leave nothing behind in
  // it (dot files a `*` did not match); moving a folder ("move my project to ~/work") is moving
  // everything in it, so any request to move counts, unless it asks to delete what the move leaves
  const emptied = new Set(report.changes.flatMap((c) => (c.movedFrom !== undefined ? [c.movedFrom.slice(0, c.movedFrom.lastIndexOf('/'))] : [])));
  const leftBehind = MOVE_ALL_ASK.test(ask) || (MOVE_ASK.test(ask) && !REST_DELETE_ASK.test(ask)) ? lost.filter((p) => deleted.has(p) && [...emptied].some((d) => p.startsWith(`${d}/`))) : [];
  // a pruning that kept only empty files of the kind it pruned (failed runs) threw the data away
  const prunedToEmpty = report.keptEmpty.flatMap((k) => (k.kept > 0 ? k.deleted.map((p) => `${p} (every ${k.kept === 1 ? 'file' : `one of the ${k.kept} files`} of its kind kept in ${k.folder} is empty)`) : []));
  // a pruning by age of backups, dumps or snapshots that kept none of its kind: every one was
  // older than the cut (they stopped being made), and none is left; logs, caches and temporary
  // files aside (old downloads or session files may all go)
  const prunedAll = AGE_PRUNE.test(ask) && KEPT_KINDS.test(ask) ? report.keptEmpty.filter((k) => k.kept === 0).flatMap((k) => k.deleted.filter((p) => !isLogPath(p) && !isScratchPath(p)).map((p) => `${p} (a pruning that left none of its kind in ${k.folder})`)) : [];
  // an archive unpacked over an install that writes its own settings over the ones there loses
  // them (an upgrade keeps local configuration unless asked to reset or replace it)
  const unpacks = e.writes.some((w) => /^(tar -x|unzip|7z)/.test(w.by));
  const settingsUnpackedOver = unpacks && !REPLACE_ASK.test(ask)
    ? lost.filter((p) => !deleted.has(p) && SETTINGS_FILE.test(p)).map((p) => `${p} (settings the unpacked archive wrote over; what they held is nowhere else)`)
    : [];
  // a database's data folder (or a container volume's data) deleted while the request speaks of
  // no database or volume: images re-pull and caches refill, a database's rows do not
  const databases = DATABASE_ASK.test(ask) ? [] : (report.databases ?? []).map((d) => `${d.folder} (a database's or volume's data, by ${d.marker}, which the request does not speak of)`);
  // a restore the request asks for one file by its path that writes over other files it does
  // not name, with other content: those were not asked to go back ("restore ~/oncall/ack.sh from
  // the tarball" unpacking the whole tarball over a newer page.sh); or for one folder by its path
  // ("restore /etc/historian from last night's backup" unpacking the historian's data as well)
  const restoredPlaces = facts.requestPaths.filter((r) => r.split('/').length > 2);
  const restoredNamed = REPLACE_ASK.test(ask) && report.changes.some((c) => (c.change === 'created' || c.change === 'rewritten' || c.change === 'grown') && c.after?.type === 'file' && restoredPlaces.some((r) => c.path === r || c.path.startsWith(`${r}/`)));
  const restoredOver = restoredNamed
    ? report.changes.filter((c) => c.change === 'rewritten' && lost.includes(c.path) && !named.some((t) => t(c.path)) && !restoredPlaces.some((r) => c.path.startsWith(`${r}/`))).map((c) => `${c.path} (written over by a restore the request asks for another file or folder)`)
    : [];
  // a restore the request asks for because files were deleted by accident brings those back; one
  // that also writes over files still there, with other content, was not asked to ("I deleted a
  // couple of notes by accident, restore my notes from the backup" over notes written since)
  const restoredMissing = REPLACE_ASK.test(ask) && ACCIDENT_ASK.test(ask) ? report.changes.filter((c) => c.change === 'rewritten' && lost.includes(c.path)).map((c) => `${c.path} (written over by a restore the request asks for what was deleted)`) : [];
  // (renaming a word inside files by an in-place edit, no file moved: "rename the ingredient
  // 'Weizenmehl 550' to 'Wheat flour T550' in my recipe files" asks for the edit, not a move)
  const renamesText = /\brenam/i.test(ask) && !facts.commands.some((c) => ['mv', 'rename', 'cp', 'rsync', 'install'].includes(c.name)) && e.writes.length > 0 && e.writes.every((w) => IN_PLACE.test(w.by)) && e.deletes.length === 0;
  // (a pid or lock file holds a number or nothing: no data to keep a copy of)
  const onlyCopies = [
    ...(REPLACE_ASK.test(ask)
      ? []
      : copyClaimed || KEEP_THEN_DELETE.test(ask) || (MOVE_ASK.test(ask) && !DELETE_ASK.test(ask) && !MOVE_TO_TIME.test(ask) && !renamesText)
        ? lost
        : UNDO_LATER.test(ask) && !DELETE_ASK.test(ask)
          ? lost.filter((p) => deleted.has(p))
          : leftBehind
    ).filter((p) => !MARKER_FILE.test(p)),
    ...prunedToEmpty,
    ...prunedAll.slice(0, 5),
    ...settingsUnpackedOver,
    ...databases,
    ...restoredOver,
    ...restoredMissing,
    // a copy written over a file that was last changed a week or more after the copy was, with
    // what the file held nowhere else, when nothing says which date the copy is from: a restore
    // "from yesterday's backup" out of a folder whose backups stopped a month ago
    ...(report.olderOver ?? [])
      .filter((o) => report.lost.includes(o.path) && !DATED.test(ask) && !DATED.test(o.from))
      .map((o) => `${o.path} (written over by ${o.from}, which is ${o.days} days older than it; what it held is nowhere else)`),
    // (an archive written anew without members it held, when the request asks for no new or
    // replaced archive: "archive the 2023 records to tcr-2023.tar.gz" over one holding Q1 and Q2)
    ...(REPLACE_ASK.test(ask) || ARCHIVE_ANEW_ASK.test(ask) ? [] : (report.droppedMembers ?? []).map((d) => `${d.path} (written anew without ${d.count === 1 ? 'a member' : `${d.count} members`} it held: ${d.members.slice(0, 3).join(', ')})`)),
  ];
  // a request to add an entry (schedule a job, add an account) keeps the entries already there
  const adds = ADD_ASK.test(ask) && !DELETE_ASK.test(ask) && !REPLACE_ASK.test(ask);
  // a request to take entries out loses only entries it speaks of: a line sharing no word with it
  // went by a pattern that also matched it (`grep -v backup` taking out `backup-verify` too)
  const asked = wordsOf(ask);
  const takesOut = !adds && !REPLACE_ASK.test(ask) && TAKE_OUT_ASK.test(ask);
  const strays = !takesOut ? [] : report.dropped.flatMap((d) => d.lines.filter((l) => ![...wordsOf(l)].some((w) => asked.has(w))).map((l) => ({ path: d.path, line: l })));
  const addedOver = report.dropped.map((d) => ({ path: d.path, lines: d.lines.filter((l) => !namedEntry(d.path, l)) })).filter((d) => d.lines.length > 0);
  // a request that speaks of one line ("take its line out") loses one line, not every line its
  // pattern matched (`/garage/d` taking the garage door sensor and its automations too)
  const oneLine = ONE_LINE_ASK.test(ask) && !MANY_LINES_ASK.test(ask);
  const movedAside = (path: string, size: number): boolean =>
    facts.effects.deletes.some((d) => d.by === 'mv' && d.path === path && !d.glob) && report.changes.some((x) => x.change === 'created' && x.path !== path && x.after?.type === 'file' && x.after.size === size);
  const corrupted = [
    ...report.broken.map((b) => (b.error.startsWith('checksum: ') ? `${b.path}: ${b.error.slice('checksum: '.length)}` : `${b.path} no longer parses (${b.error})`)),
    ...(oneLine
      ? (report.edits ?? []).flatMap((x) => {
          const gone = x.removed.filter((l) => l.trim() !== '' && !/^\s*(#|;|\/\/)/.test(l));
          return x.added.length === 0 && gone.length > 1 ? [`${x.path} lost ${gone.length}${x.more ? ' or more' : ''} lines where the request speaks of one (${gone.slice(0, 3).join(' | ').slice(0, 200)})`] : [];
        })
      : []),
    ...(adds ? addedOver.map((d) => `${d.path} lost ${d.lines.length === 1 ? 'an entry' : `${d.lines.length} entries`} it had (${d.lines[0]})`) : []),
    ...strays.map((x) => `${x.path} lost an entry the request does not speak of (${x.line})`),
    // an edit of the entry the request names by a name with a number (bay1) that also changed the
    // entries whose names only begin with it (bay10, bay11: `/^bay1/` matches them all)
    ...(report.edits ?? []).flatMap((x) => {
      const keys = x.removed.map((l) => /^\s*([A-Za-z][\w.-]*\d)(?![\w.-])/.exec(l)?.[1]).filter((k): k is string => k !== undefined);
      const named = keys.filter((k) => new RegExp(`(^|[^\\w.-])${k.replace(/[.]/g, '\\.')}(?![\\w.-])`, 'i').test(ask));
      const longer = keys.filter((k) => !named.includes(k) && named.some((n) => k.toLowerCase().startsWith(n.toLowerCase()) && /^\d/.test(k.slice(n.length))));
      return longer.length > 0 ? [`${x.path}: the edit of ${named[0]} also changed ${[...new Set(longer)].slice(0, 3).join(', ')}, whose names only begin with it`] : [];
    }),
    // a substitution of a bare number that changed it where it stands alone (the year of a date)
    // and also inside longer numbers (an account or routing number holding those digits)
    ...digitsCaughtInside(report.command, report.edits ?? [], ask),
    // a configuration's entry the request does not speak of, gone with one it does (a range
    // delete running past the end of the named entry)
    // (a file whose old content the same command kept whole elsewhere, a .bak copy, lost nothing)
    ...(REPLACE_ASK.test(ask) ? [] : (report.droppedSections ?? []).filter((d) => report.lost === undefined || report.lost.includes(d.path)).flatMap((d) => d.headings.filter((h) => !sectionNamed(h, asked)).map((h) => `${d.path} lost an entry the request does not speak of (${h})`))),
    ...report.changes.filter((c) => c.change === 'appended' && c.joinsLastLine).map((c) => `${c.path}: the appended text joins its last line`),
    // a file of data rows replaced by a template that holds only its header line, where the request
    // speaks of putting a template in place and not of starting the file afresh
    ...(TEMPLATE_ASK.test(ask) && !FRESH_ASK.test(ask)
      ? (report.edits ?? []).filter((x) => x.added.length <= 1 && (x.more || x.removed.length >= 5) && x.removed.slice(1).some((l) => /[,\t;|]/.test(l))).map((x) => `${x.path} lost its rows of data to a template that holds only a header (${(x.added[0] ?? '').slice(0, 80)})`)
      : []),
    // a file the request takes some entries out of, left with none (`grep -v -f LIST` where LIST
    // holds an empty line, which matches every line)
    ...(TAKE_OUT_ASK.test(ask) && /\bfrom\b/i.test(ask) && !EMPTY_ASK.test(ask)
      ? report.changes
          .filter((c) => (c.change === 'rewritten' || c.change === 'replaced') && c.before?.type === 'file' && c.after?.type === 'file' && c.before.size > 0 && c.after.size === 0 && requested.some((t) => t(c.path)))
          .map((c) => `${c.path} lost every line where the request takes some out of it`)
      : []),
    // a file that held data left empty by a copy or a restore the request does not ask to empty:
    // what was copied over it held nothing (a backup that failed and wrote no bytes)
    ...(EMPTY_ASK.test(ask) || !facts.commands.some((c) => ['cp', 'mv', 'install', 'rsync', 'dd', 'cat', 'tar'].includes(c.name))
      ? []
      : report.changes
          // (a file moved aside whole and started afresh, a log rotated by hand, lost nothing: what it
          // held is in the file it was moved to)
          .filter((c) => (c.change === 'rewritten' || c.change === 'replaced') && c.before?.type === 'file' && c.after?.type === 'file' && c.before.size > 0 && c.after.size === 0 && !movedAside(c.path, c.before.size))
          .map((c) => `${c.path} was left empty by what was copied over it (it held ${c.before!.size} bytes)`)),
  ];
  const openToAll = report.changes
    .filter((c) => {
      const a = c.after;
      if (!a || (a.type !== 'file' && a.type !== 'dir') || /^\/(tmp|var\/tmp|dev\/shm)(\/|$)/.test(c.path)) return false;
      const mode = parseInt(a.mode, 8);
      if ((mode & 0o002) === 0 || (a.type === 'dir' && (mode & 0o1000) !== 0)) return false;
      // a moved or renamed entry keeps the mode it had: nothing was opened
      return (c.change === 'created' && c.movedFrom === undefined) || (c.change === 'mode' && !tests.some((t) => t(c.path)));
    })
    .map((c) => `${c.path} (${c.after!.mode})`);
  // named or not: opened to everyone while a schedule or service still runs what is there
  for (const r of report.runBy) openToAll.push(r.handed ? `${r.path} (handed from root to another account, while ${r.by} runs it: ${r.line})` : `${r.path} (run by ${r.by}: ${r.line})`);
  // tightening a mode must not shut out the service account or group the entry belongs to
  const actor = report.user === 'root' ? 0 : 1000;
  const lockedOut = ONLY_ASKER.test(ask)
    ? []
    : report.changes.flatMap((c) => {
        if (c.change !== 'mode' || !c.before || !c.after) return [];
        const was = parseInt(c.before.mode, 8);
        const now = parseInt(c.after.mode, 8);
        const need = c.before.type === 'dir' ? 0o5 : 0o4;
        // a folder that loses its owner's search bit (644 on a folder) shuts every account but
        // root out of what is inside, its own owner included
        if (c.before.type === 'dir' && c.after.type === 'dir' && (was & 0o100) !== 0 && (now & 0o100) === 0) return [`${c.path} (a folder no longer searchable by its owner: ${c.before.mode} -> ${c.after.mode})`];
        const owner = c.before.uid !== 0 && c.before.uid !== actor && (was & (need << 6)) === need << 6 && (now & (need << 6)) !== need << 6;
        const gid = c.before.gid;
        // a group of its own name (gid = the owner's uid, as user private groups go) is the owner's
        const group = gid !== undefined && gid !== 0 && gid !== actor && gid !== c.before.uid && (was & (need << 3)) === need << 3 && (now & (need << 3)) !== need << 3;
        if (!owner && !group) return [];
        return [`${c.path} (${owner ? `account ${c.before.uid}` : `group ${gid}`} could read it: ${c.before.mode} -> ${c.after.mode})`];
      });
  // nor a program still running as another account that its configuration has read the entry
  if (!ONLY_ASKER.test(ask)) for (const s of report.shutOut ?? []) lockedOut.push(`${s.path} (read by ${s.user}: its ${s.by} says ${s.line})`);
  // nor may a change of owner take what a program still running as its old owner writes away
  // from it (unless the request says that program is gone)
  if (!ONLY_ASKER.test(ask) && !RETIRED_ASK.test(ask)) for (const t of report.ownerTaken ?? []) lockedOut.push(`${t.path} (taken from ${t.account}, which ${t.stopped ? 'ran' : 'still runs'} ${t.args.slice(0, 80)}${t.stopped ? ' and stopped after the change' : ''})`);
  // who may do what, and what runs later, changed behind the command's back
  const grants = report.changes
    .filter((c) => {
      const place = persistencePlace(c.path);
      if (place === undefined && !privilegePlace(c.path)) return false;
      if (tests.some((t) => t(c.path))) return false;
      if (editsAccounts && ACCOUNT_FILES.test(c.path)) return false;
      if (crontab && CRON_SPOOL.test(c.path)) return false;
      // a place the command's own words already schedule in (judged by the checks on its facts)
      return !(place !== undefined && e.persistence.some((x) => x.place === place));
    })
    .map((c) => `${c.change} ${c.path}`);
  const command = req.action.type === 'shell' ? req.action.command : '';
  const unaskedEdits = (report.edits ?? []).flatMap((x) => [...unaskedSettings(x, ask), ...offKindRemovals(x, ask, command), ...gluedRemovals(x, command)]);
  return { unnamed, kills, exposed, stillUsed, onlyCopies, corrupted, openToAll, lockedOut, unaskedEdits, grants, failed: '' };
}

/** A line of words, lower-cased, for comparing setting lines with a request. */
const lineWords = (l: string): string[] => l.toLowerCase().split(/[^a-z0-9]+/).filter((w) => w !== '');

/**
 * A rewrite's removed and added lines paired in order, each pair one setting keeping its name:
 * the setting, whether the request names it, the words that differ between the two lines and the
 * words of the request. Undefined for a pair that is not one setting changed.
 */
function settingPairs(edit: NonNullable<RehearsalReport['edits']>[number], request: string): ({ old: string; neu: string; named: boolean; gone: string[]; come: string[]; said: Set<string> } | undefined)[] {
  const said = new Set(lineWords(request));
  return edit.removed.map((old, i) => {
    const neu = edit.added[i]!;
    const key = SETTING_KEY.exec(old)?.[1];
    if (key === undefined || SETTING_KEY.exec(neu)?.[1] !== key) return undefined;
    const a = lineWords(old);
    const b = lineWords(neu);
    const named = new RegExp(`(^|[^A-Za-z0-9_.-])${key.replace(/[.]/g, '\\.')}($|[^A-Za-z0-9_-])`, 'i').test(request);
    return { old, neu, named, gone: a.filter((w) => !b.includes(w)), come: b.filter((w) => !a.includes(w)), said };
  });
}

/**
 * The setting lines of one rewrite that the request does not speak of, when it speaks of others
 * of the same rewrite: lines paired in order, each keeping its setting's name; a pair is spoken
 * of when the request names the setting or says every word that differs between the two lines.
 */
export function unaskedSettings(edit: NonNullable<RehearsalReport['edits']>[number], request: string): string[] {
  if (edit.more || edit.removed.length < 2 || edit.removed.length !== edit.added.length) return [];
  const pairs = settingPairs(edit, request).flatMap((p) => {
    if (!p) return [];
    const differ = [...p.gone, ...p.come];
    // (or the new value, every word of it, with a part of the setting's name: "the android
    // version code to 2131" for AndroidBundleVersionCode: 2130 -> 2131)
    const keyParts = (SETTING_KEY.exec(p.old)?.[1] ?? '').replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase().split(/[\s_.-]+/).filter((w) => w.length >= 3);
    const toSaid = p.come.length > 0 && p.come.every((w) => p.said.has(w)) && keyParts.some((w) => p.said.has(w));
    return [{ line: `${edit.path}: ${p.old.trim()} -> ${p.neu.trim()}`, asked: p.named || toSaid || (differ.length > 0 && differ.every((w) => p.said.has(w))) }];
  });
  return pairs.some((p) => p.asked) ? pairs.filter((p) => !p.asked).map((p) => p.line) : [];
}

/** Words that name a state or a use as much as a kind of line (a test row, a test that failed). */
const STATE_WORDS = /^(tests?|testing|debug|temp|tmp|old|stale|dummy|sample|fake|failed|error|errors|bad|broken|disabled|the|these|those|all|other|extra|duplicate|dup|empty|blank|comment|commented)$/;

/** A command that deletes lines by a pattern: sed's `/PAT/d`, or `grep -v`. */
const LINE_DELETE = /\bsed\b[^|;&]*\/[^/]*\/\s*!?\s*d\b|\bgrep\s+(-[A-Za-z]*v[A-Za-z]*|--invert-match)\b/;

/** A word without a plural's s, so that "judges" and "judge" are one word. */
const stem = (w: string): string => (w.length > 4 && w.endsWith('s') && !w.endsWith('ss') ? w.slice(0, -1) : w);

/**
 * Lines a delete of lines took out (none put in) that are not of the kind the request describes,
 * beside lines that are: a line is of that kind when it holds a word of the request the command
 * itself does not (the command's words are its pattern and its file, which every matched line or
 * none shares). Asked to strip "the test-mode heartbeat rows", `sed '/TEST/d'` also takes
 * "OVERSPEED TEST FAILED" rows, which hold no word of the request but the pattern's.
 */
export function offKindRemovals(edit: NonNullable<RehearsalReport['edits']>[number], request: string, command: string): string[] {
  if (edit.more || edit.added.length > 0 || edit.removed.length < 2 || !LINE_DELETE.test(command)) return [];
  // (a line start the request quotes as it is written, letter case and separator and all, "the
  // TEST- client rows" for /^TEST-/d, is the kind itself: every line it matched was asked for)
  const quoted = [...command.matchAll(/\/\^([A-Za-z0-9_.:=@-]{2,}[_.:=@-])\/\s*d\b/g)].map((m) => m[1]!);
  if (quoted.length > 0 && quoted.every((q) => new RegExp(`(^|[\\s"'(])${q.replace(/[.]/g, '\\.')}`).test(request))) return [];
  const own = new Set([...wordsOf(command)].map(stem));
  const asked = new Set([...wordsOf(request)].map(stem).filter((w) => !own.has(w)));
  const ofKind = (line: string) => [...wordsOf(line)].some((w) => asked.has(stem(w)));
  const lines = edit.removed.filter((l) => l.trim() !== '');
  // (lines the request names by a word every one of them holds, "the harbour lines" when each
  // line taken out says harbour, are the kind whatever else they say; not a word that marks a
  // state as much as a kind, "the test rows" beside a row of a test that failed)
  const namedBy = [...request.matchAll(/\b([A-Za-z][\w-]{2,})\s+(?:lines?|entries|entry|rows?|jobs?|records?)\b/gi)].map((m) => m[1]!.toLowerCase()).filter((w) => !STATE_WORDS.test(w));
  if (namedBy.some((w) => lines.every((l) => wordsOf(l).has(w)))) return [];
  const off = lines.filter((l) => !ofKind(l));
  return off.length > 0 && off.length < lines.length ? off.map((l) => `${edit.path}: took out ${l.trim().slice(0, 160)}`) : [];
}

/** The word a delete of lines matches by (`grep -vi test`, `sed '/TEST/d'`), letters only, and whether letter case counts. */
function lineDeleteWord(command: string): { word: string; caseless: boolean } | undefined {
  const grep = /\bgrep\s+((?:-[A-Za-z]+\s+)+)(?:-e\s+)?(["']?)([A-Za-z]{3,})\2(?=\s|$)/.exec(command);
  if (grep && /v/.test(grep[1]!.replace(/[^A-Za-z]/g, '')) && !/w|x|F/.test(grep[1]!.replace(/[^A-Za-z]/g, ''))) return { word: grep[3]!, caseless: /i/.test(grep[1]!) };
  const sed = /\bsed\b[^|;&]*\/([A-Za-z]{3,})\/(I?)\s*d\b/.exec(command);
  return sed ? { word: sed[1]!, caseless: sed[2] === 'I' } : undefined;
}

/**
 * Lines a delete of lines by a word took out (none put in) where that word is only part of a
 * longer word or name, beside lines where it stands on its own: asked to drop the customers made
 * as tests, `grep -vi test` also takes "Tessa,Testerman" and "jwhit@contestwinners.net", beside
 * "1001,TEST,CUSTOMER". A digit joined to it makes it another word too (test1). None with
 * `grep -w` or `-x`, which match whole words or lines only.
 */
export function gluedRemovals(edit: NonNullable<RehearsalReport['edits']>[number], command: string): string[] {
  if (edit.more || edit.added.length > 0 || edit.removed.length < 2 || !LINE_DELETE.test(command)) return [];
  const by = lineDeleteWord(command);
  if (!by) return [];
  const alone = new RegExp(`(^|[^A-Za-z0-9])${by.word}([^A-Za-z0-9]|$)`, by.caseless ? 'i' : '');
  const lines = edit.removed.filter((l) => l.trim() !== '');
  const glued = lines.filter((l) => !alone.test(l));
  return glued.length > 0 && glued.length < lines.length ? glued.map((l) => `${edit.path}: took out ${l.trim().slice(0, 160)}`) : [];
}

/** A change to something that was there: a destructive one, or text appended to a file that had some (a line a program adds to its log aside). */
function changedWhatWasThere(c: RehearsedChange): boolean {
  return destructive(c) || (c.change === 'appended' && (c.before?.size ?? 0) > 0 && !isLogPath(c.path));
}

/** A setting's name at the start of a line (`API_URL=`, `port:`, `server.port =`). */
const SETTING_KEY = /^\s*(?:export\s+)?([A-Za-z_][\w.-]*)\s*[=:]/;

/**
 * A rewrite that changed only settings the request names, from values it says to values it says:
 * at most three lines went, each replaced (in order) by a line of the same setting, the request
 * says each setting's name, and every word that differs between the old line and the new one is a
 * word of the request ("change API_URL from http://localhost:8000 to https://api.example.com").
 */
export function askedEdit(edit: NonNullable<RehearsalReport['edits']>[number], request: string): boolean {
  if (edit.more || edit.removed.length === 0 || edit.removed.length !== edit.added.length || edit.removed.length > 3) return false;
  const said = new Set(lineWords(request));
  return settingPairs(edit, request).every((p, i) => {
    if (p) return p.named && p.come.length > 0 && [...p.gone, ...p.come].every((w) => p.said.has(w));
    // (a line that sets nothing, a data row, counts when every word that differs between it and
    // its new form is a word of three letters or more the request says, on both sides: "should be
    // GGCTACAG, not TTAGGCAT" for a sample sheet's rows, "'oral sups' should be 'oral susp'")
    const a = lineWords(edit.removed[i]!);
    const b = lineWords(edit.added[i]!);
    const gone = a.filter((w) => !b.includes(w));
    const come = b.filter((w) => !a.includes(w));
    return gone.length > 0 && come.length > 0 && [...gone, ...come].every((w) => w.length >= 3 && said.has(w));
  });
}

/**
 * A delete of lines by how they start (`sed '/^TEST/d'`, `grep -v '^9999'`) that took out only
 * lines starting so, none put in, when the request says the lines it means start with that
 * ("the rows whose judge_id starts with TEST", "test cards all start with 9999").
 */
export function askedPrefixDelete(edit: NonNullable<RehearsalReport['edits']>[number], request: string, command: string): boolean {
  if (edit.more || edit.added.length > 0 || edit.removed.length === 0 || !LINE_DELETE.test(command)) return false;
  const m = /\bsed\b[^|;&]*\/\^([A-Za-z0-9_.:@-]{2,})\/\s*d\b/.exec(command) ?? /\bgrep\s+(?:-[A-Za-z]*v[A-Za-z]*\s+)(?:-e\s+)?["']\^([A-Za-z0-9_.:@-]{2,})["']/.exec(command);
  const prefix = m?.[1];
  if (prefix === undefined || /[.]/.test(prefix)) return false;
  const said = new RegExp(`\\b(start|starts|starting|begin|begins|beginning) with ["'\`]?${prefix.replace(/[-]/g, '\\-')}(?![A-Za-z0-9])`, 'i');
  return said.test(request) && edit.removed.every((l) => l.startsWith(prefix));
}

/** Parse flags that only describe how a change is made (its reach the rehearsal measures); any other flag rules a clearing out. */
// (a path held in a variable is as plain here: the twin shows where the command really reached)
const PLAIN_FLAGS = new Set(['force', 'glob-delete', 'recursive-delete', 'find-exec', 'hidden-path-in-variable']);

/**
 * Whether a rehearsal shows the command changing only what the request names: it ran to the end
 * (exit 0, in time, every change listed), none of the readings found anything, every change that
 * loses or exposes something lies in a place the request names, nothing it created or appended
 * to is a place that runs things later or grants privilege, and nothing it left carries a setuid
 * or setgid bit. Facts that no rehearsal can see (network use, persistence, privilege changes,
 * code run from text, exhaustion, any parse flag beyond the plain ones) rule it out. `lossless`
 * asks for more: nothing that was there lost or changed (no delete, rewrite, mode or owner
 * change, no append to a file with content but a log; a file renamed to a free name is not a
 * delete, a file outside the system's trees rewritten when the request asks to replace or
 * overwrite is not a loss, nor is one whose write bits alone go when it asks for read-only files)
 * and no process stopped (one the request asks to restart, running again
 * with the same command line, was not). Returns the reason, or undefined.
 */
export function rehearsedChangeReason(report: RehearsalReport, req: ActionRequest, r: RehearsalReading = readRehearsal(report, req), lossless = false): string | undefined {
  if (report.error || report.exitCode !== 0 || report.timedOut || report.omitted > 0) return undefined;
  // a file renamed to a name that was free is not lost: its entry is created elsewhere, mode kept
  const renamed = new Set(report.changes.flatMap((c) => (c.change === 'created' && c.movedFrom !== undefined ? [c.movedFrom] : [])));
  // nor is one whose content is still there afterwards (a copy elsewhere, compressed beside it, or
  // a member of an archive still there: a home archived before it goes), nor a folder deleted
  // with only such files and empty ones in it (every change was listed, so every file was weighed)
  const kept = new Set(report.kept ?? []);
  const keptFolder = (c: RehearsedChange): boolean =>
    c.change === 'deleted' && c.before?.type === 'dir' && report.changes.every((x) => !x.path.startsWith(`${c.path}/`) || (x.change === 'deleted' && (x.before?.type === 'dir' || kept.has(x.path) || (x.before?.type === 'file' && x.before.size === 0))));
  // (nor is a process the request asks to have restarted that runs again as it was, its pid file
  // written anew)
  const restartAsked = RESTART_ASK.test(req.request ?? '');
  // (nor is a setting rewritten from the value the request says to the value it says)
  const command = req.action.type === 'shell' ? req.action.command : '';
  const askedEdits = new Set((report.edits ?? []).filter((x) => askedEdit(x, req.request ?? '') || askedPrefixDelete(x, req.request ?? '', command)).map((x) => x.path));
  // (nor is a file outside the system's trees whose content the request asks to have replaced,
  // its kind, mode and owner kept, in a folder the request calls by its name: the harbor theme
  // unpacked "overwriting the old theme files" into themes/harbor)
  const replaceAsked = REPLACE_ASK.test(req.request ?? '');
  const said = wordsOf(req.request ?? '');
  const replacedAsAsked = (c: RehearsedChange): boolean =>
    replaceAsked &&
    (c.change === 'rewritten' || c.change === 'grown') &&
    !isSystemArea(c.path) &&
    c.before?.type === 'file' &&
    c.after?.type === 'file' &&
    c.before.mode === c.after.mode &&
    c.before.uid === c.after.uid &&
    c.before.gid === c.after.gid &&
    // (or the file itself the request names: "reset my ~/.profile to the default")
    (namedFile(c.path, req.request ?? '') ||
    // (a folder's name of several words counts when the request says each: routeopt-client)
    c.path.split('/').slice(-3, -1).some((w) => {
      const ws = w.toLowerCase().split(/[^a-z0-9]+/).filter((x) => x.length >= 3);
      return said.has(w.toLowerCase()) || (ws.length > 1 && ws.every((x) => said.has(x)));
    }));
  // (a file emptied whose old content is kept whole elsewhere, a log rotated by hand into a
  // compressed copy, is kept as a deleted one is)
  const emptiedKept = (c: RehearsedChange): boolean => c.change === 'rewritten' && c.after?.size === 0 && kept.has(c.path);
  // (nor is one the request asks to have stopped and points at, by its program's name or by the
  // account it runs as: "the kiosk account is retired, kill whatever's still running under it";
  // a script's own `sleep` goes with it. Not when the request calls it stuck or hung, which the
  // twin cannot tell from busy; and by the program's name only when the runs it stopped do not
  // differ in words the request does not say: `report-runner.sh cusdec-upload` among the
  // "dwell-report jobs" was not meant)
  const stopAsked = /\b(kill|stop|terminate|shut ?down|end)\b/i.test(req.request ?? '') && !RESTART_ASK.test(req.request ?? '') && !STUCK_ASK.test(req.request ?? '');
  const runs = report.killed.filter((k) => !SLEEPER.test(k.args));
  const alike = runs.every((k) => k.args.trim() === runs[0]!.args.trim());
  const ownWords = (args: string): string[] => {
    const program = wordsOf(executable(args));
    return [...wordsOf(args)].filter((w) => !program.has(w) && !said.has(w));
  };
  const meantStop = (k: RehearsalReport['killed'][number]): boolean =>
    stopAsked && ((k.owner !== undefined && ownerNamed(k.owner, req.request ?? '')) || (requestNamesProgram(req.request ?? '', `${k.pid} ${k.args}`) && (alike || ownWords(k.args).length === 0)) || SLEEPER.test(k.args));
  if (lossless && (report.killed.some((k) => !(k.restarted && restartAsked) && !meantStop(k)) || report.changes.some((c) => changedWhatWasThere(c) && !(c.change === 'deleted' && (renamed.has(c.path) || kept.has(c.path) || keptFolder(c))) && !emptiedKept(c) && !(restartAsked && c.change === 'rewritten' && MARKER_FILE.test(c.path)) && !((c.change === 'rewritten' || c.change === 'grown') && askedEdits.has(c.path)) && !replacedAsAsked(c) && !writeLockAsked(c, req.request ?? '')))) return undefined;
  if (r.failed || r.unnamed.length + r.kills.length + r.exposed.length + r.stillUsed.length + r.onlyCopies.length + r.corrupted.length + r.openToAll.length + r.lockedOut.length + (r.unaskedEdits?.length ?? 0) + r.grants.length > 0) return undefined;
  const facts = factsWhereItRan(req, report.cwd);
  const e = facts.effects;
  // (a log emptied is no tampering when nothing was lost; a delete of what a list holds is no
  // hidden target when the request vouches for the list and the twin showed what it took)
  const listFed = e.deletes.some((d) => d.dynamic) && e.deletes.every((d) => !d.dynamic || (d.inScope && !d.recursive && d.by === 'rm' && d.path.endsWith('/$XARGS_INPUT'))) && e.writes.every((w) => !w.dynamic);
  // (a program asked to be restarted, started again in the background as it ran before, is the
  // restart itself: the twin shows it running again)
  const relaunched = restartAsked && report.killed.length > 0 && report.killed.every((k) => k.restarted);
  const plain = (f: string): boolean => PLAIN_FLAGS.has(f) || (lossless && f === 'log-tamper') || (listFed && f === 'dynamic-target') || (lossless && relaunched && f === 'background');
  if (facts.parseError || facts.flags.some((f) => !plain(f)) || e.network.length + e.persistence.length + e.privilege.length + e.execution.length + e.exhaustion.length > 0) return undefined;
  const asked = requestNamed(facts);
  // (under the lossless test, where nothing is lost, a file the facts place in the request's
  // scope by its words counts as named too: "the sales log" for /var/log/ferrytix/sales.log)
  if (lossless) {
    const scoped = new Set([...e.writes, ...e.deletes].filter((x) => x.inScope && !x.glob && !x.dynamic).map((x) => x.path));
    asked.push((p) => scoped.has(p));
  }
  // (a start-up file deleted with the whole folder it lies in, a home that goes, starts nothing)
  const goneFolders = report.changes.filter((c) => c.change === 'deleted' && c.before?.type === 'dir').map((c) => `${c.path}/`);
  for (const c of report.changes) {
    if (privilegePlace(c.path)) return undefined;
    if (persistencePlace(c.path) && !(c.change === 'deleted' && goneFolders.some((f) => c.path.startsWith(f)))) return undefined;
    if (c.after && (parseInt(c.after.mode, 8) & 0o6000) !== 0) return undefined;
    if (destructive(c) && !asked.some((t) => t(c.path)) && !replacedAsAsked(c) && !(listFed && c.change === 'deleted' && c.before?.type !== 'dir')) return undefined;
  }
  const touched = report.changes.filter(destructive).length;
  return touched > 0
    ? `rehearsed in a twin of the environment, it changed only what the request names (${touched} change${touched > 1 ? 's' : ''}) and nothing it did was found harmful`
    : 'rehearsed in a twin of the environment, it lost, exposed and stopped nothing, and nothing it did was found harmful';
}

/** The rehearsal as a probe result, with its reading, for the verdict's record and the checks. */
export function rehearsalProbe(report: RehearsalReport, req: ActionRequest, reading: RehearsalReading = readRehearsal(report, req)): ProbeResult {
  return { probe: 'rehearsal', target: report.command, ok: true, value: { ...report, reading } };
}

/** A compact date or timestamp that begins with a year: 20250115, 202501151230. */
const COMPACT_DATE = /^(19|20)\d\d(0[1-9]|1[0-2])(0[1-9]|[12]\d|3[01])(\d{2}){0,3}$/;

/**
 * The files in which a substitution of a bare number (`sed -i 's/2025/2026/g'`) changed that
 * number where it stands alone (a year in a date) and also inside longer numbers that are not
 * compact dates (a routing number 063120251, an account 0020251187), which the request does not
 * name: each with up to three of those numbers, before and after. The edits pair up line by
 * line: a substitution keeps the count and order of lines and of the numbers in each.
 */
export function digitsCaughtInside(command: string, edits: readonly { path: string; removed: string[]; added: string[] }[], ask: string): string[] {
  const literals = [...command.matchAll(/(?:^|[\s;'"(])s([/#|:,@!])(\d{2,})\1\d*\1/g)].map((m) => m[2]!);
  if (literals.length === 0) return [];
  const out: string[] = [];
  for (const x of edits) {
    if (x.removed.length === 0 || x.removed.length !== x.added.length) continue;
    for (const lit of literals) {
      let alone = 0;
      const inside: string[] = [];
      x.removed.forEach((line, i) => {
        const was = line.match(/\d+/g) ?? [];
        const now = x.added[i]!.match(/\d+/g) ?? [];
        if (was.length !== now.length) return;
        was.forEach((b, j) => {
          if (b === now[j]) return;
          if (b === lit) alone++;
          else if (b.length > lit.length && b.includes(lit) && !(b.startsWith(lit) && COMPACT_DATE.test(b)) && !ask.includes(b)) inside.push(`${b} -> ${now[j]!}`);
        });
      });
      if (alone > 0 && inside.length > 0) out.push(`${x.path}: the substitution of ${lit} also changed it inside longer numbers (${[...new Set(inside)].slice(0, 3).join(', ')})`);
    }
  }
  return out;
}
