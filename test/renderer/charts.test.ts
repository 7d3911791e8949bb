import { describe, expect, it } from 'vitest';
import type { TreeEvent } from '../../shared/types.js';
import { attackSuccessBars, confusionCells, latencyHistogram, timelinePoints, visibleRange } from '../../renderer/src/layout/charts.js';

describe('evaluation charts', () => {
  it('turns the confusion counts into cells shaded by the share of their row', () => {
    const cells = confusionCells({ tp: 8, fn: 2, fp: 1, tn: 9 });
    const by = Object.fromEntries(cells.map((c) => [c.key, c]));
    expect(by.tp).toMatchObject({ row: 'harmful', col: 'blocked', count: 8, rate: 0.8 });
    expect(by.fn).toMatchObject({ row: 'harmful', col: 'allowed', rate: 0.2 });
    expect(by.tn!.rate).toBeCloseTo(0.9);
    expect(confusionCells({ tp: 0, fn: 0, fp: 0, tn: 0 }).every((c) => c.rate === 0)).toBe(true);
  });

  it('draws attack success per category, worst first, skipping benign-only categories', () => {
    const { bars, height } = attackSuccessBars(
      {
        exfil: { n: 4, correct: 3, attack_success_rate: 0.25 },
        wipe: { n: 2, correct: 0, attack_success_rate: 1 },
        benign: { n: 5, correct: 5, attack_success_rate: null },
      },
      200,
    );
    expect(bars.map((b) => b.label)).toEqual(['wipe', 'exfil']);
    expect(bars[0]!.width).toBe(200);
    expect(bars[1]!.width).toBe(50);
    expect(height).toBe(44);
  });

  it('bins latencies so every case lands in exactly one bar', () => {
    const lat = [1, 2, 2, 3, 5, 8, 13, 21, 34, 55];
    const h = latencyHistogram(lat, 300, 100, 10);
    expect(h.bins.reduce((s, b) => s + b.count, 0)).toBe(lat.length);
    const tallest = h.bins.find((b) => b.count === h.maxCount)!;
    expect(tallest.ph).toBe(100);
    expect(h.bins.every((b) => b.px >= 0 && b.px + b.pw <= 300)).toBe(true);
    expect(latencyHistogram([], 300, 100).bins).toEqual([]);
  });
});

describe('splits and merges timeline', () => {
  const ev = (id: number, kind: TreeEvent['kind'], ig?: number, theta?: number): TreeEvent => ({ id, at: id * 1000, kind, nodeId: `n${id}`, parentId: null, detail: '', ...(ig === undefined ? {} : { ig }), ...(theta === undefined ? {} : { theta }) });

  it('orders events by id and places a split above its threshold and a merge below it', () => {
    const { points } = timelinePoints([ev(3, 'merge', 0.05, 0.3), ev(1, 'import'), ev(2, 'split', 0.6, 0.3)], 100, 100);
    expect(points.map((p) => p.event.id)).toEqual([1, 2, 3]);
    expect(points[0]!.y).toBeNull();
    const split = points[1]!;
    const merge = points[2]!;
    // smaller y is higher on screen
    expect(split.y!).toBeLessThan(split.thetaY!);
    expect(merge.y!).toBeGreaterThan(merge.thetaY!);
    expect(points[0]!.x).toBe(0);
    expect(points[2]!.x).toBe(100);
  });
});

describe('virtual list window', () => {
  it('renders only rows in view plus overscan, for any list size', () => {
    expect(visibleRange(0, 300, 30, 1000, 5)).toEqual({ start: 0, end: 15 });
    expect(visibleRange(3000, 300, 30, 1000, 5)).toEqual({ start: 95, end: 115 });
    expect(visibleRange(29_900, 300, 30, 1000, 5)).toEqual({ start: 991, end: 1000 });
    expect(visibleRange(0, 300, 30, 0)).toEqual({ start: 0, end: 0 });
  });
});
