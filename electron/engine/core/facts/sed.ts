/**
 * How a sed command line reads: whether it edits in place, its one script (when it has exactly
 * one, given inline), the files it works on, and the parts of an `s` command. The facts, the
 * account reading and the sandbox's substitution probe all read sed through these.
 */
import { splitFlags } from './shell-commands.js';

/** A sed command line's arguments (without the command name). */
export interface SedArgs {
  inPlace: boolean;
  /** -E / -r. */
  extended: boolean;
  /** The script, when there is exactly one and it is given on the line (not -f, not several -e). */
  script?: string;
  /** Every script given on the line, in order (one, or each -e), none when one comes from -f. */
  scripts: string[];
  files: string[];
}

/** Reads sed's arguments. */
export function sedArgs(args: string[]): SedArgs {
  const { flags, operands, values } = splitFlags(args, ['-e', '-f', '--expression', '--file', '-l', '--line-length']);
  const inPlace = args.some((a) => a === '-i' || /^-[a-zA-Z]*i/.test(a) || a.startsWith('--in-place'));
  const extended = args.some((a) => /^-[a-zA-Z]*[Er]/.test(a) || a === '--regexp-extended');
  const fromFile = flags.has('-f') || flags.has('--file');
  const given = args.filter((a) => a === '-e' || a === '--expression' || a.startsWith('--expression=')).length;
  const files = fromFile || given > 0 ? operands : operands.slice(1);
  const script = fromFile ? undefined : given === 0 ? operands[0] : given === 1 ? (values.get('-e') ?? values.get('--expression')) : undefined;
  const scripts: string[] = [];
  if (!fromFile && given === 0 && operands[0] !== undefined) scripts.push(operands[0]);
  else if (!fromFile) {
    for (let i = 0; i < args.length; i++) {
      const a = args[i]!;
      if ((a === '-e' || a === '--expression') && args[i + 1] !== undefined) scripts.push(args[++i]!);
      else if (a.startsWith('--expression=')) scripts.push(a.slice('--expression='.length));
    }
  }
  return { inPlace, extended, ...(script !== undefined ? { script } : {}), scripts, files };
}

/**
 * The parts of `s<d>PATTERN<d>REPLACEMENT<d>FLAGS`, split at delimiters that are not escaped;
 * undefined when the script is not one terminated substitution.
 */
export function sedS(script: string): { pattern: string; replacement: string; flags: string } | undefined {
  const m = /^s([^\sa-zA-Z0-9\\])/.exec(script);
  if (!m) return undefined;
  const d = m[1]!;
  const parts: string[] = [''];
  let i = 2;
  for (; i < script.length && parts.length < 3; i++) {
    const ch = script[i]!;
    if (ch === '\\' && i + 1 < script.length) {
      parts[parts.length - 1] += ch + script[i + 1]!;
      i++;
    } else if (ch === d) parts.push('');
    else parts[parts.length - 1] += ch;
  }
  if (parts.length < 3) return undefined;
  return { pattern: parts[0]!, replacement: parts[1]!, flags: script.slice(i) };
}

/** The tables cron reads jobs from, which a line editor can change in place. */
export const CRON_TABLE = /^\/etc\/crontab$|^\/etc\/cron\.d\/[^/]+$|^\/etc\/crontabs\/[^/]+$|^\/var\/spool\/cron(\/crontabs)?\/[^/]+$/;

/** The request speaks of a scheduled job. */
export const JOB_TALK = /\b(cron|crontab|jobs?|schedul\w*|nightly|hourly|daily|weekly|monthly)\b/i;

/** Words of a program's path that name no job ("/usr/local/bin/x.sh"). */
const PATH_WORDS = new Set(['usr', 'local', 'bin', 'sbin', 'opt', 'home', 'root', 'srv', 'scripts', 'script', 'run', 'cron', 'daily', 'weekly', 'hourly', 'monthly', 'nightly', 'job', 'jobs']);

/**
 * The pattern of the lines one sed script takes out, when all it does is delete the lines an
 * address selects (`/PAT/d`), comment them out (`/PAT/s/^/#/`, `/PAT/s/^/# /`), or put a `#`
 * before what a substitution anchored at a line's start matched (`s|^0 1 * * * search|#&|`,
 * `s/^\(.*backup\.sh\)$/#\1/`). Undefined for any other script.
 */
