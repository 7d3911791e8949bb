import { describe, expect, it } from 'vitest';
import type { ProbeResult } from '../../shared/types.js';
import { rehearsalReport, rehearsedFile } from '../helpers/rehearsal-report.js';
import { rehearsalView } from '../../renderer/src/views/format.js';

const file = rehearsedFile(5);
const report = rehearsalReport(
  [
    { path: '/home/user/Photos/a.jpg', change: 'deleted', before: file },
    { path: '/home/user/new.txt', change: 'created', after: file },
  ],
  { omitted: 3, durationMs: 412.4 },
);

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
