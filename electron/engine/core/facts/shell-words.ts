/**
 * Shell words to values: quoting, escapes, tilde, variables assigned earlier in the script,
 * `${x:-default}`, brace expansion, and decoding of the small encodings attackers use to hide
 * text (base64, hex, printf escapes). Every function here works on one already-parsed word.
 */
import { expansionOp, type Stmt, type Word, type WordPart } from './shell-ast.js';

/** Variables and directory the words of one shell see. */
export interface Scope {
  cwd: string;
  /** False after `cd` into a place the analysis could not resolve. */
  cwdKnown: boolean;
  vars: Map<string, string>;
  /** Positional parameters inside a function call ($1...), when known. */
  positional?: string[];
  /**
   * Loop variables that stand for each match of a pattern the loop runs over (`for d in
   * /srv/run_*; do ...`), with that pattern: `"$d"` is then one of its matches, nothing hidden.
   */
  eachOf?: Map<string, string>;
}

/** The value of one word and what the analysis knows about it. */
export interface WordInfo {
  /** The word as the command would see it; unknown parts as `$NAME` or `$(...)`. */
  value: string;
  /** Part of the value came from an expansion the analysis could not resolve. */
  dynamic: boolean;
  /** Part of it is unknown for a reason other than a command substitution (a variable, $((...))). */
  unresolved: boolean;
  /** Part of the value came from a variable assigned earlier in the script. */
  fromVar: boolean;
  /** Unquoted glob characters. */
  glob: boolean;
  /** Unquoted brace expansion ({a,b}). */
  braces: boolean;
  /** Command and process substitutions inside the word, to analyse as code. */
  substs: { stmts: Stmt[]; proc: boolean }[];
}

/** Unescapes an unquoted literal: a backslash keeps the next character, a backslash-newline vanishes. */
function unescapeBare(s: string): string {
  return s.includes('\\') ? s.replace(/\\\n/g, '').replace(/\\(.)/gs, '$1') : s;
}

