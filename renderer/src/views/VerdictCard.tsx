import { useState } from 'react';
import type { Verdict } from '../../../shared/types.js';
import { useWarden } from '../store/use-warden.js';
import { actionText, rehearsalView, score, when } from './format.js';

/** Everything recorded about one verdict: request, action, facts, scores, rules, checks, probes. */
export function VerdictCard({ v, testId }: { v: Verdict; testId?: string }) {
  const failed = v.checks.filter((c) => c.status === 'fail' || c.status === 'error');
  const rehearsal = rehearsalView(v);
  const e = v.facts.effects;
  const effects = [
    ...e.deletes.map((p) => `deletes ${p.path}`),
    ...e.writes.map((p) => `writes ${p.path}`),
    ...e.modeChanges.map((p) => `chmod ${p.path}`),
    ...e.network.map((n) => `network ${n.target}`),
    ...e.privilege.map((p) => `privilege ${p.kind}`),
    ...e.persistence.map((p) => `persistence ${p.place}`),
    ...e.execution.map((x) => `runs ${x.kind}`),
  ];
  return (
    <div className="card verdict-card" data-testid={testId}>
      <p>
        <span className={`tag ${v.decision}`}>{v.decision}</span> <span className="muted">by {v.path}</span> · {when(v.at)} · {v.latencyMs.toFixed(1)} ms
        {v.review ? (
          <span className="muted">
            {' '}
            · {v.review.outcome === 'approve' ? 'approved' : 'denied'} by {v.review.reviewer}: “{v.review.reason}”
          </span>
        ) : null}
      </p>
      <p>
        <strong>Request</strong> {v.request.request}
      </p>
      <p>
        <strong>Action</strong> <code>{actionText(v)}</code> <span className="muted">({v.request.action.type}{v.request.context?.user ? ` as ${v.request.context.user}` : ''})</span>
      </p>
      <p>
        <strong>Reason</strong> {v.reason}
      </p>
      <p>
        <strong>Scores</strong> p_harm {score(v.scores.pHarm)} · s_benign {score(v.scores.sBenign)}
      </p>
      <p>
        <strong>Facts</strong> {v.facts.paraphrase}
        {effects.length ? ` · ${effects.slice(0, 8).join(', ')}` : ''}
        {v.facts.flags.length ? ` · flags: ${v.facts.flags.join(', ')}` : ''}
      </p>
      {v.request.context?.agent || v.request.context?.session ? (
        <p className="muted">
          agent {v.request.context?.agent ?? '—'} · session {v.request.context?.session ?? '—'}
        </p>
      ) : null}
      <details open={failed.length > 0}>
        <summary>
          Checks ({v.checks.length}, {failed.length} failed)
        </summary>
        <ul>
          {[...failed, ...v.checks.filter((c) => c.status !== 'fail' && c.status !== 'error')].map((c) => (
            <li key={c.id}>
              <span className={`tag ${c.status === 'pass' ? 'allow' : c.status === 'skipped' ? 'muted' : 'deny'}`}>{c.status}</span> {c.title} <code>{c.id}</code>
              {c.detail ? <span className="muted"> · {c.detail}</span> : null}
            </li>
          ))}
        </ul>
      </details>
      {v.llm ? (
        <details data-testid="verdict-llm">
          <summary>
            Model ({v.llm.usage.calls} calls, {v.llm.usage.promptTokens + v.llm.usage.completionTokens} tokens{v.llm.usage.costUsd > 0 ? `, $${v.llm.usage.costUsd.toFixed(4)}` : ''}, {v.llm.usage.latencyMs.toFixed(0)} ms)
          </summary>
          <ul>
            {(v.llm.analysis ?? []).map((a) => (
              <li key={a.check}>
                Analyzer {a.op} · Executor {a.executor} <code>{a.check}</code>
              </li>
            ))}
            {(v.llm.rejected ?? []).map((r) => (
              <li key={`rejected-${r.check}`} className="muted">
                rejected <code>{r.check}</code>: {r.reason}
              </li>
            ))}
            {(v.llm.tools ?? []).map((t, i) => (
              <li key={`tool-${i}`}>
                tool <code>{t.tool}</code> {t.ok ? (t.violation ? 'found a violation' : 'found nothing') : 'failed'}: {t.detail}
              </li>
            ))}
            {v.llm.judge ? (
              <li>
                judge: {v.llm.judge.decision} ({v.llm.judge.confidence.toFixed(2)}) {v.llm.judge.reason}
              </li>
            ) : null}
          </ul>
        </details>
      ) : null}
      <details>
        <summary>Retrieved rules ({v.rules.length})</summary>
        <ul>
          {v.rules.map((r) => (
            <li key={r.leafId}>
              <code>{r.category}</code> sim {r.similarity.toFixed(3)}
              <div className="pair small">
                <p>{r.rule.prohibition}</p>
                <p>{r.rule.exemption}</p>
              </div>
            </li>
          ))}
        </ul>
      </details>
      {rehearsal ? (
        <details open={rehearsal.findings.length > 0} data-testid="rehearsal">
          <summary>
            Rehearsal in a throwaway twin ({rehearsal.findings.length ? `${rehearsal.findings.length} finding${rehearsal.findings.length > 1 ? 's' : ''}` : 'nothing of note'}, {rehearsal.ms} ms)
          </summary>
          <ul>
            {rehearsal.findings.map((f, i) => (
              <li key={`f${i}`}>
                <strong>{f}</strong>
              </li>
            ))}
            {rehearsal.changes.map((c, i) => (
              <li key={`c${i}`}>
                <code>{c}</code>
              </li>
            ))}
          </ul>
          {rehearsal.created ? <p className="muted small">and {rehearsal.created} created</p> : null}
        </details>
      ) : null}
      {v.probes.length ? (
        <details>
          <summary>Probes ({v.probes.length})</summary>
          <ul>
            {v.probes.map((p, i) => (
              <li key={i}>
                {p.probe} <code>{p.target}</code> {p.ok ? JSON.stringify(p.value) : `error: ${p.error ?? ''}`}
              </li>
            ))}
          </ul>
        </details>
      ) : null}
      {v.transcript ? (
        <pre className="term small">
          $ {v.transcript.command}
          {'\n'}
          {v.transcript.stdout}
          {v.transcript.stderr}
          {`\n[exit ${v.transcript.exitCode ?? '—'}]`}
        </pre>
      ) : null}
    </div>
  );
}

