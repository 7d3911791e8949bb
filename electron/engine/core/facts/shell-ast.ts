/**
 * The boundary to the shell parser. mvdan-sh is the Go mvdan/sh parser compiled to JavaScript
 * with GopherJS; reading its wrapped nodes goes through reflection and costs 10-30 µs a property,
 * so the tree is copied once, straight from the Go values behind the wrappers, into the plain
 * objects typed below. Everything after this file works on plain data.
 */
import sh from 'mvdan-sh';

/** A literal piece of a word, backslash escapes still in it as written. */
export interface Lit {
  type: 'Lit';
  Value: string;
}
/** '...' or $'...' (Dollar: ANSI-C escapes). */
export interface SglQuoted {
  type: 'SglQuoted';
  Dollar: boolean;
  Value: string;
}
/** "..." */
export interface DblQuoted {
  type: 'DblQuoted';
  Parts: WordPart[];
}
/** ${NAME...}: Exp holds `:-` style operators, Op decoded through `opName`. */
export interface ParamExp {
  type: 'ParamExp';
  Short: boolean;
  Excl: boolean;
  Length: boolean;
  Width: boolean;
  Param: Lit | null;
  Index: unknown;
  Slice: unknown;
  Repl: unknown;
  Exp: { type: 'Expansion'; Op: number; Word: Word | null } | null;
}
/** $(...) or `...` */
export interface CmdSubst {
  type: 'CmdSubst';
  Stmts: Stmt[];
}
/** <(...) or >(...) */
export interface ProcSubst {
  type: 'ProcSubst';
  Op: number;
  Stmts: Stmt[];
}
/** Any other word part ($((...)), extended globs): values the analysis cannot know statically. */
export interface OtherPart {
  type: 'ArithmExp' | 'ExtGlob' | 'BraceExp';
}
/** One piece of a word. */
export type WordPart = Lit | SglQuoted | DblQuoted | ParamExp | CmdSubst | ProcSubst | OtherPart;
/** A shell word: the concatenation of its parts. */
export interface Word {
  type: 'Word';
  Parts: WordPart[];
}
/** A redirect; Op decoded through `opName`, N the file descriptor when written. */
export interface Redirect {
  type: 'Redirect';
  Op: number;
  N: Lit | null;
  Word: Word | null;
  Hdoc: Word | null;
}
/** NAME=value (or NAME=(array)) before a command or in export / local / declare. */
export interface Assign {
  type: 'Assign';
  Append: boolean;
  Naked: boolean;
  Name: Lit | null;
  Value: Word | null;
  Array: { Elems: { Value: Word | null }[] } | null;
}
/** A statement: a command with its redirects, maybe negated or in the background. */
export interface Stmt {
  type: 'Stmt';
  Cmd: Command | null;
  Negated: boolean;
  Background: boolean;
  Coprocess: boolean;
  Redirs: Redirect[];
}
/** A simple command: assignments and words. */
export interface CallExpr {
  type: 'CallExpr';
  Assigns: Assign[];
  Args: Word[];
}
/** `X op Y` for &&, ||, | and |&. */
export interface BinaryCmd {
  type: 'BinaryCmd';
  Op: number;
  X: Stmt;
  Y: Stmt;
}
/** ( ... ) or { ... }. */
export interface StmtList {
  type: 'Subshell' | 'Block';
  Stmts: Stmt[];
}
/** if / elif / else; an else branch is an IfClause without Cond. */
export interface IfClause {
  type: 'IfClause';
  Cond: Stmt[];
  Then: Stmt[];
  Else: IfClause | null;
}
/** while or until. */
export interface WhileClause {
  type: 'WhileClause';
  Until: boolean;
  Cond: Stmt[];
  Do: Stmt[];
}
/** for NAME in WORDS, or the C-style for. */
export interface ForClause {
  type: 'ForClause';
  Loop: { type: 'WordIter'; Name: Lit | null; Items: Word[] } | { type: 'CStyleLoop' };
  Do: Stmt[];
}
/** case WORD in PATTERN) ...;; esac */
export interface CaseClause {
  type: 'CaseClause';
  Word: Word | null;
  Items: { Patterns: Word[]; Stmts: Stmt[] }[];
}
/** NAME() { ... } */
export interface FuncDecl {
  type: 'FuncDecl';
  Name: Lit | null;
  Body: Stmt | null;
}
/** export / local / declare / readonly / typeset. */
export interface DeclClause {
  type: 'DeclClause';
  Variant: Lit | null;
  Args: Assign[];
}
/** time STMT or coproc STMT. */
export interface WrappedStmt {
  type: 'TimeClause' | 'CoprocClause';
  Stmt: Stmt | null;
}
/** [[ ]], (( )), let: only the substitutions inside them run anything. */
export interface ExprCommand {
  type: 'TestClause' | 'ArithmCmd' | 'LetClause' | 'TestDecl';
}
/** Every command node the walk handles. */
export type Command = CallExpr | BinaryCmd | StmtList | IfClause | WhileClause | ForClause | CaseClause | FuncDecl | DeclClause | WrappedStmt | ExprCommand;

