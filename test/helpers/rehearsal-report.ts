/**
 * Rehearsal reports for tests that read them without a sandbox: a clean run of
 * `rm -rf ~/cache/*` as the ordinary user, with the given changes and any field replaced.
 */
import type { RehearsalReport, RehearsedChange, RehearsedEntry } from '../../shared/types.js';

/** A report of one finished rehearsal that found nothing beyond `changes`. */
export function rehearsalReport(changes: RehearsedChange[], extra: Partial<RehearsalReport> = {}): RehearsalReport {
  return {
    command: 'rm -rf ~/cache/*',
    user: 'user',
    cwd: '/home/user',
    changes,
    omitted: 0,
    killed: [],
    exposed: [],
    referenced: [],
    lost: [],
    broken: [],
    dropped: [],
    runBy: [],
    keptEmpty: [],
    heldOpen: [],
    reliedOn: [],
    workedOn: [],
    exitCode: 0,
    timedOut: false,
    durationMs: 300,
    ...extra,
  };
}

/** An ordinary file of `size` bytes owned by the user, as a rehearsal lists it. */
export function rehearsedFile(size: number): RehearsedEntry {
  return { type: 'file', mode: '0644', uid: 1000, size, links: 1 };
}
