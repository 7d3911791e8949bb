import { useMemo } from 'react';
import type { EvalMetrics } from '../../../shared/types.js';
import { attackSuccessBars, confusionCells, latencyHistogram } from '../layout/charts.js';
import { countCases } from '../store/eval-slice.js';
import { useWarden } from '../store/use-warden.js';

/** Evaluation: a case file in, a progress bar, then the metrics as numbers and charts. */
export function EvalView() {
  const text = useWarden((s) => s.casesText);
  const name = useWarden((s) => s.casesName);
  const setCases = useWarden((s) => s.setCases);
  const runEval = useWarden((s) => s.runEval);
  const job = useWarden((s) => s.job);
  const running = job?.state === 'running';
  const n = countCases(text);
  return (
    <div className="eval">
      <form
        className="card"
        aria-label="Run an evaluation"
        onSubmit={(e) => {
          e.preventDefault();
          void runEval();
        }}
      >
        <label>
          Cases (one JSON object a line)
          <textarea value={text} rows={8} className="mono" onChange={(e) => setCases(e.target.value)} data-testid="eval-cases" placeholder='{"id":"x1","request":"clean the build output","action":{"type":"shell","command":"rm -rf ./build"},"label":0}' />
        </label>
        <div className="buttons">
          <label className="file">
            Pick a case file
            <input
              type="file"
              accept=".jsonl,.json,.txt"
              data-testid="eval-file"
              onChange={(e) => {
                const f = e.target.files?.[0];
                if (f) void f.text().then((t) => setCases(t, f.name));
              }}
            />
          </label>
          <span className="muted">
            {n} cases{name ? ` from ${name}` : ''}
          </span>
          <button type="submit" disabled={running || n === 0} data-testid="eval-run">
            {running ? 'Running…' : 'Run evaluation'}
          </button>
        </div>
        {job ? (
          <label className="progress-label">
            {job.state} · {job.done} / {job.total}
            <progress max={job.total || 1} value={job.done} data-testid="eval-progress" />
          </label>
        ) : null}
        {job?.error ? <p className="error">{job.error}</p> : null}
      </form>
      {job?.metrics ? <Metrics m={job.metrics} latencies={(job.cases ?? []).map((c) => c.latencyMs)} /> : null}
    </div>
  );
}

function pct(x: number): string {
  return Number.isFinite(x) ? `${(x * 100).toFixed(1)}%` : '—';
}

function Metrics({ m, latencies }: { m: EvalMetrics; latencies: number[] }) {
  const cells = confusionCells(m.confusion);
  const bars = useMemo(() => attackSuccessBars(m.by_category, 260), [m]);
  const hist = useMemo(() => latencyHistogram(latencies, 380, 140), [latencies]);
  return (
    <div className="metrics" data-testid="eval-metrics">
      <dl className="numbers">
        <div>
          <dt>cases</dt>
          <dd data-testid="metric-n">{m.n}</dd>
        </div>
        <div>
          <dt>accuracy</dt>
          <dd data-testid="metric-accuracy">{pct(m.accuracy)}</dd>
        </div>
        <div>
          <dt>precision</dt>
          <dd>{pct(m.precision)}</dd>
        </div>
        <div>
          <dt>recall</dt>
          <dd>{pct(m.recall)}</dd>
        </div>
        <div>
          <dt>F1</dt>
          <dd>{pct(m.f1)}</dd>
        </div>
        <div>
          <dt>benign pass</dt>
          <dd>{pct(m.benign_pass_rate)}</dd>
        </div>
        <div>
          <dt>attack success</dt>
          <dd data-testid="metric-asr">{pct(m.attack_success_rate)}</dd>
        </div>
        <div>
          <dt>latency p50 / p95</dt>
          <dd>
            {m.latency_ms.p50.toFixed(1)} / {m.latency_ms.p95.toFixed(1)} ms
          </dd>
        </div>
      </dl>
      {m.errors.length ? (
        <ul className="issues">
          {m.errors.map((e) => (
            <li key={e.line}>
              line {e.line}: {e.message}
            </li>
          ))}
        </ul>
      ) : null}
      <div className="charts">
        <figure>
          <figcaption>Confusion matrix</figcaption>
          <svg viewBox="0 0 260 200" className="chart small" role="img" aria-label={`true positives ${m.confusion.tp}, false negatives ${m.confusion.fn}, false positives ${m.confusion.fp}, true negatives ${m.confusion.tn}`} data-testid="confusion">
            <text x={130} y={14} textAnchor="middle" className="tick">
              guard: blocked · allowed
            </text>
            {cells.map((c) => {
              const x = 70 + (c.col === 'blocked' ? 0 : 90);
              const y = 24 + (c.row === 'harmful' ? 0 : 84);
              const good = c.key === 'tp' || c.key === 'tn';
              return (
                <g key={c.key}>
                  <rect x={x} y={y} width={86} height={80} className={good ? 'cell good' : 'cell bad'} style={{ opacity: 0.2 + 0.8 * c.rate }} />
                  <text x={x + 43} y={y + 40} textAnchor="middle" dy="0.32em" className="cell-label" data-testid={`confusion-${c.key}`}>
                    {c.count}
                  </text>
                  <text x={x + 43} y={y + 62} textAnchor="middle" className="tick">
                    {c.key.toUpperCase()}
                  </text>
                </g>
              );
            })}
            <text x={64} y={64} textAnchor="end" className="tick">
              harmful
            </text>
            <text x={64} y={148} textAnchor="end" className="tick">
              benign
            </text>
          </svg>
        </figure>
        <figure>
          <figcaption>Attack success per category</figcaption>
          {bars.bars.length === 0 ? (
            <p className="muted">no harmful cases with a category</p>
          ) : (
            <svg viewBox={`0 0 420 ${bars.height + 4}`} className="chart" role="img" aria-label="Attack success rate per category" data-testid="asr-chart">
              {bars.bars.map((b) => (
                <g key={b.label} transform={`translate(0,${b.y})`}>
                  <text x={116} y={b.height / 2} dy="0.32em" textAnchor="end" className="tick">
                    {b.label.length > 18 ? `${b.label.slice(0, 17)}…` : b.label}
                  </text>
                  <rect x={120} width={Math.max(1, b.width)} height={b.height} className="bar" />
                  <text x={124 + b.width} y={b.height / 2} dy="0.32em" className="tick">
                    {pct(b.value)} of {b.n}
                  </text>
                </g>
              ))}
            </svg>
          )}
        </figure>
        <figure>
          <figcaption>Latency distribution (ms)</figcaption>
          <svg viewBox="0 0 420 180" className="chart" role="img" aria-label="Histogram of verdict latency" data-testid="latency-chart">
            <g transform="translate(30,10)">
              {hist.bins.map((b) => (
                <rect key={b.x0} x={b.px} y={b.py} width={b.pw} height={b.ph} className="bar">
                  <title>{`${b.x0}–${b.x1} ms: ${b.count}`}</title>
                </rect>
              ))}
              <line x1={0} x2={380} y1={140} y2={140} className="axis" />
              {hist.xTicks.map((t) => (
                <text key={t.value} x={t.x} y={156} textAnchor="middle" className="tick">
                  {t.value}
                </text>
              ))}
              <text x={-4} y={4} textAnchor="end" className="tick">
                {hist.maxCount}
              </text>
            </g>
          </svg>
        </figure>
      </div>
    </div>
  );
}
