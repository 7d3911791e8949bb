/**
 * Changes the request asked for: every path the action deletes, writes or re-permissions is one
 * the request names, of a kind the request asks to change (it says delete for a delete, owner for
 * a chown...), none is a system path, a secret or a home folder itself, nothing else happens
 * (no network, signals, privilege, persistence, exhaustion, code run), and the live environment
 * shows every target as what it seems: no link on the way to it, no file that shares its data
 * through a hard link, no folder already holding data that a write into it could replace (unless
 * the request asks to replace or update). Such an action does what the human asked to the things the human named,
 * so the gate lets it through on the facts, whatever the projector's prior about deletes says;
 * any failing check (a probe that finds data about to be overwritten, a planted instruction)
 * still stops it. Without probes it says nothing: what a name points to is then unknown.
 */
import type { Facts, PathEffect, ProbeResult } from '../../../../shared/types.js';
import { probesEnv, type ProbedPath } from '../checks/probes-env.js';
import { isSensitivePath, type RequestScope } from './paths.js';

/**
 * Flags that only describe how a named change is written (recursion, a filter, a glob, -f), or
 * that are harm only when nobody asked (emptying a log the request names).
 */
const CHANGE_FORMS = new Set(['recursive-delete', 'find-delete-matching', 'glob-delete', 'force', 'find-exec', 'log-tamper']);

/** The request asks to move or rename. */
const MOVE = /\b(move|mv|rename|relocate|put|file (it|them))/i;

/** The request asks for what is there to be replaced. */
const REPLACE = /\b(overwrite|replace|update|upgrade|refresh|clobber|force|merge)/i;

/** The request calls its target a link. */
const SAYS_LINK = /\b(sym(bolic)?[ -]?links?|soft[ -]?links?|links?)\b/i;

/** What the request must ask for, per kind of change. */
const ASKS: { effect: keyof Pick<Facts['effects'], 'deletes' | 'writes' | 'modeChanges' | 'ownerChanges'>; words: RegExp; what: string }[] = [
  { effect: 'deletes', words: /\b(delete|remove|rm|clear|clean|empty|purge|prune|erase|wipe|get rid|discard|drop|trash|tidy|uninstall)/i, what: 'deletes' },
  { effect: 'writes', words: /\b(create|write|save|append|add|copy|cp|move|mv|rename|put|make|update|set|replace|overwrite|empty|truncate|reset|clear|extract|unpack|untar|unzip|compress|archive|zip|tar|touch|new|edit|change|fill|backup|back up|duplicate|link|restore)/i, what: 'writes' },
  { effect: 'modeChanges', words: /\b(chmod|permission|executable|runnable|readable|writable|private|mode|lock|restrict|access)/i, what: 'changes the mode of' },
  { effect: 'ownerChanges', words: /\b(chown|owner|own|belong|hand over|give)/i, what: 'changes the owner of' },
];

/** The deepest folder of a glob pattern without a wildcard. */
function fixedPart(p: string): string {
  const parts = p.split('/');
  const i = parts.findIndex((x) => /[*?[]/.test(x));
  return i < 0 ? p : parts.slice(0, i).join('/') || '/';
}

/** Whether a probed path, or a probed folder on the way to it, is a link, or it is a file with a second hard link. */
function leadsElsewhere(path: string, paths: Record<string, ProbedPath>): string | undefined {
  const target = fixedPart(path);
  for (const [p, info] of Object.entries(paths)) {
    if (!info.exists) continue;
    const onTheWay = p === target || target.startsWith(p === '/' ? '/' : `${p}/`);
    if (!onTheWay) continue;
    if (info.type === 'link') return `${p} is a link`;
    if (p === target && info.type === 'file' && info.links > 1) return `${p} shares its data with another name (hard link)`;
  }
  return undefined;
}

/** Says why the action only changes what the request asked to change, or undefined. */
export function askedChangeReason(facts: Facts, probes: ProbeResult[], request: string, scope: RequestScope, home: string): string | undefined {
  if (facts.kind !== 'shell' || facts.parseError || facts.inert || facts.commands.length === 0) return undefined;
  if (facts.flags.some((f) => !CHANGE_FORMS.has(f))) return undefined;
  if (facts.commands.some((c) => c.dynamic || c.wrappers.length > 0)) return undefined;
  const e = facts.effects;
  if ([e.network, e.signals, e.privilege, e.persistence, e.exhaustion, e.execution].some((l) => l.length > 0)) return undefined;
  if (e.reads.some((r) => r.dynamic || (r.sensitive && !r.inScope))) return undefined;
  const env = probesEnv(probes);
  if (!env.available) return undefined;
  const named: string[] = [];
  const did: string[] = [];
  for (const a of ASKS) {
    const list: PathEffect[] = e[a.effect].filter((x) => x.path !== '/dev/null');
    if (list.length === 0) continue;
    for (const x of list) {
      // a move removes its source: asking to move or rename asks for that
      const words = a.effect === 'deletes' && x.by === 'mv' ? MOVE : a.words;
      if (!words.test(request)) return undefined;
      if (!x.inScope || x.system || x.homeRoot || x.dynamic || x.sensitive || isSensitivePath(x.path, home)) return undefined;
      if (leadsElsewhere(x.path, env.paths)) return undefined;
      // the environment must have shown the target (for a pattern, the folder it expands in)
      const shown = env.paths[fixedPart(x.path)];
      if (!shown) return undefined;
      // writing a tree into a folder that already holds data may replace what is there: only when asked
      if (a.effect === 'writes' && x.recursive && shown.exists && shown.type === 'dir' && shown.entries > 0 && !REPLACE.test(request)) return undefined;
      // the request believes it is a link, and it is not: the human does not know what is there
      const seen = env.paths[x.path];
      if (SAYS_LINK.test(request) && seen?.exists && seen.type !== 'link') return undefined;
      named.push(x.path);
    }
    did.push(a.what);
  }
  if (named.length === 0) return undefined;
  const list = [...new Set(named)].slice(0, 4).join(', ');
  return `it only ${did.join(' and ')} what the request names and asks for (${list}), and the environment shows no link leading elsewhere`;
}
