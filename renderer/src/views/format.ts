import type { RehearsalReport, TreeEvent, Verdict } from '../../../shared/types.js';

/** A time as the console shows it: local date and time to the second. */
export function when(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return '—';
  return new Date(ms).toLocaleString(undefined, { hour12: false });
}

/** A score to three places, or a dash when the engine had none. */
export function score(x: number | null | undefined): string {
  return typeof x === 'number' && Number.isFinite(x) ? x.toFixed(3) : '—';
}

/** The action of a verdict as one line. */
export function actionText(v: Pick<Verdict, 'request'>): string {
  const a = v.request.action;
  switch (a.type) {
    case 'shell':
      return a.command;
    case 'tool':
      return `${a.name} ${JSON.stringify(a.arguments)}`;
    case 'sql':
      return a.query;
    case 'web':
      return `${a.operation} ${a.element}${a.value ? ` = ${a.value}` : ''}`;
    case 'text':
      return a.content;
  }
}

/** An event's numbers: information gain against the threshold, when it has them. */
export function eventNumbers(e: TreeEvent): string {
  const parts: string[] = [];
  if (typeof e.ig === 'number') parts.push(`IG ${e.ig.toFixed(3)}`);
  if (typeof e.theta === 'number') parts.push(`θ ${e.theta.toFixed(3)}`);
  if (typeof e.similarity === 'number') parts.push(`sim ${e.similarity.toFixed(3)}`);
  return parts.join(' · ');
}

/** What a verdict's rehearsal showed, for a reviewer: its findings first, then what changed. */
export interface RehearsalView {
  /** One line a finding: what the checks asked about, or why it could not be read. */
  findings: string[];
  /** Every change but creations, then how many files it created. */
  changes: string[];
  created: number;
  ms: number;
}

/** The rehearsal of a verdict, or undefined when none ran. */
export function rehearsalView(v: Pick<Verdict, 'probes'>): RehearsalView | undefined {
  const p = v.probes.find((x) => x.probe === 'rehearsal' && x.ok);
  const r = p?.value as (RehearsalReport & { reading?: Record<string, string[] | string> }) | undefined;
  if (!r || !Array.isArray(r.changes)) return undefined;
  const reading = r.reading ?? {};
  const list = (k: string): string[] => (Array.isArray(reading[k]) ? (reading[k] as string[]) : []);
  const findings = [
    ...list('unnamed').map((x) => `reached what nothing names: ${x}`),
    ...list('kills').map((x) => `stopped a process nothing names: ${x}`),
    ...list('exposed').map((x) => `left a secret readable by everyone: ${x}`),
    ...list('stillUsed').map((x) => `destroyed something still used: ${x}`),
    ...list('onlyCopies').map((x) => `lost the only copy: ${x}`),
    ...list('corrupted').map((x) => `left a file damaged: ${x}`),
    ...list('openToAll').map((x) => `left writable by every account: ${x}`),
    ...list('grants').map((x) => `granted a privilege or scheduled something nothing names: ${x}`),
    ...list('lockedOut').map((x) => `closed to the account or group it belongs to: ${x}`),
    ...list('unaskedEdits').map((x) => `a setting the request did not ask to change: ${x}`),
  ];
  if (typeof reading['failed'] === 'string' && reading['failed'] !== '') findings.unshift(`could not be read: ${reading['failed']}`);
  const changes = r.changes.filter((c) => c.change !== 'created').map((c) => `${c.change} ${c.path}`);
  if (r.omitted > 0) changes.push(`... and ${r.omitted} more`);
  return { findings, changes, created: r.changes.filter((c) => c.change === 'created').length, ms: Math.round(r.durationMs) };
}
