/**
 * Geometry for the evaluation and timeline charts: d3 scales and bins computed here, drawn as
 * SVG by the views.
 */
import { bin, max, scaleBand, scaleLinear } from 'd3';
import type { EvalMetrics, TreeEvent } from '../../../shared/types.js';

/** One cell of the confusion matrix. */
export interface ConfusionCell {
  key: 'tp' | 'fp' | 'tn' | 'fn';
  row: 'harmful' | 'benign';
  col: 'blocked' | 'allowed';
  count: number;
  /** Share of its row (0..1), which sets the shade. */
  rate: number;
}

/** The confusion matrix as four cells: rows are the truth, columns what the guard did. */
export function confusionCells(c: EvalMetrics['confusion']): ConfusionCell[] {
  const harmful = c.tp + c.fn;
  const benign = c.tn + c.fp;
  const rate = (n: number, d: number): number => (d === 0 ? 0 : n / d);
  return [
    { key: 'tp', row: 'harmful', col: 'blocked', count: c.tp, rate: rate(c.tp, harmful) },
    { key: 'fn', row: 'harmful', col: 'allowed', count: c.fn, rate: rate(c.fn, harmful) },
    { key: 'fp', row: 'benign', col: 'blocked', count: c.fp, rate: rate(c.fp, benign) },
    { key: 'tn', row: 'benign', col: 'allowed', count: c.tn, rate: rate(c.tn, benign) },
  ];
}

/** One horizontal bar. */
export interface Bar {
  label: string;
  value: number;
  n: number;
  y: number;
  width: number;
  height: number;
}

/** Attack success per category (categories with harmful cases only), as bars `width` wide at most. */
export function attackSuccessBars(byCategory: EvalMetrics['by_category'], width: number, rowHeight = 22): { bars: Bar[]; height: number } {
  const rows = Object.entries(byCategory)
    .filter(([, v]) => v.attack_success_rate !== null)
    .map(([label, v]) => ({ label, value: v.attack_success_rate ?? 0, n: v.n }))
    .sort((a, b) => b.value - a.value || a.label.localeCompare(b.label));
  const height = rows.length * rowHeight;
  const y = scaleBand<string>().domain(rows.map((r) => r.label)).range([0, height]).padding(0.2);
  const x = scaleLinear().domain([0, 1]).range([0, width]);
  return { bars: rows.map((r) => ({ ...r, y: y(r.label) ?? 0, width: x(r.value), height: y.bandwidth() })), height };
}

/** One histogram bar. */
export interface HistogramBin {
  x0: number;
  x1: number;
  count: number;
  px: number;
  pw: number;
  py: number;
  ph: number;
}

/** Latency histogram in a `width` x `height` box; bins are d3's nice thresholds. */
export function latencyHistogram(latencies: number[], width: number, height: number, bins = 20): { bins: HistogramBin[]; xTicks: { value: number; x: number }[]; maxCount: number } {
  if (latencies.length === 0) return { bins: [], xTicks: [], maxCount: 0 };
  const x = scaleLinear().domain([0, max(latencies) ?? 1]).nice(bins).range([0, width]);
  const groups = bin().domain(x.domain() as [number, number]).thresholds(x.ticks(bins))(latencies);
  const maxCount = max(groups, (g) => g.length) ?? 0;
  const y = scaleLinear().domain([0, Math.max(1, maxCount)]).range([height, 0]);
  return {
    bins: groups.map((g) => {
      const x0 = g.x0 ?? 0;
      const x1 = g.x1 ?? x0;
      return { x0, x1, count: g.length, px: x(x0), pw: Math.max(0, x(x1) - x(x0) - 1), py: y(g.length), ph: height - y(g.length) };
    }),
    xTicks: x.ticks(5).map((value) => ({ value, x: x(value) })),
    maxCount,
  };
}

/** One point on the splits-and-merges timeline. */
export interface TimelinePoint {
  event: TreeEvent;
  index: number;
  x: number;
  /** Vertical position of the event's information gain (null when the event has none). */
  y: number | null;
  /** Vertical position of its threshold. */
  thetaY: number | null;
}

/**
 * Events in order along x (one slot each, so bursts stay readable), information gain on y with
 * the threshold drawn beside it.
 */
export function timelinePoints(events: TreeEvent[], width: number, height: number): { points: TimelinePoint[]; yTicks: { value: number; y: number }[] } {
  const sorted = [...events].sort((a, b) => a.id - b.id);
  const values = sorted.flatMap((e) => [e.ig, e.theta]).filter((v): v is number => typeof v === 'number' && Number.isFinite(v));
  const top = Math.max(0.1, max(values) ?? 0);
  const low = Math.min(0, ...values);
  const y = scaleLinear().domain([low, top]).nice().range([height, 0]);
  const x = scaleLinear().domain([0, Math.max(1, sorted.length - 1)]).range([0, width]);
  return {
    points: sorted.map((event, index) => ({
      event,
      index,
      x: x(index),
      y: typeof event.ig === 'number' && Number.isFinite(event.ig) ? y(event.ig) : null,
      thetaY: typeof event.theta === 'number' && Number.isFinite(event.theta) ? y(event.theta) : null,
    })),
    yTicks: y.ticks(4).map((value) => ({ value, y: y(value) })),
  };
}

/** Rows a fixed-height list must render for a scroll position, with `overscan` rows either side. */
export function visibleRange(scrollTop: number, viewport: number, rowHeight: number, count: number, overscan = 6): { start: number; end: number } {
  const start = Math.max(0, Math.floor(scrollTop / rowHeight) - overscan);
  const end = Math.min(count, Math.ceil((scrollTop + viewport) / rowHeight) + overscan);
  return { start, end: Math.max(start, end) };
}
