/**
 * `warden exec [--sandbox] -- CMD ...`: judge the command, then run it on the host with the
 * terminal attached (or in a sandbox episode with --sandbox) and pass its exit code through. A
 * deny runs nothing and exits 126 with the reason on stderr; an ask waits for a reviewer and is
 * a deny when nobody decides in time. The verdict is recorded like any other.
 */
import type { Command } from 'commander';
import { spawn } from 'node:child_process';
import { constants } from 'node:os';
import type { RunTranscript } from '../../shared/types.js';
import { EngineError, toErrorInfo } from '../../shared/errors.js';
import { connectGuard, DEFAULT_ASK_TIMEOUT_MS, failureReason } from '../server/intake/guard-client.js';
import { waitForHuman } from '../server/intake/wait-for-human.js';

/** Exit status for a command the guard refused (the shell's "found but not executable"). */
export const DENIED_EXIT = 126;

function shQuote(s: string): string {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

/** The shell form of the argv being judged: one argument is a shell command line, several are an argv. */
export function commandLine(argv: string[]): string {
  return argv.length === 1 ? argv[0]! : argv.map(shQuote).join(' ');
}

function denied(reason: string): void {
  process.stderr.write(`warden: denied: ${reason}\n`);
  process.exitCode = DENIED_EXIT;
}

/** Runs argv on the host with inherited stdio; resolves with the exit status (128+n for a signal). */
function runOnHost(argv: string[]): Promise<{ exitCode: number; durationMs: number; error?: string }> {
  const t0 = performance.now();
  return new Promise((resolve) => {
    const child = argv.length === 1 ? spawn('/bin/sh', ['-c', argv[0]!], { stdio: 'inherit' }) : spawn(argv[0]!, argv.slice(1), { stdio: 'inherit' });
    // the terminal's signals reach the child directly; the wrapper only waits for it
    const forward = (sig: NodeJS.Signals): void => void child.kill(sig);
    process.on('SIGTERM', forward);
    process.on('SIGHUP', forward);
    const done = (r: { exitCode: number; error?: string }): void => {
      process.off('SIGTERM', forward);
      process.off('SIGHUP', forward);
      resolve({ ...r, durationMs: performance.now() - t0 });
    };
    child.on('error', (e: NodeJS.ErrnoException) => done({ exitCode: e.code === 'ENOENT' ? 127 : 126, error: e.message }));
    child.on('exit', (code, signal) => done({ exitCode: code ?? 128 + (signal ? (constants.signals[signal] ?? 0) : 0) }));
  });
}

/** Options of `warden exec`. */
interface ExecOptions {
  sandbox?: boolean;
  request?: string;
  user?: string;
  timeout?: number;
}

async function execCommand(argv: string[], opts: ExecOptions): Promise<void> {
  if (argv.length === 0) throw new EngineError('BAD_INPUT', 'no command given: warden exec [--sandbox] -- CMD [ARGS...]', 'command');
  const command = commandLine(argv);
  const cwd = process.cwd();
  const request = {
    request: opts.request ?? process.env['WARDEN_REQUEST'] ?? `run a command in ${cwd}`,
    action: { type: 'shell', command },
    context: { agent: 'warden-exec', cwd, ...(opts.user ? { user: opts.user } : {}) },
  };
  const timeoutMs = opts.timeout ?? DEFAULT_ASK_TIMEOUT_MS;

  if (opts.sandbox) {
    const guard = await connectGuard({ intake: false });
    const engine = guard.engine!;
    const { sandboxServiceFor } = await import('../engine/gated-run.js');
    const service = sandboxServiceFor(engine);
    try {
      let v = await service.run({ request: { ...request, context: { ...request.context, cwd: opts.user === 'root' ? '/root' : '/home/user' } } });
      if (v.decision === 'ask') {
        process.stderr.write(`warden: waiting up to ${Math.round(timeoutMs / 1000)} s for a reviewer (verdict ${v.id}): ${v.reason}\n`);
        const review = await waitForHuman(engine, v.id, { timeoutMs });
        if (review?.outcome !== 'approve') return denied(review ? `${review.reviewer}: ${review.reason}` : `no reviewer decided in time (${v.reason})`);
        v = await service.runApproved({ verdictId: v.id });
      } else if (v.decision === 'deny') return denied(`${v.path}: ${v.reason}`);
      const t: RunTranscript | undefined = v.transcript;
      if (!t) throw new EngineError('INTERNAL', 'the command was allowed but left no transcript');
      process.stdout.write(t.stdout);
      process.stderr.write(t.stderr);
      if (t.error) process.stderr.write(`warden: ${t.error}\n`);
      process.exitCode = t.exitCode ?? 125;
    } finally {
      await service.close();
      await guard.close();
    }
    return;
  }

  const guard = await connectGuard();
  let answer;
  try {
    answer = await guard.submit(request, { wait: true, timeoutMs });
  } catch (e) {
    await guard.close();
    if ((e as { code?: string }).code === 'BAD_INPUT') throw e;
    return denied(`the guard failed, so nothing runs (${failureReason(e)})`);
  }
  if (answer.decision !== 'allow') {
    await guard.close();
    return denied(`${answer.path}: ${answer.reason}`);
  }
  const r = await runOnHost(argv);
  if (r.error) process.stderr.write(`warden: ${r.error}\n`);
  // with the engine in this process, the run's outcome joins the verdict's record
  if (guard.engine) {
    const v = guard.engine.getVerdict(answer.id);
    const transcript: RunTranscript = { command, user: opts.user ?? 'host', stdout: '', stderr: '', exitCode: r.exitCode, timedOut: false, durationMs: r.durationMs, truncated: false, ...(r.error ? { error: r.error } : {}) };
    guard.engine.store.saveVerdict({ ...v, transcript });
  }
  await guard.close();
  process.exitCode = r.exitCode;
}

/** Registers `warden exec`. */
export function registerExecCommand(program: Command): void {
  program
    .command('exec')
    .description('judge a command, then run it (exit code passed through); denied: exit 126 with the reason on stderr')
    .option('--sandbox', 'run it in a sandbox episode instead of on the host')
    .option('-r, --request <text>', 'what the human asked for (default: $WARDEN_REQUEST, else "run a command in <cwd>")')
    .option('--user <user>', 'identity the command runs as (root or user)')
    .option('--timeout <ms>', 'longest wait for a reviewer on ask; then deny', (v) => parseInt(v, 10))
    .argument('<command...>', 'the command and its arguments, after --; one argument is run as a shell command line')
    .action(async (argv: string[], opts: ExecOptions) => {
      try {
        await execCommand(argv, opts);
      } catch (e) {
        process.stderr.write(JSON.stringify({ error: toErrorInfo(e) }) + '\n');
        process.exitCode = 2;
      }
    });
}