/** Approve or deny (an override when the guard already decided), or revert a human decision. */
export function OverrideControls({ v }: { v: Verdict }) {
  const decide = useWarden((s) => s.decide);
  const revert = useWarden((s) => s.revert);
  const setReason = useWarden((s) => s.setReason);
  const [reason, setLocal] = useState('');
  if (v.review) {
    return (
      <div className="buttons">
        <button type="button" onClick={() => void revert(v.id)} data-testid="revert-decision">
          Revert the human decision
        </button>
      </div>
    );
  }
  const go = (outcome: 'approve' | 'deny'): void => {
    setReason(reason);
    void decide(outcome, v.id);
  };
  return (
    <form className="inline" onSubmit={(e) => e.preventDefault()}>
      <label>
        Reason
        <input value={reason} onChange={(e) => setLocal(e.target.value)} placeholder="why" data-testid="override-reason" />
      </label>
      <button type="button" disabled={!reason.trim()} onClick={() => go('approve')} data-testid="override-approve">
        {v.decision === 'ask' ? 'Approve' : 'Override: allow'}
      </button>
      <button type="button" disabled={!reason.trim()} className="danger" onClick={() => go('deny')} data-testid="override-deny">
        {v.decision === 'ask' ? 'Deny' : 'Override: deny'}
      </button>
    </form>
  );
}
