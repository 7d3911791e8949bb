import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { timelinePoints } from '../layout/charts.js';
import { useWarden } from '../store/use-warden.js';
import { eventNumbers, when } from './format.js';

const W = 900;
const H = 220;
const M = { left: 44, right: 12, top: 12, bottom: 24 };

/** The tree's growth: every event with its information gain and threshold, replayable in steps. */
export function TimelineView() {
  const events = useWarden((s) => s.events);
  const replayIndex = useWarden((s) => s.replayIndex);
  const setIndex = useWarden((s) => s.setReplayIndex);
  const focus = useWarden((s) => s.focus);
  const openLeaf = useWarden((s) => s.openLeaf);
  const revertEvent = useWarden((s) => s.revertEvent);
  const [playing, setPlaying] = useState(false);
  const [kinds, setKinds] = useState<'all' | 'growth'>('all');
  const shown = useMemo(() => (kinds === 'all' ? events : events.filter((e) => e.kind === 'split' || e.kind === 'merge')), [events, kinds]);
  const chart = useMemo(() => timelinePoints(shown, W - M.left - M.right, H - M.top - M.bottom), [shown]);
  const setReplayIndex = useCallback(
    (i: number | null): void => {
      setIndex(i);
      const e = i === null ? undefined : shown[i];
      if (e) focus(e.nodeId);
    },
    [setIndex, focus, shown],
  );
  const cursor = replayIndex === null ? null : Math.min(replayIndex, shown.length - 1);
  const current = cursor === null ? undefined : chart.points[cursor];
  const cursorRef = useRef(cursor ?? -1);
  cursorRef.current = cursor ?? -1;

  useEffect(() => {
    if (!playing) return;
    const timer = setInterval(() => {
      const i = cursorRef.current;
      if (i >= shown.length - 1) setPlaying(false);
      else setReplayIndex(i + 1);
    }, 600);
    return () => clearInterval(timer);
  }, [playing, shown.length, setReplayIndex]);

  const counts = useMemo(() => {
    const upTo = cursor === null ? shown : shown.slice(0, cursor + 1);
    let splits = 0;
    let merges = 0;
    for (const e of upTo) {
      if (e.reverted) continue;
      if (e.kind === 'split') splits++;
      else if (e.kind === 'merge') merges++;
    }
    return { splits, merges, n: upTo.length };
  }, [shown, cursor]);

  return (
    <div className="timeline">
      <div className="toolbar">
        <label>
          Show
          <select value={kinds} onChange={(e) => setKinds(e.target.value === 'growth' ? 'growth' : 'all')}>
            <option value="all">every event</option>
            <option value="growth">splits and merges</option>
          </select>
        </label>
        <button type="button" onClick={() => setReplayIndex(0)} disabled={shown.length === 0} aria-label="Replay from the first event">
          First
        </button>
        <button type="button" onClick={() => setReplayIndex(Math.max(0, (cursor ?? shown.length) - 1))} disabled={shown.length === 0} aria-label="Step back" data-testid="replay-back">
          ◀ Back
        </button>
        <button type="button" onClick={() => setPlaying((p) => !p)} disabled={shown.length === 0} aria-label={playing ? 'Pause' : 'Play'}>
          {playing ? 'Pause' : 'Play'}
        </button>
        <button type="button" onClick={() => setReplayIndex(Math.min(shown.length - 1, (cursor ?? -1) + 1))} disabled={shown.length === 0} aria-label="Step forward" data-testid="replay-forward">
          Step ▶
        </button>
        <button type="button" onClick={() => setReplayIndex(null)} disabled={cursor === null}>
          Show all
        </button>
        <span className="muted" data-testid="replay-position">
          {cursor === null ? `${shown.length} events` : `event ${cursor + 1} of ${shown.length}`} · {counts.splits} splits · {counts.merges} merges
        </span>
      </div>
      <svg className="chart" viewBox={`0 0 ${W} ${H}`} role="img" aria-label="Information gain of each event against its threshold">
        <g transform={`translate(${M.left},${M.top})`}>
          {chart.yTicks.map((t) => (
            <g key={t.value} transform={`translate(0,${t.y})`}>
              <line x2={W - M.left - M.right} className="grid" />
              <text x={-6} dy="0.32em" textAnchor="end" className="tick">
                {t.value}
              </text>
            </g>
          ))}
          {chart.points.map((p) =>
            p.thetaY === null ? null : <line key={`t${p.event.id}`} x1={p.x - 3} x2={p.x + 3} y1={p.thetaY} y2={p.thetaY} className="theta" />,
          )}
          {chart.points.map((p) => (
            <circle
              key={p.event.id}
              cx={p.x}
              cy={p.y ?? H - M.top - M.bottom}
              r={p.index === cursor ? 6 : 3.5}
              className={`ev ${p.event.kind}${p.event.reverted ? ' reverted' : ''}${cursor !== null && p.index > cursor ? ' future' : ''}`}
              onClick={() => setReplayIndex(p.index)}
            >
              <title>{`#${p.event.id} ${p.event.kind} ${eventNumbers(p.event)}`}</title>
            </circle>
          ))}
        </g>
      </svg>
      <p className="muted">Dots: information gain of each event (split = red, merge = blue, other = grey); ticks: the threshold θ it was compared with.</p>
      {current ? (
        <div className="card" data-testid="replay-event">
          <strong>
            #{current.event.id} {current.event.kind}
          </strong>{' '}
          {when(current.event.at)} · node <code>{current.event.nodeId}</code> {eventNumbers(current.event) ? `· ${eventNumbers(current.event)}` : ''}
          <p>{current.event.detail}</p>
          <div className="buttons">
            <button type="button" onClick={() => void openLeaf(current.event.nodeId)}>
              Open node
            </button>
            {!current.event.reverted && current.event.kind !== 'revert' && current.event.kind !== 'import' ? (
              <button type="button" onClick={() => void revertEvent(current.event.id)}>
                Revert this event
              </button>
            ) : null}
          </div>
        </div>
      ) : null}
      <table className="table" data-testid="event-table">
        <thead>
          <tr>
            <th>#</th>
            <th>when</th>
            <th>kind</th>
            <th>node</th>
            <th>IG</th>
            <th>θ</th>
            <th>detail</th>
          </tr>
        </thead>
        <tbody>
          {[...shown]
            .reverse()
            .slice(0, 300)
            .map((e) => (
              <tr key={e.id} className={e.reverted ? 'reverted' : undefined} data-testid="event-row" data-id={e.id}>
                <td>{e.id}</td>
                <td>{when(e.at)}</td>
                <td>{e.kind}</td>
                <td>
                  <code>{e.nodeId}</code>
                </td>
                <td>{typeof e.ig === 'number' ? e.ig.toFixed(3) : ''}</td>
                <td>{typeof e.theta === 'number' ? e.theta.toFixed(3) : ''}</td>
                <td>{e.detail}</td>
              </tr>
            ))}
        </tbody>
      </table>
    </div>
  );
}
