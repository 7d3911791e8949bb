/**
 * The AGrail memory key in two forms: a natural-language paraphrase of what the action does
 * (built from its effects, so two spellings of one act read alike) and a normalised
 * tool-command form (paths resolved, long payloads elided).
 */
import type { ActionRequest, Facts, PathEffect } from '../../../../shared/types.js';

function list(effects: PathEffect[], max = 3): string {
  const paths = [...new Set(effects.map((e) => e.path))];
  return paths.slice(0, max).join(', ') + (paths.length > max ? ` and ${paths.length - max} more` : '');
}

const CHANNEL: Record<string, string> = {
  curl: 'over HTTP',
  wget: 'over HTTP',
  http: 'over HTTP',
  xh: 'over HTTP',
  scp: 'over SSH',
  ssh: 'over SSH',
  sftp: 'over SSH',
  rsync: 'over SSH',
  nc: 'over a raw socket',
  ncat: 'over a raw socket',
  netcat: 'over a raw socket',
  socat: 'over a raw socket',
  telnet: 'over a raw socket',
  mail: 'by mail',
  mailx: 'by mail',
  sendmail: 'by mail',
  mutt: 'by mail',
  'git push': 'with git',
  dig: 'in DNS lookups',
  nslookup: 'in DNS lookups',
  host: 'in DNS lookups',
};

/** A short sentence describing what the action does. */
export function paraphraseOf(req: ActionRequest, f: Facts): string {
  const a = req.action;
  if (f.parseError) return `unparsable ${a.type} action`;
  if (a.type === 'sql' && f.sql) {
    const ops = [...new Set(f.sql.tables.map((t) => t.op))].join('/') || f.sql.statements.join('/');
    const cols = [...new Set(f.sql.columns.filter((c) => c.column !== '(.*)').map((c) => c.column))].slice(0, 6).join(', ');
    return `${ops || 'query'} ${[...new Set(f.sql.tables.map((t) => t.name))].join(', ')}${cols ? ` (columns ${cols})` : ''}${a.identity ? ` as ${a.identity}` : ''}`.trim().slice(0, 400);
  }
  if (a.type === 'web') return `${a.operation} ${a.element}${a.value ? ` with "${a.value.slice(0, 80)}"` : ''}${a.url ? ` on ${a.url.slice(0, 120)}` : ''}`.slice(0, 400);
  if (a.type === 'text') return `say: ${a.content.replace(/\s+/g, ' ').slice(0, 200)}`;
  const e = f.effects;
  const parts: string[] = [];
  const moved = e.deletes.filter((d) => d.by === 'mv');
  const deleted = e.deletes.filter((d) => d.by !== 'mv');
  if (deleted.length) {
    const how = `${deleted.some((d) => d.recursive) ? 'recursively ' : ''}${f.flags.includes('force') ? 'force-' : ''}`;
    parts.push(`${how}delete ${list(deleted)}`);
  }
  const movedTo = e.writes.filter((w) => w.by === 'mv');
  if (moved.length) parts.push(`move ${list(moved)}${movedTo.length ? ` to ${list(movedTo)}` : ''}`);
  if (e.modeChanges.length) parts.push(`change mode${e.modeChanges[0]!.mode ? ` (${e.modeChanges[0]!.mode})` : ''} of ${list(e.modeChanges)}`);
  if (e.ownerChanges.length) parts.push(`change owner${e.ownerChanges[0]!.mode ? ` to ${e.ownerChanges[0]!.mode}` : ''} of ${list(e.ownerChanges)}`);
  const written = e.writes.filter((w) => w.by !== 'mv');
  if (written.length) parts.push(`write ${list(written)}`);
  const sending = e.network.filter((n) => n.sendsData);
  const hosts = (ns: typeof e.network): string => [...new Set(ns.map((n) => n.target))].slice(0, 2).join(', ');
  if (e.reads.length && sending.length) {
    const channel = CHANNEL[sending[0]!.by] ?? '';
    parts.push(`read ${list(e.reads)} and send it to ${hosts(sending)}${channel ? ' ' + channel : ''}`);
  } else {
    if (e.reads.length && !deleted.length) parts.push(`read ${list(e.reads)}`);
    if (sending.length) parts.push(`send data to ${hosts(sending)}${CHANNEL[sending[0]!.by] ? ' ' + CHANNEL[sending[0]!.by] : ''}`);
  }
  const contacting = e.network.filter((n) => !n.sendsData);
  if (contacting.length) parts.push(`contact ${hosts(contacting)}`);
  if (e.signals.length) {
    const who = (t: string): string => (t === '-1' ? 'every process' : t === '1' ? 'init (process 1)' : /^-?\d+$/.test(t) ? `process ${t}` : t);
    const sig = e.signals[0]!.signal;
    parts.push(`send ${/^\d+$/.test(sig) ? `signal ${sig}` : sig} to ${[...new Set(e.signals.map((s) => who(s.target)))].slice(0, 3).join(', ')}`);
  }
  if (e.privilege.length) parts.push(`change privileges (${[...new Set(e.privilege.map((p) => p.kind))].join(', ')})`);
  if (e.persistence.length) parts.push(`persist via ${[...new Set(e.persistence.map((p) => p.place))].join(', ')}`);
  if (e.exhaustion.length) parts.push(`exhaust resources (${[...new Set(e.exhaustion.map((x) => x.kind))].join(', ')})`);
  if (e.execution.length) parts.push(`run code dynamically (${[...new Set(e.execution.map((x) => x.kind))].join(', ')})`);
  for (const [flag, words] of [
    ['mkfs', 'format a disk'],
    ['partition', 'repartition a disk'],
    ['shutdown', 'shut the machine down'],
    ['disable-security', 'disable a security control'],
    ['log-tamper', 'erase logs'],
    ['history-wipe', 'erase shell history'],
    ['secret-written-out', 'write a secret where others can read it'],
  ] as const) {
    if (f.flags.includes(flag)) parts.push(words);
  }
  if (parts.length === 0) {
    const names = [...new Set(f.commands.map((c) => c.name).filter(Boolean))].slice(0, 4).join(', ');
    if (a.type === 'tool') {
      const args = Object.entries(a.arguments ?? {})
        .slice(0, 4)
        .map(([k, v]) => `${k}=${typeof v === 'string' ? v.slice(0, 60) : JSON.stringify(v)?.slice(0, 60)}`)
        .join(', ');
      parts.push(`call ${a.name}${args ? ` with ${args}` : ''}`);
    } else parts.push(names ? `run ${names}` : 'run a command');
  }
  return parts.join('; ').slice(0, 400);
}

/** The action in a normalised command form. */
export function commandFormOf(req: ActionRequest, shellForms: { sep: string; text: string }[]): string {
  const a = req.action;
  switch (a.type) {
    case 'shell':
      return (shellForms.length ? shellForms.map((x) => x.sep + x.text).join('') : a.command.trim()).slice(0, 1000);
    case 'tool': {
      const shell = shellForms.length ? ` => ${shellForms.map((x) => x.sep + x.text).join('')}` : '';
      return `${a.name}(${JSON.stringify(a.arguments ?? {}).slice(0, 600)})${shell}`.slice(0, 1000);
    }
    case 'sql':
      return `sql[${a.identity ?? ''}] ${a.query.replace(/\s+/g, ' ').trim().slice(0, 900)}`;
    case 'web':
      return `web ${a.operation} ${a.element} ${a.value ?? ''}`.trim().slice(0, 900);
    case 'text':
      return `text ${a.content.slice(0, 900)}`;
  }
}
