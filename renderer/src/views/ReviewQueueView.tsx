import { useEffect, useRef } from 'react';
import { useWarden } from '../store/use-warden.js';
import { VirtualList } from './VirtualList.js';
import { VerdictCard } from './VerdictCard.js';
import { actionText, eventNumbers } from './format.js';

function typing(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  return !!el && (el.tagName === 'INPUT' || el.tagName === 'TEXTAREA' || el.tagName === 'SELECT' || el.isContentEditable);
}

/** Pending asks with their context; approve or deny with a reason, by keyboard too, one or many at a time. */
export function ReviewQueueView() {
  const pending = useWarden((s) => s.pending);
  const cursor = useWarden((s) => s.cursor);
  const setCursor = useWarden((s) => s.setCursor);
  const moveCursor = useWarden((s) => s.moveCursor);
  const reason = useWarden((s) => s.reason);
  const setReason = useWarden((s) => s.setReason);
  const decide = useWarden((s) => s.decide);
  const deciding = useWarden((s) => s.deciding);
  const findSimilar = useWarden((s) => s.findSimilar);
  const reasonRef = useRef<HTMLInputElement>(null);
  const current = pending[cursor];

  useEffect(() => {
    const onKey = (e: KeyboardEvent): void => {
      if (e.ctrlKey || e.metaKey || e.altKey || typing(e.target)) return;
      if (e.key === 'j') moveCursor(1);
      else if (e.key === 'k') moveCursor(-1);
      else if (e.key === 'a' || e.key === 'd') {
        e.preventDefault();
        if (!reason.trim()) reasonRef.current?.focus();
        else void decide(e.key === 'a' ? 'approve' : 'deny');
      } else return;
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [moveCursor, decide, reason]);

  return (
    <div className="split">
      <div className="col narrow">
        <p className="muted" data-testid="review-count">
          {pending.length} pending · keys: j / k move, a approve, d deny
        </p>
        <VirtualList
          items={pending}
          rowHeight={30}
          height={560}
          label="Pending asks"
          testId="review-list"
          scrollTo={cursor}
          keyOf={(v) => v.id}
          render={(v, i) => (
            <button type="button" className={i === cursor ? 'vline selected' : 'vline'} onClick={() => setCursor(i)} data-testid="review-row" aria-current={i === cursor ? 'true' : undefined}>
              <span className="ellipsis" title={actionText(v)}>
                {actionText(v)}
              </span>
            </button>
          )}
        />
      </div>
      <div className="col">
        <form
          className="card decide"
          aria-label="Decide"
          onSubmit={(e) => {
            e.preventDefault();
          }}
        >
          <label>
            Reason
            <input
              ref={reasonRef}
              value={reason}
              onChange={(e) => setReason(e.target.value)}
              placeholder="why (required; kept with the decision)"
              data-testid="review-reason"
              onKeyDown={(e) => {
                if (e.key === 'Escape') e.currentTarget.blur();
              }}
            />
          </label>
          <button type="button" disabled={!current || deciding || !reason.trim()} onClick={() => void decide('approve')} data-testid="review-approve">
            Approve (a)
          </button>
          <button type="button" className="danger" disabled={!current || deciding || !reason.trim()} onClick={() => void decide('deny')} data-testid="review-deny">
            Deny (d)
          </button>
          <button type="button" disabled={!current} onClick={() => current && void findSimilar(current.id)} data-testid="review-similar">
            Find similar
          </button>
        </form>
        <LastOutcome />
        <BulkPanel />
        {current ? <VerdictCard v={current} testId="review-detail" /> : <p className="muted">Nothing waits for a decision.</p>}
      </div>
    </div>
  );
}

function BulkPanel() {
  const similar = useWarden((s) => s.similar);
  const similarFor = useWarden((s) => s.similarFor);
  const selected = useWarden((s) => s.bulkSelected);
  const toggle = useWarden((s) => s.toggleBulk);
  const decideBulk = useWarden((s) => s.decideBulk);
  const reason = useWarden((s) => s.reason);
  const deciding = useWarden((s) => s.deciding);
  if (!similarFor) return null;
  return (
    <div className="card" data-testid="bulk-panel">
      <strong>{similar.length} similar pending asks</strong>
      <ul className="bulk">
        {similar.map((v) => (
          <li key={v.id}>
            <label>
              <input type="checkbox" checked={selected.includes(v.id)} onChange={() => toggle(v.id)} /> <code>{actionText(v)}</code>
            </label>
          </li>
        ))}
      </ul>
      <div className="buttons">
        <button type="button" disabled={deciding || !reason.trim() || selected.length === 0} onClick={() => void decideBulk('approve')} data-testid="bulk-approve">
          Approve {selected.length}
        </button>
        <button type="button" className="danger" disabled={deciding || !reason.trim() || selected.length === 0} onClick={() => void decideBulk('deny')} data-testid="bulk-deny">
          Deny {selected.length}
        </button>
      </div>
    </div>
  );
}

function LastOutcome() {
  const last = useWarden((s) => s.lastOutcome);
  const openLeaf = useWarden((s) => s.openLeaf);
  const setView = useWarden((s) => s.setView);
  const focus = useWarden((s) => s.focus);
  if (!last) return null;
  return (
    <div className="card outcome" data-testid="review-outcome">
      <strong>
        {last.outcome === 'approve' ? 'Approved' : 'Denied'} {last.verdictIds.length} · memory changed by {last.events.length} events
      </strong>
      <ul>
        {last.events.map((e) => (
          <li key={e.id} data-testid="outcome-event" data-kind={e.kind}>
            <span className={`tag ev-${e.kind}`}>{e.kind}</span> node <code>{e.nodeId}</code> {eventNumbers(e) ? `· ${eventNumbers(e)}` : ''} · {e.detail}{' '}
            <button
              type="button"
              className="link"
              onClick={() => {
                focus(e.nodeId);
                setView('tree');
                void openLeaf(e.nodeId);
              }}
            >
              show in tree
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}
