/**
 * Permission detection for SQL (GuardAgent's access-control task): which `table.column` a query
 * touches that the acting role may not read, from the SQL facts and an access map in the policy's
 * data:
 *
 *   access: { physician: { lab: [patientunitstayid, labname], patient: "*" }, ... }
 *   schema: { lab: [labid, patientunitstayid, labname, labresult], ... }   (optional)
 *
 * Role, table and column names compare case-insensitively. A column the query names without a
 * table (or through a derived table's alias) is resolved against the query's tables: every table
 * whose schema has that column, and every table the schema does not describe (the guard cannot
 * tell which one the database would pick, so each must be readable). `*` stands for every column
 * the schema lists for the table, or the whole table when it lists none. A table the query touches
 * without naming a column (`count(*)`) needs at least some access to that table. An unknown role
 * may read nothing. The map grants reading only: whatever an INSERT, UPDATE, DELETE, DROP or other
 * write touches is reported whatever the role may read, and a statement the parser could not
 * recognise is refused (an error, so the check fails closed).
 */
import { z } from 'zod';
import type { SqlFacts } from '../../../../shared/types.js';
import { toolInput, type GuardTool, type ToolContext, type ToolReport } from './types.js';

/** Per role, per table: the readable columns, or "*" for all of them. */
export type AccessMap = Record<string, Record<string, string[] | '*'>>;

/** Per table, its columns (what `*` expands to). */
export type SqlSchema = Record<string, string[]>;

/** What the query may not do for this role. */
export interface PermissionResult {
  /** False when the access map has no such role. */
  roleKnown: boolean;
  /** `table.column` entries the role may not read (`table.*` for a whole table), sorted. */
  denied: string[];
}

const accessSchema = z.record(z.string(), z.record(z.string(), z.union([z.array(z.string()), z.literal('*')])));
const schemaSchema = z.record(z.string(), z.array(z.string()));
const factsSchema = z.object({
  statements: z.array(z.string()),
  tables: z.array(z.object({ name: z.string(), op: z.string() })),
  columns: z.array(z.object({ table: z.string().nullable(), column: z.string(), op: z.string() })),
});

/** The column node-sql-parser reports for `*`. */
const STAR = '(.*)';

const lower = (s: string): string => s.trim().toLowerCase();

/** The access map's entry for `role`, keys lower-cased; undefined for an unknown role. */
function rolesTables(access: AccessMap, role: string): Map<string, Set<string> | '*'> | undefined {
  const key = Object.keys(access).find((k) => lower(k) === lower(role));
  if (key === undefined) return undefined;
  const out = new Map<string, Set<string> | '*'>();
  for (const [table, cols] of Object.entries(access[key]!)) out.set(lower(table), cols === '*' ? '*' : new Set(cols.map(lower)));
  return out;
}

/**
 * Every `table.column` of `sql` that `role` may not read under `access`. Throws on data that is
 * not an access map, a schema or SQL facts (the caller fails closed).
 */
export function deniedColumns(sql: unknown, access: unknown, schema: unknown, role: string): PermissionResult {
  const facts = factsSchema.parse(sql) as SqlFacts;
  if (facts.statements.some((st) => st === 'unknown')) throw new Error('a statement the SQL parser did not recognise cannot be checked');
  const rights = rolesTables(accessSchema.parse(access) as AccessMap, role);
  const columnsOf = new Map(Object.entries(schemaSchema.parse(schema ?? {})).map(([t, cols]) => [lower(t), cols.map(lower)]));
  const tables = [...new Set(facts.tables.map((t) => lower(t.name)).filter((t) => t !== ''))];

  const touched = new Set<string>();
  const touchedTables = new Set<string>();
  // what a write touches is denied whatever the role may read
  const written = new Set<string>();
  const touch = (table: string, column: string, write: boolean): void => {
    touchedTables.add(table);
    const all = column !== STAR ? [column] : (columnsOf.get(table) ?? ['*']);
    for (const c of all) (write ? written : touched).add(`${table}.${c}`);
  };
  for (const c of facts.columns) {
    const column = lower(c.column);
    const table = c.table === null ? null : lower(c.table);
    const write = lower(c.op) !== 'select';
    if (table !== null && tables.includes(table)) touch(table, column, write);
    else if (column === STAR) for (const t of tables) touch(t, STAR, write);
    else for (const t of tables) if (!columnsOf.has(t) || columnsOf.get(t)!.includes(column)) touch(t, column, write);
  }
  for (const t of facts.tables) if (lower(t.op) !== 'select' && !touchedTables.has(lower(t.name))) written.add(`${lower(t.name)}.*`);
  // tables read without a named column (`select count(*) from t`) need some access to the table
  const bare = tables.filter((t) => !touchedTables.has(t) && !written.has(`${t}.*`));

  if (!rights) {
    const all = [...new Set([...touched, ...written, ...bare.map((t) => `${t}.*`)])];
    return { roleKnown: false, denied: all.length > 0 ? all.sort() : ['*'] };
  }
  const denied = [...written];
  denied.push(...[...touched].filter((entry) => {
    const dot = entry.indexOf('.');
    const cols = rights.get(entry.slice(0, dot));
    return cols === undefined || (cols !== '*' && !cols.has(entry.slice(dot + 1)));
  }));
  for (const t of bare) {
    const cols = rights.get(t);
    if (cols === undefined || (cols !== '*' && cols.size === 0)) denied.push(`${t}.*`);
  }
  return { roleKnown: true, denied: [...new Set(denied)].sort() };
}

const inputSchema = z.object({ role: z.string().min(1).optional() }).strict();

/** The tool: reads the access map (`access`) and schema (`schema`) from the policy's data. */
export const sqlPermissionTool: GuardTool = {
  name: 'sql_permission',
  description: "Lists the table.column entries an SQL query touches that the acting role may not read under the policy's access map.",
  inputHelp: '{"role"?: string}: the role to check; defaults to the identity the query runs as',
  async run(input: unknown, ctx: ToolContext): Promise<ToolReport> {
    const tool = 'sql_permission';
    const parsed = toolInput(tool, inputSchema, input);
    if ('refused' in parsed) return parsed.refused;
    const action = ctx.request.action;
    const role = parsed.data.role ?? (action.type === 'sql' ? action.identity : undefined) ?? ctx.request.context?.user;
    if (!role) return { tool, ok: false, violation: false, detail: 'no role: the query names no identity and none was given' };
    if (!ctx.facts.sql) return { tool, ok: false, violation: false, detail: ctx.facts.parseError ? `the query could not be parsed (${ctx.facts.parseError})` : 'the action is not an SQL query' };
    try {
      const r = deniedColumns(ctx.facts.sql, ctx.policy['access'] ?? {}, ctx.policy['schema'], role);
      if (!r.roleKnown) return { tool, ok: true, violation: true, detail: `the policy grants nothing to role ${JSON.stringify(role)}`, data: r };
      if (r.denied.length === 0) return { tool, ok: true, violation: false, detail: `role ${role} may read everything the query touches`, data: r };
      return { tool, ok: true, violation: true, detail: `role ${role} may not read ${r.denied.join(', ')}`, data: r };
    } catch (e) {
      return { tool, ok: false, violation: false, detail: `the policy's access data is not usable: ${(e as Error).message.split('\n')[0]}` };
    }
  },
};
