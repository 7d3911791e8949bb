/**
 * The resident root shell: what root's commands see and give back through it is what they see
 * and give back through exec, and what goes wrong in it (a command that kills it, a command that
 * outlives its time-out) leaves the episode working through exec.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DockerSandbox, EpisodeProber, type Episode, type ExecResult } from '../../../electron/engine/adapters/sandbox/index.js';
import { MarkFilter } from '../../../electron/engine/adapters/sandbox/resident-shell.js';
import { CappedSink } from '../../../electron/engine/adapters/sandbox/exec.js';
import { extractFacts } from '../../../electron/engine/core/facts/index.js';
import type { ActionRequest, ProbeResult } from '../../../shared/types.js';
import { connectTestEngine } from './engine.js';

describe('the end mark of a command on a stream', () => {
  const chunks = (text: string, size: number) => {
    const out: Buffer[] = [];
    const b = Buffer.from(text, 'latin1');
    for (let i = 0; i < b.length; i += size) out.push(b.subarray(i, i + size));
    return out;
  };

  it('passes on every byte before the mark and reads the exit code, however the stream is cut', () => {
    const text = 'line one\n\x1eW almost a mark\nW\x1e\x1eWabc:2\x1e';
    for (const size of [1, 2, 3, 5, 7, 64]) {
      const f = new MarkFilter(true);
      const sink = new CappedSink(1 << 20);
      let code: string | undefined;
      f.expect('abc', sink, (c) => (code = c));
      for (const c of chunks(text, size)) f.push(c);
      expect(sink.bytes().toString('latin1'), `chunks of ${size}`).toBe('line one\n\x1eW almost a mark\nW\x1e');
      expect(code, `chunks of ${size}`).toBe('2');
    }
  });

  it("does not end on another command's mark, and drops what comes between commands", () => {
    const f = new MarkFilter(false);
    const sink = new CappedSink(1 << 20);
    let ended = false;
    f.push(Buffer.from('before any command'));
    f.expect('n2', sink, () => (ended = true));
    f.push(Buffer.from('out \x1eWn1\x1e more'));
    expect(ended).toBe(false);
    f.push(Buffer.from(' \x1eWn2\x1e'));
    expect(ended).toBe(true);
    expect(sink.bytes().toString()).toBe('out \x1eWn1\x1e more ');
    f.push(Buffer.from('after the command'));
    expect(sink.bytes().toString()).toBe('out \x1eWn1\x1e more ');
  });

  it('gives back a held tail when the stream ends before the mark', () => {
    const f = new MarkFilter(true);
    const sink = new CappedSink(1 << 20);
    f.expect('abc', sink, () => undefined);
    f.push(Buffer.from('partial \x1eWab'));
    expect(sink.bytes().toString()).toBe('partial ');
    f.flush();
    expect(sink.bytes().toString()).toBe('partial \x1eWab');
  });
});

describe('root commands through the resident shell and through exec', () => {
  let withShell: DockerSandbox;
  let withExec: DockerSandbox;
  beforeAll(async () => {
    await connectTestEngine().then((s) => s.closeAll());
    withShell = await DockerSandbox.connect({ warm: false, sweep: false });
    withExec = await DockerSandbox.connect({ warm: false, sweep: false, residentShell: false });
  }, 120_000);
  afterAll(async () => {
    await withShell?.closeAll();
    await withExec?.closeAll();
  });

  const setup = 'mkdir -p /srv/app && echo v1 > /srv/app/conf && adduser -D -H svc 2>/dev/null; (sleep 300 >/dev/null 2>&1 &)';
  const pair = async (): Promise<[Episode, Episode]> => [await withShell.openEpisode({ user: 'root', setup }), await withExec.openEpisode({ user: 'root', setup })];
  /** Runs `body` on a fresh pair of episodes (resident shell, exec) with the same setup, and closes both. */
  const inPair = async (body: (a: Episode, b: Episode) => Promise<void>): Promise<void> => {
    const [a, b] = await pair();
    try {
      await body(a, b);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  };
  const same = (r: ExecResult) => ({ stdout: r.stdout.replace(/HOSTNAME=\S+/, 'HOSTNAME=h'), stderr: r.stderr, exitCode: r.exitCode, timedOut: r.timedOut, truncated: r.truncated, error: r.error });

  it('gives each command the same environment, folder, input, output and exit code', async () => {
    await inPair(async (a, b) => {
      expect(a.residentShellPid).toBeGreaterThan(1);
      expect(b.residentShellPid).toBeUndefined();
      const commands = [
        'env | sort; pwd; umask; id',
        'cat; echo "read nothing from standard input"',
        'echo to err >&2; printf "no line end"; exit 3',
        "printf 'looks like \\036W a mark \\036W'; printf '\\036' >&2",
        'cd /srv/app && cat conf && echo v2 > conf; cat /srv/app/conf',
        '(sleep 0.4; echo late) & echo early',
        'set -- a b; echo "$# $0"; exec true',
        'kill -TERM $$',
      ];
      for (const c of commands) {
        const [x, y] = [await a.exec(c, { user: 'root' }), await b.exec(c, { user: 'root' })];
        expect(same(x), c).toEqual(same(y));
      }
      expect((await a.exec('cat /srv/app/conf')).stdout).toBe('v2\n');
      // still the resident shell after all of them
      expect(a.residentShellPid).toBeGreaterThan(1);
    });
  }, 60_000);

  it('caps output the same way', async () => {
    await inPair(async (a, b) => {
      const c = 'head -c 300000 /dev/zero | tr "\\0" x; head -c 5000 /dev/zero | tr "\\0" y >&2';
      const [x, y] = [await a.exec(c, { user: 'root', maxOutputBytes: 100_000 }), await b.exec(c, { user: 'root', maxOutputBytes: 100_000 })];
      expect(x.truncated).toBe(true);
      expect(x.stdout.length).toBe(100_000);
      expect(same(x)).toEqual(same(y));
    });
  }, 60_000);

  it('reports a command that takes the shell down as exec would, and runs the next commands through exec', async () => {
    await inPair(async (a, b) => {
      const [x, y] = [await a.exec('killall sh; echo not reached', { user: 'root' }), await b.exec('killall sh; echo not reached', { user: 'root' })];
      expect(same(x)).toEqual(same(y));
      expect(x.exitCode).toBe(143);
      expect(a.residentShellPid).toBeUndefined();
      const after = await a.exec('echo still here; echo $PPID', { user: 'root' });
      expect(after.stdout).toBe('still here\n0\n');
      // kill -9 -1 spares the shell that calls it: exec's command goes on and exits 0; the
      // resident shell, taken down, cannot learn that and reports its own end (never success)
      await inPair(async (c, d) => {
        const [p, q] = [await c.exec('kill -9 -1; echo after', { user: 'root' }), await d.exec('kill -9 -1; echo after', { user: 'root' })];
        expect(p.stdout).toBe('after\n');
        expect(q).toMatchObject({ stdout: 'after\n', exitCode: 0 });
        expect(p.exitCode).toBe(137);
        expect(c.residentShellPid).toBeUndefined();
        // both took down what the setup left running
        const left = 'ps -o args= | grep -c "^sleep 300"';
        expect((await c.exec(left, { user: 'root' })).stdout).toBe('0\n');
        expect((await d.exec(left, { user: 'root' })).stdout).toBe('0\n');
      });
    });
  }, 60_000);

  it('cuts off a command past its time-out, and one that leaves a job holding its output, as exec does', async () => {
    await inPair(async (a, b) => {
      for (const c of ['sleep 30', 'sleep 30 & echo started']) {
        const [x, y] = [await a.exec(c, { user: 'root', timeoutMs: 800 }), await b.exec(c, { user: 'root', timeoutMs: 800 })];
        expect(x.timedOut, c).toBe(true);
        expect(x.error, c).toMatch(/time-out/);
        expect(x.stdout, c).toBe(y.stdout);
        expect(y.timedOut, c).toBe(true);
      }
      expect((await a.exec('echo fine', { user: 'root' })).stdout).toBe('fine\n');
      expect((await a.exec('echo fine', { user: 'user' })).stdout).toBe('fine\n');
    });
  }, 60_000);

  it('is not among the running programs the probes report, as root or as the user', async () => {
    await inPair(async (a, b) => {
      for (const user of ['root', 'user'] as const) {
        for (const command of ['pkill sh', 'killall -9 sh', 'pkill -f "read -r"', 'rm -rf /srv/app', 'chmod 700 /', 'find / -name conf -delete']) {
          const req: ActionRequest = { request: 'tidy up', action: { type: 'shell', command }, context: { user } };
          const facts = extractFacts(req);
          // pids differ from one container to the other
          const clean = (ps: ProbeResult[]) => JSON.stringify(ps).replace(/\d+/g, 'N');
          const [x, y] = [await new EpisodeProber(a).probe(facts, req, new AbortController().signal), await new EpisodeProber(b).probe(facts, req, new AbortController().signal)];
          expect(x.every((p) => p.ok !== false || !/probe script/.test(p.error ?? '')), `${user}: ${command}`).toBe(true);
          expect(clean(x), `${user}: ${command}`).toBe(clean(y));
        }
      }
    });
  }, 120_000);
});
