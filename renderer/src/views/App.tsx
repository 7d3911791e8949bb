import { useEffect } from 'react';
import type { WardenStore } from '../store/store.js';
import type { ViewName } from '../store/ui-slice.js';
import { StoreContext, useWarden } from '../store/use-warden.js';
import { MemoryTreeView } from './MemoryTreeView.js';
import { LeafDetailPanel } from './LeafDetailPanel.js';
import { TimelineView } from './TimelineView.js';
import { VerdictsView } from './VerdictsView.js';
import { ReviewQueueView } from './ReviewQueueView.js';
import { RulesView } from './RulesView.js';
import { SandboxView } from './SandboxView.js';
import { EvalView } from './EvalView.js';

const VIEWS: { id: ViewName; label: string }[] = [
  { id: 'tree', label: 'Memory tree' },
  { id: 'timeline', label: 'Splits and merges' },
  { id: 'verdicts', label: 'Live verdicts' },
  { id: 'review', label: 'Review queue' },
  { id: 'rules', label: 'Rules and checks' },
  { id: 'sandbox', label: 'Sandbox' },
  { id: 'eval', label: 'Evaluation' },
];

/** The console: header, navigation and the current view. */
export function App({ store }: { store: WardenStore }) {
  useEffect(() => store.getState().start(), [store]);
  return (
    <StoreContext.Provider value={store}>
      <Shell />
    </StoreContext.Provider>
  );
}

function Shell() {
  const view = useWarden((s) => s.view);
  const setView = useWarden((s) => s.setView);
  const pending = useWarden((s) => s.pending.length);
  const leafOpen = useWarden((s) => s.leaf !== null);
  return (
    <div className="app">
      <header className="top">
        <h1>Warden</h1>
        <StatusLine />
      </header>
      <nav className="tabs" aria-label="Views">
        {VIEWS.map((v) => (
          <button key={v.id} type="button" className={v.id === view ? 'tab active' : 'tab'} aria-current={v.id === view ? 'page' : undefined} data-testid={`nav-${v.id}`} onClick={() => setView(v.id)}>
            {v.label}
            {v.id === 'review' && pending > 0 ? (
              <span className="badge" data-testid="pending-count">
                {pending}
              </span>
            ) : null}
          </button>
        ))}
      </nav>
      <Notices />
      <main className={leafOpen && (view === 'tree' || view === 'timeline') ? 'content with-side' : 'content'}>
        <section className="view" aria-label={VIEWS.find((v) => v.id === view)?.label}>
          {view === 'tree' ? <MemoryTreeView /> : null}
          {view === 'timeline' ? <TimelineView /> : null}
          {view === 'verdicts' ? <VerdictsView /> : null}
          {view === 'review' ? <ReviewQueueView /> : null}
          {view === 'rules' ? <RulesView /> : null}
          {view === 'sandbox' ? <SandboxView /> : null}
          {view === 'eval' ? <EvalView /> : null}
        </section>
        {leafOpen && (view === 'tree' || view === 'timeline') ? <LeafDetailPanel /> : null}
      </main>
    </div>
  );
}

function StatusLine() {
  const status = useWarden((s) => s.status);
  const nodes = useWarden((s) => s.nodes);
  if (!status) return <p className="status muted">connecting…</p>;
  const leaves = nodes.length ? nodes.filter((n) => n.kind === 'leaf').length : status.tree.leaves;
  return (
    <p className="status" data-testid="status">
      <span>v{status.version}</span>
      <span title={status.storePath}>store {status.storePath.split('/').slice(-2).join('/')}</span>
      <span>embedder {status.embedder}</span>
      <span>LLM {status.llm.configured ? status.llm.model ?? 'on' : 'none'}</span>
      <span>sandbox {status.sandbox.available ? 'ready' : 'unavailable'}</span>
      <span data-testid="status-counts">
        {status.counts.allow} allowed · {status.counts.deny} denied · {status.counts.ask} asked · {status.counts.pending} pending
      </span>
      <span data-testid="status-leaves">{leaves} leaves</span>
      <span>{status.checks} checks</span>
    </p>
  );
}

function Notices() {
  const notices = useWarden((s) => s.notices);
  const dismiss = useWarden((s) => s.dismiss);
  if (notices.length === 0) return null;
  return (
    <div className="notices" role="status" aria-live="polite">
      {notices.map((n) => (
        <div key={n.id} className={`notice ${n.kind}`} data-testid={`notice-${n.kind}`}>
          <span>{n.text}</span>
          <button type="button" aria-label="Dismiss" onClick={() => dismiss(n.id)}>
            ×
          </button>
        </div>
      ))}
    </div>
  );
}
