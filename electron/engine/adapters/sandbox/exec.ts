/**
 * One command inside a running container through the engine's exec API, with stdout and stderr
 * split apart, captured output capped, and a deadline. Killing what outlives its deadline is the
 * caller's job (it knows the container); this module only reports what happened.
 */
import type { CommandResult } from '../../../../shared/types.js';
import { Writable } from 'node:stream';
import type Docker from 'dockerode';

/** What one command did (the shared shape, so a transcript can travel with a verdict). */
export type ExecResult = CommandResult;

/** Keeps the first `cap` bytes written to it and counts the rest, so a chatty command never blocks on a full pipe. */
export class CappedSink extends Writable {
  private readonly chunks: Buffer[] = [];
  private kept = 0;
  dropped = 0;
  constructor(private readonly cap: number) {
    super();
  }
  override _write(chunk: Buffer, _enc: BufferEncoding, cb: (err?: Error | null) => void): void {
    const room = this.cap - this.kept;
    if (room > 0) {
      const part = chunk.length <= room ? chunk : chunk.subarray(0, room);
      this.chunks.push(Buffer.from(part));
      this.kept += part.length;
    }
    this.dropped += Math.max(0, chunk.length - Math.max(0, room));
    cb();
  }
  /** Everything kept so far. */
  bytes(): Buffer {
    return Buffer.concat(this.chunks);
  }
}

/** A started exec: its output sinks, a promise for the end of its stream, and a way to cut it off. */
export interface RunningExec {
  exec: Docker.Exec;
  stdout: CappedSink;
  stderr: CappedSink;
  ended: Promise<void>;
  destroy(): void;
}

/** Parameters of one exec. */
export interface StartExecOptions {
  argv: string[];
  /** `uid:gid`. */
  user: string;
  env: string[];
  workingDir: string;
  maxOutputBytes: number;
}

/** Creates and starts an exec; resolves once its output is attached. */
export async function startExec(container: Docker.Container, opts: StartExecOptions): Promise<RunningExec> {
  const exec = await container.exec({
    Cmd: opts.argv,
    User: opts.user,
    Env: opts.env,
    WorkingDir: opts.workingDir,
    AttachStdin: false,
    AttachStdout: true,
    AttachStderr: true,
    Tty: false,
  });
  const stream = (await exec.start({ hijack: true, stdin: false })) as NodeJS.ReadableStream & { destroy?: () => void };
  const stdout = new CappedSink(opts.maxOutputBytes);
  const stderr = new CappedSink(opts.maxOutputBytes);
  const ended = new Promise<void>((resolve) => {
    // end, close and error all mean the same here: no more output will come
    stream.on('end', () => resolve());
    stream.on('close', () => resolve());
    stream.on('error', () => resolve());
  });
  container.modem.demuxStream(stream, stdout, stderr);
  return { exec, stdout, stderr, ended, destroy: () => stream.destroy?.() };
}

/** The exit code once the engine reports the exec finished (the stream can end a moment before). */
export async function exitCodeOf(exec: Docker.Exec, waitMs = 500): Promise<number | null> {
  const until = performance.now() + waitMs;
  for (;;) {
    const info = await exec.inspect();
    if (!info.Running) return typeof info.ExitCode === 'number' ? info.ExitCode : null;
    if (performance.now() > until) return null;
    await new Promise((r) => setTimeout(r, 5));
  }
}
