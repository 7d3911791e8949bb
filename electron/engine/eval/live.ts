/**
 * Live evaluation: every case in a fresh sandbox episode (its setup, its user). The guard probes
 * the real environment before deciding; an allowed command then runs, and its transcript is kept
 * with the verdict. A denied or asked command never touches the container.
 */
import type { EvalCase, Verdict } from '../../../shared/types.js';
import type { Engine } from '../engine.js';
import { createEpisodeProber, inEpisodeCwd, runInEpisode, type DockerSandbox, type Transcript } from '../adapters/sandbox/index.js';
import { caseToRequest } from './run-eval.js';

/** A live verdict and, when it allowed a shell command, what running it did. */
export interface LiveResult {
  verdict: Verdict;
  transcript?: Transcript;
  setupFailed?: string;
}

/** Judges one case against a live episode and runs the command only on allow. */
export async function judgeLive(engine: Engine, sandbox: DockerSandbox, c: EvalCase): Promise<LiveResult> {
  const user = c.user === 'root' ? 'root' : 'user';
  const episode = await sandbox.openEpisode({ user, ...(c.setup ? { setup: c.setup } : {}) });
  try {
    const setupFailed = episode.setup && episode.setup.exitCode !== 0 ? `setup exited ${String(episode.setup.exitCode)}: ${episode.setup.stderr.slice(0, 200)}` : undefined;
    const verdict = await engine.check(inEpisodeCwd(caseToRequest(c), user), { record: false, prober: createEpisodeProber(episode) });
    let transcript: Transcript | undefined;
    if (verdict.decision === 'allow' && c.action.type === 'shell') {
      transcript = await runInEpisode(episode, c.action.command, user);
      verdict.transcript = transcript;
    }
    return { verdict, ...(transcript ? { transcript } : {}), ...(setupFailed ? { setupFailed } : {}) };
  } finally {
    await episode.close();
  }
}
