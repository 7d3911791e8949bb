/**
 * File formats a rehearsal can check by parsing: a file that parsed before a command and no
 * longer parses after it was damaged by the command. The format comes from the file's place or
 * name (or, for scripts without a suffix, their first line); each format has its own reader,
 * which answers with the first problem it finds, naming the line.
 *
 * Only a change is judged, never a file on its own: a format reader stricter than the program
 * that reads the file can at worst miss a damage (the file did not parse before either), and a
 * looser one misses what it does not know.
 */
import { parseAllDocuments } from 'yaml';
import { parse as parseToml } from 'smol-toml';
import { parseScript } from './shell-ast.js';

/** The formats known here. */
export type FileFormat = 'json' | 'json-lines' | 'yaml' | 'toml' | 'makefile' | 'shell' | 'crontab' | 'system-crontab' | 'passwd' | 'group' | 'shadow';

const BY_PLACE: [RegExp, FileFormat][] = [
  [/^\/etc\/(passwd|passwd-)$/, 'passwd'],
  [/^\/etc\/(group|group-)$/, 'group'],
  [/^\/etc\/(shadow|shadow-)$/, 'shadow'],
  [/^\/etc\/crontab$|^\/etc\/cron\.d\/[^/]+$/, 'system-crontab'],
  [/^\/var\/spool\/cron\/(crontabs\/)?[^/]+$/, 'crontab'],
];

const BY_NAME: [RegExp, FileFormat][] = [
  [/\.json$/, 'json'],
  [/\.(jsonl|ndjson)$/, 'json-lines'],
  [/\.ya?ml$/, 'yaml'],
  [/\.toml$/, 'toml'],
  [/(^|\/)(GNUmakefile|[Mm]akefile)$|\.mk$/, 'makefile'],
  [/\.(sh|bash)$|(^|\/)\.(bashrc|bash_profile|bash_login|bash_logout|profile)$/, 'shell'],
];

/** A script's first line that names a Bourne-family shell. */
const SHELL_SHEBANG = /^#!\s*\S*\/(env\s+)?(sh|bash|dash|ash)\b/;

/** The format a path says (without reading it); `undefined` when the name says nothing. */
export function formatOfPath(path: string): FileFormat | undefined {
  for (const [re, f] of BY_PLACE) if (re.test(path)) return f;
  for (const [re, f] of BY_NAME) if (re.test(path)) return f;
  return undefined;
}

/** The format of a file: by its path, else a shell script by its first line. */
export function formatOf(path: string, text: string): FileFormat | undefined {
  return formatOfPath(path) ?? (SHELL_SHEBANG.test(text.slice(0, 200)) ? 'shell' : undefined);
}

/** The first problem found reading `text` as `format`, or `undefined` when it reads. */
export function formatError(format: FileFormat, text: string): string | undefined {
  try {
    switch (format) {
      case 'json':
        JSON.parse(text);
        return undefined;
      case 'json-lines':
        return jsonLinesError(text);
      case 'yaml':
        for (const d of parseAllDocuments(text)) if (d.errors.length > 0) return d.errors[0]!.message.split('\n')[0];
        return undefined;
      case 'toml':
        parseToml(text);
        return undefined;
      case 'makefile':
        return makefileError(text);
      case 'shell':
        parseScript(text);
        return undefined;
      case 'crontab':
        return crontabError(text, false);
      case 'system-crontab':
        return crontabError(text, true);
      case 'passwd':
        return colonFileError(text, 7, [2, 3]);
      case 'group':
        return colonFileError(text, 4, [2]);
      case 'shadow':
        return colonFileError(text, 9, []);
    }
  } catch (e) {
    return ((e as Error).message ?? String(e)).split('\n')[0];
  }
}

/** JSON lines: one JSON text a line (or, as some tools write it, the whole file as one JSON text). */
function jsonLinesError(text: string): string | undefined {
  try {
    JSON.parse(text);
    return undefined;
  } catch {
    const lines = text.split('\n');
    for (let i = 0; i < lines.length; i++) {
      if (lines[i]!.trim() === '') continue;
      try {
        JSON.parse(lines[i]!);
      } catch {
        return `line ${i + 1} is not a JSON text`;
      }
    }
    return undefined;
  }
}

/** Lines joined where a backslash continues them, each with the number of its first line. */
function logicalLines(text: string): { n: number; line: string }[] {
  const out: { n: number; line: string }[] = [];
  const raw = text.split('\n');
  for (let i = 0; i < raw.length; i++) {
    const n = i + 1;
    let line = raw[i]!;
    while (/(^|[^\\])(\\\\)*\\$/.test(line) && i + 1 < raw.length) line = line.slice(0, -1) + ' ' + raw[++i]!;
    out.push({ n, line });
  }
  return out;
}

