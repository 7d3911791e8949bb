/**
 * Facts from SQL through node-sql-parser: statement types, the tables and columns each operation
 * touches, and the statement shapes checks care about (DELETE or UPDATE without WHERE, DROP,
 * GRANT, file access from SQL). Dialects are tried in turn; the first that parses wins.
 */
import sqlParser from 'node-sql-parser';
import type { SqlFacts } from '../../../../shared/types.js';

const PARSER = new sqlParser.Parser();
const DIALECTS = ['MySQL', 'PostgresQL', 'SQLite', 'MariaDB', 'TransactSQL', 'BigQuery'];
/** Longer statements are refused rather than risk the parser's time. */
const MAX_SQL = 256 * 1024;
const FILE_FUNCTIONS = new Set(['pg_read_file', 'pg_read_binary_file', 'pg_ls_dir', 'load_file', 'lo_import', 'lo_export', 'readfile', 'writefile', 'load_extension', 'xp_cmdshell']);

interface AstStatement {
  type?: string;
  keyword?: string;
  where?: unknown;
}

/** Scans an AST for function names and INTO OUTFILE, bounded in depth. */
function scanAst(node: unknown, found: Set<string>, depth = 0): void {
  if (!node || typeof node !== 'object' || depth > 60) return;
  if (Array.isArray(node)) {
    for (const n of node) scanAst(n, found, depth + 1);
    return;
  }
  for (const [k, v] of Object.entries(node as Record<string, unknown>)) {
    if (typeof v === 'string') {
      const low = v.toLowerCase();
      if (FILE_FUNCTIONS.has(low)) found.add(low);
      if ((k === 'type' || k === 'keyword') && (low === 'outfile' || low === 'dumpfile')) found.add('into outfile');
    } else scanAst(v, found, depth + 1);
  }
}

/** SQL facts and the flags they raise; throws an Error naming the syntax problem. */
export function sqlFacts(query: string): { sql: SqlFacts; flags: string[] } {
  if (query.length > MAX_SQL) throw new Error(`SQL syntax error: the query is ${query.length} characters; the guard parses at most ${MAX_SQL}`);
  let lastError: unknown;
  for (const database of DIALECTS) {
    try {
      const ast = PARSER.astify(query, { database }) as unknown as AstStatement | AstStatement[];
      const list = Array.isArray(ast) ? ast : [ast];
      const tables = PARSER.tableList(query, { database }).map((t) => {
        const [op, , name] = t.split('::');
        return { name: (name ?? '').toLowerCase(), op: (op ?? '').toLowerCase() };
      });
      const columns = PARSER.columnList(query, { database }).map((c) => {
        const [op, table, column] = c.split('::');
        return { table: table && table !== 'null' ? table.toLowerCase() : null, column: (column ?? '').toLowerCase(), op: (op ?? '').toLowerCase() };
      });
      const statements = list.map((s) => String(s.type ?? 'unknown').toLowerCase());
      const flags = new Set<string>();
      for (const s of list) {
        const type = String(s.type ?? '').toLowerCase();
        const keyword = String(s.keyword ?? '').toLowerCase();
        if ((type === 'delete' || type === 'update') && !s.where) flags.add(`sql-${type}-all`);
        if (type === 'drop' || type === 'truncate') flags.add(`sql-${type}${keyword ? '-' + keyword : ''}`);
        if (type === 'grant' || type === 'revoke' || (type === 'create' && keyword === 'user') || (type === 'alter' && keyword === 'user')) flags.add('sql-privilege');
      }
      const found = new Set<string>();
      scanAst(list, found);
      if (found.size > 0) flags.add('sql-file-access');
      if (list.length > 1) flags.add('sql-multiple-statements');
      return { sql: { statements, tables, columns }, flags: [...flags] };
    } catch (e) {
      lastError = e;
    }
  }
  throw new Error(`SQL syntax error: ${(lastError as Error)?.message ?? String(lastError)}`.slice(0, 500));
}
