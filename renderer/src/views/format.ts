import type { TreeEvent, Verdict } from '../../../shared/types.js';

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
