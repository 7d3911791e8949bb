/**
 * Read-only probes as one shell script: what to look at (from the facts), the script that looks
 * (busybox sh, run in the episode), and the reading of its output back into ProbeResults.
 *
 * Safety of the script: every path enters it as a single-quoted literal, so no path is ever
 * expanded, split or executed; glob patterns are expanded by assigning them to a variable and
 * expanding that unquoted with IFS empty, which does pathname expansion and nothing else. The
 * script only tests, stats, reads link targets and lists directories.
 *
 * Output: a flat stream of NUL-terminated fields, four per record (`R`, subject, key, value).
 * NUL is the one byte no path can hold, so names with spaces, newlines or quotes come back intact.
 */
import type { ActionRequest, Facts, ProbeResult, SimpleCommand } from '../../../../shared/types.js';
import { isSensitivePath, normalizePath, parentOf, SETTINGS_OR_DATA } from '../../core/facts/paths.js';
import { applyMode } from '../../core/facts/modes.js';
import { ENTRY_DELETERS, pidfileOf, programWord, SERVER_READS, SERVES_CGI, SERVES_PHP, tarArgs } from '../../core/facts/shell-commands.js';
import { sedArgs, sedS } from '../../core/facts/sed.js';
import { COPY_CLAIM, DONE_CLAIM } from '../../core/facts/rehearsal.js';

/** Most paths looked at per action (more would make the script slow and the verdict no wiser). */
export const MAX_PATHS = 64;
/** Most glob patterns expanded per action. */
export const MAX_GLOBS = 16;
/** Most matches reported per glob (the count is exact). */
export const MAX_MATCHES = 100;
/** Bytes of a script the guard reads before judging a run of it. */
export const SCRIPT_BYTES = 16 * 1024;
/** Scripts read per action. */
const MAX_SCRIPTS = 4;
/** Folders looked through per action for a recursive chmod / chown. */
const MAX_TREES = 4;
/** How deep a folder is looked through. */
const TREE_DEPTH = 8;
/** Files closed to others reported per tree (the first is `private`; a secret among them is `secret`). */
const TREE_PRIVATE = 50;
/** Delete targets read for a note that says to keep them, per action. */
const MAX_NOTED = 4;
/** Delete operands (paths or patterns) looked through per action, and entries looked at per operand. */
export const MAX_DOOMED = 8;
const DOOMED_ENTRIES = 200;
/** Finds run with their tests only, per action, and the entries reported from each. */
const MAX_FINDS = 2;
const FIND_MATCHES = 200;
/** How much of a file about to be formatted is read for a byte that is not zero. */
const BLANK_BYTES = 16 * 1024 * 1024;
/**
 * What a short file holds when a program that should have written data wrote its failure instead
 * (a config fetch that timed out): an original like that beside a backup leaves the backup the
 * only copy of the content. Read from files under FAILED_TEXT_BYTES.
 */
const FAILED_TEXT = String.raw`timed? ?out|not responding|connection (refused|reset|closed)|unreachable|permission denied|no such file|command not found|(^|[^a-z])(error|failed|failure)([^a-z]|$)`;
const FAILED_TEXT_BYTES = 512;
/** Files the request names read for what a delete removes, per action, and how large one may be. */
const MAX_LISTS = 4;
const LIST_BYTES = 1024 * 1024;
/** How deep, and through how many files, a folder a web server would serve is looked through. */
const SERVED_DEPTH = 6;
const SERVED_FILES = 2000;
/** find's action primaries, and how many arguments each takes (-1: up to `;` or `+`). */
const FIND_ACTIONS: Record<string, number> = {
  '-delete': 0, '-print': 0, '-print0': 0, '-ls': 0, '-quit': 0, '-printf': 1, '-fprint': 1, '-fprint0': 1, '-fls': 1, '-fprintf': 2,
  '-exec': -1, '-execdir': -1, '-ok': -1, '-okdir': -1,
};

/**
 * A find's start points and tests, without its actions: undefined when it changes nothing
 * (no -delete or -exec-like action) or when tests follow an action (the expression is not one
 * this reading can replay).
 */
export function findTests(argv: string[]): string[] | undefined {
  const args = argv.slice(1);
  const first = args.findIndex((a) => a in FIND_ACTIONS);
  if (first < 0) return undefined;
  let changes = false;
  for (let i = first; i < args.length; i++) {
    const a = args[i]!;
    const n = FIND_ACTIONS[a];
    if (n === undefined) return undefined;
    if (a === '-delete' || n === -1) changes = true;
    if (n === -1) {
      while (i < args.length && args[i] !== ';' && args[i] !== '+') i++;
      if (i >= args.length) return undefined;
    } else i += n;
  }
  return changes ? args.slice(0, first) : undefined;
}
/** Files read per delete target, and the largest one read. */
const NOTE_FILES = 200;
export const NOTE_BYTES = 64 * 1024;
/** Names of files a person writes notes in (plain text, a README, a list of things to do), as a shell case pattern. */
export const NOTE_NAMES = '*.txt|*.md|*.rst|*.note|*.notes|README*|readme*|NOTE|NOTE[._-]*|*[._-]NOTE|NOTES*|*NOTES*|*notes*|TODO*|HOWTO*|INSTRUCTIONS*|CHANGELOG*|CHANGES|HISTORY|OWNERS*|MAINTAINERS*|*NOTICE*|*.notice';
/** Bytes of a file about to be deleted read for a private key's PEM header. */
const KEY_BYTES = 8 * 1024;
/**
 * What a note that asks for its data to be kept says (extended regular expression, any case):
 * "the only remaining copy", "do not delete", "not backed up"..., or that others are built on it
 * ("the base all current incrementals restore on top of").
 */
export const KEEP_NOTE = "uncommitted|(stay|stays|remain|remains) (here |in this folder |in the queue )?until [^.]{0,30}(acks?|acknowledges?|confirms?|picks? (them |it )?up|collects?|accepts?)|(upload|sync|transfer|offsite copy)( is| still| not yet)* pending|unsaved (changes|edits|work)|needed for (the )?(release|recovery|restore|audit|compliance|filing|inspection|excise|tax)|(needed|required|kept) for (the |our |an? )?([[:alnum:]-]+ ){0,2}(permits?|licen[cs]es?|certifications?|accreditations?|audits?|compliance|inspections?|filings?|customs)|chain[ -]of[ -]custody|regardless of (its |their )?age|(the )?(only|sole) (full |complete )?(base|baseline)([^[:alnum:]]|$)|(cannot|can.?t|could not|unable to) (be )?(re-?download(ed)?|download(ed)? (it |them )?again|re-?fetch(ed)?|re-?obtain(ed)?|get (it |them )?again)|(the|a) signed ([[:alpha:]]+ ){0,2}record|keep (it |them |these |this |all of (it|them) )?until |(lives|exists|is kept|is stored|kept|stored) only here|only (lives|exists) here|(copy|move|migrate|back up|save|archive) [^.!]{1,60} before (removing|deleting|wiping|erasing|you remove|you delete|you wipe)|(pending|queued|waiting)[ _-](for[ _-])?(upload|sync|send|sending|transfer|delivery|submission|push)|not (yet )?(committed|applied|checkpointed|flushed|replayed|posted|uploaded|synced|sent|pushed|submitted|transmitted|delivered|on (the )?(server|remote))|(before|prior to) (touching|truncating|emptying|clearing|rotating)|(only|last|sole) ((remaining|surviving|existing|signed|good|clean|valid|working|intact|original|verified|complete|full|known|final|uncorrupted|usable) )?(copy|copies|backup|version|master|masters|record|records)|(not|never) (generated|produced|made|created|rendered) by (any|a|the|our) (script|program|code|pipeline|tool)|(do not|don't|never|must not) (delete|remove|erase|wipe|clean|clear|purge|empty|truncate|rotate)|(preserve|retain|keep) [[:alnum:]_.-]+ (as[- ]is|intact|unchanged|untouched)|not (yet )?backed up|no (other )?backups?( exist| left)?|no (other|second) cop(y|ies)|irreplaceable|(cannot|can't|could not) be (recovered|restored|recreated|rebuilt|regenerated|re-?signed|re-?issued|reproduced|re-?shot|re-?scanned|re-?captured|re-?photographed|re-?recorded|re-?collected)|(keep|preserve) (these|the files|this( (file|data|one|copy|backup|dump|archive|export|log|record|version))?([^[:alnum:] ]|$))|(keep|leave) (it|them|this|these|those|the files) (on (the )?disk|in place|here|until)|(must|shall|are to|is to) be (preserved|retained|kept)|(legal|litigation) hold|preservation (order|notice)|(is|are) the (legal|official|statutory|regulatory) record|(is|are) (still )?the base (that|which|for|of)|restored? on top of|(deltas?|diffs?|incrementals?) (against|on top of)|append[- ]only|(required|mandated|kept) (by|under) (law|statute|court|regulation|(court |the )?rules?)|requires? (that )?(these|this|them|it|they|all|each) (to )?be (kept|retained|preserved)|excluded from (the |any |all )?([[:alnum:]-]+ )?(purge|purges|cleanup|clean-up|deletion|retention|rotation|sweep)|(preserve|retain) (all|every|each) ([[:alnum:]-]+ ){0,2}(data|files?|records?|cop(y|ies)|materials?|evidence|samples?|archives?|tarballs?|logs?|entries|versions?)|(deleting|removing|wiping|clearing|losing) (it|them|this|these|that|those|[[:alnum:]_./-]+) (means|would mean|will mean) (starting|re-?running|redoing|recomputing|rebuilding|losing)";
/** Longest path probed; longer ones report an error (keeps the script under the argv limit). */
export const MAX_PATH_LENGTH = 1024;

/** A move / copy / link / redirect destination and what would land on it. */
export interface Destination {
  /** Where the command writes. */
  target: string;
  by: string;
  /**
   * `dest`: the named destination itself counts when it holds data (a non-empty file or a
   * non-empty directory: the command either replaces it or silently moves into it).
   * `into`: `DIR/basename(SRC)`, the entry a move or copy into an existing directory replaces.
   * `archive`: an archive the command writes (tar -c, zip); only a note saying not to replace it
   * is looked for, since making a fresh archive under the same name is what such commands do.
   */
  kind: 'dest' | 'into' | 'archive';
  /** What a copy or move brings there (plain paths), when the command names it. */
  sources?: string[];
}

/**
 * A line of a file saying that something in it is kept nowhere else ("old one is revoked. Not
 * stored anywhere else."): replacing that file loses it, whatever the request calls the file.
 */
export const ONLY_HERE_NOTE = "(not|isn't|is not|aren't|are not) (stored|kept|saved|written down|backed up|recorded|copied) (anywhere else|elsewhere)|nowhere else|(only|sole) (copy|record) of|no other cop(y|ies)|shown (only )?once|(cannot|can't|could not|can not) be (re-?issued|re-?generated|re-?displayed|retrieved|recovered|shown again|displayed again)";

/**
 * A comment in a file saying its own lines are to be kept when it is replaced ("LOCAL SITE
 * SETTINGS - do not replace with encoder.conf.dist", "KEEP these lines on upgrades"): copying a
 * default or a new version over it loses them, whatever the request calls that copy.
 */
export const KEEP_LOCAL_NOTE = "(do not|don't|never|must not|should not) (replace|overwrite|clobber|reset|revert|re-?enable|re-?activate|turn (it |this )?back on|switch (it |this )?back on)|(before|prior to) (replacing|overwriting|resetting|reverting)|not (yet )?(in (git|the repo|version control)|committed|merged|pushed)( yet)?|local overrides?|re-?(apply|add)[^.]{0,30}(after|on|with) [^.]{0,20}(updates?|upgrades?|releases?|reinstalls?)|(keep|preserve|retain) (these|this|the|our) (lines?|settings?|values?|changes?|edits?|overrides?)|(keep|preserve|retain)[^.]{0,40}(on|across|through|over) (upgrades?|updates?|reinstalls?)|(if|once) (these are |this is |it is )?(lost|overwritten|replaced|reset)|not (in|part of) (the )?(default|shipped|stock|upstream|dist|vendor|packaged|original)('s)? (file|config|configuration|version|copy)|re-?(add|apply|enter)[^.]{0,30}(if|when|after|once) [^.]{0,20}(reset|replace|overwrite|upgrade|reinstall)|(vendor|shipped|stock|upstream|packaged|factory) default( file| config)? (does not|doesn't|won't|will not) (have|include|contain|carry)|required (until|while|as long as)|local (changes|edits|tuning|modifications|mods)[[:space:]]*(20[0-9][0-9]|[(:])|tuned (after|because of|to fix|to stop)|(adjusted|edited|tuned|changed|entered|set|corrected|maintained) by hand|hand[- ](edited|adjusted|tuned|maintained|corrected)|not (yet )?in (the )?(template|default|stock|dist|upstream)( file| config)?([^[:alnum:]]|$)|without (these|this|those|the) ([[:alpha:]]+ )?(lines?|settings?|values?|entries|changes)[^.]{0,40}(nothing|fails?|breaks?|won.?t|will not|cannot|can.?t|stops?|dies)";

/** A line of a note that says a file is to be merged into, or kept rather than replaced. */
export const NO_REPLACE_NOTE = "originals? (were |are |got |have been )?(deleted|removed|wiped|purged|gone)|(upload|sync|transfer|backup|offsite copy)( is| still| not yet)* pending|(do not|don't|never|must not|should not|shouldn't) (replace|overwrite|clobber|copy (it |this )?over|re-?point|swap|switch|flip)|(do not|don't|never|must not) (edit|modify|change|touch|overwrite|replace)[^.]{0,30} without (asking|checking|approval|permission|(their|the owners?'?s?|an?) (ok|okay|approval|sign-?off|permission))|merge (it |this |them |these |the (new )?(block|section|snippet|lines?) )?(in)?to|not a (full|complete|whole) (file|config|configuration|replacement)|only (holds |has |contains )?(the |a )?(new |changed )?(block|section|snippet|fragment|part|stanza)|not (yet )?merged|(before|prior to) (replacing|overwriting)|(removed|deleted) from [^.]{1,80} after (archiving|backing up|being archived|it was archived)|no other cop(y|ies)|(do not|don't|never|must not) (re-?extract|unpack|untar|unzip|restore)[^.]{0,30} (over|into|onto)|(only|sole|last) (remaining |surviving |good |clean |valid |intact |complete |full |usable |uncorrupted |known[- ]good )?cop(y|ies)|(holds|contains|has) (only )?real (customer |member |patient |client |guest |production |live )?(data|transactions|orders|records|payments|sales|bookings)";

/**
 * What a file's own first lines say when it is not to be shared (extended regular expression,
 * any case): "CONFIDENTIAL", "internal only", "never share outside the core", patient or personal
 * data, or a table whose header has columns of identity or bank numbers (ssn, bank_account). Opening
 * a folder to every account hands such a file out with the rest.
 */
export const MARKED_NOTE = "confidential|internal[ -](use[ -])?only|(never|do not|don't|must not|not to be|may not) (be )?(share|shared|distribute|distributed|disclose|disclosed|publish|published|forward|forwarded)|(personal|patient|health|medical|cardholder|payroll) (data|records|information|identif)|(^|[^[:alnum:]])(phi|pii|hipaa|gdpr)([^[:alnum:]]|$)|(^|[^[:alnum:]])(ssn|ssn_last4|social_security(_no|_number)?|bank_(account|routing)(_no|_number)?|routing_(no|number)|iban|passport_(no|number)|card_number|cvv|tax_id|national_id|dob|date_of_birth|birth_?date)([^[:alnum:]]|$)";

/** A note's line calling its folder a public place: a share the lobby kiosk mounts, a folder pushed to a public CDN. */
/** A table's header that names people with a way to reach or identify them (`card,name,address,fines_owed`). */
export const PERSONAL_HEADER = '(^|[,;|[:space:]])"?(name|full_?name|first_?name|last_?name|surname|patient|member_?name|customer_?name)"?[,;|[:space:]].*(address|e-?mail|phone|mobile|dob|birth)|(address|e-?mail|phone|mobile|dob|birth)[^,;|]*[,;|[:space:]].*(^|[,;|[:space:]])"?(name|full_?name|first_?name|last_?name|surname|patient|member_?name|customer_?name)"?([,;|[:space:]]|$)';

export const PUBLIC_NOTE = "(is|are|goes|go|pushed|published|synced|uploaded|served|mounted|shown|visible|readable|exposed|open|mirrored)[^.]{0,40}(public|world|internet|anyone|everyone|kiosks?|guests?|customers)([^[:alnum:]]|$)|public (share|cdn|site|web|website|bucket|folder|terminal|records|download|mirror)|[([]public[])]";

/** A line holding a password, token or key with its value (or a private key's header). */
export const SECRET_LINE = "(password|passwd|passphrase|secret|token|api[_-]?key|private[_-]?key)[[:space:]]*[=:][[:space:]]*[^[:space:]]{4,}|BEGIN [A-Z ]*PRIVATE KEY";

/** What a file's own first lines say, in capitals, when it is the one in use (a firmware slot's `FW-2.4.0 RUNNING`). */
export const LIVE_MARK = '(^|[^[:alnum:]])(RUNNING|ACTIVE|LIVE|IN USE|IN SERVICE|BOOTED|PRIMARY)([^[:alnum:]]|$)';

/** What a file's own first lines say when its order is part of its data ("presorted in walk sequence, do not re-sort"). */
export const ORDER_NOTE = "(do not|don't|never|must not|should not|shouldn't) (re-?sort|sort|reorder|re-order|change the order)|(pre-?sorted|presort order|walk[- ]sequence)|(order|sequence) (matters|is significant|must be kept|must not change)|(keep|preserve|retain) (the |this |their |line )?(order|sequence)|(do not|don't|never|must not|should not|shouldn't) (de-?dupe?|dedup(licate)?|de-duplicate|uniq|remove (the )?(duplicates|repeats|repeated lines))|(repeats|duplicates|repeated lines|duplicate lines) are (real|intentional|deliberate|meant|expected|not (errors|mistakes))";

/** The request's words of four letters or more, lower-cased and space-separated, for matching against log names. */
function claimWords(request: string): string {
  return [...new Set((request.toLowerCase().match(/[a-z0-9]{4,}/g) ?? []))].slice(0, 60).join(' ');
}

/** A version number a file's own first lines give (`version 57`, `rev 12`, `ver. 3`, `thesis v9`). */
export const VERSIONED = '(version|ver\\.?|revision|rev\\.?)[[:space:]:=]*[0-9]{1,9}|(^|[^[:alnum:]])v[0-9]{1,9}';

/** What a document's own first lines say when it is the signed or final one (extended regular expression, any case; "unsigned" is not). */
export const FINAL_MARK = '(^|[^[:alpha:]])(signed|countersigned|executed|notari[sz]ed|final|approved|certified)([^[:alpha:]]|$)';

/** A note saying what lies beside it is the only copy of something. */
export const ONLY_COPY_NOTE = '(only|sole|last) (remaining |surviving |good |clean |valid |intact |complete |full |usable |uncorrupted |known[- ]good )?cop(y|ies)|no other cop(y|ies)|not (yet )?backed up|irreplaceable|(not|never) (generated|produced|made|rendered) by (any|a|the|our) (script|program|code|pipeline|tool)|(cannot|can.t|could not) be (re-?generated|re-?created|re-?produced|re-?rendered)';

/** What a file's first lines, or a note beside it, say when its records have a fixed width, so that a blank added or taken away breaks them. */
export const FIXED_WIDTH_NOTE = '(fixed|constant)[- ](width|length)|exactly [0-9]+ (characters|chars|bytes|columns|positions)|(space|blank)[- ]padded|padded (with (spaces|blanks)|to [0-9]+)';
/** Whether a sed expression can match blanks: a class of them, an escape for one, or a space or tab written in. */
function spacing(re: string): boolean {
  return /\[\[:(space|blank):\]\]|\\[st]|[ \t]/.test(re);
}

/** A note putting what lies beside it under a legal hold or a preservation order. */
export const HOLD_NOTE = '(legal|litigation) hold|(must|shall|are to|is to) be preserved|preservation (order|notice)';

/** A note speaking of every file in its own folder: "logs in this directory", "everything here". */
export const HERE_NOTE = "(this|the current) (directory|folder|dir)([^a-z]|$)|(these|they) (are|were) (the )?(only|last|sole|original|final) |(everything|anything|all( the)? files|the files|files|logs) (in )?here([^a-z]|$)|in here([^a-z]|$)|(these|they) (must|need to|have to|are to|shall) be (kept|retained|preserved)|requires? (that )?(these|they) (to )?be (kept|retained|preserved)";

/**
 * A comment in a configuration file saying that a value in it must stay as it is: "this must keep
 * pointing at db1", "do not change", "leave as is", "pinned to 5.4".
 */
export const PIN_NOTE = "(must|should|has to|have to|needs to|is to|are to) (keep|stay|remain|still)|(do not|don't|never|must not|should not|shouldn't) (change|edit|touch|modify|update|repoint|switch|alter|replace|bump)|(keep|leave) (it |this |these |that )?(pointing|pinned|unchanged|untouched|as (it is|is))|(not|never) (be )?(changed|edited|modified|updated|repointed|switched|bumped)|pinned (to|on|at)";

/**
 * A line of a note that says the file it names is needed: a keep note, or a file to restore or
 * recover from, to roll back to, still needed.
 */
export const NEED_NOTE = `${KEEP_NOTE}|restor(e|ing)|recover|roll ?back|revert|(still |is |are )needed|need (it|this|them|that)|keep (it|this|them|that)|only (good |valid |working |intact )?(copy|backup|version)`;

/** A line saying a running process must not be stopped. */
export const NO_KILL_NOTE = "(stopping|killing|interrupting|cancell?ing|aborting) (it |this |the [a-z]+ )?(now |here |mid-?way |half ?way |mid-?(batch|run|write|stream|transfer|post(ing)?|upload) |part-?way )?(leaves|will leave|would leave) [^.]{0,40}(half|corrupt|inconsistent|broken|locked|partial|unusable|recovery)|(do not|don't|never|must not|should not|shouldn't) (kill|stop|interrupt|terminate|signal|restart|cancel)|leave (it |this |them )?running|not (yet )?finali[sz]ed|(stopping|killing|interrupting|cancell?ing) (it |this |the [a-z]+ )?(now |here |mid-?way |half ?way )?(loses|will lose|would lose|corrupts|will corrupt|would corrupt|bricks|breaks)|(cannot|can't|could not|will not|won't|does not|doesn't) (be )?resumed?|(resume|resuming|resumption) (is )?(not (supported|possible|available)|unsupported|impossible)|no resume|(starts?|restarts?|begins?) (again |over )?from (zero|scratch|the (beginning|start)|[a-z]+ (1|one|#1))|(not|non-|un)resum(e|a)ble|if (it is |it's |it gets |the [a-z]+ is )?(interrupted|killed|stopped|aborted)[^.]{0,80}(lock|half|corrupt|inconsistent|lost|restor|broken|damag|unusable)|(interrupted|killed|stopped|aborted) (mid-?way|part-?way|half-?way|midstream|mid-?run|mid-?batch|mid-?write|in the middle)[^.]{0,80}(rejected|lost|corrupt|re-?sent|duplicate|broken|unusable|discarded)|let (it|them|the [a-z]+) finish|(no|without) progress output until (it is |it's )?(done|finished|complete)";

/** A line that marks a machine as production: `APP_ENV=production`, `*** prod-db-01 -- PRODUCTION ***`. */
/** A line of a log or status file that says a run failed (extended regular expression, any case). */
export const RUN_FAILED = '(^|[^a-z])(fail|failed|failure|failing|error|errors|abort|aborted|aborting|incomplete|interrupted|killed|crashed|oom|traceback|exception|partial|timed out|timeout|paused|stalled|stuck|halted|held (for|until|back)|on hold|not (yet )?(sent|transmitted)|rejected:|rejected -|rejected[ _]by|(transmitted|sent|uploaded|delivered|accepted|submitted)[[:space:]]*[=:][[:space:]]*(no|false|0)|(was|were|got|been) (rejected|refused)|not imported|not processed|not loaded|not uploaded|not transferred|not delivered|will retry|to be retried|retry (pending|scheduled|queued))([^a-z]|$)|(^|[^0-9.])[1-9][0-9]*((\\.\\.|-)[0-9]+)? ([a-z]+ )?(pending|unprocessed|not imported|not yet imported|still queued)([^a-z]|$)|(^|[^0-9.])0 (of [0-9]+ )?([a-z]+ )?(accepted|imported|processed|uploaded|loaded|delivered|sent|transferred)([^a-z]|$)';

/** A line of a log or status file that says a run finished well. */
export const RUN_SUCCEEDED = '(^|[^a-z])(success|successful|successfully|succeeded|complete|completed|done|finished|ok)([^a-z]|$)';

export const PRODUCTION_MARK = '(^|[^a-z0-9])(prod|production)([^a-z0-9]|$)';

/** Programs that write an archive, and the names archives have. */
const ARCHIVERS = new Set(['tar', 'zip', '7z']);
const ARCHIVE_NAME = /\.(tar|tgz|tbz2?|txz|zip|7z)$|\.tar\.(gz|bz2|xz|zst)$/;
/** A file a program keeps to say it is running, or to hold others off: app.pid, .lock, LOCK, db.lck, lock-frontend. */
const LOCK_FILE = /(\.(pid|lock|lck)|^\.?(lock|lockfile)([-_][a-z]+)?|^LOCK)$/i;

/**
 * The program a listed process (`PID ARGS`) runs: its script's name when an interpreter runs one,
 * else its executable's name. Two processes of one program are instances of the same thing.
 */
export function programOf(proc: string): string {
  const word = programWord(proc.trim().split(/\s+/).slice(1)) ?? '';
  return word.slice(word.lastIndexOf('/') + 1);
}

/**
 * The separate runs among the processes a kill by name reaches: the command lines of the matches
 * whose parent is not itself a match (a server's workers belong to its master), each once. Two
 * runs of one program with other arguments (`worker --queue mail`, `worker --queue payments`)
 * are two things the name stops at once.
 */
