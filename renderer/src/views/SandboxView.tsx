import { useState } from 'react';
import { useWarden } from '../store/use-warden.js';

/** A terminal-like view of one sandbox episode: each command, its output and exit code, and the verdict beside it. */
export function SandboxView() {
  const info = useWarden((s) => s.sandbox);
  const progress = useWarden((s) => s.sandboxProgress);
  const preparing = useWarden((s) => s.preparing);
  const prepare = useWarden((s) => s.prepareSandbox);
  const running = useWarden((s) => s.running);
  const run = useWarden((s) => s.runCommand);
  const transcript = useWarden((s) => s.transcript);
  const episode = useWarden((s) => s.episode);
  const newEpisode = useWarden((s) => s.newEpisode);
  const [command, setCommand] = useState('');
  const [request, setRequest] = useState('');
  const [user, setUser] = useState('user');
  return (
    <div className="sandbox">
      <div className="toolbar" data-testid="sandbox-status">
        <span className={info?.available ? 'tag allow' : 'tag deny'}>{info ? (info.available ? 'available' : 'unavailable') : 'checking'}</span>
        {info?.engine ? <span className="muted">{info.engine}</span> : null}
        {info?.available ? <span className="muted">image {info.imageReady ? 'ready' : 'not built'}</span> : null}
        {info?.message ? <span className="muted">{info.message}</span> : null}
        <button type="button" onClick={() => void prepare()} disabled={preparing} data-testid="sandbox-prepare">
          {preparing ? 'Preparing…' : 'Prepare'}
        </button>
        {progress ? (
          <label className="progress-label">
            {progress.step}
            <progress max={progress.total || 1} value={progress.done} />
          </label>
        ) : null}
        <span className="muted">episode {episode}</span>
        <button type="button" onClick={newEpisode}>
          New episode
        </button>
      </div>
      <div className="terminal" role="log" aria-label="Episode transcript" data-testid="sandbox-log">
        {transcript.length === 0 ? <p className="muted">No commands yet. Each command is judged first; it runs only when allowed.</p> : null}
        {transcript.map((v) => (
          <div key={v.id} className="term-entry" data-testid="sandbox-entry">
            <div className="term-cmd">
              <span>
                {v.request.context?.user === 'root' ? '#' : '$'} {v.request.action.type === 'shell' ? v.request.action.command : ''}
              </span>
              <span className={`tag ${v.decision}`} title={v.reason}>
                {v.decision} · {v.path}
              </span>
            </div>
            {v.transcript ? (
              <>
                {v.transcript.stdout ? <pre className="out">{v.transcript.stdout}</pre> : null}
                {v.transcript.stderr ? <pre className="err">{v.transcript.stderr}</pre> : null}
                <div className="muted small">
                  exit {v.transcript.exitCode ?? '—'} · {v.transcript.durationMs.toFixed(0)} ms{v.transcript.timedOut ? ' · timed out' : ''}
                  {v.transcript.truncated ? ' · output truncated' : ''}
                  {v.transcript.error ? ` · ${v.transcript.error}` : ''}
                </div>
              </>
            ) : (
              <div className="muted small">not run: {v.reason}</div>
            )}
          </div>
        ))}
      </div>
      <form
        className="term-input"
        aria-label="Run a command"
        onSubmit={(e) => {
          e.preventDefault();
          if (!command.trim()) return;
          void run({ command, request, user }).then(() => setCommand(''));
        }}
      >
        <label>
          Request
          <input value={request} onChange={(e) => setRequest(e.target.value)} placeholder="what the human asked" />
        </label>
        <label>
          As
          <select value={user} onChange={(e) => setUser(e.target.value)}>
            <option value="user">user</option>
            <option value="root">root</option>
          </select>
        </label>
        <label className="grow">
          Command
          <input value={command} onChange={(e) => setCommand(e.target.value)} className="mono" placeholder="ls -la /tmp" data-testid="sandbox-command" />
        </label>
        <button type="submit" disabled={running || !command.trim()} data-testid="sandbox-run">
          {running ? 'Running…' : 'Run'}
        </button>
      </form>
    </div>
  );
}