/** A parsed script. */
export interface ShellFile {
  Stmts: Stmt[];
}

interface GoType {
  string?: string;
  nil?: unknown;
  elem?: { fields?: { prop: string; typ: { string: string } }[] };
}

/*
 * GopherJS keeps a Go pointer-to-struct as an object whose constructor carries the struct's
 * field list; slices as {$array, $offset, $length}; strings, bools and numbers as themselves;
 * nil pointers as the type's `nil` sentinel. Positions and comments are not needed.
 */
function plain(v: unknown, depth: number): unknown {
  if (v === null || v === undefined || typeof v !== 'object') return v ?? null;
  if (depth > MAX_TREE_DEPTH) throw new Error('shell syntax error: the command nests too deeply to analyse');
  const o = v as Record<string, unknown> & { $array?: unknown[]; $offset?: number; $length?: number };
  if (o.$array !== undefined) {
    const out: unknown[] = [];
    const off = o.$offset ?? 0;
    for (let i = 0; i < (o.$length ?? 0); i++) out.push(plain(o.$array[off + i], depth + 1));
    return out;
  }
  const ctor = (o as { constructor?: GoType }).constructor;
  const fields = ctor?.elem?.fields;
  if (!ctor?.string || ctor.nil === v || !fields) return null;
  const node: Record<string, unknown> = { type: ctor.string.replace(/^\*?syntax\./, '') };
  for (const f of fields) {
    if (f.typ.string === 'syntax.Pos' || f.prop === 'Comments') continue;
    node[f.prop] = plain(o[f.prop], depth + 1);
  }
  return node;
}

/** Deeper trees than this are refused rather than risk the stack. */
const MAX_TREE_DEPTH = 2000;

const PARSER = sh.syntax.NewParser();

/** Parses a script; throws an Error whose message starts with "shell syntax error". */
export function parseScript(src: string): ShellFile {
  let wrapped: { __internal_object__?: unknown };
  try {
    wrapped = PARSER.Parse(src, 'cmd');
  } catch (e) {
    const err = e as { Error?: () => string; message?: string };
    const msg = typeof err?.Error === 'function' ? err.Error() : String(err?.message ?? e);
    throw new Error(`shell syntax error: ${msg.replace(/^cmd:/, 'at ')}`);
  }
  const file = plain(wrapped.__internal_object__, 0) as ShellFile | null;
  if (!file || !Array.isArray(file.Stmts)) throw new Error('shell syntax error: the parser returned no statements');
  return file;
}

/* Operator codes are Go constants whose numbers depend on the build; learn them from samples. */
function learnOps(): Map<number, string> {
  const names = new Map<number, string>();
  const first = (src: string): Stmt => parseScript(src).Stmts[0]!;
  for (const op of ['>', '>>', '<', '&>', '&>>', '<<<', '>|', '<>', '>&', '<&']) {
    const r = first(`a ${op} b`).Redirs[0];
    if (r) names.set(r.Op, op);
  }
  for (const op of ['<<', '<<-']) {
    const r = first(`a ${op}EOF\nx\nEOF\n`).Redirs[0];
    if (r) names.set(r.Op, op);
  }
  for (const op of ['&&', '||', '|', '|&']) names.set((first(`a ${op} b`).Cmd as BinaryCmd).Op, op);
  for (const op of [':-', '-', ':=', '=', ':?', '?', ':+', '+', '%', '%%', '#', '##']) {
    const call = first(`a \${x${op}y}`).Cmd as CallExpr;
    const exp = (call.Args[1]!.Parts[0] as ParamExp).Exp;
    if (exp) names.set(exp.Op + 100_000, op);
  }
  for (const op of ['<(', '>(']) {
    const call = first(`a ${op}b)`).Cmd as CallExpr;
    names.set((call.Args[1]!.Parts[0] as ProcSubst).Op + 200_000, op);
  }
  return names;
}
const OPS = learnOps();

/** The written form of a redirect or list operator. */
export function opName(op: number): string {
  return OPS.get(op) ?? '?';
}

/** The written form of a ${x:-y} style operator. */
export function expansionOp(op: number): string {
  return OPS.get(op + 100_000) ?? '?';
}

/** `<(` or `>(`. */
export function procSubstOp(op: number): string {
  return OPS.get(op + 200_000) ?? '?';
}
