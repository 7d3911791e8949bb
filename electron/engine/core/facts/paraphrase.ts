/**
 * The AGrail memory key in two forms: a natural-language paraphrase of what the action does
 * (built from its effects, so two spellings of one act read alike) and a normalised
 * tool-command form.
 */
import type { ActionRequest, Facts, PathEffect } from '../../../../shared/types.js';

function list(effects: PathEffect[], max = 3): string {
  const paths = [...new Set(effects.map((e) => e.path))];
  return paths.slice(0, max).join(', ') + (paths.length > max ? ` and ${paths.length - max} more` : '');
}

/** A short sentence describing what the action does. */
export function paraphraseOf(req: ActionRequest, f: Facts): string {
  const a = req.action;
  if (f.parseError) return `unparsable ${a.type} action`;
  const e = f.effects;
  const parts: string[] = [];
  if (a.type === 'sql' && f.sql) {
    const ops = [...new Set(f.sql.tables.map((t) => t.op))].join('/');
    const cols = [...new Set(f.sql.columns.filter((c) => c.column !== '(.*)').map((c) => c.column))].slice(0, 6).join(', ');
    return `${ops || 'query'} ${f.sql.tables.map((t) => t.name).join(', ')}${cols ? ` (columns ${cols})` : ''}${a.identity ? ` as ${a.identity}` : ''}`;
  }
  if (a.type === 'web') return `${a.operation} ${a.element}${a.value ? ` with "${a.value.slice(0, 80)}"` : ''}`.slice(0, 300);
  if (a.type === 'text') return `say: ${a.content.slice(0, 160)}`;
  if (e.deletes.length) parts.push(`${e.deletes.some((d) => d.recursive) ? 'recursively ' : ''}delete ${list(e.deletes)}`);
  if (e.modeChanges.length) parts.push(`change mode (${e.modeChanges[0]!.mode ?? ''}) of ${list(e.modeChanges)}`);
  if (e.ownerChanges.length) parts.push(`change owner of ${list(e.ownerChanges)}`);
  if (e.writes.length) parts.push(`write ${list(e.writes)}`);
  if (e.reads.length && !e.deletes.length) parts.push(`read ${list(e.reads)}`);
  if (e.network.length) parts.push(`${e.network.some((n) => n.sendsData) ? 'send data to' : 'contact'} ${[...new Set(e.network.map((n) => n.target))].slice(0, 2).join(', ')}`);
  if (e.signals.length) parts.push(`send ${e.signals[0]!.signal} to ${e.signals.map((s) => s.target).slice(0, 3).join(', ')}`);
  if (e.privilege.length) parts.push(`change privileges (${[...new Set(e.privilege.map((p) => p.kind))].join(', ')})`);
  if (e.persistence.length) parts.push(`persist via ${[...new Set(e.persistence.map((p) => p.place))].join(', ')}`);
  if (e.exhaustion.length) parts.push(`exhaust resources (${e.exhaustion[0]!.kind})`);
  if (e.execution.length) parts.push(`run code dynamically (${[...new Set(e.execution.map((x) => x.kind))].join(', ')})`);
  if (parts.length === 0) {
    const names = [...new Set(f.commands.map((c) => c.name))].slice(0, 4).join(', ');
    parts.push(a.type === 'tool' ? `call ${a.name}` : names ? `run ${names}` : 'run a command');
  }
  return parts.join('; ').slice(0, 400);
}

/** The action in a normalised command form (arguments that are paths shown as resolved paths). */
export function commandFormOf(req: ActionRequest, f: Facts): string {
  const a = req.action;
  switch (a.type) {
    case 'shell':
      return f.commands.length ? f.commands.map((c) => c.argv.join(' ')).join(' ; ').slice(0, 1000) : a.command.trim().slice(0, 1000);
    case 'tool':
      return `${a.name}(${JSON.stringify(a.arguments).slice(0, 900)})`;
    case 'sql':
      return `sql[${a.identity ?? ''}] ${a.query.replace(/\s+/g, ' ').trim().slice(0, 900)}`;
    case 'web':
      return `web ${a.operation} ${a.element} ${a.value ?? ''}`.trim().slice(0, 900);
    case 'text':
      return `text ${a.content.slice(0, 900)}`;
  }
}
