import { useEffect, useState } from 'react';
import { useWarden } from '../store/use-warden.js';
import { eventNumbers, when } from './format.js';

/** The open leaf: its rule pair side by side, the members that formed it, checks, counters, edits. */
export function LeafDetailPanel() {
  const leaf = useWarden((s) => s.leaf);
  const closeLeaf = useWarden((s) => s.closeLeaf);
  const updateRule = useWarden((s) => s.updateRule);
  const retireLeaf = useWarden((s) => s.retireLeaf);
  const undoLast = useWarden((s) => s.undoLast);
  const undoStack = useWarden((s) => s.undoStack);
  const [editing, setEditing] = useState(false);
  const [prohibition, setProhibition] = useState('');
  const [exemption, setExemption] = useState('');
  const [reason, setReason] = useState('');

  useEffect(() => {
    setEditing(false);
    setProhibition(leaf?.node.rule?.prohibition ?? '');
    setExemption(leaf?.node.rule?.exemption ?? '');
  }, [leaf]);

  if (!leaf) return null;
  const { node, members, checks, events } = leaf;
  const lastEdit = undoStack.at(-1);
  return (
    <aside className="side" aria-label="Leaf detail" data-testid="leaf-detail">
      <div className="side-head">
        <h2 data-testid="leaf-name">{node.name}</h2>
        <button type="button" aria-label="Close leaf detail" onClick={closeLeaf}>
          ×
        </button>
      </div>
      <p className="muted">
        {node.kind} · {node.members} members · entropy {node.entropy.toFixed(3)} · radius {node.radius.toFixed(3)}
        {node.retired ? ' · retired' : ''}
      </p>
      <dl className="counters">
        <dt>hits</dt>
        <dd data-testid="leaf-hits">{node.hits}</dd>
        <dt>last hit</dt>
        <dd>{when(node.lastHit)}</dd>
        <dt>overrides</dt>
        <dd>{node.overrides}</dd>
      </dl>
      {editing ? (
        <form
          className="rule-edit"
          onSubmit={(e) => {
            e.preventDefault();
            void updateRule(node.id, { prohibition, exemption }, reason).then((ok) => ok && setEditing(false));
          }}
        >
          <div className="pair">
            <label>
              Prohibition
              <textarea value={prohibition} onChange={(e) => setProhibition(e.target.value)} rows={6} data-testid="edit-prohibition" />
            </label>
            <label>
              Exemption
              <textarea value={exemption} onChange={(e) => setExemption(e.target.value)} rows={6} data-testid="edit-exemption" />
            </label>
          </div>
          <label>
            Reason (kept in the audit trail)
            <input value={reason} onChange={(e) => setReason(e.target.value)} data-testid="edit-reason" />
          </label>
          <div className="buttons">
            <button type="submit" data-testid="save-rule">
              Save rule
            </button>
            <button type="button" onClick={() => setEditing(false)}>
              Cancel
            </button>
          </div>
        </form>
      ) : (
        <div className="pair" data-testid="rule-pair">
          <section>
            <h3>Prohibition</h3>
            <p data-testid="leaf-prohibition">{node.rule?.prohibition ?? '—'}</p>
          </section>
          <section>
            <h3>Exemption</h3>
            <p data-testid="leaf-exemption">{node.rule?.exemption ?? '—'}</p>
          </section>
        </div>
      )}
      <div className="buttons">
        {!editing && node.kind === 'leaf' ? (
          <button type="button" onClick={() => setEditing(true)} data-testid="edit-rule">
            Edit rule
          </button>
        ) : null}
        {lastEdit ? (
          <button type="button" onClick={() => void undoLast()} data-testid="undo-edit">
            Undo last edit ({lastEdit.kind} of {lastEdit.nodeId === node.id ? 'this leaf' : lastEdit.nodeId})
          </button>
        ) : null}
        {node.kind === 'leaf' && !node.retired ? (
          <button type="button" className="danger" onClick={() => void retireLeaf(node.id, reason || 'retired from the console')}>
            Retire leaf
          </button>
        ) : null}
      </div>
      <h3>Members ({members.length})</h3>
      <ul className="members" data-testid="leaf-members">
        {members.slice(0, 200).map((m) => (
          <li key={m.id}>
            <span className={m.label === 1 ? 'tag deny' : 'tag allow'}>{m.label === 1 ? 'harmful' : 'benign'}</span> {m.text}
            <span className="muted"> · {m.source}</span>
          </li>
        ))}
        {members.length > 200 ? <li className="muted">and {members.length - 200} more</li> : null}
      </ul>
      <h3>Checks ({checks.length})</h3>
      <ul>
        {checks.map((c) => (
          <li key={c.id}>
            <code>{c.id}</code> {c.title} <span className={`tag ${c.severity}`}>{c.severity}</span>
          </li>
        ))}
        {checks.length === 0 ? <li className="muted">none</li> : null}
      </ul>
      <h3>History</h3>
      <ul className="events" data-testid="leaf-events">
        {events.map((e) => (
          <li key={e.id} className={e.reverted ? 'reverted' : undefined}>
            #{e.id} {e.kind} · {when(e.at)} {eventNumbers(e) ? `· ${eventNumbers(e)}` : ''} · {e.detail}
          </li>
        ))}
        {events.length === 0 ? <li className="muted">no events</li> : null}
      </ul>
    </aside>
  );
}