export function takenOutLines(script: string): string | undefined {
  const t = script.trim();
  const address = /^\/((?:\\.|[^/\\])+)\/\s*(d|s(.)\^\3#\s?\3)$/.exec(t);
  if (address) return address[1]!;
  const sub = sedS(t);
  if (!sub || !/^g?$/.test(sub.flags.trim()) || !sub.pattern.startsWith('^')) return undefined;
  if (/^#\s?&$/.test(sub.replacement)) return sub.pattern.slice(1);
  const group = /^\^\\\((.+)\\\)\$?$/.exec(sub.pattern);
  if (group && /^#\s?\\1$/.test(sub.replacement)) return group[1]!;
  return undefined;
}

/** A field of a cron schedule: a number, a star, a step, a range or a list of them. */
const CRON_FIELD = /^[0-9*][0-9*/,-]*$/;

/**
 * The job lines one sed script gives a new schedule and nothing else, when it is a substitution
 * anchored at a line's start that matches the first schedule fields and keeps the rest of the line
 * in a group put back whole, with as many new fields before it
 * (`s|^0 1 \(\* \* \* /usr/local/bin/nightly-sync\)$|30 2 \1|`): the kept part's pattern.
 * Undefined for any other script.
 */
export function retimedLines(script: string): string | undefined {
  const sub = sedS(script.trim());
  if (!sub || sub.flags.trim() !== '') return undefined;
  const m = /^\^((?:[0-9*][0-9*/,-]* +){1,4})\\\((.+)\\\)\$?$/.exec(sub.pattern);
  const r = /^((?:[0-9*][0-9*/,-]* +){1,4})\\1$/.exec(sub.replacement);
  if (!m || !r) return literalRetime(sub.pattern, sub.replacement);
  const before = m[1]!.trim().split(/ +/);
  const after = r[1]!.trim().split(/ +/);
  // the kept part: the schedule's remaining fields (a star escaped or not), then the job's command
  const kept = m[2]!.replace(/\\\*/g, '*').trim().split(/ +/);
  const fields = 5 - before.length;
  if (after.length !== before.length || !after.every((f) => CRON_FIELD.test(f)) || kept.length <= fields || !kept.slice(0, fields).every((f) => CRON_FIELD.test(f))) return undefined;
  return m[2]!;
}

/**
 * A whole job line written out on both sides (`s#^0 2 \* \* \* /opt/x.sh#0 2 * * 1-5 /opt/x.sh#`):
 * the same command with a new schedule, the command given back; undefined for anything else.
 */
function literalRetime(pattern: string, replacement: string): string | undefined {
  if (!pattern.startsWith('^') || /\\[^*./-]|[[\]()|+?{}]/.test(pattern.slice(1).replace(/\$$/, '')) || /\\|&/.test(replacement)) return undefined;
  const was = pattern.slice(1).replace(/\$$/, '').replace(/\\([*./-])/g, '$1').trim().split(/ +/);
  const now = replacement.trim().split(/ +/);
  if (was.length <= 5 || now.length !== was.length || !was.slice(0, 5).every((f) => CRON_FIELD.test(f)) || !now.slice(0, 5).every((f) => CRON_FIELD.test(f))) return undefined;
  const command = was.slice(5).join(' ');
  return command === now.slice(5).join(' ') && was.slice(0, 5).join(' ') !== now.slice(0, 5).join(' ') ? command : undefined;
}

/**
 * Whether the request's words name the job a pattern selects, by a word of the pattern that is
 * not a word of every program's path ("the nightly cook" for `nightly_cook\.sh`).
 */
export function namesJob(pattern: string, said: ReadonlySet<string>): boolean {
  // (a dashed name the request gives whole, "lab-import-legacy", says each of its parts)
  const words = new Set([...said].flatMap((w) => [w, ...w.toLowerCase().split(/[^a-z0-9]+/)]));
  return pattern
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length >= 4 && !PATH_WORDS.has(w))
    .some((w) => words.has(w) || (w.endsWith('s') && words.has(w.slice(0, -1))) || words.has(`${w}s`));
}

/**
 * The lines a set of sed scripts takes out, when every script only comments out or deletes lines
 * (see `takenOutLines`), and the request speaks of a scheduled job and names each one by a word of its address ("the weekly
 * report job" for `/generate_report.sh/`). Such an edit of a cron table only takes jobs out; it
 * schedules nothing. Undefined when any script is anything else.
 */
export function sedTakesOutNamedJobs(scripts: readonly string[], words: ReadonlySet<string>, request: string): string[] | undefined {
  if (scripts.length === 0 || !JOB_TALK.test(request)) return undefined;
  const patterns: string[] = [];
  for (const script of scripts) {
    const lines = takenOutLines(script);
    if (lines === undefined || !namesJob(lines, words)) return undefined;
    patterns.push(lines);
  }
  return patterns;
}