/** Inside double quotes a backslash only escapes $ ` " \ and newline. */
function unescapeDouble(s: string): string {
  return s.includes('\\') ? s.replace(/\\\n/g, '').replace(/\\([$`"\\])/g, '$1') : s;
}

/** C-style escapes as printf, echo -e and $'...' read them. */
export function unescapeC(s: string): string {
  if (!s.includes('\\')) return s;
  return s.replace(/\\(x[0-9a-fA-F]{1,2}|u[0-9a-fA-F]{4}|0?[0-7]{1,3}|[abefnrtv\\'"?])/g, (_, e: string) => {
    if (e[0] === 'x' || e[0] === 'u') return String.fromCharCode(parseInt(e.slice(1), 16));
    if (/^[0-7]/.test(e)) return String.fromCharCode(parseInt(e, 8));
    const map: Record<string, string> = { a: '\x07', b: '\b', e: '\x1b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v' };
    return map[e] ?? e;
  });
}

const SPECIAL_PARAMS = new Set(['@', '*', '#', '?', '-', '$', '!', '0']);

/** A word that stands for a value given outright (an item xargs or a substitution hands over): a pattern when it has glob characters. */
export function givenWord(value: string, dynamic = false): WordInfo {
  return { value, dynamic, unresolved: dynamic, fromVar: false, glob: /[*?[]/.test(value), braces: false, substs: [] };
}

/** Evaluates a word against a scope. `home` expands `~`; `quoted` is set inside "...". */
export function wordInfo(w: Word | null | undefined, scope: Scope, home: string): WordInfo {
  const out: WordInfo = { value: '', dynamic: false, unresolved: false, fromVar: false, glob: false, braces: false, substs: [] };
  if (!w) return out;
  addParts(w.Parts, scope, home, out, false, true);
  return out;
}

function addParts(parts: WordPart[], scope: Scope, home: string, out: WordInfo, quoted: boolean, top: boolean): void {
  parts.forEach((part, i) => {
    switch (part.type) {
      case 'Lit': {
        let v = quoted ? unescapeDouble(part.Value) : part.Value;
        if (!quoted) {
          if (/(^|[^\\])[*?]|(^|[^\\])\[[^\]]+\]/.test(v)) out.glob = true;
          if (/(^|[^\\$]){[^{}]*(,|\.\.)[^{}]*}/.test(v)) out.braces = true;
          v = unescapeBare(v);
          if (top && i === 0 && out.value === '' && (v === '~' || v.startsWith('~/'))) v = home + v.slice(1);
        }
        out.value += v;
        break;
      }
      case 'SglQuoted':
        out.value += part.Dollar ? unescapeC(part.Value) : part.Value;
        break;
      case 'DblQuoted':
        addParts(part.Parts, scope, home, out, true, false);
        break;
      case 'ParamExp': {
        const name = part.Param?.Value ?? '';
        const known = paramValue(name, scope, home);
        const plainExp = !part.Excl && !part.Length && !part.Width && !part.Index && !part.Slice && !part.Repl;
        if (plainExp && !part.Exp && known !== undefined) {
          // (only where the word starts with it, a path of its own: `"$d/FAILED"` is each match's
          // FAILED; `~/other/"$f"` puts the names it matched in another folder, no pattern there)
          const each = out.value === '' && known.startsWith('/') && scope.eachOf?.get(name) === known;
          out.value += known;
          if (each) out.glob = true;
          else if (name !== 'HOME' && name !== 'PWD') out.fromVar = true;
        } else if (plainExp && part.Exp && ['-', ':-', '=', ':='].includes(expansionOp(part.Exp.Op))) {
          // ${x:-default}: the default is what runs whenever x is unset, so take it as the value
          if (known !== undefined && known !== '') {
            out.value += known;
            out.fromVar = true;
          } else {
            const d = wordInfo(part.Exp.Word, scope, home);
            out.value += d.value;
            out.dynamic = true;
            out.unresolved = true;
            out.fromVar ||= d.fromVar;
            out.substs.push(...d.substs);
          }
        } else {
          const op = plainExp && part.Exp && known !== undefined ? expansionOp(part.Exp.Op) : '';
          const trimmed = op === '%' || op === '%%' || op === '#' || op === '##' ? trimByPattern(known!, op, wordInfo(part.Exp!.Word, scope, home)) : undefined;
          if (trimmed !== undefined) {
            // ${f%.jpeg}: the value with the suffix (or prefix) taken off, where that is certain
            out.value += trimmed;
            out.fromVar = true;
          } else {
            out.value += `$${name || '?'}`;
            out.dynamic = true;
            out.unresolved = true;
          }
        }
        break;
      }
      case 'CmdSubst': {
        out.substs.push({ stmts: part.Stmts ?? [], proc: false });
        // `$(date +%Y%m%d)` gives today's date in digits and separators: nothing that could name
        // another folder or widen a pattern, so the word keeps a known shape
        const stamp = dateStamp(part.Stmts ?? [], scope, home);
        if (stamp !== undefined) out.value += stamp;
        else {
          out.value += '$(...)';
          out.dynamic = true;
        }
        break;
      }
      case 'ProcSubst':
        out.substs.push({ stmts: part.Stmts ?? [], proc: true });
        out.value += '/dev/fd/63';
        out.dynamic = true;
        break;
      default:
        out.value += '$?';
        out.dynamic = true;
        out.unresolved = true;
    }
  });
}

/** The fields of a date format a stamp may use, as `date` prints them now (UTC). */
function dateField(f: string, now: Date): string | undefined {
  const two = (n: number) => String(n).padStart(2, '0');
  const Y = String(now.getUTCFullYear());
  const m = two(now.getUTCMonth() + 1);
  const d = two(now.getUTCDate());
  const fields: Record<string, string> = {
    Y, y: Y.slice(2), m, d, H: two(now.getUTCHours()), M: two(now.getUTCMinutes()), S: two(now.getUTCSeconds()),
    F: `${Y}-${m}-${d}`, s: String(Math.floor(now.getTime() / 1000)), '%': '%',
  };
  return fields[f];
}

/**
 * What `$(date +FORMAT)` prints, when the substitution is that one command and its format holds
 * only date fields (%Y %m %d %H %M %S %F %y %s) and letters, digits, `-`, `_`, `.`; else undefined.
 */
function dateStamp(stmts: Stmt[], scope: Scope, home: string): string | undefined {
  const cmd = stmts.length === 1 && stmts[0]!.Redirs.length === 0 && !stmts[0]!.Background ? stmts[0]!.Cmd : null;
  if (!cmd || cmd.type !== 'CallExpr' || cmd.Assigns.length > 0) return undefined;
  const args = cmd.Args.map((a) => wordInfo(a, scope, home));
  if (args[0]?.value !== 'date' || args.some((a) => a.dynamic || a.glob)) return undefined;
  const formats = args.slice(1).filter((a) => a.value !== '-u' && a.value !== '--utc');
  if (formats.length !== 1 || !/^\+([A-Za-z0-9_.-]|%[YymdHMSFs%])*$/.test(formats[0]!.value)) return undefined;
  const now = new Date();
  return formats[0]!.value.slice(1).replace(/%(.)/g, (_, f: string) => dateField(f, now) ?? '');
}

function paramValue(name: string, scope: Scope, home: string): string | undefined {
  if (name === 'HOME') return home;
  if (name === 'PWD') return scope.cwdKnown ? scope.cwd : undefined;
  if (/^[1-9]$/.test(name)) return scope.positional?.[Number(name) - 1];
  if ((name === '@' || name === '*') && scope.positional) return scope.positional.join(' ');
  if (SPECIAL_PARAMS.has(name)) return undefined;
  return scope.vars.get(name);
}

/** Brace expansion of one word (`/{etc,usr}` -> /etc, /usr); sequences are left as written. */
export function expandBraces(s: string, max = 32): string[] {
  const open = findBrace(s);
  if (!open) return [s];
  const { start, end, alternatives } = open;
  const out: string[] = [];
  for (const alt of alternatives) {
    for (const rest of expandBraces(s.slice(0, start) + alt + s.slice(end + 1), max)) {
      out.push(rest);
      if (out.length >= max) return out;
    }
  }
  return out;
}

function findBrace(s: string): { start: number; end: number; alternatives: string[] } | undefined {
  for (let i = 0; i < s.length; i++) {
    if (s[i] !== '{' || s[i - 1] === '$') continue;
    let depth = 0;
    const cuts: number[] = [];
    for (let j = i; j < s.length; j++) {
      if (s[j] === '{') depth++;
      else if (s[j] === '}') {
        depth--;
        if (depth === 0) {
          if (cuts.length === 0) break;
          const bounds = [i, ...cuts, j];
          const alternatives = bounds.slice(0, -1).map((b, k) => s.slice(b + 1, bounds[k + 1]));
          return { start: i, end: j, alternatives };
        }
      } else if (s[j] === ',' && depth === 1) cuts.push(j);
    }
  }
  return undefined;
}

/** Text that is printable (tabs and newlines allowed). */
function printable(s: string): boolean {
  return s.length > 0 && /^[\x09\x0a\x0d\x20-\x7e\u00a0-\uffff]+$/.test(s) && !s.includes('\ufffd');
}

/** Decodes a base64 payload into text, when it is base64 and decodes to printable text. */
export function decodeBase64(s: string): string | undefined {
  const clean = s.replace(/\s+/g, '');
  if (clean.length < 4 || !/^[A-Za-z0-9+/_-]+={0,2}$/.test(clean)) return undefined;
  const text = Buffer.from(clean, 'base64').toString('utf8');
  return printable(text) ? text : undefined;
}

/** Decodes a hex dump as `xxd -r -p` reads it. */
export function decodeHex(s: string): string | undefined {
  const clean = s.replace(/\\x/g, '').replace(/[\s:]+/g, '');
  if (clean.length < 2 || clean.length % 2 !== 0 || !/^[0-9a-fA-F]+$/.test(clean)) return undefined;
  const text = Buffer.from(clean, 'hex').toString('utf8');
  return printable(text) ? text : undefined;
}

/** ROT13, the usual `tr 'A-Za-z' 'N-ZA-Mn-za-m'`. */
export function rot13(s: string): string {
  return s.replace(/[A-Za-z]/g, (c) => {
    const b = c <= 'Z' ? 65 : 97;
    return String.fromCharCode(((c.charCodeAt(0) - b + 13) % 26) + b);
  });
}

const META = /[*?[]/;

/** A shell pattern as a regular expression matching a whole string. */
function patternRegex(pattern: string, glob: boolean): RegExp {
  if (!glob) return new RegExp(`^${pattern.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`, 's');
  let re = '';
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i]!;
    if (ch === '*') re += '[\\s\\S]*';
    else if (ch === '?') re += '[\\s\\S]';
    else if (ch === '[') {
      const end = pattern.indexOf(']', i + 2);
      if (end < 0) re += '\\[';
      else {
        const body = pattern.slice(i + 1, end).replace(/^!/, '^').replace(/\\/g, '\\\\');
        re += `[${body}]`;
        i = end;
      }
    } else re += ch.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${re}$`, 's');
}

/**
 * `${v%pat}`, `${v%%pat}`, `${v#pat}`, `${v##pat}` on a known value, or undefined when the result
 * is not certain. A value may itself be a glob (a loop variable over `dir/*.jpeg`): the part cut
 * off must then lie in the literal text the pattern's every match shares (the `.jpeg` after the
 * last wildcard for a suffix, the text before the first one for a prefix), and a longest match
 * must have only one possible length (a pattern without wildcards).
 */
export function trimByPattern(value: string, op: string, pat: WordInfo): string | undefined {
  if (pat.dynamic || pat.substs.length > 0) return undefined;
  const re = patternRegex(pat.value, pat.glob && META.test(pat.value));
  // positions in UTF-16 units, as slice() counts them
  const metaAt: number[] = [];
  for (let i = 0; i < value.length; i++) if (META.test(value[i]!)) metaAt.push(i);
  const first = metaAt.length ? metaAt[0]! : value.length;
  const last = metaAt.length ? metaAt[metaAt.length - 1]! : -1;
  const literalPattern = !(pat.glob && META.test(pat.value));
  const n = value.length;
  if (op === '%' || op === '%%') {
    if (op === '%%' && metaAt.length > 0 && !literalPattern) return undefined;
    const order = op === '%' ? [...Array(n + 1).keys()].reverse() : [...Array(n + 1).keys()];
    for (const i of order) {
      if (i <= last) {
        // the cut would reach into the part each match spells differently
        if (op === '%') return undefined;
        continue;
      }
      if (re.test(value.slice(i))) return value.slice(0, i);
    }
    // no match in the shared text: a match may still span the part each name spells differently
    return metaAt.length > 0 ? undefined : value;
  }
  if (op === '##' && metaAt.length > 0 && !literalPattern) return undefined;
  const order = op === '#' ? [...Array(n + 1).keys()] : [...Array(n + 1).keys()].reverse();
  for (const i of order) {
    if (i > first) {
      if (op === '#') return undefined;
      continue;
    }
    if (re.test(value.slice(0, i))) return value.slice(i);
  }
  return metaAt.length > 0 ? undefined : value;
}