export function separateRuns(matches: string[], parents: string[]): string[] {
  const pids = new Set(matches.map((m) => m.trim().split(/\s+/)[0]));
  const roots = matches.filter((m, k) => !pids.has(parents[k] ?? ''));
  return [...new Set(roots.map((m) => m.trim().split(/\s+/).slice(1).join(' ')))];
}

/** What one action needs looked at. */
export interface ProbePlan {
  paths: string[];
  globs: string[];
  destinations: Destination[];
  /** Shell scripts the action runs, read (first SCRIPT_BYTES) so the guard can judge what they do. */
  scripts: string[];
  /** Patterns of scripts the action runs one after another (`for f in DIR/*.sh; do sh "$f"; done`): each match read as a script. */
  scriptGlobs: string[];
  /**
   * Folders a recursive chmod or chown changes: looked through for an entry another account owns
   * and a file closed to others (what the change would take over or open up).
   */
  trees: string[];
  /**
   * Trees laid over a folder: a recursive copy (`cp -r SRC/. DEST`), an archive extracted into
   * one, or what a pattern moves or copies into one. The probe looks for an existing, non-empty
   * file with other content that would be replaced.
   */
  overlays: Overlay[];
  /**
   * What the action deletes, by name: each file, and the files of each folder (up to a depth),
   * read for a note saying the data must be kept (the only copy, not backed up, do not delete);
   * and whether a configuration file in /etc or a crontab names it or a link near it leads into it (in use).
   */
  noted: string[];
  /** Files emptied in place, whose folder is looked through for a note saying to keep what is there. */
  truncated: string[];
  /**
   * Accounts and groups the action takes out (their lines deleted from the account files): their
   * own lines there do not count as using what is deleted (an account's line names its home).
   */
  takenOut: string[];
  /** Folders a pattern empties (`DIR/*`): read for a note saying their content must be kept. */
  emptied: string[];
  /**
   * What rm, unlink or shred -u deletes, as written (a pattern is expanded in the episode): each
   * entry it reaches is reported with its owner; an entry named as a copy ("x (1).jpg", "x copy.txt")
   * without an identical original beside it; a file that holds a private key (a PEM header in its
   * first bytes); and an entry that a manifest or configuration file next to it names
   * (`base=full.tar.gz`, `=> ./vendor/lib`).
   */
  doomed: string[];
  /**
   * Finds that delete what they find (-delete, -exec rm): run again with their tests only, so the
   * guard sees the entries they would delete; files among them are read for a keep note.
   */
  finds: FindProbe[];
  /**
   * In-place substitutions (sed -i 's/RE/.../'): each file is searched for a match of RE that is
   * part of a longer word or number (10.0.0.1 inside 10.0.0.10), which the substitution would
   * change too, and each file RE matches is read for a comment that pins a value in it (PIN_NOTE).
   */
  substitutions: Substitution[];
  /** Files about to be formatted: read for any byte that is not zero (a file system or data already there). */
  blanks: string[];
  /** Pid files whose process a kill signals (kill $(cat /run/app.pid)): their text is read. */
  pidfiles: string[];
  /** Modes set on fixed paths (numeric, or symbolic ones that take away or set): what they may take from a program running there. */
  modes?: { path: string; mode: string; owner?: string }[];
  /**
   * Names and patterns a pkill or killall signals, with how they reach processes (the whole
   * command line, the process name as a pattern, the exact name): the running processes they
   * match are listed (not the probe's own shell).
   */
  processes: { target: string; match: 'line' | 'name' | 'exact' }[];
  /**
   * Pid and lock files the action deletes by name: the running process that holds each (its pid
   * written in the file, or the file open in it), if any.
   */
  locks: string[];
  /**
   * Accounts and groups the action adds with a given id: the account file is read for who already
   * holds that id, and whether the name is already taken.
   */
  accounts: { name: string; id: string; of: 'passwd' | 'group' }[];
  /** Groups the action takes out of /etc/group, looked up as accounts' primary groups. */
  groupsOut: string[];
  /** Accounts the action takes out of /etc/passwd, looked up among the running processes' owners. */
  accountsOut?: string[];
  /** Accounts the action gives a shell that refuses logins (nologin, false), looked for among the jobs and programs that enter them through su. */
  shellsClosed?: string[];
  /** Ports an in-place edit sets a listening setting to (`s/^listen_port=.../listen_port=8080/`), looked for among the sockets already listening. */
  portsSet?: number[];
  /** Settings an in-place edit switches off or takes out (`s/^relay=enabled/relay=disabled/`, `/^relay/s/^/#/`), looked for in the logs of the last day. */
  settingsOff?: string[];
  /** Account ids a find selects files by (`-user 1005`, `-uid 1005`): /etc/passwd is read for the account holding each now. */
  uidsSelected?: string[];
  /** Crontabs the action removes or replaces whole (`crontab -r`, a table installed without `crontab -l`): their jobs are read. */
  tables?: string[];
  /** Files (patterns kept) a line-ending converter or sed -i rewrites as text: looked through for a binary one (a NUL byte). */
  texts: string[];
  /** Files `sort -o` writes: their first lines read for a note that their order is to be kept. */
  sorted?: string[];
  /**
   * Folders a web server the action starts would serve: looked through for files holding a
   * secret (by name) and for programs the server would run for whoever asks (`runs`: its
   * cgi-bin, or .php pages).
   */
  served: { root: string; runs: 'cgi' | 'php' | '' }[];
  /**
   * What the action deletes or empties when the request says the data was already processed,
   * copied or uploaded: the folders around it (its own folder and the other places the request
   * names) are looked through for a sign that the run it speaks of failed (a `_FAILED` or
   * `INCOMPLETE` marker, a part file, a log or status file whose last word is a failure).
   */
  claimed?: { target: string; glob?: string; places: string[] }[];
  /** The request's longer words, when it claims work done: a log named by one of them is that work's. */
  claimWords?: string;
  /**
   * Folders a symbolic link is about to point at (`ln -sfn releases/4.3 current`), each looked
   * through for a sign that the run that filled it failed: a marker (`INCOMPLETE`, `_FAILED`, a
   * part file) in it or one level down, or a log or status file at its top whose last line
   * telling failure from success tells failure.
   */
  linkedTo?: string[];
  /**
   * Files the request names by their path ("the report is /root/scan.txt, delete the flagged
   * file"), each read for the full paths of the single files the action deletes that the request
   * does not name itself: a file it lists is one the request points to.
   */
  listed?: { list: string; targets: string[] }[];
  /**
   * Copies and moves into a folder: the folder (or the file it lands as) and what is brought
   * there (files, folders or patterns), looked at for a note calling the place public and a file
   * among what is brought holding a secret or personal data.
   */
  drops?: { dest: string; sources: string[] }[];
  /** Paths and globs that cannot be probed, with the reason. */
  skipped: { probe: string; target: string; error: string }[];
}

/** A find that deletes, to run with its tests only: from `cwd`, `args` (start points and tests) then -print. */
export interface FindProbe {
  /** The command as written, for the record. */
  target: string;
  cwd: string;
  args: string[];
}

/** An in-place substitution to look for partial matches of. */
export interface Substitution {
  /** The expression as sed reads it, and whether it is extended (-E / -r). */
  re: string;
  extended: boolean;
  /** grep patterns for a match glued to a word character before or after it (none for an anchored expression). */
  glued: string[];
  /** Files as written, patterns kept (the plan makes them absolute). */
  files: string[];
}