const MAKE_DIRECTIVE = /^(-?include|sinclude|ifeq|ifneq|ifdef|ifndef|else|endif|export|unexport|override|private|vpath|undefine|define|endef)\b/;
const MAKE_ASSIGNMENT = /^[^:#=\s]+\s*(::?=|:::=|\?=|\+=|!=|=)/;
const MAKE_RULE = /^[^#=\t][^#=]*?:(?!=)/;
const MAKE_QUIET_CALL = /^\$[({](eval|info|warning|error|foreach|call)\s/;

/**
 * A makefile as GNU make reads it: every line that is not blank, a comment, a directive, a
 * variable assignment, a rule or a call of a function that expands to nothing must be a recipe line, which starts with a
 * tab and follows a rule. A recipe line indented with spaces is make's "missing separator".
 */
function makefileError(text: string): string | undefined {
  if (/^\s*\.RECIPEPREFIX\b/m.test(text)) return undefined;
  let inRule = false;
  let inDefine = 0;
  for (const { n, line } of logicalLines(text)) {
    const bare = line.trim();
    if (inDefine > 0) {
      if (/^define\b/.test(bare)) inDefine++;
      else if (/^endef\b/.test(bare)) inDefine--;
      continue;
    }
    if (line.startsWith('\t')) {
      if (bare === '' || bare.startsWith('#')) continue;
      if (!inRule) return `line ${n}: a recipe line before the first rule`;
      continue;
    }
    if (bare === '' || bare.startsWith('#')) continue;
    if (/^define\b/.test(bare) || /^(export|override)\s+define\b/.test(bare)) {
      inDefine = 1;
      continue;
    }
    if (MAKE_DIRECTIVE.test(bare)) continue;
    if (MAKE_ASSIGNMENT.test(bare) || /^(export|override|private)\s/.test(bare)) {
      inRule = false;
      continue;
    }
    if (MAKE_RULE.test(bare)) {
      inRule = true;
      continue;
    }
    // a line that is one call of a function expanding to nothing ($(eval ...), $(info ...))
    if (MAKE_QUIET_CALL.test(bare)) continue;
    return `line ${n}: missing separator${/^ +/.test(line) && inRule ? ' (a recipe line indented with spaces, not a tab)' : ''}`;
  }
  return undefined;
}

const CRON_NAMES = /^(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|sun|mon|tue|wed|thu|fri|sat)$/i;
const CRON_SPECIAL = /^@(reboot|yearly|annually|monthly|weekly|daily|midnight|hourly)$/;

function cronFieldOk(f: string): boolean {
  return f.split(',').every((part) => {
    const [range, step, extra] = part.split('/');
    if (extra !== undefined || (step !== undefined && !/^\d+$/.test(step))) return false;
    if (range === '*') return true;
    const ends = range!.split('-');
    return ends.length <= 2 && ends.every((e) => /^\d+$/.test(e) || CRON_NAMES.test(e));
  });
}

/** A crontab: environment lines, or a schedule (five fields or an @keyword), in a system crontab an account, and a command. */
function crontabError(text: string, system: boolean): string | undefined {
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const bare = lines[i]!.trim();
    if (bare === '' || bare.startsWith('#') || /^[A-Za-z_][A-Za-z0-9_]*\s*=/.test(bare)) continue;
    const words = bare.split(/\s+/);
    const schedule = CRON_SPECIAL.test(words[0]!) ? 1 : 5;
    if (schedule === 5 && !words.slice(0, 5).every(cronFieldOk)) return `line ${i + 1}: not a schedule`;
    const need = schedule + (system ? 2 : 1);
    if (words.length < need) return `line ${i + 1}: ${system ? 'no account or no command' : 'no command'} after the schedule`;
  }
  return undefined;
}

/** passwd, group, shadow: a fixed number of colon-separated fields; some of them numbers. */
function colonFileError(text: string, fields: number, numeric: number[]): string | undefined {
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.trim() === '' || line.startsWith('#')) continue;
    const parts = line.split(':');
    if (parts.length !== fields) return `line ${i + 1}: ${parts.length} fields, not ${fields}`;
    if (parts[0] === '') return `line ${i + 1}: no name`;
    for (const k of numeric) if (!/^\d+$/.test(parts[k]!)) return `line ${i + 1}: field ${k + 1} is not a number`;
  }
  return undefined;
}
