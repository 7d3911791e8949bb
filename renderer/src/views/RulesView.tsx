import { useState } from 'react';
import type { ActionKind, Check, LoadedPolicy } from '../../../shared/types.js';
import { canSave } from '../store/rules-slice.js';
import { useWarden } from '../store/use-warden.js';

const KINDS: ActionKind[] = ['shell', 'tool', 'sql', 'web', 'text'];

/** Rule curation: the checks, an editor that replays a change before saving it, and the rules file. */
export function RulesView() {
  const checks = useWarden((s) => s.checks);
  const editCheck = useWarden((s) => s.editCheck);
  const newCheck = useWarden((s) => s.newCheck);
  const retireCheck = useWarden((s) => s.retireCheck);
  const draft = useWarden((s) => s.draft);
  return (
    <div className="split">
      <div className="col">
        <div className="toolbar">
          <strong>{checks.length} checks</strong>
          <button type="button" onClick={newCheck} data-testid="check-new">
            New check
          </button>
        </div>
        <table className="table" data-testid="checks-table">
          <thead>
            <tr>
              <th>id</th>
              <th>title</th>
              <th>severity</th>
              <th>category</th>
              <th>origin</th>
              <th>state</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {checks.map((c) => (
              <tr key={c.id} className={c.enabled ? undefined : 'reverted'} data-testid="check-row">
                <td>
                  <code>{c.id}</code>
                </td>
                <td>{c.title}</td>
                <td>
                  <span className={`tag ${c.severity}`}>{c.severity}</span>
                </td>
                <td>{c.category}</td>
                <td>{c.origin}</td>
                <td>{c.enabled ? 'on' : 'retired'}</td>
                <td className="nowrap">
                  <button type="button" className="link" onClick={() => editCheck(c.id)} aria-label={`Edit ${c.id}`}>
                    edit
                  </button>{' '}
                  {c.enabled ? (
                    <button type="button" className="link" onClick={() => void retireCheck(c.id)} aria-label={`Retire ${c.id}`}>
                      retire
                    </button>
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <div className="col">
        {draft ? <CheckEditor draft={draft} /> : <p className="muted">Pick a check to edit, or add one.</p>}
        <Policies />
        <RulesFile />
        <RuleGeneration />
      </div>
    </div>
  );
}

function CheckEditor({ draft }: { draft: Check }) {
  const isNew = useWarden((s) => s.draftIsNew);
  const change = useWarden((s) => s.changeDraft);
  const cancel = useWarden((s) => s.cancelDraft);
  const replayDraft = useWarden((s) => s.replayDraft);
  const saveDraft = useWarden((s) => s.saveDraft);
  const replay = useWarden((s) => s.replay);
  const replaying = useWarden((s) => s.replaying);
  const saveable = useWarden((s) => canSave(s));
  return (
    <form
      className="card editor"
      aria-label="Edit check"
      onSubmit={(e) => {
        e.preventDefault();
        void saveDraft();
      }}
    >
      <strong>{isNew ? 'New check' : `Edit ${draft.id}`}</strong>
      <label>
        Id
        <input value={draft.id} readOnly={!isNew} onChange={(e) => change({ id: e.target.value })} data-testid="draft-id" />
      </label>
      <label>
        Title
        <input value={draft.title} onChange={(e) => change({ title: e.target.value })} data-testid="draft-title" />
      </label>
      <label>
        Description (shown to reviewers)
        <textarea value={draft.description} rows={2} onChange={(e) => change({ description: e.target.value })} />
      </label>
      <label>
        Condition (CEL; true means the action violates the check)
        <textarea value={draft.when} rows={3} className="mono" onChange={(e) => change({ when: e.target.value })} data-testid="draft-when" />
      </label>
      <div className="row">
        <label>
          Severity
          <select value={draft.severity} onChange={(e) => change({ severity: e.target.value === 'hard' ? 'hard' : 'soft' })}>
            <option value="soft">soft (ask)</option>
            <option value="hard">hard (deny)</option>
          </select>
        </label>
        <label>
          Category
          <input value={draft.category} onChange={(e) => change({ category: e.target.value })} />
        </label>
        <label>
          Scope
          <select value={draft.scope ?? 'global'} onChange={(e) => change({ scope: e.target.value === 'retrieved' ? 'retrieved' : 'global' })}>
            <option value="global">every action</option>
            <option value="retrieved">when retrieved</option>
          </select>
        </label>
        <label>
          <input type="checkbox" checked={draft.enabled} onChange={(e) => change({ enabled: e.target.checked })} /> enabled
        </label>
      </div>
      <fieldset>
        <legend>Applies to</legend>
        {KINDS.map((k) => (
          <label key={k} className="check">
            <input type="checkbox" checked={draft.kinds.includes(k)} onChange={(e) => change({ kinds: e.target.checked ? [...draft.kinds, k] : draft.kinds.filter((x) => x !== k) })} /> {k}
          </label>
        ))}
      </fieldset>
      <div className="buttons">
        <button type="button" onClick={() => void replayDraft()} disabled={replaying} data-testid="draft-replay">
          {replaying ? 'Replaying…' : 'Replay against past verdicts'}
        </button>
        <button type="submit" disabled={!saveable} data-testid="draft-save" title={saveable ? undefined : 'replay this version first'}>
          Save
        </button>
        <button type="button" onClick={cancel}>
          Cancel
        </button>
      </div>
      {replay ? (
        <div data-testid="replay-result">
          <p>
            Replayed {replay.replayed} past verdicts: <strong>{replay.flips.length} would flip</strong>
            {saveable ? '' : ' (the draft changed since; replay again)'}
          </p>
          <ul>
            {replay.flips.slice(0, 100).map((f) => (
              <li key={f.verdictId} data-testid="replay-flip">
                <span className={`tag ${f.before}`}>{f.before}</span> → <span className={`tag ${f.after}`}>{f.after}</span> <code>{f.command}</code> <span className="muted">{f.reason}</span>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </form>
  );
}

/** Task-specific policies: what each governs, its checks, and its rules file. */
function Policies() {
  const policies = useWarden((s) => s.policies);
  const exportPolicy = useWarden((s) => s.exportPolicy);
  const removePolicy = useWarden((s) => s.removePolicy);
  if (policies.length === 0) return null;
  return (
    <div className="card">
      <strong>Policies</strong>
      <table className="table" data-testid="policies-table">
        <thead>
          <tr>
            <th>id</th>
            <th>title</th>
            <th>kinds</th>
            <th>otherwise</th>
            <th>checks</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {policies.map((p) => (
            <PolicyRow key={p.id} policy={p} onExport={() => void exportPolicy(p.id)} onRemove={() => void removePolicy(p.id)} />
          ))}
        </tbody>
      </table>
    </div>
  );
}

/**
 * Adversarial rule generation (SafeHarbor 3.3): the model rewrites harmful seeds, every variant is
 * tried against the guard, and the ones that get through teach the tree. Needs a model.
 */
function RuleGeneration() {
  const job = useWarden((s) => s.ruleJob);
  const start = useWarden((s) => s.startRuleGen);
  const model = useWarden((s) => s.status?.llm);
  const [limit, setLimit] = useState(5);
  const [perSeed, setPerSeed] = useState(3);
  const [seeds, setSeeds] = useState<{ name: string; text: string } | null>(null);
  const running = job?.state === 'running';
  return (
    <div className="card" data-testid="rulegen">
      <strong>Adversarial rule generation</strong>
      {model?.configured ? null : <p className="muted">Needs a model: set "llm" in config.json or WARDEN_LLM_BASE_URL.</p>}
      <div className="buttons">
        <label>
          seeds
          <input type="number" min={1} max={500} value={limit} onChange={(e) => setLimit(Math.max(1, Number(e.target.value) || 1))} />
        </label>
        <label>
          variants per seed
          <input type="number" min={1} max={12} value={perSeed} onChange={(e) => setPerSeed(Math.min(12, Math.max(1, Number(e.target.value) || 1)))} />
        </label>
        <label className="file">
          {seeds ? seeds.name : 'Seed cases (default: shipped)'}
          <input
            type="file"
            accept=".jsonl,.json,.txt"
            onChange={(e) => {
              const f = e.target.files?.[0];
              if (f) void f.text().then((text) => setSeeds({ name: f.name, text }));
            }}
          />
        </label>
        <button type="button" disabled={!model?.configured || running} onClick={() => void start({ limit, perSeed, ...(seeds ? { seeds: seeds.text } : {}) })} data-testid="rulegen-start">
          Generate
        </button>
      </div>
      {job ? (
        <div data-testid="rulegen-job">
          <label className="progress-label">
            {job.state === 'running' ? `${job.stage ?? 'mutate'}: ${job.detail ?? ''}` : job.state}
            <progress max={job.total || 1} value={job.done} />
          </label>
          {job.error ? <p className="error">{job.error}</p> : null}
          {job.report ? (
            <>
              <p>
                {job.report.variants} variants ({job.report.invalid} invalid): {job.report.caught} caught, {job.report.slipped} got through; {job.report.added.length} new leaves,{' '}
                {job.report.merged} merged. Model: {job.report.usage.calls} calls, {job.report.usage.promptTokens + job.report.usage.completionTokens} tokens.
              </p>
              <ul>
                {job.report.added.map((a) => (
                  <li key={a.leafId} data-testid="rulegen-added">
                    <span className="tag">{a.category}</span> {a.prohibition} <span className="muted">Exemption: {a.exemption}</span> <code>{a.from}</code>
                  </li>
                ))}
              </ul>
            </>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}

/** One policy; removing it (and its checks) takes a second click. */
function PolicyRow({ policy: p, onExport, onRemove }: { policy: LoadedPolicy; onExport: () => void; onRemove: () => void }) {
  const [arming, setArming] = useState(false);
  return (
    <tr data-testid="policy-row" title={p.request}>
      <td>
        <code>{p.id}</code>
      </td>
      <td>{p.title}</td>
      <td>{p.kinds.join(', ')}</td>
      <td>{p.otherwise}</td>
      <td>{p.checks.length}</td>
      <td className="buttons">
        <button type="button" onClick={onExport} data-testid="policy-export">
          Export
        </button>
        {arming ? (
          <>
            <button type="button" onClick={onRemove} data-testid="policy-remove-confirm">
              Remove it and its {p.checks.length} checks
            </button>
            <button type="button" onClick={() => setArming(false)}>
              Keep
            </button>
          </>
        ) : (
          <button type="button" onClick={() => setArming(true)} data-testid="policy-remove">
            Remove
          </button>
        )}
      </td>
    </tr>
  );
}

function RulesFile() {
  const text = useWarden((s) => s.rulesText);
  const setText = useWarden((s) => s.setRulesText);
  const exportRules = useWarden((s) => s.exportRules);
  const importRules = useWarden((s) => s.importRules);
  const result = useWarden((s) => s.importResult);
  return (
    <div className="card">
      <strong>Rules file</strong>
      <label>
        Rules (YAML with CEL conditions)
        <textarea value={text} rows={10} className="mono" onChange={(e) => setText(e.target.value)} data-testid="rules-text" />
      </label>
      <div className="buttons">
        <button type="button" onClick={() => void exportRules()} data-testid="rules-export">
          Export current rules
        </button>
        <button type="button" onClick={() => void importRules()} disabled={!text.trim()} data-testid="rules-import">
          Import
        </button>
        <label className="file">
          Open file
          <input
            type="file"
            accept=".yaml,.yml,.json,.txt"
            onChange={(e) => {
              const f = e.target.files?.[0];
              if (f) void f.text().then(setText);
            }}
          />
        </label>
      </div>
      {result ? (
        result.ok ? (
          <p data-testid="import-result">Imported {result.imported} checks.</p>
        ) : (
          <ul className="issues" data-testid="import-result">
            {result.issues.map((i, n) => (
              <li key={n}>
                <code>{i.path}</code> {i.message}
              </li>
            ))}
          </ul>
        )
      ) : null}
    </div>
  );
}