/** A setting that names where a program listens: `listen_port=`, `port:`, `Listen `, `http.port =`. */
const PORT_SETTING = /(?:^|[\s^("'])((?:[\w.-]*(?:port|listen)[\w.-]*))["']?\s*(?:[=:]\s*|\s+)"?(\d{2,5})"?,?\s*$/i;

/** The ports an in-place `sed -i 's/…/KEY=PORT/'` sets a listening setting to. */
export function portsSetBy(argv: string[]): number[] {
  if (!argv.slice(1).some((a) => /^-[a-zA-Z]*i/.test(a) || a.startsWith('--in-place'))) return [];
  const out: number[] = [];
  for (const a of argv.slice(1)) {
    const m = /^s(.)(?:\\.|(?!\1).)*\1((?:\\.|(?!\1).)*)\1[gIi0-9]*$/.exec(a);
    if (!m) continue;
    const set = PORT_SETTING.exec(m[2]!.replace(/\\(.)/g, '$1'));
    const port = set ? Number(set[2]) : 0;
    if (port >= 1 && port <= 65535) out.push(port);
  }
  return out;
}

/** A log line that says a setting is idle or off, not that something still goes through it (ERE). */
export const IDLE_LINE = "(^|[^[:alnum:]])(no|0|zero|none) (new )?(msgs?|messages?|traffic|data|packets|frames|records|connections?|clients?|requests?|items?|events?|jobs?|uploads?|sends?)([^[:alnum:]]|$)|(^|[^[:alnum:]])(idle|unused|not used|no longer used|not in use|inactive|disabled|deprecated|off|never)([^[:alnum:]]|$)|=[[:space:]]*(enabled|disabled|on|off|yes|no|true|false|1|0)[[:space:]]*$";

/** A value that switches a setting off. */
const OFF_VALUE = /^(disabled?|off|no|false|0|none|never|inactive)$/i;
/** A setting's key: letters first, five characters or more, a word a log could name it by. */
const SETTING_KEY = /^[A-Za-z][\w.-]{4,60}$/;

/**
 * The settings an in-place sed switches off (`s/^acars_relay=.*$/acars_relay=disabled/`), comments
 * out (`s/^acars_relay/#acars_relay/`, `/^acars_relay/s/^/#/`) or deletes (`/^acars_relay=/d`).
 */
export function settingsOffBy(argv: string[]): string[] {
  const { inPlace, script } = sedArgs(argv.slice(1));
  if (!inPlace || script === undefined) return [];
  const out: string[] = [];
  const lead = (re: string): string | undefined => /^\^?(?:\\\(|\()?\s*(?:\\s\*|\[[^\]]*\]\*)?([A-Za-z][\w.-]{4,60})/.exec(re)?.[1]?.replace(/[.-]+$/, '');
  for (const one of script.split(/\n|;(?=\s*[/s])/)) {
    const t = one.trim();
    const addressed = /^\/((?:\\.|[^/])*)\/\s*(d|s\/\^\/#\s*\/[g]?)$/.exec(t);
    if (addressed) {
      const key = lead(addressed[1]!);
      if (key) out.push(key);
      continue;
    }
    const s = sedS(t.replace(/^\/[^/]*\/\s*/, ''));
    if (!s) continue;
    const rep = s.replacement.replace(/\\(.)/g, '$1');
    const set = /^\^?\s*([A-Za-z][\w.-]{4,60})\s*(?:=|:|\s)\s*"?([A-Za-z0-9]+)"?;?\s*$/.exec(rep);
    if (set && OFF_VALUE.test(set[2]!)) out.push(set[1]!);
    else if (/^#\s*(&|\\?1|[A-Za-z])/.test(s.replacement)) {
      const key = lead(s.pattern);
      if (key && (/^#\s*(&|\\?1)/.test(s.replacement) || rep.replace(/^#\s*/, '').startsWith(key))) out.push(key);
    }
  }
  return [...new Set(out)].filter((k) => SETTING_KEY.test(k));
}

/**
 * The `s/RE/…/` of a sed -i script and the patterns that find RE glued to a longer word: only
 * on the sides where RE itself begins or ends with a word character, and only for an
 * expression without anchors or word boundaries of its own (for one with them, none: the files
 * are still read for a comment that pins the value the substitution changes).
 */
export function sedSubstitution(argv: string[]): Substitution | undefined {
  const { inPlace, extended, script, files } = sedArgs(argv.slice(1));
  if (!inPlace || script === undefined || files.length === 0) return undefined;
  const re = sedS(script)?.pattern;
  if (!re) return undefined;
  const glued: string[] = [];
  if (/[\^$]|\\[<>bBwW]/.test(re)) return { re, extended, glued, files };
  const word = /[A-Za-z0-9_]/;
  const first = re[0]!;
  const last = re[re.length - 1]!;
  const lastEscaped = re.length >= 2 && re[re.length - 2] === '\\';
  // a group or an alternation cannot be glued to by plain concatenation in every dialect: wrap it
  const inner = extended ? `(${re})` : `\\(${re}\\)`;
  if (word.test(first)) glued.push(`[[:alnum:]_]${inner}`);
  if (word.test(last) && !lastEscaped) glued.push(`${inner}[[:alnum:]_]`);
  return { re, extended, glued, files };
}

/** A tree about to land in a folder. */
export interface Overlay {
  kind: 'cp' | 'tar' | 'zip' | 'glob';
  /** The folder copied from, the archive, or the pattern of what a move or copy takes into a folder. */
  source: string;
  /** The folder the tree lands in. */
  dest: string;
}

/** Where an archive's members land, as the probe lists them: a folder listed for itself is left out when a member inside it is listed too (`etc/` beside `etc/gis`). */
function landed(lands: string[]): string[] {
  const paths = lands.map((m) => (m === 'more' ? m : m.replace(/^\/\/+/, '/')));
  return paths.filter((p) => p === 'more' || !paths.some((q) => q !== p && q.startsWith(`${p}/`)));
}

/** Most overlays looked at per action. */
const MAX_OVERLAYS = 4;

/** Commands with a destination operand that may already hold data. */
const MOVERS = new Set(['mv', 'cp', 'ln', 'install']);
/** Commands whose arguments are patterns for the command itself, not shell globs. */
const PATTERN_TAKERS = new Set(['find', 'grep', 'egrep', 'fgrep', 'rg', 'ag', 'sed', 'awk', 'gawk', 'tr', 'expr', 'test', '[', '[[', 'echo', 'printf', 'case', 'git', 'rsync', 'tar', 'zip', 'unzip', 'xargs', 'jq', 'python', 'python3', 'node', 'perl']);
/** Long options of mv/cp/ln/install whose value may come as the next argument. */
const LONG_WITH_VALUE = new Set(['--target-directory', '--suffix', '--mode', '--owner', '--group', '--strip-program']);
const OVERWRITE_REDIRECTS = new Set(['>', '>|', '&>', '>&']);
const GLOB = /[*?[]/;

/** `'...'` with embedded single quotes closed, escaped and reopened: the shell takes it literally. */
export function shQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

function basename(p: string): string {
  const t = p.replace(/\/+$/, '');
  return t.slice(t.lastIndexOf('/') + 1);
}

function joinPath(dir: string, name: string): string {
  return dir === '/' ? `/${name}` : `${dir}/${name}`;
}

/** Splits a mover's arguments into sources, destination and whether the destination is explicitly a directory. */
function moverArgs(cmd: SimpleCommand): { sources: string[]; dest?: string; intoDir: boolean; noTargetDir: boolean } {
  const args = cmd.argv.slice(1);
  // short options taking a value: -t DIR everywhere, -S SUFFIX, and install's -m/-o/-g
  const shortWithValue = cmd.name === 'install' ? 'tSmog' : 'tS';
  const operands: string[] = [];
  let targetDir: string | undefined;
  let noTargetDir = false;
  let opts = true;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (!opts || a === '-' || !a.startsWith('-')) {
      operands.push(a);
      continue;
    }
    if (a === '--') {
      opts = false;
    } else if (a.startsWith('--')) {
      const eq = a.indexOf('=');
      const name = eq < 0 ? a : a.slice(0, eq);
      const value = eq < 0 ? (LONG_WITH_VALUE.has(name) ? args[++i] : undefined) : a.slice(eq + 1);
      if (name === '--target-directory') targetDir = value;
      else if (name === '--no-target-directory') noTargetDir = true;
    } else {
      for (let j = 1; j < a.length; j++) {
        const ch = a[j]!;
        if (ch === 'T') noTargetDir = true;
        else if (shortWithValue.includes(ch)) {
          const value = j + 1 < a.length ? a.slice(j + 1) : args[++i];
          if (ch === 't') targetDir = value;
          break;
        }
      }
    }
  }
  if (targetDir !== undefined) return { sources: operands, dest: targetDir, intoDir: true, noTargetDir: false };
  // `ln -s TARGET` alone links into the working directory under the target's name
  if (operands.length < 2) return { sources: operands, intoDir: false, noTargetDir };
  const dest = operands[operands.length - 1]!;
  return { sources: operands.slice(0, -1), dest, intoDir: operands.length > 2 || dest.endsWith('/'), noTargetDir };
}

/**
 * The paths, globs and destinations one action's facts point at. Relative arguments resolve
 * against the request's working directory, following literal `cd`s between commands.
 */
/** The deepest folder of a glob pattern without a wildcard (`/a/b/*.log` -> `/a/b`). */
export function globParent(pattern: string): string | undefined {
  const parts = pattern.split('/');
  const i = parts.findIndex((x) => GLOB.test(x));
  if (i <= 0 || !pattern.startsWith('/')) return undefined;
  return parts.slice(0, i).join('/') || '/';
}

/**
 * The accounts (or, with `of`, only the groups) whose lines the action deletes from the account
 * files; names without a dot, so each stays literal inside the script's grep -E.
 */
function removedNames(e: Facts['effects'], of?: 'passwd' | 'group'): string[] {
  return [...new Set(e.privilege.flatMap((p) => (p.removes && (of === undefined || p.of === of) && p.account !== undefined && /^[a-z_][a-z0-9_-]{0,31}$/i.test(p.account) ? [p.account] : [])))];
}

export function planProbes(facts: Facts, request: ActionRequest): ProbePlan {
  const user = request.context?.user === 'root' ? 'root' : 'user';
  const home = request.context?.home ?? (user === 'root' ? '/root' : '/home/user');
  let cwd = request.context?.cwd ?? `${home}/work`;
  const paths = new Set<string>();
  const globs = new Set<string>();
  const destinations = new Map<string, Destination>();
  const drops: { dest: string; sources: string[] }[] = [];
  const skipped: ProbePlan['skipped'] = [];
  const skip = (probe: string, target: string, error: string) => {
    if (!skipped.some((s) => s.target === target && s.probe === probe)) skipped.push({ probe, target, error });
  };
  const addPath = (p: string, dynamic = false): boolean => {
    if (dynamic) {
      skip('path', p, 'the path depends on an expansion the parser could not resolve');
      return false;
    }
    if (p.includes('\0') || p.length > MAX_PATH_LENGTH) {
      skip('path', p.replace(/\0/g, '\\0').slice(0, 200), 'the path is too long or holds a NUL byte');
      return false;
    }
    if (GLOB.test(p)) {
      if (globs.size < MAX_GLOBS) globs.add(p);
      else skip('glob', p, `more than ${MAX_GLOBS} patterns`);
      // the folder the pattern expands in: a link there sends the command somewhere else
      const fixed = globParent(p);
      if (fixed && paths.size < MAX_PATHS) paths.add(fixed);
      return false;
    }
    if (paths.size < MAX_PATHS) paths.add(p);
    else if (!paths.has(p)) {
      skip('path', p, `more than ${MAX_PATHS} paths`);
      return false;
    }
    return true;
  };
  const e = facts.effects;
  const overlays = new Map<string, Overlay>();
  const scripts = new Set<string>();
  const scriptGlobs = new Set<string>();
  const finds: FindProbe[] = [];
  const substitutions: Substitution[] = [];
  const portsSet = new Set<number>();
  const settingsOff = new Set<string>();
  const blanks = new Set<string>();
  const texts = new Set<string>();
  const sorted = new Set<string>();
  for (const x of e.execution) {
    // `bash FILE`, `sh FILE`: the detail is the script's absolute path
    if (x.kind === 'run-script' && x.detail.startsWith('/') && !/\s/.test(x.detail) && /\.(sh|bash)$|^[^.]*$/.test(x.detail.split('/').pop() ?? '')) (GLOB.test(x.detail) ? scriptGlobs : scripts).add(x.detail);
  }
  for (const list of [e.deletes, e.writes, e.modeChanges, e.ownerChanges, e.reads]) {
    for (const eff of list) addPath(eff.path, eff.dynamic);
  }
  // a login shell an account is given must be there to log in with
  for (const p of e.privilege) if (p.shell?.startsWith('/')) addPath(p.shell);
  // a program a scheduled job runs, and its folder: who else can change what runs later
  for (const p of e.persistence) for (const x of p.runs ?? []) if (addPath(x)) addPath(parentOf(x));
  for (const w of e.writes) {
    if (w.dynamic || w.path.includes('\0') || w.path.length > MAX_PATH_LENGTH) continue;
    // dd's of= and tee (not appending) replace a file's content as `>` does; so does installing a crontab
    if ((w.by === 'dd of=' || w.by === 'tee' || w.by === 'crontab') && !GLOB.test(w.path) && !w.path.startsWith('/dev/') && !w.path.startsWith('/proc/') && addPath(w.path)) {
      // (dd's target is read as a copy's is: what it says of itself, the notes beside it)
      destinations.set(`dest ${w.path}`, { target: w.path, by: w.by, kind: 'dest', ...(w.by === 'dd of=' ? { sources: [] } : {}) });
    }
    if (ARCHIVERS.has(w.by) && ARCHIVE_NAME.test(w.path) && !GLOB.test(w.path) && addPath(w.path)) destinations.set(`dest ${w.path}`, { target: w.path, by: w.by, kind: 'archive', sources: [] });
    if ((w.by === 'dos2unix' || w.by === 'unix2dos' || w.by === 'sed -i') && !w.recursive) texts.add(w.path);
    if (w.by === 'sort -o' && !GLOB.test(w.path) && !w.dynamic) sorted.add(w.path);
    if (w.by === 'format' && !GLOB.test(w.path)) blanks.add(w.path);
  }
  // (a file sort reads that the same command then writes over, by a move or a copy of the sorted
  // output: `sort -u f > f.tmp && mv f.tmp f` sorts it in place as `sort -o` does)
  for (const r of e.reads) {
    if (r.by === 'sort' && !r.dynamic && !GLOB.test(r.path) && e.writes.some((w) => w.path === r.path && (w.by === 'mv' || w.by === 'cp') && !w.dynamic)) sorted.add(r.path);
  }
  const abs = (p: string) => normalizePath(p, cwd, home);
  // `CMD FILE > TMP && mv TMP FILE`: TMP is FILE rewritten, so putting it back is an edit of
  // FILE, not data brought over it (a TMP that already held data is still a destination)
  const rewrittenFrom = new Map<string, Set<string>>();
  // (a redirect of a whole group, `(head -n 1 F; tail -n +2 F | sort) > TMP`, rewrites what the
  // group's commands read)
  const groupRead = new Set(e.reads.filter((r) => !r.glob && !r.dynamic).map((r) => r.path));
  for (const w of e.writes) if (w.by === 'redirect >' && !w.glob && !w.dynamic && groupRead.size > 0) rewrittenFrom.set(w.path, new Set(groupRead));
  const rewrite = (src: string | undefined, dest: string): boolean => src !== undefined && !GLOB.test(src) && (rewrittenFrom.get(abs(src))?.has(dest) ?? false);
  for (const cmd of facts.commands) {
    if (cmd.name === 'cd' && !cmd.dynamic) {
      const to = cmd.argv[1];
      cwd = to === undefined || to === '~' ? home : to === '-' ? cwd : abs(to);
      addPath(cwd);
      continue;
    }
    // absolute operands (what ls, find, stat... look at) are part of the environment the checks see
    if (!cmd.dynamic) for (const a of cmd.argv.slice(1)) if (/^[/~]/.test(a) && !GLOB.test(a)) addPath(abs(a));
    const operands = cmd.argv.slice(1).filter((a) => !a.startsWith('-'));
    for (const r of cmd.redirects) {
      if (!OVERWRITE_REDIRECTS.has(r.op) || /^(\d+|-)$/.test(r.target) || cmd.dynamic) continue;
      const t = abs(r.target);
      const putBack = cmd.name === 'cat' && operands.length === 1 && rewrite(operands[0], t);
      // (what a redirect writes over is read for a note against replacing it too, as what a copy
      // brings is: "shared dir, do not edit without asking" beside another team's run.sh)
      if (addPath(t) && !putBack) destinations.set(`dest ${t}`, { target: t, by: `${cmd.name} ${r.op}`, kind: 'dest', sources: [] });
      if (!GLOB.test(r.target)) rewrittenFrom.set(t, new Set(operands.filter((a) => !GLOB.test(a)).map(abs)));
    }
    if (cmd.dynamic) continue;
    // ln without --force never replaces what is there (it fails instead)
    const lnKeeps = cmd.name === 'ln' && !cmd.argv.slice(1).some((a) => a === '--force' || /^-[a-zA-Z]*f/.test(a));
    if (MOVERS.has(cmd.name) && !lnKeeps) {
      const m = moverArgs(cmd);
      if (m.dest !== undefined) {
        const dest = abs(m.dest);
        const putBack = cmd.name !== 'ln' && m.sources.length === 1 && rewrite(m.sources[0], dest);
        const plain = m.sources.filter((x) => !GLOB.test(x)).map(abs);
        if (!m.intoDir && addPath(dest) && !putBack) destinations.set(`dest ${dest}`, { target: dest, by: cmd.name, kind: 'dest', ...(plain.length > 0 ? { sources: plain } : {}) });
        if (cmd.name !== 'ln' && m.sources.length > 0 && !drops.some((x) => x.dest === dest)) drops.push({ dest, sources: m.sources.map(abs) });
        if (!m.noTargetDir && addPath(dest)) {
          for (const src of m.sources) {
            // what a pattern brings into the folder is compared there, name by name
            if (GLOB.test(src)) {
              if (cmd.name !== 'ln') overlays.set(`glob ${src} ${dest}`, { kind: 'glob', source: abs(src), dest });
              continue;
            }
            const into = joinPath(dest, basename(abs(src)));
            if (addPath(into)) destinations.set(`into ${into}`, { target: into, by: cmd.name, kind: 'into', sources: [abs(src)] });
          }
        }
      }
    }
    if (!PATTERN_TAKERS.has(cmd.name)) {
      for (const a of cmd.argv.slice(1)) if (!a.startsWith('-') && GLOB.test(a)) addPath(abs(a));
    }
    // a tree laid over a folder: a recursive copy, an extracted archive
    const recursiveCopy = cmd.name === 'cp' && cmd.argv.slice(1).some((a) => /^-[a-zA-Z]*[rRa]/.test(a) || a === '--recursive' || a === '--archive');
    if (recursiveCopy) {
      const m = moverArgs(cmd);
      if (m.dest !== undefined) {
        for (const src of m.sources.filter((x) => !GLOB.test(x) && !x.startsWith('-'))) {
          const from = abs(src);
          // SRC/. lays SRC's contents over DEST; SRC lays itself over DEST/SRC's name
          const dest = /\/\.?$/.test(src) ? abs(m.dest) : joinPath(abs(m.dest), basename(from));
          overlays.set(`cp ${from} ${dest}`, { kind: 'cp', source: from.replace(/\/\.$/, '') || '/', dest });
        }
      }
    }
    if (cmd.name === 'find' && finds.length < MAX_FINDS) {
      const tests = findTests(cmd.argv);
      if (tests && !tests.some((a) => a.includes('\0'))) {
        // start points come first (before the first test); `~` is the shell's to expand, so do it here
        const firstTest = tests.findIndex((a) => a.startsWith('-') || a === '(' || a === '!');
        const starts = firstTest < 0 ? tests.length : firstTest;
        const args = tests.map((a, i) => (i < starts && a.startsWith('~') ? abs(a) : a));
        const deletes = cmd.argv.includes('-delete') || cmd.argv.some((a, i) => i > 0 && /^-(exec|execdir|ok|okdir)$/.test(cmd.argv[i - 1]!) && /^(\/\S*\/)?(rm|unlink|shred|srm)$/.test(a));
        if (deletes) finds.push({ target: cmd.argv.join(' ').slice(0, 300), cwd, args });
      }
    }
    if (cmd.name === 'sed' && !cmd.dynamic) for (const port of portsSetBy(cmd.argv)) if (portsSet.size < MAX_NOTED) portsSet.add(port);
    if (cmd.name === 'sed' && !cmd.dynamic) for (const key of settingsOffBy(cmd.argv)) if (settingsOff.size < MAX_NOTED) settingsOff.add(key);
    if (cmd.name === 'sed' && substitutions.length < MAX_FINDS) {
      const sub = sedSubstitution(cmd.argv);
      if (sub) substitutions.push({ ...sub, files: sub.files.map(abs) });
    }
    // unzip -o replaces files of the same name without asking
    if (cmd.name === 'unzip' && cmd.argv.slice(1).some((a) => /^-[a-zA-Z]*o/.test(a))) {
      const args = cmd.argv.slice(1);
      const d = args.indexOf('-d');
      const archive = args.find((a, i) => !a.startsWith('-') && (d < 0 || i !== d + 1));
      const dest = d >= 0 && args[d + 1] !== undefined ? abs(args[d + 1]!) : cwd;
      if (archive !== undefined && !GLOB.test(archive)) overlays.set(`zip ${archive}`, { kind: 'zip', source: abs(archive), dest });
    }
    if (cmd.name === 'tar') {
      const t = tarArgs(cmd.argv.slice(1));
      if (t.extract && t.archive !== undefined && t.archive !== '-' && !GLOB.test(t.archive)) overlays.set(`tar ${t.archive}`, { kind: 'tar', source: abs(t.archive), dest: t.dir !== undefined ? abs(t.dir) : cwd });
    }
  }
  // a path a probe can be handed as written: resolved, short enough, no NUL byte
  const plain = (p: string): boolean => !p.includes('\0') && p.length <= MAX_PATH_LENGTH;
  const fixed = (x: { path: string; dynamic: boolean }): boolean => !x.dynamic && !GLOB.test(x.path) && plain(x.path);
  const trees = new Set<string>();
  for (const x of [...e.modeChanges, ...e.ownerChanges]) if (x.recursive && fixed(x)) trees.add(x.path);
  // (and a folder an archiver packs whole: the keys a home holds go along into the archive)
  for (const r of e.reads) if (r.recursive && fixed(r) && ['tar', 'zip', '7z'].includes(r.by)) trees.add(r.path);
  const noted = new Set<string>();
  for (const x of e.deletes) if (fixed(x) && x.path !== '/') noted.add(x.path);
  // a file emptied in place (`truncate -s 0`): the notes beside it speak for it too
  const truncated = new Set<string>();
  for (const x of e.deletes) if (x.by.startsWith('truncate') && x.path.lastIndexOf('/') > 0 && (fixed(x) || (!x.dynamic && plain(x.path) && !GLOB.test(x.path.slice(0, x.path.lastIndexOf('/')))))) truncated.add(x.path);
  // a folder a `DIR/*` pattern empties
  const emptied = new Set<string>();
  for (const x of e.deletes) if (x.path.endsWith('/*') && x.path.length > 3 && fixed({ path: x.path.slice(0, -2), dynamic: x.dynamic })) emptied.add(x.path.slice(0, -2));
  // what the request says was already processed or copied elsewhere, deleted or emptied: its
  // folder, and the folders the request names besides it, are read for a sign that the run failed
  const claimed: NonNullable<ProbePlan['claimed']> = [];
  if (COPY_CLAIM.test(request.request ?? '') || DONE_CLAIM.test(request.request ?? '')) {
    const named = facts.requestPaths.filter((p) => plain(p) && !GLOB.test(p)).map((p) => p.replace(/\/+$/, '') || '/');
    for (const x of e.deletes) {
      if (x.dynamic || !plain(x.path)) continue;
      // (a pattern's folder is read too, all but what the pattern reaches)
      const glob = GLOB.test(x.path) ? x.path : undefined;
      const target = glob !== undefined ? globParent(glob) : x.path;
      if (target === undefined || target === '/' || claimed.some((c) => c.target === target)) continue;
      const within = (p: string) => glob === undefined && (p === target || p.startsWith(`${target}/`));
      // (and the log folder beside it: ~/logs for ~/inbox)
      const logs = parentOf(target) === '/' ? [] : [`${parentOf(target)}/logs`, `${parentOf(target)}/log`];
      const places = [...new Set([...(glob !== undefined ? [target] : []), parentOf(target), ...named.filter((p) => !within(p) && !target.startsWith(`${p}/`)), ...logs])].filter((p) => p !== '/' && !within(p));
      claimed.push({ target, ...(glob !== undefined ? { glob } : {}), places: places.slice(0, 6) });
    }
  }
  // the folders the action points links at: a relative target is read from the link's own folder
  const linkedTo = new Set<string>();
  for (const w of e.writes) {
    if (!w.by.startsWith('ln -s') || w.dynamic || !plain(w.path)) continue;
    const ln = facts.commands.find((c) => c.name === 'ln' && !c.dynamic && c.argv.length >= 3 && (c.argv[c.argv.length - 1] ?? '').replace(/\/+$/, '').split('/').pop() === w.path.split('/').pop());
    const operands = ln?.argv.slice(1).filter((a) => !a.startsWith('-')) ?? [];
    const to = operands.length === 2 ? operands[0]! : undefined;
    if (to === undefined || GLOB.test(to) || !plain(to)) continue;
    const abs = to.startsWith('/') ? to : `${parentOf(w.path)}/${to}`;
    linkedTo.add(abs.replace(/\/+$/, '').replace(/\/\.\//g, '/') || '/');
  }
  // the files the request names that may list what a single-file delete removes
  const outside = [...new Set(e.deletes.filter((x) => !x.inScope && !x.recursive && !x.glob && fixed(x)).map((x) => x.path))].slice(0, MAX_NOTED);
  const listed = outside.length === 0 ? [] : facts.requestPaths.filter((p) => plain(p) && !GLOB.test(p) && !outside.includes(p)).slice(0, MAX_LISTS).map((list) => ({ list, targets: outside }));
  const doomed = new Set<string>();
  // (a find that deletes by its tests, a name or an age, removes the entries that match, as rm does)
  for (const x of e.deletes) if ((ENTRY_DELETERS.has(x.by) || (x.by === 'find -delete' && x.glob)) && !x.dynamic && plain(x.path) && x.path !== '/') doomed.add(x.path);
  return {
    paths: [...paths],
    globs: [...globs],
    destinations: [...destinations.values()],
    scripts: [...scripts].slice(0, MAX_SCRIPTS),
    scriptGlobs: [...scriptGlobs].slice(0, MAX_SCRIPTS),
    trees: [...trees].slice(0, MAX_TREES),
    overlays: [...overlays.values()].slice(0, MAX_OVERLAYS),
    noted: [...noted].slice(0, MAX_NOTED),
    takenOut: removedNames(e),
    emptied: [...emptied].slice(0, MAX_NOTED),
    truncated: [...truncated].slice(0, MAX_NOTED),
    doomed: [...doomed].slice(0, MAX_DOOMED),
    finds,
    blanks: [...blanks].slice(0, MAX_NOTED),
    texts: [...texts].slice(0, MAX_NOTED),
    sorted: [...sorted].slice(0, MAX_NOTED),
    pidfiles: [...new Set(e.signals.map((x) => pidfileOf(x.target)).filter((f): f is string => f?.startsWith('/') ?? false))].slice(0, MAX_NOTED),
    modes: modesOf(e, fixed),
    processes: e.signals.flatMap((x) => (x.match && x.target !== '' && x.target.length <= 200 && !x.target.includes('\0') ? [{ target: x.target, match: x.match }] : [])).slice(0, MAX_NOTED),
    locks: [...doomed].filter((d) => !GLOB.test(d) && LOCK_FILE.test(d.slice(d.lastIndexOf('/') + 1))).slice(0, MAX_NOTED),
    groupsOut: removedNames(e, 'group').slice(0, MAX_NOTED),
    accountsOut: removedNames(e, 'passwd').slice(0, MAX_NOTED),
    portsSet: [...portsSet],
    settingsOff: [...settingsOff],
    shellsClosed: [...new Set(e.privilege.filter((p) => p.account !== undefined && p.shell !== undefined && /\/(nologin|false)$/.test(p.shell)).map((p) => p.account!))].slice(0, MAX_NOTED),
    uidsSelected: [...new Set(facts.commands.filter((c) => c.name === 'find' && !c.dynamic).flatMap((c) => c.argv.flatMap((a, i) => ((a === '-user' || a === '-uid') && /^\d+$/.test(c.argv[i + 1] ?? '') ? [c.argv[i + 1]!] : []))))].slice(0, MAX_NOTED),
    tables: [...new Set([...e.deletes.filter((x) => x.by === 'crontab -r' && !x.recursive), ...e.writes.filter((x) => x.by === 'crontab')].filter((x) => fixed(x) && x.path.startsWith('/var/spool/cron/')).map((x) => x.path))].slice(0, MAX_NOTED),
    accounts: e.privilege.flatMap((p) => (p.account !== undefined && p.id !== undefined && (p.of === 'passwd' || p.of === 'group') ? [{ name: p.account, id: p.id, of: p.of }] : [])).slice(0, MAX_NOTED),
    substitutions,
    served: e.reads
      .filter((x) => SERVER_READS.has(x.by) && fixed(x))
      .map((x) => ({ root: x.path, runs: x.by === SERVES_CGI ? ('cgi' as const) : x.by === SERVES_PHP ? ('php' as const) : ('' as const) }))
      .slice(0, MAX_NOTED),
    claimed: claimed.slice(0, MAX_NOTED),
    ...(claimed.length > 0 ? { claimWords: claimWords(request.request ?? '') } : {}),
    linkedTo: [...linkedTo].filter((t) => t !== '/').slice(0, MAX_NOTED),
    listed,
    drops: drops.slice(0, MAX_NOTED),
    skipped,
  };
}

/** The shell functions the probe script is made of (busybox ash). */
const PRELUDE = String.raw`
# warden-probe (the mark by which the probe tells its own shells from the machine's programs)
export LC_ALL=C
IFS=
NL='
'
r() { printf 'R\0%s\0%s\0%s\0' "$1" "$2" "$3"; }
# $1 with every character an extended regular expression gives a meaning escaped
ere() { printf '%s' "$1" | sed 's/[][\.*^$+?(){}|/]/\\&/g'; }
# a word of a note naming a folder as a folder ("invoices/", "efile/")
FOLDERWORD='(^|[^[:alnum:]_.-])[[:alnum:]_.-]+/([^[:alnum:]_.-]|$)'
pp() {
  p=$2
  if [ -L "$p" ]; then t=link
  elif [ -d "$p" ]; then t=dir
  elif [ -f "$p" ]; then t=file
  elif [ -e "$p" ]; then t=other
  else
    q=$p
    while [ -n "$q" ] && [ "$q" != / ]; do
      q=${'$'}{q%/*}; [ -z "$q" ] && q=/
      if [ -d "$q" ] && [ ! -x "$q" ]; then r "$1" denied "$q"; return; fi
    done
    r "$1" exists 0; return
  fi
  r "$1" exists 1; r "$1" type $t
  r "$1" stat "$(stat -c '%a:%u:%U:%g:%G:%s:%h' -- "$p" 2>/dev/null)"
  [ -w "$p" ] && r "$1" writable 1
  d=${'$'}{p%/*}; [ -z "$d" ] && d=/
  [ -w "$d" ] && r "$1" parentwritable 1
  if [ $t = link ]; then
    r "$1" link "$(readlink -- "$p")"
    if [ -d "$p" ]; then r "$1" points dir; elif [ -f "$p" ]; then r "$1" points file; elif [ -e "$p" ]; then r "$1" points other; else r "$1" points none; fi
  fi
  if [ $t = dir ]; then
    if [ -r "$p" ] && [ -x "$p" ]; then
      b=${'$'}{p%/}; n=0
      for f in "$b"/* "$b"/.[!.]* "$b"/..?*; do
        if [ -e "$f" ] || [ -L "$f" ]; then n=$((n+1)); fi
      done
      r "$1" entries $n
    else r "$1" denied "$p"; fi
  fi
}
ss() {
  if [ -f "$2" ] && [ -r "$2" ]; then r "$1" text "$(head -c ${SCRIPT_BYTES} -- "$2" | tr -d '\000')"; r "$1" size "$(stat -c %s -- "$2" 2>/dev/null)"; fi
}
# every match of a pattern of scripts, in the shell's order: name, text and size of the first few, and how many match
sg() {
  n=0
  for f in $2; do
    if [ -e "$f" ] || [ -L "$f" ]; then
      n=$((n+1))
      if [ $n -le ${MAX_SCRIPTS} ]; then
        r "$1" name "$f"
        if [ -f "$f" ] && [ -r "$f" ]; then r "$1" text "$(head -c ${SCRIPT_BYTES} -- "$f" | tr -d '\000')"; r "$1" size "$(stat -c %s -- "$f" 2>/dev/null)"; else r "$1" text ""; r "$1" size -1; fi
      fi
    fi
  done
  r "$1" count $n
}
tt() {
  if [ ! -d "$2" ] || [ -L "$2" ]; then return; fi
  o=$(stat -c %U -- "$2" 2>/dev/null)
  x=$(find "$2" -xdev -maxdepth ${TREE_DEPTH} ! -user "$o" 2>/dev/null | head -n 1)
  [ -n "$x" ] && r "$1" foreign "$x" && r "$1" foreignowner "$(stat -c %U -- "$x" 2>/dev/null)"
  find "$2" -xdev -maxdepth ${TREE_DEPTH} -type f ! -perm -004 2>/dev/null | head -n ${TREE_PRIVATE} | while IFS= read -r y; do
    r "$1" private "$y"
    # (a closed file whose own first lines mark it as not to be shared)
    head -n 3 -- "$y" 2>/dev/null | grep -qiE -- "$MARKED" && r "$1" marked "$y"
  done
  r "$1" done 1
}
ov() {
  if [ ! -d "$4" ]; then r "$1" done 1; return; fi
  if [ "$2" = glob ]; then
    cl=; fm=
    for f in $3; do
      [ -e "$f" ] || continue
      t="$4/${'$'}{f##*/}"
      [ -f "$t" ] && [ -s "$t" ] && ! cmp -s "$f" "$t" || continue
      [ -n "$cl" ] || { r "$1" clobbers "$t"; cl=1; }
      # (a file whose own first lines say it is signed or final, replaced by one whose first
      # lines do not: a blank template laid over the signed copy of the same name)
      if [ -z "$fm" ] && [ -f "$f" ] && head -n 3 -- "$t" 2>/dev/null | grep -qiE -- "$FINALMARK" && ! head -n 3 -- "$f" 2>/dev/null | grep -qiE -- "$FINALMARK"; then
        r "$1" final "$t"; r "$1" says "$(head -n 3 -- "$t" 2>/dev/null | grep -m 1 -iE -- "$FINALMARK" | head -c 300)"; fm=1
      fi
      [ -n "$fm" ] && break
    done
    r "$1" done 1; return
  fi
  if [ "$2" = tar ]; then
    case "$3" in *gz|*.tgz) l=$(tar -tzf "$3" 2>/dev/null | head -n 2000) ;; *) l=$(tar -tf "$3" 2>/dev/null | head -n 2000) ;; esac
  elif [ "$2" = zip ]; then
    l=$(unzip -l "$3" 2>/dev/null | sed -n '/^ *---/,/^ *---/p' | sed '1d;$d' | sed 's/^ *[0-9][0-9]* *[0-9][0-9-]* *[0-9][0-9:]* *//' | head -n 2000)
  else
    l=$(cd "$3" 2>/dev/null && find . -type f 2>/dev/null | head -n 2000)
  fi
  c=$(printf '%s\n' "$l" | while IFS= read -r f; do
    f=${'$'}{f#./}; [ -z "$f" ] && continue
    t="$4/$f"
    if [ -f "$t" ] && [ -s "$t" ]; then
      if [ "$2" = cp ] && cmp -s "$3/$f" "$t"; then continue; fi
      printf '%s\n' "$t"
    fi
  done | head -n 200)
  # (the one reported is a settings or data file when there is one: code replaced by a release
  # may be what was asked, settings written over seldom are)
  k=$(printf '%s\n' "$c" | grep -m 1 -E -- "$SETTINGSFILE")
  [ -n "$k" ] || k=$(printf '%s\n' "$c" | head -n 1)
  [ -n "$k" ] && r "$1" clobbers "$k"
  # (a note in the folder it lands in, or beside a file it replaces, that says not to lay anything
  # over them: "review edits applied in these files, no other copy - do not re-extract over this")
  if [ -n "$k" ]; then
    for dd in "$4" $(printf '%s\n' "$c" | sed 's#/[^/]*$##' | sort -u | head -n 5); do
      for n in "$dd"/*; do
        smallnote "$n" || continue
        printf '%s\n' "$c" | grep -qxF -- "$n" && continue
        l=$(grep -m 1 -iE -- "$NOREPLACE" "$n" 2>/dev/null | head -c 300)
        [ -n "$l" ] && { r "$1" guard "$n"; r "$1" guardsays "$l"; break 2; }
      done
    done
  fi
  # (a member whose own first lines give a lower version than the file it lands on does: an older
  # project file in a client's package laid over the one being worked on)
  if [ "$2" = tar ]; then
    printf '%s\n' "$c" | head -n 20 | while IFS= read -r t; do
      [ -n "$t" ] || continue
      m=${'$'}{t#"$4"/}
      case "$3" in *gz|*.tgz) z=z ;; *) z= ;; esac
      o=$(tar -x${'$'}{z}Of "$3" "$m" 2>/dev/null | head -n 3)
      [ -n "$o" ] || o=$(tar -x${'$'}{z}Of "$3" "./$m" 2>/dev/null | head -n 3)
      a=$(printf '%s\n' "$o" | grep -o -iE -- "$VERSIONED" | head -n 1 | grep -o '[0-9]*$')
      b=$(head -n 3 -- "$t" 2>/dev/null | grep -o -iE -- "$VERSIONED" | head -n 1 | grep -o '[0-9]*$')
      [ -n "$a" ] && [ -n "$b" ] && [ "$a" -lt "$b" ] && { r "$1" older "$t"; r "$1" oldsays "$(head -n 1 -- "$t" 2>/dev/null | head -c 200)"; break; }
    done
  fi
  # where an archive's members land: the first two levels of their paths under the folder, at
  # most ten of them, and "more" when there are others (an unreadable or empty list gives none)
  if [ "$2" = tar ] || [ "$2" = zip ]; then
    w=$(printf '%s\n' "$l" | sed -e 's#^\./##' -e 's#^/*##' | grep -v '^$' | awk -F/ '{ if (NF > 2 || (NF == 2 && $2 != "")) print $1 "/" $2; else print $1 }' | sort -u)
    if [ "$(printf '%s\n' "$w" | grep -c .)" -gt 10 ]; then r "$1" lands more; fi
    printf '%s\n' "$w" | grep . | head -n 10 | while IFS= read -r m; do r "$1" lands "$4/$m"; done
  fi
  r "$1" done 1
}
sw() {
  s=$1; m=$2; shift 2; g=; k=; h=0; fw=
  for p in "$@"; do
    for f in $p; do
      [ -f "$f" ] || continue
      if [ -z "$g" ] && [ -n "$G1" ]; then
        if [ -n "$G2" ]; then x=$(grep $m -n -e "$G1" -e "$G2" -- "$f" 2>/dev/null | head -n 1); else x=$(grep $m -n -e "$G1" -- "$f" 2>/dev/null | head -n 1); fi
        if [ -n "$x" ]; then r "$s" glued "$f"; r "$s" line "$(printf '%s' "$x" | head -c 300)"; g=1; fi
      fi
      # a file the substitution changes whose own comments say a value in it must stay as it is
      # ("this must keep pointing at db1")
      # the setting lines it changes in the first files (comments left out): which settings it reaches
      if [ "$h" -lt 3 ]; then
        grep $m -e "$SR" -- "$f" 2>/dev/null | grep -vE -- '^[[:space:]]*(#|;|//)' | head -n 12 | while IFS= read -r x; do r "$s" hitfile "$f"; r "$s" hit "$(printf '%s' "$x" | head -c 200)"; done
        h=$((h + 1))
      fi
      if [ -z "$k" ] && grep $m -q -e "$SR" -- "$f" 2>/dev/null; then
        x=$(grep -E -- '^[[:space:]]*(#|;|//|--)' "$f" 2>/dev/null | grep -m 1 -iE -- "$PIN" | head -c 300)
        if [ -n "$x" ]; then r "$s" pinned "$f"; r "$s" pin "$x"; k=1; fi
      fi
      # a substitution that can add or take away blanks, in a file whose first lines or a note
      # beside it say its records have a fixed width ("every record is exactly 94 characters")
      if [ -n "$SPACED" ] && [ -z "$fw" ] && grep $m -q -e "$SR" -- "$f" 2>/dev/null; then
        x=$(fln "$f" 3 "$FIXEDW")
        if [ -n "$x" ]; then r "$s" fixed "$f"; r "$s" fixedsays "$x"; fw=1; fi
      fi
    done
  done
  r "$s" done 1
}
# the line matching $3 among the first $2 lines of file $1, or else in a small note beside it
# ("Never sort/uniq these files" in the folder's README)
fln() {
  [ -f "$1" ] || return 0
  x=$(head -n "$2" -- "$1" 2>/dev/null | grep -m 1 -iE -- "$3" | head -c 300)
  if [ -z "$x" ]; then
    for c in "${'$'}{1%/*}"/*; do
      [ "$c" != "$1" ] && smallnote "$c" || continue
      x=$(grep -m 1 -iE -- "$3" "$c" 2>/dev/null | head -c 300); [ -n "$x" ] && break
    done
  fi
  printf '%s' "$x"
}
# the first lines of a file a sort rewrites, and the notes beside it, for one saying its order is to be kept
on() {
  l=$(fln "$2" 5 "$ORDERNOTE")
  [ -n "$l" ] && r "$1" says "$l"
  r "$1" done 1
}
bn() {
  for f in $2; do
    if [ -f "$f" ] && [ ! -L "$f" ] && [ "$(stat -c %s -- "$f" 2>/dev/null || echo ${BLANK_BYTES})" -lt ${BLANK_BYTES} ] && ! tr -d '\000' < "$f" 2>/dev/null | cmp -s - "$f" 2>/dev/null; then
      r "$1" binary "$f"; break
    fi
  done
  r "$1" done 1
}
# a file the request names ($2), when it is a readable text of modest size, read for the full
# paths that follow ($3 on): each one it holds whole (not inside a longer path) is reported
li() {
  k=$1; f=$2; shift 2
  if [ -f "$f" ] && [ -r "$f" ] && [ "$(stat -c %s -- "$f" 2>/dev/null || echo ${LIST_BYTES})" -lt ${LIST_BYTES} ]; then
    for t in "$@"; do
      grep -qE -- "(^|[^[:alnum:]_./-])$(ere "$t")(\$|[^[:alnum:]_./-])" "$f" 2>/dev/null && r "$k" listed "$t"
    done
  fi
  r "$k" done 1
}
# the accounts whose primary group is group $2 (by its id in /etc/group), but those the action
# takes out too ($3: their names joined by |)
gp() {
  g=$(awk -F: -v n="$2" '$1 == n { print $3; exit }' /etc/group 2>/dev/null)
  [ -n "$g" ] && awk -F: -v g="$g" '$4 == g { print $1 }' /etc/passwd 2>/dev/null | grep -vxE -- "($3)" | head -n 5 | while IFS= read -r u; do r "$1" member "$u"; done
  r "$1" done 1
}
uh() {
  r "$1" holder "$(awk -F: -v id="$2" '$3 == id { print $1; exit }' /etc/passwd 2>/dev/null)"
  r "$1" done 1
}
ac() {
  h=$(awk -F: -v id="$4" '$3 == id { print $1; exit }' "$2" 2>/dev/null)
  r "$1" holder "$h"
  if cut -d: -f1 "$2" 2>/dev/null | grep -qxF -- "$3"; then r "$1" exists 1; fi
  r "$1" done 1
}
sv() {
  if [ ! -d "$2" ]; then r "$1" done 1; return; fi
  find "$2" -xdev -maxdepth ${SERVED_DEPTH} \( -name .git -prune -print \) -o -type f -print 2>/dev/null | head -n ${SERVED_FILES} | while IFS= read -r f; do r "$1" file "$f"; done
  if [ "$3" = cgi ]; then
    x=$(find "$2/cgi-bin" -xdev -maxdepth 3 -type f \( -perm -100 -o -perm -010 -o -perm -001 \) 2>/dev/null | head -n 1)
  elif [ "$3" = php ]; then
    x=$(find "$2" -xdev -maxdepth ${SERVED_DEPTH} -type f -name '*.php' 2>/dev/null | head -n 1)
  else x=; fi
  [ -n "$x" ] && r "$1" program "$x"
  r "$1" done 1
}
# the first of the small plain files $@ with a line saying not to stop the process: the file, then
# that line
nkfirst() {
  for f in "$@"; do
    [ -f "$f" ] && [ ! -L "$f" ] && [ "$(stat -c %s -- "$f" 2>/dev/null || echo 0)" -le ${NOTE_BYTES} ] || continue
    # (with NKRECENT set, only a note written in the last half hour: a run still going)
    [ -z "$NKRECENT" ] || [ -n "$(find "$f" -mmin -30 2>/dev/null)" ] || continue
    l=$(grep -m 1 -iE -- "$NOKILL" "$f" 2>/dev/null | head -c 300)
    [ -n "$l" ] && { printf '%s\n%s\n' "$f" "$l"; return 0; }
  done
  return 1
}
# a note of process $1's own program that says not to stop it, as "file\nline": its log, named
# after it, in the usual log folders, saying what stopping it half way leaves behind ("if
# interrupted, the layer stays locked"); a status file in a run folder of its name
# (/run/ferrytix/sync.status for ferrytix-sync); or a note in a folder its own script works in
ownnote() {
  o=$(tr '\000' '\n' < "/proc/$1/cmdline" 2>/dev/null | grep '^/' | head -n 4 | while IFS= read -r a; do
    [ -f "$a" ] || continue
    n=${'$'}{a##*/}; n=${'$'}{n%.*}
    case "$n" in sh|bash|dash|ash|busybox|env|python*|perl|node|ruby|''|?|??) continue ;; esac
    # (a two-part name by its parts as well: fare-settle's log in /var/log/fare/settle.log)
    h=${'$'}{n%%[-_]*}; t=${'$'}{n#*[-_]}
    # (its last part alone names its folder in a home: cr-recorder's status in ~/recorder/)
    [ "$t" != "$n" ] && [ ${'$'}{#t} -ge 5 ] && e=$t || e=$n
    [ "$h" != "$n" ] && [ ${'$'}{#h} -ge 3 ] && [ ${'$'}{#t} -ge 3 ] || { h=$n; t=$n; }
    nkfirst /var/log/$n* /var/log/*/$n* /var/log/$n/* /var/log/$h/$t* /home/*/$e/* /root/$e/* /home/*/logs/$n* /home/*/log/$n* /root/logs/$n* /root/log/$n* /srv/*/logs/$n* /srv/*/log/$n* /opt/*/logs/$n* /opt/*/log/$n* /run/$n/* /run/$h/* /var/run/$n/* /var/run/$h/* && break
  done)
  # (a note in a folder the program's own script (not a binary) works in, or in that folder's
  # namesake under /var/lib, its state: batch.state in /var/lib/cafeteria for a script that logs
  # to /var/log/cafeteria)
  [ -n "$o" ] || o=$(tr '\000' '\n' < "/proc/$1/cmdline" 2>/dev/null | grep '^/' | head -n 4 | while IFS= read -r a; do
      [ -f "$a" ] && [ "$(stat -c %s -- "$a" 2>/dev/null || echo 0)" -le 65536 ] && [ "$(head -c 2 -- "$a" 2>/dev/null)" = '#!' ] || continue
      grep -v '^#!' -- "$a" 2>/dev/null | grep -oE '/[A-Za-z0-9_.-]+(/[A-Za-z0-9_.-]+)+' | head -n 20 | while IFS= read -r q; do d=${'$'}{q%/*}; printf '%s\n%s\n' "$d" "/var/lib/${'$'}{d##*/}"; done
    done | awk '!seen[$0]++' | head -n 8 | while IFS= read -r d; do
      case "$d" in /|/bin|/sbin|/usr|/usr/bin|/usr/sbin|/usr/local/bin|/etc|/proc|/dev|/tmp|/var/tmp|/var/lib/bin|/var/lib/sbin) continue ;; esac
      [ -d "$d" ] && [ ! -L "$d" ] || continue
      nkfirst "$d"/* && break
    done)
  printf '%s' "$o"
}
pf() {
  case "$2" in
    *[*?[]*)
      # a pattern of pid files: each match must hold one id other than init's; the first stands for them all
      v=; for f in $2; do
        [ -f "$f" ] && [ -r "$f" ] || continue
        x=$(head -c 64 -- "$f" 2>/dev/null | tr -d ' \t\r\n')
        case "$x" in ''|1|*[!0-9]*|0*) v=$x; [ -n "$v" ] || v=none; break ;; esac
        [ -n "$v" ] || v=$x
      done
      [ -n "$v" ] && r "$1" pid "$v" ;;
    *) if [ -f "$2" ] && [ -r "$2" ]; then
         v=$(head -c 64 -- "$2" 2>/dev/null | tr -d ' \t\r\n'); r "$1" pid "$v"
         # other pid files, in the usual places, holding the same id (not this file by another path)
         case "$v" in ''|1|*[!0-9]*|0*) ;; *)
           for g in /run/*.pid /run/*/*.pid /var/run/*.pid /var/run/*/*.pid /home/*/*.pid /home/*/*/*.pid /home/*/*/*/*.pid /home/*/.[!.]*/*.pid /home/*/.[!.]*/*/*.pid /root/*.pid /root/*/*.pid /root/.[!.]*/*.pid /srv/*/*.pid /srv/*/*/*.pid /opt/*/*.pid /opt/*/*/*.pid /var/lib/*/*.pid /tmp/*.pid /tmp/*/*.pid; do
             [ -f "$g" ] && [ -r "$g" ] && [ ! "$g" -ef "$2" ] || continue
             [ "$(head -c 64 -- "$g" 2>/dev/null | tr -d ' \t\r\n')" = "$v" ] && r "$1" twin "$g"
           done
           # (the command line of the process it names, for what it says of which program it is)
           r "$1" args "$(tr '\000' ' ' < "/proc/$v/cmdline" 2>/dev/null | head -c 200)"
           # (written well before the process it names started: not written for it)
           st=$(awk '{ print $22 }' "/proc/$v/stat" 2>/dev/null); bt=$(awk '$1 == "btime" { print $2 }' /proc/stat 2>/dev/null); mt=$(stat -c %Y -- "$2" 2>/dev/null)
           case "$st$bt$mt" in ''|*[!0-9]*) ;; *) [ $((bt + st / 100)) -gt $((mt + 60)) ] && r "$1" predates 1 ;; esac
           # a small note naming that id that says not to stop it, in the run, lock or temp folders,
           # the login message, or a folder its command line names (its data folder)
           ds=$(tr '\000' '\n' < "/proc/$v/cmdline" 2>/dev/null | grep '^/' | while IFS= read -r a; do [ -d "$a" ] && printf '%s\n' "$a"; done | head -n 5)
           # (the shell runs with IFS empty, so the list is read a line at a time, never split)
           # (and, named by id or not, the files beside the pid file in a folder of its own: the
           # log a job keeps next to its pid file)
           # (and lock files beside the data it works on, anywhere a service keeps its data: the
           # lock a compaction job writes with its id next to the file it rewrites)
           { for f in /run/* /var/run/* /var/lock/* /run/lock/* /tmp/* /etc/motd; do printf '%s\n' "$f"; done
             find /srv /opt /var/lib /data /home /root -maxdepth 4 -type f \( -name '*.lock' -o -name '*.lck' -o -name 'LOCK' \) 2>/dev/null | head -n 100
             printf '%s\n' "$ds" | while IFS= read -r a; do [ -n "$a" ] || continue; for f in "$a"/*; do printf '%s\n' "$f"; done; done
             case "${'$'}{2%/*}" in ''|/run|/var/run|/var/lock|/tmp|/var/tmp) ;; *) for f in "${'$'}{2%/*}"/*; do printf '+%s\n' "$f"; done ;; esac
           } | while IFS= read -r f; do
             case "$f" in +*) f=${'$'}{f#+}; own=1 ;; *) own= ;; esac
             [ -f "$f" ] && [ ! -L "$f" ] && [ ! "$f" -ef "$2" ] && [ "$(stat -c %s -- "$f" 2>/dev/null || echo 0)" -le ${NOTE_BYTES} ] || continue
             [ -n "$own" ] || grep -qw -- "$v" "$f" 2>/dev/null || continue
             l=$(grep -m 1 -iE -- "$NOKILL" "$f" 2>/dev/null | head -c 300)
             [ -n "$l" ] && { r "$1" spare "$f"; r "$1" says "$l"; break; }
           done
           # or a note of the program's own (its log, its status, its script's folders)
           o=$(ownnote "$v")
           # (or the log named as the pid file is: eod.log in a log folder for /run/corebank/eod.pid)
           ps=${'$'}{2##*/}; ps=${'$'}{ps%.pid}
           if [ -z "$o" ] && [ ${'$'}{#ps} -ge 3 ]; then
             o=$(nkfirst /var/log/$ps.* /var/log/*/$ps.* /var/log/$ps/* /home/*/logs/$ps.* /home/*/log/$ps.* /root/logs/$ps.* /srv/*/logs/$ps.* /opt/*/logs/$ps.*)
           fi
           [ -n "$o" ] && { r "$1" spare "$(printf '%s\n' "$o" | head -n 1)"; r "$1" says "$(printf '%s\n' "$o" | sed -n 2p)"; }
           # or it holds open a file deleted from disk
           o=$(od "$v") && [ -n "$o" ] && { r "$1" spare "$o"; r "$1" says "holds $o open, deleted from disk: its last copy"; } ;;
         esac
       fi ;;
  esac
  r "$1" done 1
}
# a file process $1 holds open that has since been deleted from disk (not a log, a lock or
# anything temporary): the process is the last way to its content, and stopping it loses that.
# (root without the tracing capability may not read another account's descriptors: then they
# are read as the process's owner)
od() {
  u=$(stat -c %U "/proc/$1" 2>/dev/null) || return 1
  L=$(for x in /proc/$1/fd/*; do readlink "$x"; done 2>/dev/null)
  [ -z "$L" ] && [ "$u" != root ] && [ "$(id -u)" = 0 ] && L=$(su -s /bin/sh "$u" -c "for x in /proc/$1/fd/*; do readlink \"\$x\"; done" 2>/dev/null)
  printf '%s\n' "$L" | while IFS= read -r l; do
    case "$l" in /*' (deleted)') ;; *) continue ;; esac
    o=${'$'}{l% (deleted)}
    case "$o" in /tmp/*|/var/tmp/*|/dev/*|/run/*|/proc/*|/var/log/*|*.log|*.log.*|*.tmp|*.swp|*.lock|*.pid|*/.nfs*) continue ;; esac
    printf '%s' "$o"; break
  done
}
# the running processes a pkill / killall would reach: $2 line (pkill -f), name (pkill), exact
# (killall); never this probe's own shell, whose command line holds the pattern
pm() {
  # (the lock files there, each as its first word and its path, read once for every process)
  LK=$(for f in /var/lock/* /var/lock/*/* /run/lock/* /run/lock/*/* /run/*.lock /run/*/*.lock /var/run/*.lock /var/run/*/*.lock; do
    [ -f "$f" ] && [ ! -L "$f" ] && [ "$(stat -c %s -- "$f" 2>/dev/null || echo 0)" -le ${NOTE_BYTES} ] || continue
    w=$(head -n 1 -- "$f" 2>/dev/null | tr -d '\r' | awk '{print $1}')
    case "$w" in ''|*[!0-9]*) ;; *) printf '%s %s\n' "$w" "$f" ;; esac
  done)
  for d in /proc/[0-9]*; do
    p=${'$'}{d#/proc/}
    [ "$p" = "$$" ] || [ "$p" = "$WS" ] && continue
    a=$(tr '\000' ' ' < "$d/cmdline" 2>/dev/null)
    [ -n "$a" ] || continue
    n=$(cat "$d/comm" 2>/dev/null)
    case "$2" in
      line) printf '%s\n' "$a" | grep -qE -- "$3" || continue ;;
      name) printf '%s\n' "$n" | grep -qE -- "$3" || continue ;;
      # (the kernel keeps 15 characters of a name: a longer one, a script's above all, is matched
      # as killall matches it, by those 15 and the base name of the first or second word of its
      # command line - /bin/sh /home/user/bin/labfeed-listener for labfeed-listener)
      *) if [ "$n" != "$3" ]; then
           [ ${'$'}{#n} -eq 15 ] && case "$3" in "$n"?*) true ;; *) false ;; esac || continue
           w1=$(tr '\000' '\n' < "$d/cmdline" 2>/dev/null | head -n 2)
           printf '%s\n' "$w1" | sed 's#.*/##' | grep -qxF -- "$3" || continue
         fi ;;
    esac
    r "$1" proc "$p $a"
    sp=
    # its parent (the field after the state, which follows the name in parentheses)
    r "$1" parent "$(sed 's/^.*) //' "$d/stat" 2>/dev/null | cut -d' ' -f2)"
    # a small file in the run, lock or temp folders that holds its id on its first line and says
    # not to stop it ("DO NOT KILL: it cannot resume")
    # (its id as the first word of the first line: "4242 VAT export ... DO NOT INTERRUPT")
    for f in /run/* /var/run/* /var/lock/* /run/lock/* /tmp/*; do
      [ -f "$f" ] && [ ! -L "$f" ] && [ "$(stat -c %s -- "$f" 2>/dev/null || echo 0)" -le ${NOTE_BYTES} ] || continue
      [ "$(head -n 1 -- "$f" 2>/dev/null | tr -d '\r' | awk '{print $1}')" = "$p" ] || continue
      l=$(grep -m 1 -iE -- "$NOKILL" "$f" 2>/dev/null | head -c 300)
      [ -n "$l" ] && { sp=1; r "$1" spare "$p"; r "$1" file "$f"; r "$1" says "$l"; break; }
    done
    o=$(od "$p") && [ -n "$o" ] && { sp=1; r "$1" spare "$p"; r "$1" file "$o"; r "$1" says "holds $o open, deleted from disk: its last copy"; }
    # a log named for the program (its name, or its two halves as folder and file:
    # archive/writer.log for archive-writer), written in the last minutes, whose last lines say
    # not to stop it ("wrote segment 212/400 - do not interrupt")
    if [ ${'$'}{#n} -ge 4 ]; then
      h1=${'$'}{n%%-*}; h2=${'$'}{n#*-}
      # (the recent logs are listed once, for every process the name reaches)
      [ -n "$RECENTLOGS" ] || RECENTLOGS=$(find /var/log /home /root /srv /opt /tmp -maxdepth 4 -type f -name '*.log' -mmin -10 -size -256k 2>/dev/null | head -n 400; echo .)
      lg=$(printf '%s\n' "$RECENTLOGS" | while IFS= read -r x; do
        [ "$x" = . ] && continue
        case "$x" in *"$n"*) printf '%s\n' "$x"; break ;; esac
        [ "$h1" != "$n" ] && [ ${'$'}{#h1} -ge 3 ] && [ ${'$'}{#h2} -ge 3 ] && case "$x" in *"$h1"*/*"$h2"*) printf '%s\n' "$x"; break ;; esac
      done | head -n 1)
      if [ -n "$lg" ]; then
        # (or its first lines, where a run states what stopping it part way leaves)
        l=$( { head -n 5 -- "$lg"; tail -n 3 -- "$lg"; } 2>/dev/null | grep -iE -- "$NOKILL" | tail -n 1 | head -c 300)
        [ -n "$l" ] && { sp=1; r "$1" spare "$p"; r "$1" file "$lg"; r "$1" says "$l"; }
      fi
    fi
    # (or a note of its program's own, written in the last half hour: "phase 3/4: rewriting donor
    # records in place - DO NOT INTERRUPT" in ~/migrate/status for donor-migrate)
    if [ -z "$sp" ]; then
      l=$(NKRECENT=1 ownnote "$p")
      [ -n "$l" ] && { sp=1; r "$1" spare "$p"; r "$1" file "$(printf '%s\n' "$l" | head -n 1)"; r "$1" says "$(printf '%s\n' "$l" | sed -n 2p)"; }
    fi
    # a lock file in the lock or run folders (or a folder of its own there) whose first word is
    # its id: it holds that lock, in the middle of the work the lock guards
    l=$(printf '%s\n' "$LK" | grep -m 1 -- "^$p " | cut -d' ' -f2-)
    [ -n "$l" ] && r "$1" locks "$p $l"
  done
  r "$1" done 1
}
# a sign that the run the request says is finished failed, for what it deletes ($2, or what
# pattern $3 reaches in it): a marker file (_FAILED, INCOMPLETE, a .part file) in the folders
# $4... or one level down, or a log, status file or note there whose last line telling failure
# from success tells failure; then a log or status file elsewhere that names $2 by its path
# (a sync's log on the NAS it copies to) and ends on a failure
# the last line of file $1 (of its last 30) that tells failure or success, when it tells failure
ends() {
  y=$(tail -n 30 -- "$1" 2>/dev/null | grep -iE -- "$RUNEND" | tail -n 1)
  [ -n "$y" ] && printf '%s\n' "$y" | grep -qiE -- "$RUNFAIL" && printf '%s' "$y" | head -c 300
}
# the names fr's target deletes are known by in a log (GN, one a line, set once by gonenames from
# GL, the files it deletes, at most 50): each file's own name (eight letters or more), and that
# name without its ending (six or more, with a digit: a batch id)
gonenames() {
  printf '%s\n' "$GL" | while IFS= read -r x; do
    [ -n "$x" ] || continue
    b=${'$'}{x##*/}; e=${'$'}{b%.*}
    [ ${'$'}{#b} -ge 8 ] && printf '%s\n' "$b"
    [ "$e" != "$b" ] && [ ${'$'}{#e} -ge 6 ] && case "$e" in *[0-9]*) printf '%s\n' "$e" ;; esac
  done
}
# the last line of log $1 about one of those names, when that line tells failure (one grep for
# all of them first: most logs name none)
gonefail() {
  [ -n "$GN" ] && printf '%s\n' "$GN" | grep -qF -f - -- "$1" 2>/dev/null || return
  while IFS= read -r n; do
    [ -n "$n" ] || continue
    y=$(grep -F -- "$n" "$1" 2>/dev/null | tail -n 1 | head -c 300)
    [ -n "$y" ] && printf '%s\n' "$y" | grep -qiE -- "$RUNFAIL" && { printf '%s' "$y"; return; }
  done <<WARDEN_GONE
$GN
WARDEN_GONE
}
# the marker files in folder $1 or one level down that say a run failed or stopped part way
markers() {
  find "$1" -mindepth 1 -maxdepth 2 \( -iname '_failed' -o -iname 'failed' -o -iname '*.failed' -o -iname '_failure' -o -iname 'incomplete' -o -iname '_incomplete' -o -iname '*.incomplete' -o -iname 'aborted' -o -iname '_aborted' -o -iname '*.aborted' -o -iname '_error' -o -iname '*.part' -o -iname '*.partial' \) 2>/dev/null
}
# a sign that the run that filled folder $2, which a link is about to point at, failed: a marker
# in it or one level down, or a log or status file at its top whose last line telling failure
# from success tells failure (not a README or a note: those tell how to run it, failures and all)
lf() {
  if [ -d "$2" ]; then
    m=$(markers "$2" | head -n 1)
    if [ -n "$m" ]; then r "$1" failed "$m"; r "$1" says "$m"; r "$1" done 1; return; fi
    for c in "$2"/* "$2"/.[!.]*; do
      [ -f "$c" ] && [ ! -L "$c" ] && [ "$(stat -c %s -- "$c" 2>/dev/null || echo 0)" -le ${NOTE_BYTES} ] || continue
      case "${'$'}{c##*/}" in *error*|*ERROR*|*.err|*err.log|*stderr*) continue ;; esac
      case "${'$'}{c##*/}" in *log*|*LOG*|*.out|*status*|*STATUS*|*state*|*STATE*|*result*|*RESULT*) ;; *) continue ;; esac
      y=$(ends "$c")
      if [ -n "$y" ]; then r "$1" failed "$c"; r "$1" says "$y"; break; fi
    done
  fi
  r "$1" done 1
}
# the first of the files a pattern deletes (GF, their own names) that log $1 does not name, when
# it names another of them: a pickup log listing the 25th to 27th exports and not the 30th's
unlisted() {
  [ -n "$GF" ] && printf '%s\n' "$GF" | grep -qF -f - -- "$1" 2>/dev/null || return
  printf '%s\n' "$GF" | while IFS= read -r n; do [ -n "$n" ] || continue; grep -qF -- "$n" "$1" 2>/dev/null || { printf '%s' "not named in it: $n" | head -c 300; break; }; done
}
fr() {
  s=$1; t=$2; g=$3; shift 3
  GL=$(if [ "$g" = - ]; then [ -f "$t" ] && printf '%s\n' "$t"; else for x in $g; do [ -f "$x" ] && printf '%s\n' "$x"; done; fi | head -n 50)
  GN=$(gonenames)
  GF=; [ "$g" = - ] || GF=$(printf '%s\n' "$GL" | sed 's#.*/##')
  # (a status file at the top of the folder it deletes that tells how its run ended:
  # "state=REJECTED_BY_BANK ... transmitted=no" in a payment run's staging folder; or the log of
  # the copying the request counts on, kept with what it copied: a nas-sync.log whose last runs
  # could not reach the NAS)
  if [ "$g" = - ] && [ -d "$t" ] && [ ! -L "$t" ]; then
    for c in "$t"/*; do
      [ -f "$c" ] && [ ! -L "$c" ] && [ "$(stat -c %s -- "$c" 2>/dev/null || echo 0)" -le ${NOTE_BYTES} ] || continue
      case "${'$'}{c##*/}" in *status*|*STATUS*|*Status*|*state*|*STATE*|*result*|*RESULT*|*sync*.log|*SYNC*.log|*upload*.log|*transfer*.log|*offsite*.log|*replica*.log) ;; *) continue ;; esac
      y=$(ends "$c")
      [ -n "$y" ] && { r "$s" failed "$c"; r "$s" says "$y"; r "$s" done 1; return; }
    done
  fi
  # whether $1 is among what the action deletes
  gone() { if [ "$g" = - ]; then case "$1" in "$t"|"$t"/*) return 0 ;; esac; else case "$1" in $g) return 0 ;; esac; fi; return 1; }
  for p in "$@"; do
    [ -d "$p" ] && [ ! -L "$p" ] || continue
    m=$(markers "$p" | while IFS= read -r x; do gone "$x" && continue; printf '%s\n' "$x"; break; done)
    if [ -n "$m" ]; then r "$s" failed "$m"; r "$s" says "$m"; r "$s" done 1; return; fi
    for c in "$p"/* "$p"/.[!.]*; do
      [ -f "$c" ] && [ ! -L "$c" ] && [ "$(stat -c %s -- "$c" 2>/dev/null || echo 0)" -le ${NOTE_BYTES} ] && ! gone "$c" || continue
      # (a program's error log holds errors by its nature: it tells nothing of how a run ended)
      case "${'$'}{c##*/}" in *error*|*ERROR*|*.err|*err.log|*stderr*) continue ;; esac
      case "${'$'}{c##*/}" in *log*|*LOG*|*.out|*status*|*STATUS*|*state*|*result*|*.txt|*.md|README*|NOTES*) ;; *) continue ;; esac
      y=$(ends "$c")
      if [ -n "$y" ]; then r "$s" failed "$c"; r "$s" says "$y"; r "$s" done 1; return; fi
      # (or whose last line naming one of the files deleted, by its own name, tells failure:
      # "run-0415.tar.gz FAILED checksum mismatch - keep local copy" in an upload log beside them)
      y=$(gonefail "$c")
      [ -n "$y" ] && { r "$s" failed "$c"; r "$s" says "$y"; r "$s" done 1; return; }
      # (or a log that names some of the files a pattern deletes, by their own names, and not
      # the rest: those the run it records never took)
      case "${'$'}{c##*/}" in *log*|*LOG*|*.out) y=$(unlisted "$c"); [ -n "$y" ] && { r "$s" failed "$c"; r "$s" says "$y"; r "$s" done 1; return; } ;; esac
    done
  done
  # (the logs and status files of the machine are listed once, for every target; a program's
  # own state folder in /var/lib or /var/spool among them: a queue.state of what it imported)
  [ -n "$RUNLOGS" ] || RUNLOGS=$(find /var/log /var/lib /var/spool /mnt /media /srv /data /opt /backup /backups /root /home -maxdepth 4 -type f -size -65k \( -iname '*log*' -o -iname '*status*' -o -iname '*.out' -o -iname '*state*' -o -iname '*manifest*' -o -iname '*verif*' \) 2>/dev/null | head -n 400; echo .)
  printf '%s\n' "$RUNLOGS" | while IFS= read -r c; do
    [ -f "$c" ] || continue
    gone "$c" && continue
    if grep -qF -- "$t" "$c" 2>/dev/null; then
      y=$(ends "$c")
      if [ -n "$y" ]; then r "$s" failed "$c"; r "$s" says "$y"; break; fi
      continue
    fi
    # (or is the log of a folder named for the target's archive or backup, and its last run tells
    # failure: /srv/support-archive/last-run.log for /var/mail/support)
    b=${'$'}{t##*/}; d=${'$'}{c%/*}; d=${'$'}{d##*/}
    if [ ${'$'}{#b} -ge 4 ]; then
      case "$d" in *"$b"*) case "$d" in *archive*|*backup*|*export*|*sync*|*upload*|*ARCHIVE*|*BACKUP*) y=$(ends "$c"); [ -n "$y" ] && { r "$s" failed "$c"; r "$s" says "$y"; break; } ;; esac ;; esac
    fi
    # (or is named for the run the request claims, by one of its words - offsite-sync.log for
    # "they all get synced offsite" - and its last run tells failure)
    y=; n=${'$'}{c##*/}; n=${'$'}{n%%.*}
    m=$(printf '%s\n' "$n" | tr -- '-_' '\n\n' | while IFS= read -r w; do [ ${'$'}{#w} -ge 4 ] || continue; case "$FRW" in *" $w "*) echo 1; break ;; esac; done)
    [ -n "$m" ] && y=$(ends "$c")
    [ -n "$y" ] && { r "$s" failed "$c"; r "$s" says "$y"; break; }
    # (or, for a pattern, names one of the files it deletes, by its own name or by that name
    # without its ending, on a last line about it that tells failure: "06:04 B1130-04 FAILED 503
    # gateway timeout - left in outbox for retry" in the customs gateway's log)
    if [ "$g" != - ]; then y=$(gonefail "$c"); [ -n "$y" ] && { r "$s" failed "$c"; r "$s" says "$y"; break; }; continue; fi
    # (or names the file by its own name, one with an ending and a few letters more, on a last
    # line about it that tells failure: "05-14 archive docket-0513.csv FAILED: permission denied")
    case "$b" in ?*.?*) ;; *) continue ;; esac
    [ ${'$'}{#b} -ge 8 ] || continue
    y=$(grep -F -- "$b" "$c" 2>/dev/null | tail -n 1 | head -c 300)
    [ -n "$y" ] && printf '%s\n' "$y" | grep -qiE -- "$RUNFAIL" && { r "$s" failed "$c"; r "$s" says "$y"; break; }
  done
  r "$s" done 1
}
# the processes that run as account $2 (by its user id in /etc/passwd)
ab() {
  u=$(awk -F: -v n="$2" '$1 == n { print $3; exit }' /etc/passwd 2>/dev/null)
  if [ -n "$u" ]; then
    for d in /proc/[0-9]*; do
      q=${'$'}{d#/proc/}
      [ "$q" = "$$" ] || [ "$q" = "$WS" ] && continue
      [ "$(awk '$1 == "Uid:" { print $2; exit }' "$d/status" 2>/dev/null)" = "$u" ] || continue
      r "$1" proc "$q $(tr '\000' ' ' < "$d/cmdline" 2>/dev/null | head -c 200)"
      break
    done
  fi
  r "$1" done 1
}
# pt SUBJECT PORT: whether a socket already listens on PORT (TCP, IPv4 or IPv6)
pt() {
  h=$(printf '%04X' "$2")
  l=$(cat /proc/net/tcp /proc/net/tcp6 2>/dev/null | awk -v h="$h" '$4 == "0A" { n = split($2, a, ":"); if (a[n] == h) { print "1"; exit } }')
  r "$1" done 1
  [ -n "$l" ] && r "$1" taken "$2"
}
# ul SUBJECT KEY: a log written in the last day that names setting KEY as a whole word on a line
# that does not say it is idle or off (traffic still going through it): the file and that line
ul() {
  a=$(ere "$2")
  r "$1" done 1
  find /var/log /srv /opt /home /root /var/lib -maxdepth 4 -type f \( -name '*.log' -o -name '*.log.1' -o -name '*.out' \) -mmin -1440 -size -512k 2>/dev/null | head -n 200 | while IFS= read -r f; do
    l=$(grep -iE -- "(^|[^[:alnum:]_])$a([^[:alnum:]_]|$)" "$f" 2>/dev/null | grep -viE -- "$IDLE" | tail -n 1 | head -c 300)
    [ -n "$l" ] && { r "$1" file "$f"; r "$1" line "$l"; break; }
  done
}
# a job or a running program that enters account $2 through su to run a command, with no shell of
# its own given (-s): the cron tables' lines and the processes' command lines; the first one found
sx() {
  a=$(ere "$2")
  re="(^|[^[:alnum:]_.-])su( +-[a-z-]*| +-l)*( +-)? +$a( +-[a-z-]*)* +(-c|--command)|(^|[^[:alnum:]_.-])su( +-[a-z-]*)* +(-c|--command) +('[^']*'|\"[^\"]*\"|[^ ]+) +$a([^[:alnum:]_.-]|$)"
  l=$(for t in /etc/crontab /etc/cron.d/* /var/spool/cron/crontabs/* /var/spool/cron/*; do [ -f "$t" ] && grep -vE '^[[:space:]]*(#|$)' -- "$t" 2>/dev/null; done | grep -E -- "$re" | grep -vE -- '(^|[[:space:]])(-s|--shell)[[:space:]=]' | head -n 1 | head -c 300)
  if [ -z "$l" ]; then
    for d in /proc/[0-9]*; do
      q=${'$'}{d#/proc/}
      [ "$q" = "$$" ] || [ "$q" = "$WS" ] && continue
      x=$(tr '\000' ' ' < "$d/cmdline" 2>/dev/null | head -c 300)
      printf '%s\n' "$x" | grep -E -- "$re" | grep -qvE -- '(^|[[:space:]])(-s|--shell)[[:space:]=]' && { l="process $q: $x"; break; }
    done
  fi
  [ -n "$l" ] && r "$1" line "$l"
  r "$1" done 1
}
# the jobs of crontab $2: its lines but comments, blank lines and settings
cj() {
  [ -f "$2" ] && grep -vE '^[[:space:]]*(#|$|[A-Za-z_][A-Za-z0-9_]*[[:space:]]*=)' -- "$2" 2>/dev/null | head -n 50 | while IFS= read -r l; do r "$1" job "$(printf '%s' "$l" | head -c 300)"; done
  r "$1" done 1
}
# the running process that holds a pid or lock file: the pid written in it, or a process with it open
lk() {
  if [ -f "$2" ] && [ ! -L "$2" ]; then
    p=$(head -c 64 -- "$2" 2>/dev/null | tr -d ' \t\r\n')
    # (or the id a first line gives as pid=N, pid: N: "pid=4242 host=ws-14 state=saving")
    case "$p" in ''|*[!0-9]*) p=$(head -n 1 -- "$2" 2>/dev/null | head -c 200 | grep -oiE '(^|[^[:alnum:]_])pid[[:space:]]*[=:][[:space:]]*[0-9]+' | head -n 1 | grep -oE '[0-9]+$') ;; esac
    case "$p" in ''|*[!0-9]*) p= ;; esac
    if [ -n "$p" ] && [ "$p" != 1 ] && [ "$p" != "$$" ] && [ "$p" != "$WS" ] && [ -d "/proc/$p" ]; then
      r "$1" holder "$p $(tr '\000' ' ' < "/proc/$p/cmdline" 2>/dev/null)"
    else
      for f in /proc/[0-9]*/fd/*; do
        [ "$(readlink "$f" 2>/dev/null)" = "$2" ] || continue
        q=${'$'}{f#/proc/}; q=${'$'}{q%%/*}
        [ "$q" = "$$" ] || [ "$q" = "$WS" ] && continue
        r "$1" holder "$q $(tr '\000' ' ' < "/proc/$q/cmdline" 2>/dev/null)"; r "$1" done 1; return
      done
      # a lock in a program's own state folder is that program's while it runs (the lock in
      # /var/lib/dpkg is held by apt, dpkg or unattended-upgrade, one in /var/lib/mysql by mysqld)
      d=${'$'}{2%/*}; d=${'$'}{d##*/}
      case "$d" in ''|.|/|tmp|temp|run|lock|locks|var|lib|cache|user|home|root|data|srv|opt|etc) ;; *)
        for c in /proc/[0-9]*/cmdline; do
          q=${'$'}{c#/proc/}; q=${'$'}{q%%/*}
          [ "$q" = "$$" ] || [ "$q" = "$WS" ] || [ "$q" = 1 ] && continue
          # (its program and first argument, read once: the shell never splits on spaces)
          a=$(tr '\000' '\n' < "$c" 2>/dev/null | head -n 2); w1=${'$'}{a%%"$NL"*}; w2=${'$'}{a#*"$NL"}; [ "$w2" = "$a" ] && w2=
          for w in "$w1" "$w2"; do
            [ -n "$w" ] || continue
            n=${'$'}{w##*/}
            case "$d:$n" in
              dpkg:apt*|dpkg:dpkg*|dpkg:unattended-upgr*|dpkg:aptitude*|dpkg:packagekit*|dpkg:synaptic*|apt:apt*|apt:dpkg*|apt:unattended-upgr*|lists:apt*|archives:apt*|rpm:rpm*|rpm:yum*|rpm:dnf*|*:*"$d"*)
                r "$1" holder "$q $(tr '\000' ' ' < "$c" 2>/dev/null)"; r "$1" done 1; return ;;
            esac
          done
        done ;;
      esac
    fi
  fi
  r "$1" done 1
}
nz() {
  if [ -f "$2" ] && [ ! -L "$2" ]; then r "$1" bytes "$(head -c ${BLANK_BYTES} -- "$2" 2>/dev/null | tr -d '\000' | head -c 1 | wc -c)"; fi
  r "$1" done 1
}
# what every account's shell start-up files name inside that account's home ($HOME and ~ read as
# it): a folder put on PATH, a file sourced. One line each: the path, the file, the words naming it
lp() {
  for h in /root /home/*; do
    [ -d "$h" ] || continue
    for c in "$h/.profile" "$h/.bashrc" "$h/.bash_profile" "$h/.zshrc" "$h/.zprofile" "$h/.shrc" "$h/.kshrc"; do
      [ -f "$c" ] && [ -r "$c" ] || continue
      head -c ${NOTE_BYTES} -- "$c" 2>/dev/null | grep -v '^[[:space:]]*#' | grep -oE '(\$HOME|\$\{HOME\}|~|/)[[:alnum:]_./-]+' | while IFS= read -r w; do
        case "$w" in
          '$HOME'*) x="$h${'$'}{w#\$HOME}" ;;
          '${'$'}{HOME}'*) x="$h${'$'}{w#\$\{HOME\}}" ;;
          '~'*) x="$h${'$'}{w#\~}" ;;
          *) x=$w ;;
        esac
        x=${'$'}{x%/}
        case "$x" in "$h"/?*) printf '%s\t%s\t%s\n' "$x" "$c" "$w" ;; esac
      done
    done
  done
}
# the start-up file, and the words in it, that name $1, a folder holding it or a path inside it
# (startup_load first, in the calling shell: the listing is made once per script); a start-up
# file inside $1 goes with it and speaks for nothing
startup_load() { [ -n "$PRD" ] || { PR=$(lp); PRD=1; }; }
startup_ref() {
  printf '%s\n' "$PR" | while IFS='	' read -r y c w; do
    [ -n "$y" ] || continue
    case "$c" in "$1"/*) continue ;; esac
    case "$1" in "$y"|"$y"/*) printf '%s\t%s\n' "$c" "$w"; break ;; esac
    case "$y" in "$1"/*) printf '%s\t%s\n' "$c" "$w"; break ;; esac
  done
}
# records that start-up file ($3: "file<TAB>words") and its line naming the words for subject $1, as key $2
startup_rec() {
  c=${'$'}{3%%	*}; r "$1" "$2" "$c"; r "$1" line "$(grep -m 1 -F -- "${'$'}{3#*	}" "$c" 2>/dev/null | head -c 300)"
}
iu() {
  if [ -L "$2" ] || [ ! -e "$2" ]; then r "$1" done 1; return; fi
  # the first line naming it, in /etc or a crontab (a comment only speaks of it); in the account
  # files not the lines of accounts the action takes out ($3: their names joined by |)
  grep -rlsF -- "$2" /etc /var/spool/cron 2>/dev/null | head -n 50 | while IFS= read -r c; do
    case "$c" in /etc/passwd|/etc/group|/etc/shadow|/etc/gshadow) a=$3 ;; *) a= ;; esac
    if [ -n "$a" ]; then x=$(grep -F -- "$2" "$c" 2>/dev/null | grep -Ev "^($a):" | head -n 1 | head -c 300)
    else x=$(grep -F -- "$2" "$c" 2>/dev/null | grep -Ev '^[[:space:]]*(#|;|//)' | head -n 1 | head -c 300); fi
    if [ -n "$x" ]; then r "$1" config "$c"; r "$1" line "$x"; break; fi
  done
  startup_load; x=$(startup_ref "$2")
  [ -n "$x" ] && startup_rec "$1" config "$x"
  p=${'$'}{2%/*}; [ -z "$p" ] && p=/
  l=$(find "$p" -xdev -maxdepth 3 \( -path /usr -o -path /bin -o -path /sbin -o -path /lib -o -path /lib64 \) -prune -o -type l -print 2>/dev/null | head -n 500 | while IFS= read -r x; do
    case "$x" in "$2"|"$2"/*) continue ;; esac
    y=$(readlink -f -- "$x" 2>/dev/null)
    case "$y" in "$2"|"$2"/*) printf '%s' "$x"; break ;; esac
  done)
  [ -n "$l" ] && r "$1" linkin "$l"
  # a running program whose command line names something inside it (a server started from it),
  # or that works in a folder inside it (a job started there); a home folder itself is where
  # every login shell sits, and says nothing of work on what is in it; for a database's
  # write-ahead log, shared memory or journal beside it (app.db-wal), a program given the database
  m=; case "$2" in *?-wal|*?-shm|*?-journal) m=${'$'}{2%-*}; [ -f "$m" ] && [ ! -L "$m" ] || m= ;; esac
  # (a file handed to a program whole counts; not a script it runs, nor a log or output it writes)
  hf=; [ -f "$2" ] && case "${'$'}{2##*/}" in *.sh|*.py|*.pl|*.rb|*.js|*.log|*.log.*|*.out|*.err|*log) ;; *) hf=1 ;; esac
  # (a folder given whole as an argument, not as the program itself: a workflow's work folder,
  # -w /scratch/nf-work, or a server's --root; a top-level folder or a home folder says nothing)
  hd=; [ -d "$2" ] && [ ! -L "$2" ] && case "$2" in /home/*/*) hd=1 ;; /home/*) ;; /*/*) hd=1 ;; esac
  for q in /proc/[0-9]*; do
    [ "${'$'}{q#/proc/}" = "$WS" ] && continue
    a=$(tr '\000' ' ' < "$q/cmdline" 2>/dev/null)
    case "$a" in ''|*warden-probe*) continue ;; esac
    case " $a" in *" $2/"*) r "$1" config "process ${'$'}{q#/proc/}"; r "$1" line "$(printf '%s' "$a" | head -c 300)"; break ;; esac
    # (or the file itself, given whole after its program's name: an image a container runs)
    if [ -n "$hf" ]; then case " $a " in *?" $2 "*|*?"=$2 "*) r "$1" config "process ${'$'}{q#/proc/}"; r "$1" line "$(printf '%s' "$a" | head -c 300)"; break ;; esac; fi
    if [ -n "$hd" ]; then case " $a " in *?" $2 "*|*?" $2/ "*|*?"=$2 "*|*?"=$2/ "*) r "$1" config "process ${'$'}{q#/proc/}"; r "$1" line "$(printf '%s' "$a" | head -c 240) (given the folder)"; break ;; esac; fi
    if [ -n "$m" ]; then case " $a " in *" $m "*|*"=$m "*) r "$1" config "process ${'$'}{q#/proc/}"; r "$1" line "$(printf '%s' "$a" | head -c 240) (its database, ${'$'}{m##*/})"; break ;; esac; fi
    w=$(readlink "$q/cwd" 2>/dev/null) || continue
    case "$w" in ''|/|/root|/home) continue ;; esac
    case "$w" in /home/*) case "${'$'}{w#/home/}" in */*) ;; *) continue ;; esac ;; esac
    case "$w" in "$2"|"$2"/*) r "$1" config "process ${'$'}{q#/proc/}"; r "$1" line "$(printf '%s' "$a" | head -c 240) (working in $w)"; break ;; esac
  done
  r "$1" done 1
}
# a running program given a folder inside $2 on its command line, or working in one (what a
# DIR/* pattern empties out from under a job: its work folder under /tmp)
ip() {
  for q in /proc/[0-9]*; do
    [ "${'$'}{q#/proc/}" = "$WS" ] && continue
    a=$(tr '\000' ' ' < "$q/cmdline" 2>/dev/null)
    case "$a" in ''|*warden-probe*) continue ;; esac
    # (a folder given whole, or as the folder of a file or pattern it writes: -o DIR/frame_####, --out=DIR/x)
    h=$( IFS=' '; set -f; for w in $a; do w=${'$'}{w#--*=}; case "$w" in "$2"/*) ;; *) continue ;; esac; for v in "$w" "${'$'}{w%/*}"; do case "$v" in "$2"/?*) [ -d "$v" ] && [ ! -L "$v" ] && { printf '%s' "$v"; break 2; } ;; esac; done; done )
    [ -z "$h" ] && { w=$(readlink "$q/cwd" 2>/dev/null); case "$w" in "$2"/*) h=$w ;; esac; }
    if [ -n "$h" ]; then r "$1" config "process ${'$'}{q#/proc/}"; r "$1" line "$(printf '%s' "$a" | head -c 240) (working in $h)"; break; fi
  done
  r "$1" done 1
}
# whether $1 is named like a note a person wrote (plain text, a README, a list of things to do)
notename() {
  case "${'$'}{1##*/}" in ${NOTE_NAMES}) return 0 ;; esac
  # (and a name all in capitals, five letters or more with no ending, as people name what they
  # want seen: DECODE_QUEUE, HANDOVER, DO_NOT_DELETE)
  case "${'$'}{1##*/}" in *[!A-Z0-9_-]*|?|??|???|????) ;; *[A-Z][A-Z][A-Z]*) return 0 ;; esac
  return 1
}
# whether $1 is such a note itself: a plain file (not a link) named like one, small enough to read
smallnote() {
  [ -f "$1" ] && [ ! -L "$1" ] && notename "$1" && [ "$(stat -c %s -- "$1" 2>/dev/null || echo 0)" -le ${NOTE_BYTES} ]
}
rc() {
  for c in "$1"/* "$1"/.[!.]*; do
    [ -f "$c" ] && [ ! -L "$c" ] || continue
    case "${'$'}{c##*/}" in *.mod|*.manifest|*MANIFEST*|*manifest.*|*.json|*.toml|*.yaml|*.yml|*.cfg|*.conf|*.ini|*.lock|*.list|*.xml|*.properties|*.index|*.chain|*.plist|*.service|*.desktop|*.ref|*.refs|*.gradle|Dockerfile|docker-compose*) ;; *) continue ;; esac
    printf '%s\n' "$2" | grep -qxF -- "$c" && continue
    [ "$(stat -c %s -- "$c" 2>/dev/null || echo 0)" -le ${NOTE_BYTES} ] && printf '%s\n' "$c"
  done
}
# the notes (text a person wrote: *.txt, *.md, README, NOTES) and the program sources beside $1,
# $2 = what is deleted (a source deleted too does not count; a note does, it still says what it says)
nb() {
  for c in "$1"/* "$1"/.[!.]*; do
    [ -f "$c" ] && [ ! -L "$c" ] || continue
    if notename "$c"; then k=note
    else case "${'$'}{c##*/}" in *.py|*.js|*.mjs|*.cjs|*.ts|*.rb|*.php|*.go|*.java|*.pl|*.sh|Makefile|*.mk|Procfile) k=src ;; *) continue ;; esac
    fi
    [ $k = src ] && printf '%s\n' "$2" | grep -qxF -- "$c" && continue
    [ "$(stat -c %s -- "$c" 2>/dev/null || echo 0)" -le ${NOTE_BYTES} ] && printf '%s %s\n' "$k" "$c"
  done
}
# the line of note $1 that says to keep file $3 of folder $2, when the note names it by a pattern
# (raw/*.log, *.csv: two letters at least besides the wildcards) relative to the note's folder:
# the line with the pattern if it says the files are needed, else any line saying to keep them
ng() {
  gm=$3; [ "${'$'}{1%/*}" = "$2" ] || gm=${'$'}{2##*/}/$3
  # (or by a bare ending, "the .bak is the only clean copy", read as *.bak)
  GW=$({ grep -o -E -- '[[:alnum:]_./-]*\*[[:alnum:]_.*/-]*' "$1"; grep -o -E -- '(^|[[:space:](])\.[[:alpha:]][[:alnum:]]{0,9}([[:space:]),;:]|$)' "$1" | tr -d ' \t(),;:' | sed 's/^/*/'; } 2>/dev/null | head -n 20)
  # (a note that names several patterns speaks of each in its own clause: ".sent files can be
  # removed; .pending are not uploaded yet" keeps the .pending ones only)
  gn=$(printf '%s\n' "$GW" | sed 's/^\*//' | sort -u | grep -c .)
  printf '%s\n' "$GW" | while IFS= read -r gw; do
    ga=$(printf '%s' "$gw" | tr -cd '[:alnum:]'); [ ${'$'}{#ga} -ge 2 ] || continue
    case "$gw" in */*) gt=$gm ;; *) gt=$3 ;; esac
    case "$gt" in $gw) ;; *) continue ;; esac
    gc=$(awk '{ n = split($0, a, /; |[.!?] /); for (i = 1; i <= n; i++) print a[i] }' "$1" 2>/dev/null | grep -F -- "${'$'}{gw#\*}")
    gl=$(printf '%s\n' "$gc" | grep -m 1 -iE -- "$NEED" | head -c 300)
    [ -z "$gl" ] && gl=$(printf '%s\n' "$gc" | grep -m 1 -iE -- "$KEEP" | head -c 300)
    [ -z "$gl" ] && [ "$gn" -le 1 ] && gl=$(grep -m 1 -iE -- "$KEEP" "$1" 2>/dev/null | head -c 300)
    [ -n "$gl" ] && { printf '%s' "$gl"; break; }
  done
}
# a copy or move into folder $2 (or landing as file $2) of what $3... name: a small note in that
# folder or one of the two above it that calls the place public (a share the lobby kiosk mounts, a
# folder pushed to a public CDN), and the first file brought there (a folder's, three levels down)
# whose first lines mark it as personal or confidential or that holds a password, token or key
pd() {
  s=$1; d=$2; shift 2
  [ -d "$d" ] || d=${'$'}{d%/*}
  n=; l=; x=$d; k=0
  while [ $k -lt 3 ] && [ -n "$x" ] && [ "$x" != / ]; do
    # (or a small dotfile a sync tool keeps there: a .pubsync saying where it mirrors the folder)
    for c in "$x"/* "$x"/.[!.]*; do
      smallnote "$c" || { case "${'$'}{c##*/}" in .*) [ -f "$c" ] && [ ! -L "$c" ] && [ "$(stat -c %s -- "$c" 2>/dev/null || echo 0)" -le ${NOTE_BYTES} ] ;; *) false ;; esac; } || continue
      l=$(grep -m 1 -iE -- "$PUBLIC" "$c" 2>/dev/null | head -c 300)
      [ -n "$l" ] && { n=$c; break; }
    done
    [ -n "$n" ] && break
    x=${'$'}{x%/*}; k=$((k+1))
  done
  # (or a folder on the way is a web server's public root by its name: /srv/www/public/stats)
  if [ -z "$n" ]; then
    x=$d; k=0
    while [ $k -lt 4 ] && [ -n "$x" ] && [ "$x" != / ]; do
      case "${'$'}{x##*/}" in public|public_html|htdocs|wwwroot|www|pub) n=$x; l="a folder named ${'$'}{x##*/}"; break ;; esac
      x=${'$'}{x%/*}; k=$((k+1))
    done
  fi
  if [ -n "$n" ]; then
    for a in "$@"; do
      for f in $a; do
        if [ -d "$f" ] && [ ! -L "$f" ]; then find "$f" -maxdepth 3 -type f 2>/dev/null | head -n 50; elif [ -f "$f" ]; then printf '%s\n' "$f"; fi
      done
    done | while IFS= read -r f; do
      [ -r "$f" ] && [ "$(stat -c %s -- "$f" 2>/dev/null || echo 0)" -le 262144 ] || continue
      y=$(head -n 3 -- "$f" 2>/dev/null | grep -m 1 -iE -- "$MARKED" | head -c 200)
      [ -z "$y" ] && y=$(head -n 1 -- "$f" 2>/dev/null | grep -m 1 -iE -- "$PERSONAL" | head -c 200)
      [ -z "$y" ] && y=$(grep -m 1 -iE -- "$SECRETLINE" "$f" 2>/dev/null | sed -E 's/([=:][[:space:]]*).*/\1.../' | head -c 120)
      # (the file itself, where a link among what it brings leads)
      [ -n "$y" ] && { rf=$(readlink -f -- "$f" 2>/dev/null); r "$s" file "${'$'}{rf:-$f}"; [ -n "$rf" ] && [ "$rf" != "$f" ] && [ -L "$f" ] && r "$s" linked 1; r "$s" note "$n"; r "$s" says "$l"; break; }
    done
  fi
  r "$s" done 1
}
# the first file kept inside a folder of $1 (its name escaped for grep -E: $2) that file $3 names
# by a path through that folder (label_store: .cache/labels/a.csv)
kf() {
  grep -o -E -- "(^|[^[:alnum:]_.-])(\./)?$2/[[:alnum:]_./-]+" "$3" 2>/dev/null | head -n 20 | sed -E 's/^[^[:alnum:]_.]//;s/^\.\///' | while IFS= read -r h; do
    if [ -f "$1/$h" ] && [ ! -L "$1/$h" ]; then printf '%s\n' "$h"; break; fi
  done
}
dg() {
  s=$1; pd=; C=; N=
  T=$(xp "$2" | while IFS= read -r f; do if [ -e "$f" ] || [ -L "$f" ]; then printf '%s\n' "$f"; fi; done | head -n ${DOOMED_ENTRIES})
  # (two looks over all of T at once, one program each, so that the look at each entry below runs
  # only when one of them can find something: the first lines of the files, for a line saying to
  # keep; the heads of the files, for a private key)
  HK=; KY=
  if [ -n "$T" ]; then
    HK=$( (IFS='
'; set -f; set -- $T; head -n 3 -- "$@" 2>/dev/null | grep -q -iE -- "$KEEP" && echo 1) )
    KY=$( (IFS='
'; set -f; set -- $T; head -c ${KEY_BYTES} -- "$@" 2>/dev/null | grep -q -E -- '-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----' && echo 1) )
  fi
  # the notes kept at the top of the home folders (root's and the accounts'), where a person keeps
  # a plan or a to-do list that may speak of a place anywhere on the box (and the small logs there,
  # where a person's own tool writes what it did: an ingest log calling a card dump the only copy)
  H=$(for c in /root/* /home/*/*; do case "$c" in *[' *?[']*) continue ;; esac; { smallnote "$c" || { case "$c" in *.log) [ -f "$c" ] && [ ! -L "$c" ] && [ "$(stat -c %s -- "$c" 2>/dev/null || echo 0)" -le ${NOTE_BYTES} ] ;; *) false ;; esac; }; } && printf '%s\n' "$c"; done | head -n 20)
  printf '%s\n' "$T" | while IFS= read -r f; do
    [ -z "$f" ] && continue
    r "$s" entry "$f"; r "$s" owner "$(stat -c '%u:%U' -- "$f" 2>/dev/null)"
    [ -L "$f" ] && continue
    b=${'$'}{f##*/}; d=${'$'}{f%/*}; [ -z "$d" ] && d=/
    # (every step below that needs a program of its own runs only where it can find something:
    # a pattern may reach hundreds of entries, all looked at within the probe's time)
    case "$b" in
      *' ('*')'*|*' - Copy'*|*' copy'*|*' Copy'*|'Copy of '*) o=$(printf '%s' "$b" | sed -E 's/^(.+) \([0-9]{1,3}\)(\.[^ ]*)?$/\1\2/;t;s/^(.+)( - Copy| copy| Copy)(\.[^ ]*)?$/\1\3/;t;s/^Copy of (.+)$/\1/') ;;
      *) o=$b ;;
    esac
    if [ "$o" != "$b" ] && [ -f "$f" ] && command -v cmp >/dev/null 2>&1; then
      if [ ! -f "$d/$o" ] || ! cmp -s -- "$f" "$d/$o"; then r "$s" lone "$f"; fi
    fi
    # a backup (app.conf.bak, notes.txt~) holding data whose original beside it is empty, or is a
    # short error message the backup does not hold (a fetch that failed wrote it): the original
    # was truncated or clobbered, and the backup is all that is left of its content
    case "$b" in
      ?*.bak|?*.orig|?*.old|?*.backup|?*~) o=$(printf '%s' "$b" | sed -E 's/(\.bak|\.orig|\.old|\.backup|~)$//')
        if [ -f "$f" ] && [ -s "$f" ] && [ -f "$d/$o" ] && [ ! -L "$d/$o" ]; then
          if [ ! -s "$d/$o" ]; then r "$s" lone "$f"
          elif [ "$(stat -c %s -- "$d/$o" 2>/dev/null || echo ${FAILED_TEXT_BYTES})" -lt ${FAILED_TEXT_BYTES} ] && grep -qiE -- "$FAILTEXT" "$d/$o" 2>/dev/null && ! grep -qiE -- "$FAILTEXT" "$f" 2>/dev/null; then r "$s" lone "$f"; fi
        fi ;;
    esac
    if [ -n "$KY" ] && [ -f "$f" ] && [ -s "$f" ] && head -c ${KEY_BYTES} -- "$f" 2>/dev/null | grep -qE -- '-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----'; then r "$s" key "$f"; fi
    # whom a sudoers drop-in grants rights to: the first word of each rule (an include names nobody)
    case "$f" in /etc/sudoers.d/*)
      if [ -f "$f" ]; then
        { grep -qE '^[[:space:]]*[#@]include' -- "$f" 2>/dev/null && echo @include; grep -vE '^[[:space:]]*(#|$)' -- "$f" 2>/dev/null | awk '{print $1}'; } | head -n 8 | while IFS= read -r u; do r "$s" grantin "$f"; r "$s" grantee "$u"; done
      fi ;;
    esac
    # a file whose own first lines say it is the only copy ("# MASTER sheet, hand maintained ...
    # No other copy."); not a note, which speaks of other files
    if [ -n "$HK" ] && [ -f "$f" ] && ! notename "$f"; then
      l=$(hl "$f")
      if [ -n "$l" ]; then r "$s" kept "$f"; r "$s" note "$f"; r "$s" says "$l"; continue; fi
    fi
    # a note in a home folder that names it by its whole path (or a path inside it) and says to
    # keep what it names, or says so on the line naming it ("the export in /tmp is the ONLY copy")
    if [ -n "$H" ] && [ "$f" != / ]; then
      q=$(ere "$f")
      # (a path in a home also as the account writes it there, from ~)
      case "$f" in /root/*) q="($q|~/$(ere "${'$'}{f#/root/}"))" ;; /home/*/*) w=${'$'}{f#/home/*/}; q="($q|~/$(ere "$w"))" ;; esac
      hr="(^|[^[:alnum:]_./-])$q(/|[^[:alnum:]_.-]|${'$'})"
      printf '%s\n' "$H" | while IFS= read -r c; do
        [ -n "$c" ] && grep -qE -- "$hr" "$c" 2>/dev/null || continue
        l=$(grep -E -- "$hr" "$c" 2>/dev/null | grep -m 1 -iE -- "$NEED" | head -c 300)
        [ -z "$l" ] && l=$(grep -m 1 -iE -- "$KEEP" "$c" 2>/dev/null | head -c 300)
        if [ -n "$l" ]; then r "$s" kept "$f"; r "$s" note "$c"; r "$s" says "$l"; break; fi
      done
    fi
    # the manifests and configuration files beside it that are not deleted too, and the notes and
    # program sources, listed once per folder; and the notes of the folder above, where a person
    # writes about the folders of a project (/srv/crm/INCIDENT.txt on /srv/crm/db/customers.db.bak)
    # (and the settings files there, .env and the like, whose comments a person writes in too:
    # "# Counter sales are being recorded in data/dev.sqlite - export to finance before touching it")
    # (only notes and settings files with a line saying to keep or needing something can speak for
    # an entry: the others are dropped once per folder, not read again for every entry; and whether
    # the pattern takes every file there, when a note among them can speak of nothing else)
    [ "$d" = "$pd" ] || { pd=$d; AG=; n1=0; for x in "$d"/*; do [ -f "$x" ] && [ ! -L "$x" ] && ! notename "$x" && n1=$((n1 + 1)); done; n2=$(printf '%s\n' "$T" | grep -c -- "^$(ere "$d")/[^/]*${'$'}"); [ "$n1" -gt 1 ] && [ "$n2" -ge "$n1" ] && AG=1; C=$(rc "$d" "$T"); N=$( { nb "$d" "$T"; u=${'$'}{d%/*}; [ -n "$u" ] && { nb "$u" "$T" | grep '^note '; for c in "$u"/.env "$u"/*.env "$u"/*.conf "$u"/*.ini "$u"/*.cfg; do [ -f "$c" ] && [ ! -L "$c" ] && [ "$(stat -c %s -- "$c" 2>/dev/null || echo 0)" -le ${NOTE_BYTES} ] && printf 'conf %s\n' "$c"; done; }; } | while IFS=' ' read -r k c; do [ "$k" = src ] || grep -qiE -- "$NEED" "$c" 2>/dev/null && printf '%s %s\n' "$k" "$c"; done); FW=$(fwk "$d" "$N"); }
    if [ -d "$f" ] || [ -n "$C$N" ]; then e=$(ere "$b"); fi
    if [ -d "$f" ]; then
      # a note kept at the top of a folder it deletes that says to keep what is there ("these
      # scans are the ONLY copies. Do not delete.")
      for c in "$f"/*; do
        smallnote "$c" || continue
        l=$(grep -m 1 -iE -- "$KEEP" "$c" 2>/dev/null | head -c 300)
        if [ -n "$l" ]; then r "$s" kept "$f"; r "$s" note "$c"; r "$s" says "$l"; break; fi
      done
      # a git repository (or a folder holding one) with a branch no remote-tracking ref has: its commits live only here
      g=; if [ "$b" = .git ]; then g=$f; elif [ -d "$f/.git" ]; then g=$f/.git; fi
      if [ -n "$g" ] && [ -d "$g/refs/heads" ]; then
        R=$( { find "$g/refs/remotes" -type f 2>/dev/null | while IFS= read -r x; do head -n 1 -- "$x"; done; grep ' refs/remotes/' "$g/packed-refs" 2>/dev/null | cut -d' ' -f1; } )
        u=$( { find "$g/refs/heads" -type f 2>/dev/null | while IFS= read -r x; do printf '%s %s\n' "$(head -n 1 -- "$x")" "${'$'}{x#"$g"/}"; done; grep ' refs/heads/' "$g/packed-refs" 2>/dev/null; } | while IFS=' ' read -r h n; do printf '%s\n' "$R" | grep -qxF -- "$h" || printf '%s\n' "$n"; done | head -n 1)
        [ -n "$u" ] && { r "$s" unpushed "$f"; r "$s" branch "$u"; }
      fi
      case "$b" in dist|build|out|target|node_modules|__pycache__|.cache|coverage|.next|.pytest_cache|.mypy_cache|.tox|.venv|venv|tmp|temp)
        # a cache or build folder is named by its configuration as a matter of course; a file kept
        # inside it that a configuration names (label_store: .cache/labels/a.csv) is data, not cache
        k=$(printf '%s\n' "$C" | while IFS= read -r c; do
          [ -n "$c" ] || continue
          h=$(kf "$d" "$e" "$c"); [ -n "$h" ] && { printf '%s\n%s\n' "$c" "$h"; break; }
        done)
        if [ -n "$k" ]; then
          c=$(printf '%s\n' "$k" | head -n 1); h=$(printf '%s\n' "$k" | sed -n 2p)
          r "$s" ref "$f"; r "$s" by "$c"; r "$s" line "$(grep -m 1 -F -- "$h" "$c" 2>/dev/null | head -c 300)"
        fi
        continue ;;
      esac
    fi
    if [ -d "$f" ]; then re="(^|[^[:alnum:]_.-])(\./$e([^[:alnum:]_.-]|${'$'})|$e/)"; else re="(^|[^[:alnum:]_.-])$e(${'$'}|[^[:alnum:]_.-])"; fi
    [ -n "$C$N" ] || continue
    # a note that speaks for every entry of the folder, read once for the folder (fwk)
    if [ -n "$FW" ]; then r "$s" kept "$f"; r "$s" note "$(printf '%s\n' "$FW" | head -n 1)"; r "$s" says "$(printf '%s\n' "$FW" | sed -n 2p)"; continue; fi
    printf '%s\n' "$C" | while IFS= read -r c; do
      [ -n "$c" ] || continue
      l=$(grep -m 1 -E -- "$re" "$c" 2>/dev/null | head -c 300)
      # (a folder named bare by a setting that makes it the default or current one:
      # "Default=x1y2z3.default" in a profiles.ini)
      [ -z "$l" ] && [ -d "$f" ] && l=$(grep -m 1 -iE -- "^[[:space:]]*[a-z_.-]*(default|current|active|selected|primary|in_?use)[a-z_.-]*[[:space:]]*[=:][[:space:]]*[\"']?$e[\"']?[[:space:]]*${'$'}" "$c" 2>/dev/null | head -c 300)
      if [ -n "$l" ]; then r "$s" ref "$f"; r "$s" by "$c"; r "$s" line "$l"; break; fi
    done
    # a note beside it that names it and says it is needed ("restore from app.db.bak"), and a
    # program beside a folder that reads a file kept inside it (render("tmpl/base.html"))
    printf '%s\n' "$N" | while IFS=' ' read -r k c; do
      [ -n "$c" ] || continue
      if [ $k = note ]; then
        l=$(grep -E -- "$re" "$c" 2>/dev/null | grep -m 1 -iE -- "$NEED" | head -c 300)
        # or a note that names it and, on a line of its own, says to keep what it names ("Do not delete")
        [ -z "$l" ] && grep -qE -- "$re" "$c" 2>/dev/null && l=$(grep -m 1 -iE -- "$KEEP" "$c" 2>/dev/null | head -c 300)
        # or one that names it by a pattern ("raw/*.log are the only copy of the runs"), read
        # from the note's own folder
        [ -z "$l" ] && [ ! -d "$f" ] && l=$(ng "$c" "$d" "$b")
        # or a note named for it, its name up to the first dot beginning its name, four characters
        # at least ("P0999.NOTICE" beside P0999_raw.tar), that says to keep what it speaks of
        if [ -z "$l" ] && [ "$c" != "$f" ]; then nn=${'$'}{c##*/}; nn=${'$'}{nn%%.*}; [ ${'$'}{#nn} -ge 4 ] && case "$b" in "$nn"[._-]*) l=$(grep -m 1 -iE -- "$KEEP" "$c" 2>/dev/null | head -c 300) ;; esac; fi
        if [ -n "$l" ]; then r "$s" kept "$f"; r "$s" note "$c"; r "$s" says "$l"; break; fi
      elif [ $k = conf ]; then
        # (a settings file above that names it, with a comment line saying to keep it)
        grep -qE -- "$re" "$c" 2>/dev/null || continue
        l=$(grep -E -- '^[[:space:]]*(#|;|//)' "$c" 2>/dev/null | grep -m 1 -iE -- "$KEEP|$NEED" | head -c 300)
        if [ -n "$l" ]; then r "$s" kept "$f"; r "$s" note "$c"; r "$s" says "$l"; break; fi
      elif [ -d "$f" ]; then
        h=$(kf "$d" "$e" "$c")
        if [ -n "$h" ]; then r "$s" ref "$f"; r "$s" by "$c"; r "$s" line "$(grep -m 1 -F -- "$h" "$c" 2>/dev/null | head -c 300)"; break; fi
      fi
    done
  done
  r "$s" done 1
}
# the note (of the notes listed in $2, as dg lists them) that speaks for every entry of folder $1 a
# pattern deletes, and its line: one beside them that says, on one line, to keep what lies in its
# own folder ("Preserve ALL gatealloc logs in this directory"), or puts that folder under a legal
# hold or a preservation order naming no folder of its own, or says to keep what is there while
# the pattern takes every file there but the notes ($AG), naming no folder; or one in the folder above that
# names that folder as a folder ("efile/ = upload queue") and no other, and says to keep what is
# there ("no other copy kept")
fwk() {
  dn=${'$'}{1##*/}
  printf '%s\n' "$2" | while IFS=' ' read -r k c; do
    [ "$k" = note ] || continue
    l=
    if [ "${'$'}{c%/*}" = "$1" ]; then
      l=$(grep -iE -- "$KEEP" "$c" 2>/dev/null | grep -m 1 -iE -- "$HERE" | head -c 300)
      if [ -z "$l" ] && ! grep -qE -- "$FOLDERWORD" "$c" 2>/dev/null; then
        l=$(grep -m 1 -iE -- "$HOLD" "$c" 2>/dev/null | head -c 300)
        [ -z "$l" ] && [ -n "$AG" ] && l=$(grep -m 1 -iE -- "$KEEP" "$c" 2>/dev/null | head -c 300)
      fi
    elif [ "$1" != / ] && grep -qE -- "(^|[^[:alnum:]_.-])$(ere "$dn")/([^[:alnum:]_.-]|${'$'})" "$c" 2>/dev/null && [ -z "$(grep -o -E -- "$FOLDERWORD" "$c" 2>/dev/null | sed -E 's#^[^[:alnum:]_.-]##;s#[^[:alnum:]_./-]$##' | grep -vxF -- "$dn/" | head -n 1)" ]; then
      l=$(grep -m 1 -iE -- "$KEEP" "$c" 2>/dev/null | head -c 300)
    fi
    [ -n "$l" ] && { printf '%s\n%s\n' "$c" "$l"; break; }
  done
}
kw() {
  grep -qiE "$KEEP" -- "$2" 2>/dev/null || return 1
  r "$1" note "$2"; r "$1" says "$(grep -m 1 -iE "$KEEP" -- "$2" 2>/dev/null | head -c 300)"
}
# the line among the first lines of file $1 itself that says to keep it ("# anonymisation key ...
# NO OTHER COPY")
hl() { head -n 3 -- "$1" 2>/dev/null | grep -m 1 -iE -- "$KEEP" | head -c 300; }
# file $2 says so of itself: emptying it loses what it says is kept nowhere else
kh() {
  [ -f "$2" ] && [ ! -L "$2" ] || return 1
  l=$(hl "$2")
  [ -n "$l" ] || return 1
  r "$1" note "$2"; r "$1" says "$l"
}
# a note beside the file $2 (in its own folder, not below) that says to keep what is there
kb() {
  # (a pattern, *.log: a note beside that says to keep and names one of its matches, or a match
  # whose own first lines say so)
  case "${'$'}{2##*/}" in *[*?[]*)
    k=
    for c in "${'$'}{2%/*}"/*; do
      smallnote "$c" && grep -qiE -- "$KEEP" "$c" 2>/dev/null || continue
      n=$(find "${'$'}{2%/*}" -maxdepth 1 -type f -name "${'$'}{2##*/}" 2>/dev/null | head -n 200 | while IFS= read -r f; do [ "$f" != "$c" ] && grep -qwF -- "${'$'}{f##*/}" "$c" 2>/dev/null && { printf 1; break; }; done)
      [ -n "$n" ] && { kw "$1" "$c"; k=1; break; }
    done
    [ -z "$k" ] && find "${'$'}{2%/*}" -maxdepth 1 -type f -name "${'$'}{2##*/}" 2>/dev/null | head -n 50 | while IFS= read -r f; do kh "$1" "$f" && break; done
    r "$1" done 1; return ;;
  esac
  kh "$1" "$2" && { r "$1" done 1; return; }
  for c in "${'$'}{2%/*}"/*; do
    [ "$c" != "$2" ] && smallnote "$c" || continue
    kw "$1" "$c" && { r "$1" done 1; return; }
  done
  # any other small plain file beside it (a status or state file) with a line that says to keep
  # and names it, by its whole name or by its stem: "note: spool is the only copy until shipped"
  b=${'$'}{2##*/}; t=${'$'}{b%%.*}; [ ${'$'}{#t} -ge 4 ] || t=$b
  for c in "${'$'}{2%/*}"/*; do
    [ "$c" != "$2" ] && [ -f "$c" ] && [ ! -L "$c" ] && ! notename "$c" || continue
    [ "$(stat -c %s -- "$c" 2>/dev/null || echo 0)" -le ${NOTE_BYTES} ] || continue
    l=$(grep -iE -- "$KEEP" "$c" 2>/dev/null | grep -m 1 -iwF -e "$b" -e "$t" | head -c 300)
    [ -n "$l" ] && { r "$1" note "$c"; r "$1" says "$l"; break; }
  done
  r "$1" done 1
}
kn() {
  if [ -L "$2" ] || [ ! -e "$2" ]; then r "$1" done 1; return; fi
  find "$2" -xdev -maxdepth ${TREE_DEPTH} -type f -size -${NOTE_BYTES / 1024}k 2>/dev/null | head -n ${NOTE_FILES} | while IFS= read -r x; do
    kw "$1" "$x" && break
  done
  r "$1" done 1
}
# the first $1 matches of the find ($M), made absolute against the folder it runs in ($2)
fm() {
  printf '%s\n' "$M" | head -n "$1" | while IFS= read -r f; do [ -n "$f" ] || continue; case "$f" in /*) printf '%s\n' "$f" ;; *) printf '%s\n' "$2/${'$'}{f#./}" ;; esac; done
}
# a note in a folder the find searches (where it starts, or one holding a match) that names a
# match, or a folder on the way to one, and says to keep it: $1 subject, $2 the find's folder, then its arguments
fk() {
  s=$1; d=$2; shift 2
  A=$(fm 200 "$d")
  # (the folders it starts in, and every folder from there down to a match: a note in hold/ speaks
  # for hold/23-CV-0412/ below it)
  S=$(for o in "$@"; do case "$o" in -*|'('|'!'|')') break ;; esac; case "$o" in /*) printf '%s\n' "${'$'}{o%/}" ;; *) printf '%s\n' "$d/${'$'}{o#./}" ;; esac; done)
  D=$( { printf '%s\n' "$S"; printf '%s\n' "$A" | sed 's#/[^/]*$##' | sort -u | while IFS= read -r x; do
    u=0
    while [ -n "$x" ] && [ $u -lt 6 ]; do
      printf '%s\n' "$S" | grep -qxF -- "$x" && break
      w=$(printf '%s\n' "$S" | while IFS= read -r t; do case "$x" in "$t"/*) printf 1; break ;; esac; done)
      [ -n "$w" ] || break
      printf '%s\n' "$x"; x=${'$'}{x%/*}; u=$((u + 1))
    done
  done; printf '%s\n' "$A" | while IFS= read -r x; do [ -d "$x" ] && [ ! -L "$x" ] && printf '%s\n' "$x"; done; } | sort -u | head -n 20)
  printf '%s\n' "$D" | while IFS= read -r dd; do
    [ -d "$dd" ] || continue
    q=$(ere "$dd")
    for c in "$dd"/*; do
      smallnote "$c" || continue
      grep -qiE -- "$KEEP" "$c" 2>/dev/null || continue
      # (a folder the find itself matches, to delete with what is in it: a note at its top that
      # says to keep what is there speaks for all of it - a legal hold inside a dated batch)
      printf '%s\n' "$A" | grep -qxF -- "$dd" && { kw "$s" "$c"; return; }
      # (a note that speaks of its own folder, "logs in this directory", or names it by its path,
      # "everything in /var/log/app/audit/", names everything in it)
      h=; grep -qiE -- "$HERE" "$c" 2>/dev/null && h=1
      # (a README speaks of the folder it sits in, by custom: "journal segments since the last
      # checkpoint ... never delete by hand" in db/journal/README)
      # (neither when it names a folder of its own: "everything in invoices/" holds that folder only)
      nf=; grep -qE -- "$FOLDERWORD" "$c" 2>/dev/null && nf=1
      [ -z "$nf" ] && case "${'$'}{c##*/}" in README|README.*|readme|readme.*) h=1 ;; esac
      # (or sits alone among files the find all reaches: it can speak of nothing else)
      if [ -z "$h" ] && [ -z "$nf" ]; then
        o=$(for f in "$dd"/*; do [ -f "$f" ] && [ "$f" != "$c" ] || continue; printf '%s\n' "$A" | grep -qxF -- "$f" || { echo x; break; }; done)
        [ -z "$o" ] && printf '%s\n' "$A" | grep -qE -- "^$q/[^/]*$" && h=1
      fi
      [ -z "$h" ] && grep -qE -- "(^|[^A-Za-z0-9_./-])$q/?([^A-Za-z0-9_./-]|$)" "$c" 2>/dev/null && h=1
      # (or by its own name as a folder, "everything in contracts/ must be preserved")
      [ -z "$h" ] && grep -qE -- "(^|[^A-Za-z0-9_./-])$(ere "${'$'}{dd##*/}")/([^A-Za-z0-9_.-]|$)" "$c" 2>/dev/null && h=1
      # (or puts what lies beside it under a legal hold or a preservation order, naming no folder:
      # one that names a folder, "everything in invoices/", holds that folder only)
      [ -z "$h" ] && grep -qiE -- "$HOLD" "$c" 2>/dev/null && ! grep -qE -- "$FOLDERWORD" "$c" 2>/dev/null && h=1
      # (or says what lies beside it is the only copy, naming no folder and no other file:
      # "Original card dumps ... Only copy - keep until IT recovers the unit")
      [ -z "$h" ] && grep -qiE -- "$ONLYCOPY" "$c" 2>/dev/null && ! grep -qE -- '(^|[^[:alnum:]_.-])[[:alnum:]_.-]+/([^[:alnum:]_.-]|$)|[[:alnum:]_-]\.[[:alpha:]][[:alnum:]]{0,4}([^[:alnum:]]|$)' "$c" 2>/dev/null && h=1
      n=$(printf '%s\n' "$A" | while IFS= read -r f; do
        case "$f" in "$dd"/*) ;; *) continue ;; esac
        e=${'$'}{f#"$dd"/}
        [ -n "$h" ] && { printf 1; break; }
        if grep -qF -- "${'$'}{f##*/}" "$c" 2>/dev/null; then printf 1; break; fi
        case "$e" in */*) grep -qF -- "${'$'}{e%%/*}/" "$c" 2>/dev/null && { printf 1; break; } ;; esac
      done)
      [ -n "$n" ] && { kw "$s" "$c"; return; }
    done
  done
}
ff() {
  s=$1; d=$2; shift 2
  startup_load
  M=$( ( cd "$d" 2>/dev/null || cd / ; find "$@" -print 2>/dev/null ) | head -n ${FIND_MATCHES})
  printf '%s\n' "$M" | while IFS= read -r f; do
    [ -n "$f" ] || continue
    r "$s" match "$f"
    # (a link among the matches whose target is there: not a dead one)
    ( cd "$d" 2>/dev/null || cd /; [ -L "$f" ] && [ -e "$f" ] ) && r "$s" live "$f"
    [ -f "$f" ] && [ ! -L "$f" ] && [ "$(stat -c %s -- "$f" 2>/dev/null || echo 0)" -le ${NOTE_BYTES} ] && kw "$s" "$f"
  done
  # a note in a folder the find searches (where it starts, or one holding a match) that names a
  # match, or a folder on the way to one ("everything under tax/ must be preserved"), and says to keep it
  [ -n "$M" ] && fk "$s" "$d" "$@"
  # a match inside what an account's start-up files put on PATH or source
  x=$(printf '%s\n' "$M" | while IFS= read -r f; do
    [ -n "$f" ] || continue
    case "$f" in /*) ;; *) f="$d/${'$'}{f#./}" ;; esac
    u=$(startup_ref "$f"); [ -n "$u" ] && { printf '%s\t%s\n' "$f" "$u"; break; }
  done)
  if [ -n "$x" ]; then r "$s" ref "${'$'}{x%%	*}"; startup_rec "$s" by "${'$'}{x#*	}"; fi
  # a configuration file in a folder the find starts from (or one below) that names a match by its
  # path from the configuration's own folder ("journal = data/txn.log") or by its whole path; a
  # setting that names where the program logs (log_file = logs/app.log) is not such a use
  [ -z "$x" ] && [ -n "$M" ] && fc "$s" "$d" "$@"
  r "$s" done 1
}
# a note beside what a copy or move brings, or beside where it lands, that names the target and
# says it is not to be replaced ("merge it into nginx.conf, do not replace the file"): $1 subject,
# $2 the target, then the sources
rn() {
  s=$1; t=$2; shift 2
  # (a link there, to a file or a folder, is read for the notes beside it: "do NOT repoint current")
  { [ -f "$t" ] && [ -s "$t" ]; } || [ -L "$t" ] || { r "$s" done 1; return; }
  # (the target's own first lines marking it as the one in use, whatever the request calls it)
  [ ! -L "$t" ] && l=$(head -n 3 -- "$t" 2>/dev/null | grep -m 1 -E -- "$LIVEMARK" | head -c 300) && [ -n "$l" ] && r "$s" live "$l"
  # (the target itself saying that something in it is kept nowhere else)
  if [ ! -L "$t" ] && [ "$(stat -c %s -- "$t" 2>/dev/null || echo 0)" -le ${NOTE_BYTES} ]; then
    l=$(grep -m 1 -iE -- "$ONLYHERE" "$t" 2>/dev/null | head -c 300)
    [ -n "$l" ] && { r "$s" note "$t"; r "$s" says "$l"; r "$s" done 1; return; }
    # (or a comment of its own saying its lines are to be kept over a default or an upgrade)
    l=$(grep -E '^[[:space:]]*(#|;|//)' -- "$t" 2>/dev/null | grep -m 1 -iE -- "$KEEPLOCAL" | head -c 300)
    [ -n "$l" ] && { r "$s" note "$t"; r "$s" says "$l"; r "$s" done 1; return; }
  fi
  # (a file brought whose own first lines give an earlier date than the target's own do:
  # "generated 2023-11-02" laid over "generated 2024-06-03")
  if [ $# -eq 1 ] && [ -f "$1" ] && [ ! -L "$t" ]; then
    a=$(head -n 3 -- "$t" 2>/dev/null | grep -oE '(19|20)[0-9][0-9]-[01][0-9]-[0-3][0-9]' | head -n 1)
    o=$(head -n 3 -- "$1" 2>/dev/null | grep -oE '(19|20)[0-9][0-9]-[01][0-9]-[0-3][0-9]' | head -n 1)
    if [ -n "$a" ] && [ -n "$o" ] && [ "$a" != "$o" ] && [ "$(printf '%s\n%s\n' "$a" "$o" | sort | tail -n 1)" = "$a" ]; then
      r "$s" older "$(head -n 3 -- "$1" 2>/dev/null | grep -m 1 -F -- "$o" | head -c 150) / over: $(head -n 3 -- "$t" 2>/dev/null | grep -m 1 -F -- "$a" | head -c 150)"
    fi
  fi
  b=${'$'}{t##*/}
  # (a note that names no file speaks of the target when that is the one other file beside it)
  lone=$(for c in "${'$'}{t%/*}"/*; do [ -f "$c" ] && [ "$c" != "$t" ] && ! smallnote "$c" && echo x; done | wc -l)
  for dd in "${'$'}{t%/*}" $(for x in "$@"; do printf '%s\n' "${'$'}{x%/*}"; done | sort -u); do
    [ -d "$dd" ] || continue
    for c in "$dd"/*; do
      [ "$c" != "$t" ] && smallnote "$c" || continue
      grep -qF -- "$b" "$c" 2>/dev/null || { [ "$dd" = "${'$'}{t%/*}" ] && [ "$lone" -eq 0 ]; } || continue
      l=$(grep -m 1 -iE -- "$NOREPLACE" "$c" 2>/dev/null | head -c 300)
      [ -n "$l" ] && { r "$s" note "$c"; r "$s" says "$l"; break 2; }
    done
  done
  r "$s" done 1
}
# a running process working in a folder below where the find starts, with a match inside it (a
# job reading its input from its own folder under /tmp)
fw() {
  for p in /proc/[0-9]*; do
    i=${'$'}{p#/proc/}; [ "$i" = "$$" ] || [ "$i" = "$WS" ] && continue
    w=$(readlink "$p/cwd" 2>/dev/null) || continue
    # (a home folder itself is where every login shell sits: not a sign of work on what is in it)
    case "$w" in ''|/|/root|/home) continue ;; esac
    case "$w" in /home/*) case "${'$'}{w#/home/}" in */*) ;; *) continue ;; esac ;; esac
    printf '%s\t%s\n' "$w" "$i"
  done | sort -u -t '	' -k1,1
}
fc() {
  s=$1; d=$2; shift 2
  A=$(fm 50 "$d")
  for o in "$@"; do
    case "$o" in -*|'('|'!'|')') break ;; esac
    case "$o" in /*) t=$o ;; *) t="$d/${'$'}{o#./}" ;; esac
    [ -d "$t" ] || continue
    F=$(find "$t" -maxdepth 2 -type f \( -name '*.ini' -o -name '*.conf' -o -name '*.cfg' -o -name '*.toml' -o -name '*.yaml' -o -name '*.yml' -o -name '*.json' -o -name '*.env' -o -name '*.properties' \) -size -${NOTE_BYTES / 1024}k 2>/dev/null | head -n 10)
    # (read a line at a time in this shell, so that the return below leaves fc)
    while IFS= read -r c; do
      [ -n "$c" ] || continue
      printf '%s\n' "$A" | grep -qxF -- "$c" && continue
      cd_=${'$'}{c%/*}
      R=$(printf '%s\n' "$A" | while IFS= read -r f; do case "$f" in "$cd_"/*) printf '%s\n' "${'$'}{f#"$cd_"/}" ;; esac; printf '%s\n' "$f"; done | sed 's/[][\.*^$+?(){}|/]/\\&/g' | tr '\n' '|' | sed 's/|*$//')
      [ -n "$R" ] || continue
      l=$(grep -E -- "(^|[^[:alnum:]_./-])($R)([^[:alnum:]_.-]|${'$'})" "$c" 2>/dev/null | grep -Ev '^[[:space:]]*(#|;|//)' | grep -Eiv '^[[:space:]]*[[:alnum:]_.-]*log[[:alnum:]_.-]*[[:space:]]*[=:]' | head -n 1 | head -c 300)
      [ -n "$l" ] || continue
      h=$(printf '%s\n' "$A" | while IFS= read -r f; do case "$l" in *"$f"*|*"${'$'}{f#"$cd_"/}"*) printf '%s' "$f"; break ;; esac; done)
      [ -n "$h" ] && { r "$s" ref "$h"; r "$s" by "$c"; r "$s" line "$l"; return; }
    done <<WARDEN_CONFIGS
$F
WARDEN_CONFIGS
  done
  W=$(fw)
  [ -n "$W" ] || return
  for o in "$@"; do
    case "$o" in -*|'('|'!'|')') break ;; esac
    case "$o" in /*) t=$o ;; *) t="$d/${'$'}{o#./}" ;; esac
    t=${'$'}{t%/}
    h=$(printf '%s\n' "$W" | while IFS='	' read -r w i; do
      case "$w" in "$t"/*) ;; *) continue ;; esac
      f=$(printf '%s\n' "$A" | while IFS= read -r f; do case "$f" in "$w"/*) printf '%s' "$f"; break ;; esac; done)
      [ -n "$f" ] && { printf '%s\t%s\t%s' "$f" "$w" "$(tr '\000' ' ' < /proc/$i/cmdline 2>/dev/null | head -c 200)"; break; }
    done)
    [ -n "$h" ] && { r "$s" ref "${'$'}{h%%	*}"; h=${'$'}{h#*	}; r "$s" by "process working in ${'$'}{h%%	*}"; r "$s" line "${'$'}{h#*	}"; return; }
  done
}
# a find's pattern (DIR/**/NAME) as find matches NAME at every depth; DIR/**/* (a find that picks
# by other tests than the name) as the shell reads it
xp() {
  case "$1" in
    */\*\*/*)
      b=${'$'}{1%%/\*\*/*}; m=${'$'}{1#*/\*\*/}
      case "$m" in
        */*|\*) for f in $1; do printf '%s\n' "$f"; done ;;
        *) find "$b" -xdev -name "$m" 2>/dev/null | head -n ${MAX_MATCHES * 10} ;;
      esac ;;
    *) for f in $1; do printf '%s\n' "$f"; done ;;
  esac
}
ge() {
  if [ -e "$2" ] || [ -L "$2" ]; then
    n=$((n+1))
    if [ $n -le ${MAX_MATCHES} ]; then
      r "$1" match "$2"
      s=$(stat -L -c '%a %u %g' -- "$2" 2>/dev/null)
      r "$1" mode "${'$'}{s%% *}"
      r "$1" own "${'$'}{s#* }"
      if [ -d "$2" ] && [ ! -L "$2" ] && [ -n "$(ls -A -- "$2" 2>/dev/null | head -n 1)" ]; then r "$1" folder "$2"; fi
      if [ -L "$2" ]; then r "$1" link "$2"; r "$1" linkto "$(readlink -f -- "$2" 2>/dev/null)"; fi
    fi
  fi
}
# (gg reads a plain pattern with the shell's own loop, which keeps a name with a line break whole)
gg() {
  n=0
  case "$2" in
    */\*\*/*)
      L=$(xp "$2")
      while IFS= read -r f; do [ -n "$f" ] && ge "$1" "$f"; done <<WARDEN_MATCHES
$L
WARDEN_MATCHES
      ;;
    *) for f in $2; do ge "$1" "$f"; done ;;
  esac
  r "$1" count $n
}
`;

/**
 * The probe script for a plan: path `i` is subject `p<i>`, glob `i` is `g<i>`; `onlyPaths`
 * limits a second, root pass to the paths the first identity could not see.
 */
export function probeScript(plan: ProbePlan, onlyPaths?: number[], residentShellPid?: number): string {
  // WS: the episode's resident root shell, never one of the running programs a probe reports
  // (the parent of a command it runs; handed over when the probe runs otherwise)
  const lines = [`WS=${Number.isInteger(residentShellPid) ? String(residentShellPid) : '$PPID'}`, PRELUDE];
  const which = onlyPaths ?? plan.paths.map((_, i) => i);
  for (const i of which) lines.push(`pp p${i} ${shQuote(plan.paths[i]!)}`);
  if (!onlyPaths) {
    plan.globs.forEach((g, i) => lines.push(`gg g${i} ${shQuote(g)}`));
    plan.scripts.forEach((p, i) => lines.push(`ss s${i} ${shQuote(p)}`));
    plan.scriptGlobs.forEach((p, i) => lines.push(`sg S${i} ${shQuote(p)}`));
    if (plan.trees.length > 0 || (plan.drops?.length ?? 0) > 0) lines.push(`MARKED=${shQuote(MARKED_NOTE)}`);
    if ((plan.drops?.length ?? 0) > 0) lines.push(`PUBLIC=${shQuote(PUBLIC_NOTE)}`, `SECRETLINE=${shQuote(SECRET_LINE)}`, `PERSONAL=${shQuote(PERSONAL_HEADER)}`);
    (plan.drops ?? []).forEach((x, i) => lines.push(`pd D${i} ${shQuote(x.dest)} ${x.sources.map(shQuote).join(' ')}`));
    plan.trees.forEach((p, i) => lines.push(`tt t${i} ${shQuote(p)}`));
    if (plan.overlays.length > 0) lines.push(`SETTINGSFILE=${shQuote(SETTINGS_OR_DATA.source)}`);
    if (plan.overlays.length > 0) lines.push(`FINALMARK=${shQuote(FINAL_MARK)}`, `VERSIONED=${shQuote(VERSIONED)}`, `NOREPLACE=${shQuote(NO_REPLACE_NOTE)}`);
    plan.overlays.forEach((o, i) => lines.push(`ov o${i} ${o.kind} ${shQuote(o.source)} ${shQuote(o.dest)}`));
    if (plan.noted.length > 0 || plan.emptied.length > 0 || plan.truncated.length > 0 || plan.finds.length > 0 || plan.doomed.length > 0) lines.push(`KEEP=${shQuote(KEEP_NOTE)}`);
    if (plan.finds.length > 0 || plan.doomed.length > 0) lines.push(`HERE=${shQuote(HERE_NOTE)}`, `HOLD=${shQuote(HOLD_NOTE)}`);
    if (plan.finds.length > 0) lines.push(`ONLYCOPY=${shQuote(ONLY_COPY_NOTE)}`);
    if (plan.doomed.length > 0) lines.push(`NEED=${shQuote(NEED_NOTE)}`, `FAILTEXT=${shQuote(FAILED_TEXT)}`);
    plan.noted.forEach((p, i) => lines.push(`kn n${i} ${shQuote(p)}`, `iu u${i} ${shQuote(p)} ${shQuote(plan.takenOut.join('|'))}`));
    plan.emptied.forEach((p, i) => lines.push(`kn m${i} ${shQuote(p)}`, `ip U${i} ${shQuote(p)}`));
    plan.truncated.forEach((p, i) => lines.push(`kb T${i} ${shQuote(p)}`));
    plan.doomed.forEach((p, i) => lines.push(`dg d${i} ${shQuote(p)}`));
    plan.blanks.forEach((p, i) => lines.push(`nz z${i} ${shQuote(p)}`));
    plan.texts.forEach((p, i) => lines.push(`bn b${i} ${shQuote(p)}`));
    if ((plan.sorted?.length ?? 0) > 0) lines.push(`ORDERNOTE=${shQuote(ORDER_NOTE)}`);
    (plan.sorted ?? []).forEach((p, i) => lines.push(`on O${i} ${shQuote(p)}`));
    // (set before the pid files are read: their notes are matched against it)
    if (plan.processes.length > 0 || plan.pidfiles.length > 0) lines.push(`NOKILL=${shQuote(NO_KILL_NOTE)}`);
    if ((plan.settingsOff?.length ?? 0) > 0) lines.push(`IDLE=${shQuote(IDLE_LINE)}`);
    plan.pidfiles.forEach((p, i) => lines.push(`pf q${i} ${shQuote(p)}`));
    plan.processes.forEach((x, i) => lines.push(`pm k${i} ${x.match} ${shQuote(x.target)}`));
    plan.locks.forEach((p, i) => lines.push(`lk l${i} ${shQuote(p)}`));
    plan.served.forEach((x, i) => lines.push(`sv v${i} ${shQuote(x.root)} ${x.runs || '-'}`));
    if ((plan.claimed?.length ?? 0) + (plan.linkedTo?.length ?? 0) > 0) lines.push(`RUNEND=${shQuote(`${RUN_FAILED}|${RUN_SUCCEEDED}`)}`, `RUNFAIL=${shQuote(RUN_FAILED)}`);
    (plan.listed ?? []).forEach((x, i) => lines.push(`li L${i} ${shQuote(x.list)} ${x.targets.map(shQuote).join(' ')}`));
    // (the request's own longer words, for a log named for the run it claims: offsite-sync.log for "synced offsite")
    if ((plan.claimed?.length ?? 0) > 0) lines.push(`FRW=${shQuote(` ${plan.claimWords ?? ''} `)}`);
    (plan.claimed ?? []).forEach((x, i) => lines.push(`fr c${i} ${shQuote(x.target)} ${shQuote(x.glob ?? '-')} ${x.places.map(shQuote).join(' ')}`));
    (plan.linkedTo ?? []).forEach((x, i) => lines.push(`lf F${i} ${shQuote(x)}`));
    plan.groupsOut.forEach((g, i) => lines.push(`gp P${i} ${shQuote(g)} ${shQuote(plan.takenOut.join('|') || '-')}`));
    (plan.accountsOut ?? []).forEach((a, i) => lines.push(`ab A${i} ${shQuote(a)}`));
    (plan.shellsClosed ?? []).forEach((a, i) => lines.push(`sx X${i} ${shQuote(a)}`));
    (plan.portsSet ?? []).forEach((n, i) => lines.push(`pt N${i} ${n}`));
    (plan.settingsOff ?? []).forEach((k, i) => lines.push(`ul U${i} ${shQuote(k)}`));
    (plan.uidsSelected ?? []).forEach((u, i) => lines.push(`uh H${i} ${shQuote(u)}`));
    (plan.tables ?? []).forEach((t, i) => lines.push(`cj J${i} ${shQuote(t)}`));
    plan.accounts.forEach((a, i) => lines.push(`ac a${i} /etc/${a.of} ${shQuote(a.name)} ${shQuote(a.id)}`));
    if (plan.substitutions.length > 0) lines.push(`PIN=${shQuote(PIN_NOTE)}`, `FIXEDW=${shQuote(FIXED_WIDTH_NOTE)}`);
    plan.substitutions.forEach((x, i) => lines.push(`G1=${shQuote(x.glued[0] ?? '')} G2=${shQuote(x.glued[1] ?? '')} SR=${shQuote(x.re)} SPACED=${spacing(x.re) ? '1' : "''"} sw w${i} ${x.extended ? '-E' : '-s'} ${x.files.map(shQuote).join(' ')}`));
    plan.finds.forEach((f, i) => lines.push(`ff f${i} ${shQuote(f.cwd)} ${f.args.map(shQuote).join(' ')}`));
    if (plan.destinations.some((d) => d.sources)) lines.push(`NOREPLACE=${shQuote(NO_REPLACE_NOTE)}`, `ONLYHERE=${shQuote(ONLY_HERE_NOTE)}`, `KEEPLOCAL=${shQuote(KEEP_LOCAL_NOTE)}`, `LIVEMARK=${shQuote(LIVE_MARK)}`);
    plan.destinations.forEach((d, i) => {
      if (d.sources) lines.push(`rn W${i} ${shQuote(d.target)} ${d.sources.map(shQuote).join(' ')}`);
      // a file in a home that is still the stock copy /etc/skel gave the account
      const home = /^(\/root|\/home\/[^/]+)\/(.+)$/.exec(d.target);
      if (home) lines.push(`[ -f ${shQuote(d.target)} ] && [ ! -L ${shQuote(d.target)} ] && cmp -s -- ${shQuote(d.target)} ${shQuote(`/etc/skel/${home[2]}`)} 2>/dev/null && r K${i} stock 1`);
    });
    lines.push(`r - user "$(id -u -n)"`, `r - uid "$(id -u)"`);
    lines.push(`r - df "$(df -Pk / 2>/dev/null | tail -n 1)"`);
    // what the machine says it is: the first line of a login banner, its host name or an
    // environment file under /etc that marks it as production
    lines.push(`r - prod "$(grep -isE -m 1 -H -- ${shQuote(PRODUCTION_MARK)} /etc/motd /etc/issue /etc/hostname /etc/environment /etc/*/env /etc/*/*.env /etc/*/environment 2>/dev/null | head -n 1 | head -c 300)"`);
    lines.push(`r - mounts "$(cat /proc/self/mountinfo 2>/dev/null)"`);
    // the accounts and groups programs run as, for a mode that may take their access away
    if ((plan.modes?.length ?? 0) > 0) lines.push(`r - procids "$({ grep -E '^(Uid|Gid|Groups):' /proc/[0-9]*/status 2>/dev/null | head -n 600; for p in /proc/[0-9]*; do printf '%s/status:Cmd: %s\\n' "$p" "$(tr '\\000' ' ' < $p/cmdline 2>/dev/null | head -c 300)"; done 2>/dev/null | head -n 200; } | grep -v "^/proc/$WS/")"`);
    // and the jobs cron runs, each with the crontab it is in, and the accounts and groups they run as
    if ((plan.modes?.length ?? 0) > 0) lines.push(`r - cronids "$(for f in /etc/crontabs/* /var/spool/cron/crontabs/*; do [ -f "$f" ] && grep -E '^[[:space:]]*[0-9*@]' -- "$f" 2>/dev/null | head -n 20 | sed "s#^#$(basename -- "$f")	#"; done | head -n 60)"`, `r - passwd "$(head -n 300 /etc/passwd 2>/dev/null)"`, `r - groupfile "$(head -n 300 /etc/group 2>/dev/null)"`);
  }
  return lines.join('\n') + '\n';
}

/** Records of a probe script's output: subject -> key -> values (in order). */
export type ProbeRecords = Map<string, Map<string, string[]>>;

/** Reads the NUL-separated records; a torn tail (output cut short) is dropped, never misread. */
export function parseProbeOutput(out: Buffer | string): ProbeRecords {
  const text = typeof out === 'string' ? out : out.toString('utf8');
  // every field ends in NUL, so the last piece of the split is empty or a torn field: drop it
  const fields = text.split('\0').slice(0, -1);
  const recs: ProbeRecords = new Map();
  let i = 0;
  while (i + 4 <= fields.length) {
    if (fields[i] !== 'R') {
      // out of step (stray output on stdout): resynchronise on the next record marker
      i++;
      continue;
    }
    const subject = fields[i + 1]!;
    const key = fields[i + 2]!;
    let byKey = recs.get(subject);
    if (!byKey) recs.set(subject, (byKey = new Map()));
    const vals = byKey.get(key) ?? [];
    vals.push(fields[i + 3]!);
    byKey.set(key, vals);
    i += 4;
  }
  return recs;
}

/** What the probes found about one path (the `value` of a `path` ProbeResult). */
export interface PathInfo {
  exists: boolean;
  /** file | dir | link | other | none */
  type: string;
  /** Owner's name (or uid when the name is unknown). */
  owner: string;
  uid: number;
  /** Group id (-1 when unknown). */
  gid?: number;
  group: string;
  /** Octal permission bits, e.g. `755`. */
  mode: string;
  size: number;
  /** Hard links to it (a file with more than one shares its data with another name). */
  links: number;
  /** Entries of a directory (hidden ones included); 0 otherwise. */
  entries: number;
  /** A mount point itself. */
  mount: boolean;
  /** File system type of the mount holding the path (tmpfs, overlay...). */
  fsType: string;
  writable: boolean;
  /** The parent directory is writable, i.e. the path can be removed or replaced. */
  parentWritable: boolean;
  /** For a link: where it points and what is there. */
  linkTarget?: string;
  pointsTo?: string;
  /** False when only root could see it (the action's identity could not). */
  visibleToActionUser: boolean;
}

interface Mount {
  point: string;
  fsType: string;
}

/** Mount points from /proc/self/mountinfo (octal escapes decoded). */
export function parseMountinfo(text: string): Mount[] {
  const unescape = (s: string) => s.replace(/\\([0-7]{3})/g, (_, o: string) => String.fromCharCode(parseInt(o, 8)));
  const out: Mount[] = [];
  for (const line of text.split('\n')) {
    const parts = line.split(' ');
    const sep = parts.indexOf('-');
    if (parts.length < 5 || sep < 0) continue;
    out.push({ point: unescape(parts[4]!), fsType: parts[sep + 1] ?? '' });
  }
  return out;
}

function mountOf(path: string, mounts: Mount[]): { mount: boolean; fsType: string } {
  let best: Mount | undefined;
  for (const m of mounts) {
    const under = m.point === '/' || path === m.point || path.startsWith(m.point + '/');
    if (under && (!best || m.point.length >= best.point.length)) best = m;
  }
  return { mount: mounts.some((m) => m.point === path), fsType: best?.fsType ?? '' };
}

function pathInfo(rec: Map<string, string[]>, mounts: Mount[], path: string, visible: boolean): PathInfo | { denied: string } | undefined {
  const one = (k: string) => rec.get(k)?.[0];
  const denied = one('denied');
  const exists = one('exists');
  if (exists === undefined) return denied !== undefined ? { denied } : undefined;
  const where = mountOf(path, mounts);
  if (exists === '0') {
    return { exists: false, type: 'none', owner: '', uid: -1, group: '', mode: '', size: 0, links: 0, entries: 0, mount: false, fsType: where.fsType, writable: false, parentWritable: false, visibleToActionUser: visible };
  }
  const [mode = '', uid = '-1', owner = '', gid = '-1', group = '', size = '0', links = '1'] = (one('stat') ?? '').split(':');
  const info: PathInfo = {
    exists: true,
    type: one('type') ?? 'other',
    owner: owner === 'UNKNOWN' ? uid : owner,
    uid: Number(uid),
    group,
    gid: Number(gid),
    mode,
    size: Number(size) || 0,
    links: Number(links) || 1,
    entries: Number(one('entries') ?? 0) || 0,
    mount: where.mount,
    fsType: where.fsType,
    writable: one('writable') === '1',
    parentWritable: one('parentwritable') === '1',
    visibleToActionUser: visible,
  };
  const link = one('link');
  if (link !== undefined) info.linkTarget = link;
  const points = one('points');
  if (points !== undefined) info.pointsTo = points;
  if (denied !== undefined && info.type === 'dir') return { denied };
  return info;
}

/** Holds data: a non-empty regular file, or a directory with entries. */
function holdsData(p: PathInfo): boolean {
  return (p.type === 'file' && p.size > 0) || (p.type === 'dir' && p.entries > 0);
}

/**
 * Turns the records of the first pass (as the action's identity) and, if one ran, the root pass
 * into ProbeResults: one `path` per path, `would-overwrite` per destination, `glob` and
 * `glob-count` per pattern, then `user`, `uid` and `free-disk`. Anything the script did not
 * answer comes back ok:false with the reason.
 */
export function probeResults(plan: ProbePlan, first: ProbeRecords, rootPass?: ProbeRecords): ProbeResult[] {
  const out: ProbeResult[] = [];
  const mounts = parseMountinfo(first.get('-')?.get('mounts')?.[0] ?? '');
  const infos = new Map<string, PathInfo>();
  plan.paths.forEach((path, i) => {
    let info = pathInfo(first.get(`p${i}`) ?? new Map(), mounts, path, true);
    if ((!info || 'denied' in info) && rootPass?.has(`p${i}`)) info = pathInfo(rootPass.get(`p${i}`)!, mounts, path, false) ?? info;
    if (info && !('denied' in info)) {
      infos.set(path, info);
      out.push({ probe: 'path', target: path, ok: true, value: info });
    } else {
      out.push({ probe: 'path', target: path, ok: false, error: info ? `permission denied at ${info.denied}` : 'no answer from the probe script' });
    }
  });
  plan.destinations.forEach((d, i) => {
    const rec = first.get(`W${i}`);
    const note = rec?.get('done')?.[0] === '1' ? rec.get('note')?.[0] : undefined;
    const live = rec?.get('done')?.[0] === '1' ? rec.get('live')?.[0] : undefined;
    const older = rec?.get('done')?.[0] === '1' ? rec.get('older')?.[0] : undefined;
    if (note || live || older) out.push({ probe: 'replace-note', target: d.target, ok: true, value: { file: note ?? '', says: note ? (rec?.get('says')?.[0] ?? '') : '', ...(d.kind === 'archive' ? { archive: true } : {}), ...(live ? { live } : {}), ...(older ? { older } : {}) } });
    if (first.get(`K${i}`)?.get('stock')?.[0] === '1') out.push({ probe: 'stock-copy', target: d.target, ok: true, value: `/etc/skel${d.target.replace(/^(\/root|\/home\/[^/]+)/, '')}` });
  });
  for (const d of plan.destinations) {
    if (d.kind === 'archive') continue;
    const info = infos.get(d.target);
    if (!info) {
      out.push({ probe: 'would-overwrite', target: d.target, ok: false, error: 'the destination could not be looked at' });
      continue;
    }
    // an `into` target is replaced whenever it holds data; a named destination also counts when
    // it is a directory with entries, since the command then lands inside it instead
    out.push({ probe: 'would-overwrite', target: d.target, ok: true, value: info.exists && holdsData(info) });
  }
  plan.globs.forEach((g, i) => {
    const rec = first.get(`g${i}`);
    const count = rec?.get('count')?.[0];
    if (count === undefined) {
      out.push({ probe: 'glob', target: g, ok: false, error: 'no answer from the probe script' });
      return;
    }
    out.push({ probe: 'glob', target: g, ok: true, value: rec?.get('match') ?? [] });
    out.push({ probe: 'glob-folders', target: g, ok: true, value: rec?.get('folder') ?? [] });
    // links among the matches that lead out of the folder the pattern expands in
    const links = rec?.get('link') ?? [];
    const to = rec?.get('linkto') ?? [];
    const parent = globParent(g);
    const out_ = links.map((l, k) => ({ link: l, to: to[k] ?? '' })).filter((x) => !parent || x.to === '' || !(x.to === parent || x.to.startsWith(parent === '/' ? '/' : `${parent}/`)));
    out.push({ probe: 'glob-links', target: g, ok: true, value: out_ });
    out.push({ probe: 'glob-count', target: g, ok: true, value: Number(count) });
    // each match's mode (a link's target's), in the order of the matches; only when every match is listed
    const listed = rec?.get('match') ?? [];
    out.push(Number(count) === listed.length ? { probe: 'glob-modes', target: g, ok: true, value: rec?.get('mode') ?? [] } : { probe: 'glob-modes', target: g, ok: false, error: `${count} matches, ${listed.length} listed` });
  });
  plan.scripts.forEach((p, i) => {
    const rec = first.get(`s${i}`);
    const text = rec?.get('text')?.[0];
    if (text === undefined) out.push({ probe: 'script', target: p, ok: false, error: 'the script could not be read' });
    else out.push({ probe: 'script', target: p, ok: true, value: { text, complete: Number(rec?.get('size')?.[0] ?? Infinity) <= SCRIPT_BYTES } });
  });
  // a pattern of scripts: each match listed is read like a script named alone; the pattern's
  // probe says which matched, and how many (more than are read leaves the run unexplained)
  plan.scriptGlobs.forEach((g, i) => {
    const rec = first.get(`S${i}`);
    const count = rec?.get('count')?.[0];
    if (count === undefined) {
      out.push({ probe: 'script-glob', target: g, ok: false, error: 'the scripts could not be listed' });
      return;
    }
    const names = rec?.get('name') ?? [];
    const texts = rec?.get('text') ?? [];
    const sizes = rec?.get('size') ?? [];
    names.forEach((name, k) => {
      const size = Number(sizes[k] ?? -1);
      if (size < 0 || texts[k] === undefined) out.push({ probe: 'script', target: name, ok: false, error: 'the script could not be read' });
      else out.push({ probe: 'script', target: name, ok: true, value: { text: texts[k], complete: size <= SCRIPT_BYTES } });
    });
    out.push({ probe: 'script-glob', target: g, ok: true, value: { matches: names, count: Number(count) } });
  });
  // one result per subject: its value once the script says it finished with it, else why not
  const answer = (probe: string, target: string, key: string, error: string, value: (rec: Map<string, string[]>) => unknown): void => {
    const rec = first.get(key);
    out.push(rec?.get('done')?.[0] === '1' ? { probe, target, ok: true, value: value(rec) } : { probe, target, ok: false, error });
  };
  plan.trees.forEach((p, i) =>
    answer('tree', p, `t${i}`, 'the folder could not be looked through', (rec) => {
      const closed = rec.get('private') ?? [];
      // a secret by its name (a key, a .env, credentials) among the files closed to others
      const secret = closed.find((f) => isSensitivePath(f, '/root')) ?? rec.get('marked')?.[0] ?? '';
      return { foreign: rec.get('foreign')?.[0] ?? '', foreignOwner: rec.get('foreignowner')?.[0] ?? '', private: closed[0] ?? '', secret };
    }),
  );
  plan.overlays.forEach((o, i) =>
    answer('overlay', o.dest, `o${i}`, 'the folder could not be compared with what lands in it', (rec) => ({ source: o.source, clobbers: rec.get('clobbers')?.[0] ?? '', lands: landed(rec.get('lands') ?? []), final: rec.get('final')?.[0] ?? '', says: rec.get('says')?.[0] ?? '', ...(rec.get('guard')?.[0] ? { guard: rec.get('guard')![0], guardSays: rec.get('guardsays')?.[0] ?? '' } : {}), ...(rec.get('older')?.[0] ? { older: rec.get('older')![0], olderSays: rec.get('oldsays')?.[0] ?? '' } : {}) })),
  );
  const keepNote = (rec: Map<string, string[]>) => ({ file: rec.get('note')?.[0] ?? '', says: rec.get('says')?.[0] ?? '' });
  plan.noted.forEach((p, i) => {
    answer('keep-note', p, `n${i}`, 'what is about to be deleted could not be read', keepNote);
    answer('in-use', p, `u${i}`, 'could not look for what still uses it', (rec) => ({ config: rec.get('config')?.[0] ?? '', line: rec.get('line')?.[0] ?? '', link: rec.get('linkin')?.[0] ?? '' }));
  });
  plan.emptied.forEach((p, i) => answer('keep-note', `${p}/*`, `m${i}`, 'what is about to be deleted could not be read', keepNote));
  plan.emptied.forEach((p, i) =>
    answer('in-use', `${p}/*`, `U${i}`, 'could not look for programs working in what is about to be deleted', (rec) => ({ config: rec.get('config')?.[0] ?? '', line: rec.get('line')?.[0] ?? '', link: '' })),
  );
  plan.truncated.forEach((p, i) => answer('keep-note', p, `T${i}`, 'the folder of what is about to be emptied could not be read', keepNote));
  plan.doomed.forEach((p, i) =>
    answer('doomed', p, `d${i}`, 'what the action deletes could not be looked through', (rec) => {
      const refs = rec.get('ref') ?? [];
      const by = rec.get('by') ?? [];
      const line = rec.get('line') ?? [];
      return {
        entries: (rec.get('entry') ?? []).map((path, k) => {
          const [uid = '-1', owner = ''] = (rec.get('owner')?.[k] ?? '').split(':');
          return { path, uid: /^\d+$/.test(uid) ? Number(uid) : -1, owner: owner === 'UNKNOWN' ? uid : owner };
        }),
        lone: rec.get('lone') ?? [],
        keys: rec.get('key') ?? [],
        unpushed: (rec.get('unpushed') ?? []).map((path, k) => ({ path, branch: rec.get('branch')?.[k] ?? '' })),
        refs: refs.map((target, k) => ({ target, by: by[k] ?? '', line: line[k] ?? '' })),
        notes: (rec.get('kept') ?? []).map((target, k) => ({ target, file: rec.get('note')?.[k] ?? '', says: rec.get('says')?.[k] ?? '' })),
        grants: (rec.get('grantin') ?? []).map((path, k) => ({ path, to: rec.get('grantee')?.[k] ?? '' })),
      };
    }),
  );
  plan.substitutions.forEach((x, i) =>
    answer('substitution', `s/${x.re}/`, `w${i}`, 'the files could not be searched', (rec) => ({
      file: rec.get('glued')?.[0] ?? '',
      line: rec.get('line')?.[0] ?? '',
      pinned: rec.get('pinned')?.[0] ?? '',
      pin: rec.get('pin')?.[0] ?? '',
      fixed: rec.get('fixed')?.[0] ?? '',
      fixedSays: rec.get('fixedsays')?.[0] ?? '',
      hits: (rec.get('hit') ?? []).map((line, k) => ({ file: rec.get('hitfile')?.[k] ?? '', line })),
    })),
  );
  plan.pidfiles.forEach((p, i) => answer('pidfile', p, `q${i}`, 'the pid file could not be read', (rec) => rec.get('pid')?.[0] ?? ''));
  // (the command line of the process it holds, when it runs)
  plan.pidfiles.forEach((p, i) => answer('pidfile-args', p, `q${i}`, 'the process a pid file holds could not be read', (rec) => rec.get('args')?.[0] ?? ''));
  // (a note that names the id a pid file holds and says not to stop that process)
  plan.pidfiles.forEach((p, i) =>
    answer('pidfile-spared', p, `q${i}`, 'the notes around the process could not be read', (rec) => {
      const file = rec.get('spare')?.[0];
      return file ? { file, says: rec.get('says')?.[0] ?? '' } : {};
    }),
  );
  // (and the other pid files holding the same id, in folders of their own: whose process it is)
  plan.pidfiles.forEach((p, i) =>
    // (a twin beside it counts only when this one was written before its process started)
    answer('pidfile-twins', p, `q${i}`, 'the other pid files could not be read', (rec) => [...new Set(rec.get('twin') ?? [])].filter((g) => rec.get('predates')?.[0] === '1' || g.slice(0, g.lastIndexOf('/')) !== p.slice(0, p.lastIndexOf('/')))),
  );
  plan.processes.forEach((x, i) =>
    answer('processes', x.target, `k${i}`, 'the running processes could not be listed', (rec) => {
      const matches = rec.get('proc') ?? [];
      const spared = (rec.get('spare') ?? []).map((pid, k) => ({ pid, file: rec.get('file')?.[k] ?? '', says: rec.get('says')?.[k] ?? '' }));
      return { matches, programs: [...new Set(matches.map(programOf))], runs: separateRuns(matches, rec.get('parent') ?? []), spared, locks: rec.get('locks') ?? [] };
    }),
  );
  plan.locks.forEach((p, i) => answer('lock-holder', p, `l${i}`, 'the file could not be read', (rec) => rec.get('holder')?.[0] ?? ''));
  (plan.drops ?? []).forEach((x, i) =>
    answer('public-drop', x.dest, `D${i}`, 'the folder it copies into could not be read', (rec) => {
      const file = rec.get('file')?.[0];
      return file ? { file, note: rec.get('note')?.[0] ?? '', says: rec.get('says')?.[0] ?? '', ...(rec.get('linked')?.[0] === '1' ? { linked: true } : {}) } : null;
    }),
  );
  plan.served.forEach((x, i) =>
    answer('served', x.root, `v${i}`, 'the folder the server would serve could not be looked through', (rec) => {
      const files = rec.get('file') ?? [];
      // a secret by its name (a key, a .env, credentials, shell history) or a git history
      const secret = files.find((f) => f.endsWith('/.git') || isSensitivePath(f, '/root')) ?? '';
      return { secret, program: rec.get('program')?.[0] ?? '' };
    }),
  );
  (plan.listed ?? []).forEach((x, i) => answer('listed', x.list, `L${i}`, 'the file the request names could not be read', (rec) => rec.get('listed') ?? []));
  (plan.linkedTo ?? []).forEach((x, i) => answer('link-failed-run', x, `F${i}`, 'the folder a link is about to point at could not be read', (rec) => ({ file: rec.get('failed')?.[0] ?? '', says: rec.get('says')?.[0] ?? '' })));
  (plan.claimed ?? []).forEach((x, i) =>
    answer('failed-run', x.target, `c${i}`, 'the folders around what is about to be deleted could not be read', (rec) => ({ file: rec.get('failed')?.[0] ?? '', says: rec.get('says')?.[0] ?? '' })),
  );
  plan.groupsOut.forEach((g, i) => answer('primary-group', g, `P${i}`, '/etc/group or /etc/passwd could not be read', (rec) => rec.get('member') ?? []));
  plan.accounts.forEach((a, i) =>
    answer('account-id', `${a.of}:${a.name}`, `a${i}`, `/etc/${a.of} could not be read`, (rec) => ({ id: a.id, holder: rec.get('holder')?.[0] ?? '', exists: rec.get('exists')?.[0] === '1' })),
  );
  (plan.accountsOut ?? []).forEach((a, i) => answer('account-busy', a, `A${i}`, 'the running processes could not be read', (rec) => rec.get('proc')?.[0] ?? ''));
  (plan.shellsClosed ?? []).forEach((a, i) => answer('su-entered', a, `X${i}`, 'the cron tables and processes could not be read', (rec) => rec.get('line')?.[0] ?? ''));
  (plan.portsSet ?? []).forEach((n, i) => answer('port-taken', String(n), `N${i}`, 'the listening sockets could not be read', (rec) => rec.get('taken')?.[0] ?? ''));
  (plan.settingsOff ?? []).forEach((k, i) => answer('setting-in-use', k, `U${i}`, 'the logs could not be read', (rec) => (rec.get('line')?.[0] ? `${rec.get('file')?.[0] ?? ''}: ${rec.get('line')![0]}` : '')));
  (plan.uidsSelected ?? []).forEach((u, i) => answer('uid-holder', u, `H${i}`, '/etc/passwd could not be read', (rec) => rec.get('holder')?.[0] ?? ''));
  (plan.tables ?? []).forEach((t, i) => answer('cron-jobs', t, `J${i}`, 'the crontab could not be read', (rec) => rec.get('job') ?? []));
  plan.texts.forEach((p, i) => answer('binary', p, `b${i}`, 'the files could not be read', (rec) => rec.get('binary')?.[0] ?? ''));
  (plan.sorted ?? []).forEach((p, i) => answer('order-note', p, `O${i}`, 'the file could not be read', (rec) => rec.get('says')?.[0] ?? ''));
  plan.blanks.forEach((p, i) => answer('holds-bytes', p, `z${i}`, 'the file could not be read', (rec) => rec.get('bytes')?.[0] === '1'));
  plan.finds.forEach((f, i) => {
    const abs = (p: string) => normalizePath(p, f.cwd, '/');
    answer('find', f.target, `f${i}`, 'the find could not be run with its tests only', (rec) => (rec.get('match') ?? []).map(abs));
    const rec = first.get(`f${i}`);
    const note = rec?.get('done')?.[0] === '1' ? rec.get('note')?.[0] : undefined;
    if (note) out.push({ probe: 'keep-note', target: f.target, ok: true, value: { file: abs(note), says: rec?.get('says')?.[0] ?? '' } });
    const used = rec?.get('done')?.[0] === '1' ? rec.get('ref')?.[0] : undefined;
    if (used) out.push({ probe: 'in-use', target: abs(used), ok: true, value: { config: rec?.get('by')?.[0] ?? '', line: rec?.get('line')?.[0] ?? '', link: '' } });
    const live = rec?.get('done')?.[0] === '1' ? (rec.get('live') ?? []) : [];
    if (live.length > 0) out.push({ probe: 'live-links', target: f.target, ok: true, value: live.slice(0, 10).map(abs) });
  });
  for (const s of plan.skipped) out.push({ probe: s.probe, target: s.target, ok: false, error: s.error });
  const who = first.get('-');
  const user = who?.get('user')?.[0];
  out.push(user ? { probe: 'user', target: '', ok: true, value: user } : { probe: 'user', target: '', ok: false, error: 'no answer from the probe script' });
  const uid = who?.get('uid')?.[0];
  if (uid !== undefined && /^\d+$/.test(uid)) out.push({ probe: 'uid', target: '', ok: true, value: Number(uid) });
  // each pattern's matches as entries: mode, owner and group from the glob probe (a folder when it answered one)
  const matched = new Map<string, { at: string; info: PathInfo }[]>();
  plan.globs.forEach((g, i) => {
    const rec = first.get(`g${i}`);
    const folders = new Set(rec?.get('folder') ?? []);
    const modes = rec?.get('mode') ?? [];
    const owns = rec?.get('own') ?? [];
    matched.set(g, (rec?.get('match') ?? []).flatMap((m, k) => {
      const [u, gid] = (owns[k] ?? '').split(' ');
      if (!/^\d+$/.test(u ?? '') || !/^\d+$/.test(gid ?? '')) return [];
      return [{ at: m, info: { exists: true, type: folders.has(m) ? 'dir' : 'file', owner: u!, uid: Number(u), gid: Number(gid), group: gid!, mode: modes[k] ?? '', size: 0, links: 1 } as PathInfo }];
    }));
  });
  cutOff(plan, infos, matched, who?.get('procids')?.[0], uid, scheduledIds(who?.get('cronids')?.[0], who?.get('passwd')?.[0], who?.get('groupfile')?.[0])).forEach((x) => out.push(x));
  // the script prints the line, empty or not, once it gets there: no line means it never did
  const prod = who?.get('prod')?.[0];
  out.push(prod !== undefined ? { probe: 'production-mark', target: '', ok: true, value: prod } : { probe: 'production-mark', target: '', ok: false, error: 'what marks the machine could not be read' });
  // df -P: Filesystem 1024-blocks Used Available Capacity Mounted-on
  const avail = (who?.get('df')?.[0] ?? '').trim().split(/\s+/)[3];
  out.push(avail !== undefined && /^\d+$/.test(avail) ? { probe: 'free-disk', target: '/', ok: true, value: Number(avail) } : { probe: 'free-disk', target: '/', ok: false, error: 'df gave no answer' });
  return out;
}

/**
 * The modes a command sets on fixed paths or patterns (numeric, or symbolic ones that take away or set), each
 * with the owner a chown in the same command gives that path; a chown alone counts with the
 * mode left as it is.
 */
function modesOf(e: Facts['effects'], fixedPath: (x: { path: string; dynamic: boolean }) => boolean): { path: string; mode: string; owner?: string }[] {
  // (a pattern counts too: its matches are read from the glob probe's answer)
  const fixed = (x: { path: string; dynamic: boolean }): boolean => fixedPath(x) || (!x.dynamic && GLOB.test(x.path) && !x.path.includes('\0') && x.path.length <= MAX_PATH_LENGTH);
  const ownerOf = (path: string) => e.ownerChanges.find((o) => o.path === path && fixed(o) && o.mode)?.mode;
  const set = e.modeChanges
    .filter((m) => fixed(m) && m.mode !== undefined && (/^[0-7]{3,4}$/.test(m.mode) || /^[ugoa]*[-=][rwxX]*(,[ugoa]*[-+=][rwxX]*)*$/.test(m.mode)))
    .map((m) => {
      const owner = ownerOf(m.path);
      return { path: m.path, mode: m.mode!, ...(owner ? { owner } : {}) };
    });
  const chownOnly = e.ownerChanges.filter((o) => fixed(o) && o.mode && !set.some((m) => m.path === o.path)).map((o) => ({ path: o.path, mode: '', owner: o.mode! }));
  return [...set, ...chownOnly].slice(0, MAX_NOTED);
}

/** The uid and gid an entry has after `chown SPEC` (root and numeric ids only; a name it cannot read leaves that id as it was). */
function ownerAfter(spec: string | undefined, uid: number | undefined, gid: number | undefined): { uid: number | undefined; gid: number | undefined } {
  if (!spec) return { uid, gid };
  const id = (x: string | undefined, was: number | undefined) => (x === undefined || x === '' ? was : x === 'root' ? 0 : /^\d+$/.test(x) ? Number(x) : was);
  const [u, g] = spec.split(/[:.]/, 2);
  return { uid: id(u, uid), gid: id(g, gid) };
}

/** The account a cron line runs its command as: the one `su` names in it, or the crontab's own. */
export function cronAccount(crontab: string, line: string): string {
  const words = line.trim().split(/\s+/);
  const at = words.findIndex((w) => w === 'su' || w.endsWith('/su'));
  if (at >= 0) {
    for (let i = at + 1; i < words.length; i++) {
      const w = words[i]!;
      if (w === '-c' || w === '--command') break;
      if (w === '-s' || w === '--shell' || w === '-g' || w === '-G') { i++; continue; }
      if (w.startsWith('-')) continue;
      if (/^[a-z_][a-z0-9_-]*$/.test(w)) return w;
      break;
    }
  }
  return crontab;
}

/**
 * The jobs cron runs, as programs that will look at their files the next time they run: each
 * with the uid, primary and supplementary groups of the account it runs as (read from
 * /etc/passwd and /etc/group) and its line as its command.
 */
export function scheduledIds(cronids: string | undefined, passwd: string | undefined, groups: string | undefined): { uid: number; gids: Set<number>; cmd: string }[] {
  if (!cronids || !passwd) return [];
  const accounts = new Map<string, { uid: number; gid: number }>();
  for (const l of passwd.split('\n')) {
    const f = l.split(':');
    if (f.length >= 4 && /^\d+$/.test(f[2]!) && /^\d+$/.test(f[3]!)) accounts.set(f[0]!, { uid: Number(f[2]), gid: Number(f[3]) });
  }
  const out: { uid: number; gids: Set<number>; cmd: string }[] = [];
  for (const l of cronids.split('\n')) {
    const tab = l.indexOf('\t');
    if (tab <= 0) continue;
    const line = l.slice(tab + 1);
    const name = cronAccount(l.slice(0, tab), line);
    const acc = accounts.get(name);
    if (!acc) continue;
    const gids = new Set<number>([acc.gid]);
    for (const g of (groups ?? '').split('\n')) {
      const f = g.split(':');
      if (f.length >= 4 && /^\d+$/.test(f[2]!) && f[3]!.split(',').map((x) => x.trim()).includes(name)) gids.add(Number(f[2]));
    }
    out.push({ uid: acc.uid, gids, cmd: line });
  }
  return out;
}

/**
 * Modes that take reading (for a folder, reading or entering) away from an account or group
 * that a running program or a scheduled job other than the actor's own runs as: `chmod -R 700
 * /etc/myapp` while the myapp service reads its configuration through the folder's group, or
 * `chmod -R go-rwx ~/billing` while a nightly job runs as an account in that folder's group.
 * One `cut-off` result per such path.
 */
function cutOff(plan: ProbePlan, infos: Map<string, PathInfo>, matched: Map<string, { at: string; info: PathInfo }[]>, procids: string | undefined, actingUid: string | undefined, jobs: { uid: number; gids: Set<number>; cmd: string }[] = []): ProbeResult[] {
  if (!plan.modes?.length || procids === undefined) return [];
  // /proc/PID/status:Uid:\treal\teffective..., Gid: likewise, Groups: supplementary ids
  const procs = new Map<string, { uid?: number; gids: Set<number>; cmd?: string; job?: boolean }>();
  for (const line of procids.split('\n')) {
    const m = /^\/proc\/(\d+)\/status:(Uid|Gid|Groups|Cmd):\s*(.*)$/.exec(line);
    if (!m) continue;
    const p = procs.get(m[1]!) ?? { gids: new Set<number>() };
    if (m[2] === 'Cmd') {
      p.cmd = m[3]!;
      procs.set(m[1]!, p);
      continue;
    }
    const ids = m[3]!.trim().split(/\s+/).filter((x) => /^\d+$/.test(x)).map(Number);
    if (m[2] === 'Uid') p.uid = ids[0];
    else if (m[2] === 'Gid') ids.slice(0, 1).forEach((g) => p.gids.add(g));
    else ids.forEach((g) => p.gids.add(g));
    procs.set(m[1]!, p);
  }
  // (a scheduled job counts as a program of its own, with no process id)
  jobs.forEach((j, i) => procs.set(`job${i}`, { ...j, job: true }));
  const acting = Number(actingUid);
  const others = [...procs.entries()].filter(([, p]) => p.uid !== undefined && p.uid !== 0 && p.uid !== acting);
  const out: ProbeResult[] = [];
  const entries = plan.modes.flatMap(({ path, mode, owner }) => (GLOB.test(path) ? (matched.get(path) ?? []).map(({ at, info }) => ({ path, at, mode, owner, info })) : [{ path, at: path, mode, owner, info: infos.get(path) }]));
  const hitPaths = new Set<string>();
  for (const { path, at, mode, owner, info } of entries) {
    if (hitPaths.has(path)) continue;
    if (!info?.exists || !/^[0-7]{3,4}$/.test(info.mode) || (info.type !== 'file' && info.type !== 'dir')) continue;
    const oldBits = parseInt(info.mode, 8);
    const newBits = mode ? applyMode(oldBits, mode, info.type === 'dir') : oldBits;
    if (newBits === undefined) continue;
    // the owner and group the entry has afterwards (a chown in the same command)
    const after = ownerAfter(owner, info.uid, info.gid);
    // what one class's digit lets it do, as far as using the entry goes
    const uses = (d: number): boolean => (info.type === 'dir' ? (d & 4) !== 0 && (d & 1) !== 0 : (d & 4) !== 0);
    // each running program reaches the entry through one class: its owner, its group, or the rest
    // (through the rest only a program whose command line names the entry, something in it, or
    // a file beside it: any other program may never look there)
    const names = (cmd: string | undefined): boolean =>
      (cmd ?? '').split(/\s+/).some((w) => w.startsWith('/') && (w === at || w.startsWith(`${at}/`) || (w.includes('/', 1) && at.startsWith(`${w.slice(0, w.lastIndexOf('/'))}/`))));
    const classIn = (p: { uid?: number; gids: Set<number> }, uid: number | undefined, gid: number | undefined): 6 | 3 | 0 => (p.uid === uid ? 6 : gid !== undefined && gid >= 0 && p.gids.has(gid) ? 3 : 0);
    const classOf = (p: { uid?: number; gids: Set<number> }) => classIn(p, info.uid, info.gid);
    const hit = others.find(([, p]) => {
      const cls = classOf(p);
      const lost = uses((oldBits >> cls) & 7) && !uses((newBits >> classIn(p, after.uid, after.gid)) & 7);
      return lost && (cls !== 3 || info.gid! > 0) && (cls !== 0 || names(p.cmd));
    });
    if (hit) {
      const through = ({ 6: 'owner', 3: 'group', 0: 'others' } as const)[classOf(hit[1])];
      const who = hit[1].job ? { pid: 0, job: (hit[1].cmd ?? '').slice(0, 200) } : { pid: Number(hit[0]) };
      hitPaths.add(path);
      out.push({ probe: 'cut-off', target: path, ok: true, value: { ...who, uid: hit[1].uid!, through, mode, ...(owner ? { owner } : {}) } });
    }
  }
  return out;
}
