import { useMemo, useState } from 'react';
import { filterVerdicts } from '../store/verdicts-slice.js';
import { useWarden } from '../store/use-warden.js';
import { VirtualList } from './VirtualList.js';
import { OverrideControls, VerdictCard } from './VerdictCard.js';
import { actionText, score } from './format.js';

/** The live verdict stream with filters, a form to check an action, and the selected verdict. */
export function VerdictsView() {
  const verdicts = useWarden((s) => s.verdicts);
  const filter = useWarden((s) => s.filter);
  const setFilter = useWarden((s) => s.setFilter);
  const selectedId = useWarden((s) => s.selectedVerdictId);
  const select = useWarden((s) => s.selectVerdict);
  const shown = useMemo(() => filterVerdicts(verdicts, filter), [verdicts, filter]);
  const selected = verdicts.find((v) => v.id === selectedId) ?? null;
  return (
    <div className="split">
      <div className="col">
        <CheckForm />
        <div className="toolbar" role="search" aria-label="Filter verdicts">
          <label>
            Agent
            <input value={filter.agent} onChange={(e) => setFilter({ agent: e.target.value })} data-testid="filter-agent" />
          </label>
          <label>
            Session
            <input value={filter.session} onChange={(e) => setFilter({ session: e.target.value })} data-testid="filter-session" />
          </label>
          <label>
            Verdict
            <select value={filter.decision} onChange={(e) => setFilter({ decision: e.target.value as '' | 'allow' | 'deny' | 'ask' })} data-testid="filter-decision">
              <option value="">any</option>
              <option value="allow">allow</option>
              <option value="deny">deny</option>
              <option value="ask">ask</option>
            </select>
          </label>
          <span className="muted" data-testid="verdict-count">
            {shown.length} of {verdicts.length}
          </span>
        </div>
        <div className="vhead">
          <span>verdict</span>
          <span>path</span>
          <span>action</span>
          <span>p_harm</span>
          <span>ms</span>
        </div>
        <VirtualList
          items={shown}
          rowHeight={30}
          height={520}
          label="Verdicts, newest first"
          testId="verdict-list"
          keyOf={(v) => v.id}
          render={(v) => (
            <button type="button" className={v.id === selectedId ? 'vline selected' : 'vline'} onClick={() => select(v.id)} data-testid="verdict-row" data-decision={v.decision}>
              <span className={`tag ${v.decision}`}>{v.decision}</span>
              <span className="muted">{v.review ? `${v.review.outcome === 'approve' ? 'approved' : 'denied'}` : v.path}</span>
              <span className="ellipsis" title={actionText(v)}>
                {actionText(v)}
              </span>
              <span>{score(v.scores.pHarm)}</span>
              <span>{v.latencyMs.toFixed(0)}</span>
            </button>
          )}
        />
      </div>
      <div className="col">
        {selected ? (
          <>
            <OverrideControls v={selected} />
            <VerdictCard v={selected} testId="verdict-detail" />
          </>
        ) : (
          <p className="muted">Select a verdict to see why it was decided.</p>
        )}
      </div>
    </div>
  );
}

function CheckForm() {
  const checkAction = useWarden((s) => s.checkAction);
  const last = useWarden((s) => s.lastChecked);
  const [request, setRequest] = useState('');
  const [command, setCommand] = useState('');
  const [agent, setAgent] = useState('console');
  const [busy, setBusy] = useState(false);
  return (
    <form
      className="card check-form"
      aria-label="Check an action"
      onSubmit={(e) => {
        e.preventDefault();
        if (!command.trim()) return;
        setBusy(true);
        void checkAction({ request: request.trim() || command, action: { type: 'shell', command }, context: { agent: agent.trim() || 'console' } }).finally(() => setBusy(false));
      }}
    >
      <strong>Check an action</strong>
      <label>
        Request
        <input value={request} onChange={(e) => setRequest(e.target.value)} placeholder="what the human asked" data-testid="check-request" />
      </label>
      <label>
        Shell command
        <input value={command} onChange={(e) => setCommand(e.target.value)} placeholder="rm -rf ./build" data-testid="check-command" />
      </label>
      <label>
        Agent
        <input value={agent} onChange={(e) => setAgent(e.target.value)} />
      </label>
      <button type="submit" disabled={busy || !command.trim()} data-testid="check-submit">
        {busy ? 'Checking…' : 'Check'}
      </button>
      {last ? (
        <span data-testid="check-result" data-decision={last.decision}>
          <span className={`tag ${last.decision}`}>{last.decision}</span> {last.reason}
        </span>
      ) : null}
    </form>
  );
}
