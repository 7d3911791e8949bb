import { describe, expect, it } from 'vitest';
import type { ProbeResult, RehearsalReport } from '../../shared/types.js';
import { rehearsalView } from '../../renderer/src/views/format.js';

const file = { type: 'file', mode: '0644', uid: 1000, size: 5, links: 1 };
const report: RehearsalReport = {
  command: 'rm -rf ~/cache/*',
  user: 'user',
  cwd: '/home/user',
  changes: [
    { path: '/home/user/Photos/a.jpg', change: 'deleted', before: file },
    { path: '/home/user/new.txt', change: 'created', after: file },
  ],
  omitted: 3,
  killed: [],
  exposed: [],
  referenced: [],
  lost: [],
  broken: [],
  exitCode: 0,
  timedOut: false,
  durationMs: 412.4,
};

describe("the verdict card's view of a rehearsal", () => {
  it('puts the findings first, lists the changes but creations, and counts what it left out', () => {
    const probe: ProbeResult = { probe: 'rehearsal', target: report.command, ok: true, value: { ...report, reading: { unnamed: ['deleted /home/user/Photos/a.jpg'], kills: [], exposed: [], stillUsed: [], onlyCopies: [], corrupted: [], failed: '' } } };
    expect(rehearsalView({ probes: [probe] })).toEqual({
      findings: ['reached what nothing names: deleted /home/user/Photos/a.jpg'],
      changes: ['deleted /home/user/Photos/a.jpg', '... and 3 more'],
      created: 1,
      ms: 412,
    });
  });

  it('says first when the rehearsal could not be read, and shows nothing when none ran', () => {
    const failed: ProbeResult = { probe: 'rehearsal', target: 'x', ok: true, value: { ...report, changes: [], omitted: 0, reading: { failed: 'the file listing did not complete' } } };
    expect(rehearsalView({ probes: [failed] })?.findings).toEqual(['could not be read: the file listing did not complete']);
    expect(rehearsalView({ probes: [{ probe: 'path', target: '/x', ok: true, value: {} }] })).toBeUndefined();
  });
});
