/**
 * A shell that stays in an episode container and runs root's commands one after another, so a
 * command costs a fork inside the container instead of a whole `runc exec` (about 100 ms each on
 * a slow two-core machine, where a command itself often takes a few).
 *
 * It is itself one exec, started as root with exactly the environment and working folder an
 * exec'd root command gets, and it hands each command on as if it had been exec'd:
 *
 * - each command is a fresh `sh -c COMMAND` in root's home, its standard input empty, its
 *   environment the exec's (the shell's own variables are not exported; SHLVL starts over);
 * - its output is over only when every process holding it has let go, as an exec's stream is:
 *   after the command exits, the shell waits while any other process root can see still holds its
 *   standard output or error (a background job started without redirecting them);
 * - the exit code is the command's. A command that kills the shell itself (`killall sh`,
 *   `kill -9 -1`) gets the shell's own end as its exit code: the same as exec's for a `killall
 *   sh`, which takes down the exec'd `sh -c` too; never 0 where exec's `kill -9 -1`, which spares
 *   the shell that calls it, could go on to exit 0. From then on the episode runs root's commands
 *   through exec again.
 *
 * Commands as the ordinary user still go through exec: an exec looks up the account's groups when
 * it starts, which a shell started before the setup could not.
 *
 * Framing: the host writes `NONCE BYTES HOME` and the command's bytes; the shell ends the
 * command's standard output with `\x1eW<NONCE>:<code>\x1e` and its standard error with
 * `\x1eW<NONCE>\x1e`. The nonce is fresh for each command, so a command cannot end another's.
 * The shell's command line names no path (its loop arrives on standard input), so probes that read
 * command lines find nothing of it to match.
 */
import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import type Docker from 'dockerode';
import { CappedSink } from './exec.js';

/** Commands longer than this go through exec (an argument longer than 128 KiB cannot reach `sh -c` either way). */
const MAX_COMMAND_BYTES = 120_000;

/** The shell's loop, sent as its first line of input (statements joined with `; `). */
const LOOP = [
  `o=$(readlink /proc/$$/fd/1)`,
  `e=$(readlink /proc/$$/fd/2)`,
  // held: some process other than this shell still has our stdout or stderr open
  `held() { ls -l /proc/[0-9]*/fd/ 2>/dev/null | awk -v me="$$" -v o="$o" -v e="$e" 'index($0, "/proc/") == 1 { split($0, a, "/"); p = a[3]; next } p != me && (index($0, o) || index($0, e)) { f = 1; exit } END { exit !f }' >/dev/null 2>&1; }`,
  `printf '\\036Wready:%s\\036' "$$"`,
  `while IFS=' ' read -r n b h; do c=$(head -c "$b")`,
  // (the shell's own word on a command killed by a signal goes nowhere: exec has no such word)
  `{ (exec </dev/null 2>&3 3>&-; cd "$h" 2>/dev/null || cd /; unset OLDPWD; SHLVL=0; exec sh -c "$c"); s=$?; } 3>&2 2>/dev/null`,
  `while held; do sleep 0.02; done`,
  `printf '\\036W%s:%s\\036' "$n" "$s"`,
  `printf '\\036W%s\\036' "$n" >&2`,
  `done`,
].join('; ');

/** One command the shell is running: its output so far, and when it ends. */
export interface ShellCommand {
  stdout: CappedSink;
  stderr: CappedSink;
  /** Resolves when the command's output has ended (both end marks seen, or the shell is gone). */
  ended: Promise<void>;
  /** The command's exit code once ended (the shell's own, when the command took the shell down). */
  exitCode(): Promise<number | null>;
}

/**
 * Passes a stream's bytes on to the current command's sink until that command's end mark,
 * holding back a tail that could be the start of one.
 */
export class MarkFilter {
  private held: Buffer = Buffer.alloc(0);
  private mark: Buffer | undefined;
  private sink: CappedSink | undefined;
  private onEnd: ((code: string) => void) | undefined;
  constructor(private readonly withCode: boolean) {}

  expect(nonce: string, sink: CappedSink, onEnd: (code: string) => void): void {
    this.held = Buffer.alloc(0);
    this.mark = Buffer.from(`\x1eW${nonce}${this.withCode ? ':' : ''}`);
    this.sink = sink;
    this.onEnd = onEnd;
  }

  /** What the stream brought; bytes between commands (a stray background job) are dropped. */
  push(chunk: Buffer): void {
    if (!this.mark || !this.sink) return;
    const buf = this.held.length ? Buffer.concat([this.held, chunk]) : chunk;
    const at = buf.indexOf(this.mark);
    if (at >= 0) {
      if (at > 0) this.sink.write(buf.subarray(0, at));
      const rest = buf.subarray(at + this.mark.length);
      const close = rest.indexOf(0x1e);
      if (close < 0) {
        this.held = buf.subarray(at);
        return;
      }
      const code = rest.subarray(0, close).toString('latin1');
      const done = this.onEnd;
      this.mark = undefined;
      this.sink = undefined;
      this.onEnd = undefined;
      this.held = Buffer.alloc(0);
      done?.(code);
      return;
    }
    // keep back as much as could still turn out to be the start of the mark
    const keep = Math.min(buf.length, this.mark.length - 1);
    let cut = buf.length;
    for (let k = keep; k > 0; k--) {
      if (buf.subarray(buf.length - k).equals(this.mark.subarray(0, k))) {
        cut = buf.length - k;
        break;
      }
    }
    if (cut > 0) this.sink.write(buf.subarray(0, cut));
    this.held = Buffer.from(buf.subarray(cut));
  }

  /** The stream ended: whatever was held back was output after all. */
  flush(): void {
    if (this.sink && this.held.length) this.sink.write(this.held);
    this.held = Buffer.alloc(0);
  }
}

/** A resident root shell in one container. */
export class ResidentShell {
  private readonly out = new MarkFilter(true);
  private readonly err = new MarkFilter(false);
  private gone = false;
  private running = false;
  /** Ends the running command's wait (set while one runs). */
  private finishCurrent: (() => void) | undefined;

  private constructor(
    private readonly exec: Docker.Exec,
    private readonly stream: NodeJS.ReadWriteStream & { destroy?: () => void },
    /** The shell's pid inside the container. */
    readonly pid: number,
  ) {}

  /**
   * Starts the shell as `user` with the environment and folder an exec'd command would get.
   * Undefined when it cannot (the engine refuses stdin, the shell does not answer in time): the
   * caller then simply uses exec.
   */
  static async open(container: Docker.Container, opts: { user: string; env: string[]; timeoutMs?: number }): Promise<ResidentShell | undefined> {
    let stream: (NodeJS.ReadWriteStream & { destroy?: () => void }) | undefined;
    try {
      const exec = await container.exec({
        Cmd: ['sh', '-c', 'IFS= read -r l; eval "$l"'],
        User: opts.user,
        Env: opts.env,
        WorkingDir: '/',
        AttachStdin: true,
        AttachStdout: true,
        AttachStderr: true,
        Tty: false,
      });
      stream = (await exec.start({ hijack: true, stdin: true })) as NodeJS.ReadWriteStream & { destroy?: () => void };
      const s = stream;
      let pid: number | undefined;
      let ready: (() => void) | undefined;
      const readyMark = new MarkFilter(true);
      const greeting = new CappedSink(4096);
      readyMark.expect('ready', greeting, (code) => {
        pid = Number(code);
        ready?.();
      });
      let shell: ResidentShell | undefined;
      const outSink = new Writable({
        write(chunk: Buffer, _enc, cb) {
          if (shell) shell.out.push(chunk);
          else readyMark.push(chunk);
          cb();
        },
      });
      const errSink = new Writable({
        write(chunk: Buffer, _enc, cb) {
          shell?.err.push(chunk);
          cb();
        },
      });
      let ended = false;
      const onEnd = () => {
        ended = true;
        ready?.();
        shell?.die();
      };
      s.on('end', onEnd);
      s.on('close', onEnd);
      s.on('error', onEnd);
      container.modem.demuxStream(s, outSink, errSink);
      s.write(`${LOOP}\n`);
      await new Promise<void>((resolve) => {
        ready = resolve;
        if (pid !== undefined || ended) resolve();
        setTimeout(resolve, opts.timeoutMs ?? 3000).unref();
      });
      if (pid === undefined || !Number.isInteger(pid) || ended) {
        s.destroy?.();
        return undefined;
      }
      shell = new ResidentShell(exec, s, pid);
      return shell;
    } catch {
      stream?.destroy?.();
      return undefined;
    }
  }

  /** Whether the next command can go to this shell now. */
  canRun(command: string): boolean {
    return !this.gone && !this.running && !command.includes('\0') && Buffer.byteLength(command) <= MAX_COMMAND_BYTES;
  }

  /** Whether the shell has ended (killed by a command, or its container gone). */
  get ended(): boolean {
    return this.gone;
  }

  /** Runs one command; check `canRun` first. */
  run(command: string, home: string, maxOutputBytes: number): ShellCommand {
    if (!this.canRun(command)) throw new Error('the resident shell cannot take this command now');
    this.running = true;
    const nonce = randomBytes(8).toString('hex');
    const stdout = new CappedSink(maxOutputBytes);
    const stderr = new CappedSink(maxOutputBytes);
    let code: string | undefined;
    let outDone = false;
    let errDone = false;
    let finish: (() => void) | undefined;
    const ended = new Promise<void>((resolve) => {
      finish = () => {
        this.running = false;
        this.finishCurrent = undefined;
        resolve();
      };
      this.finishCurrent = finish;
    });
    const check = () => {
      if (outDone && errDone) finish?.();
    };
    this.out.expect(nonce, stdout, (c) => {
      code = c;
      outDone = true;
      check();
    });
    this.err.expect(nonce, stderr, () => {
      errDone = true;
      check();
    });
    const body = Buffer.from(command);
    this.stream.write(Buffer.concat([Buffer.from(`${nonce} ${body.length} ${home}\n`), body]));
    return {
      stdout,
      stderr,
      ended,
      exitCode: async () => {
        if (code !== undefined && /^\d+$/.test(code)) return Number(code);
        // the shell went down with the command: its own end is the command's
        return this.ownExitCode();
      },
    };
  }

  private async ownExitCode(): Promise<number | null> {
    const until = performance.now() + 500;
    for (;;) {
      try {
        const info = await this.exec.inspect();
        if (!info.Running) return typeof info.ExitCode === 'number' ? info.ExitCode : null;
      } catch {
        return null;
      }
      if (performance.now() > until) return null;
      await new Promise((r) => setTimeout(r, 5));
    }
  }

  private die(): void {
    if (this.gone) return;
    this.gone = true;
    this.out.flush();
    this.err.flush();
    this.finishCurrent?.();
  }

  /** Ends the shell (its container is going away). */
  close(): void {
    this.die();
    this.stream.destroy?.();
  }
}
