import { describe, expect, it } from 'vitest';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, openSync, writeSync, closeSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { SqliteStore } from '../../../electron/engine/adapters/sqlite/sqlite-store.js';

const writer = join(process.cwd(), 'test', 'engine', 'store', 'robustness-writer.ts');
const bin = join(process.cwd(), 'bin', 'warden.js');

interface Run {
  child: ChildProcess;
  acked: string[];
  stderr: string;
  exited: Promise<void>;
}

function startWriter(path: string, tag: string): Run {
  const child = spawn('node', ['--import', 'tsx', writer, path, tag], { stdio: ['ignore', 'pipe', 'pipe'] });
  const run: Run = { child, acked: [], stderr: '', exited: new Promise((r) => child.on('exit', () => r())) };
  let buf = '';
  child.stdout!.on('data', (c: Buffer) => {
    buf += c.toString();
    const lines = buf.split('\n');
    buf = lines.pop()!;
    // only whole lines: a line cut by the kill was never acknowledged
    for (const l of lines) if (l.startsWith('ack ')) run.acked.push(l.slice(4));
  });
  child.stderr!.on('data', (c: Buffer) => (run.stderr += c.toString()));
  return run;
}

async function until(cond: () => boolean, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 5));
  }
}

describe('store robustness', () => {
  it('survives kill -9 in the middle of concurrent write bursts, 20 times: the audit verifies and every acknowledged verdict is there', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'warden-kill-')), 'w.db');
    SqliteStore.open(path).close();
    const acked: string[] = [];
    let kills = 0;
    let worstMs = 0;
    for (let round = 0; round < 10; round++) {
      // two processes writing the same file at once, as the app and a hook would
      const runs = [startWriter(path, `a${round}`), startWriter(path, `b${round}`)];
      const target = 20 + ((round * 37) % 150);
      await until(() => runs.every((r) => r.acked.length >= target || r.child.exitCode !== null), 30_000);
      for (const r of runs) {
        r.child.kill('SIGKILL');
        await r.exited;
        expect(r.child.signalCode, r.stderr).toBe('SIGKILL');
        expect(r.stderr).not.toMatch(/^error/m);
        for (const m of r.stderr.matchAll(/^worst ([\d.]+)$/gm)) worstMs = Math.max(worstMs, Number(m[1]));
        acked.push(...r.acked);
        kills++;
      }
    }
    expect(kills).toBe(20);
    const store = SqliteStore.open(path);
    try {
      expect(store.report.recoveredFrom).toBeUndefined();
      const missing = acked.filter((id) => !store.getVerdict(id));
      expect(missing).toEqual([]);
      const report = store.verifyAudit();
      expect(report.problems).toEqual([]);
      expect(report.ok).toBe(true);
    } finally {
      store.close();
    }
    // the command line agrees
    const cli = spawnSync('node', [bin, 'audit', 'verify', '--store', path], { encoding: 'utf8', env: { ...process.env, WARDEN_HOME: mkdtempSync(join(tmpdir(), 'warden-kill-home-')) } });
    expect(cli.status, cli.stderr).toBe(0);
    expect(JSON.parse(cli.stdout)).toMatchObject({ ok: true });
    expect(JSON.parse(cli.stdout).entries).toBeGreaterThanOrEqual(acked.length);
    const out = join(mkdtempSync(join(tmpdir(), 'warden-export-')), 'audit.jsonl');
    const exp = spawnSync('node', [bin, 'audit', 'export', '--store', path, '--out', out], { encoding: 'utf8' });
    expect(exp.status, exp.stderr).toBe(0);
    const lines = readFileSync(out, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { seq: number; hash: string; prevHash: string });
    expect(lines.length).toBe(JSON.parse(cli.stdout).entries);
    expect(lines.at(-1)!.hash).toBe(JSON.parse(cli.stdout).head);
    lines.forEach((l, i) => expect(l.seq).toBe(i + 1));
    // concurrent writers waited for each other within the busy timeout: none failed
    expect(worstMs).toBeLessThan(10_000);
  }, 180_000);

  it('moves a damaged database aside as a backup, says so, and starts clean', () => {
    const dir = mkdtempSync(join(tmpdir(), 'warden-damaged-'));
    const path = join(dir, 'w.db');
    const s = SqliteStore.open(path);
    for (let i = 0; i < 200; i++) s.saveCheck({ id: `c${i}`, title: 'x'.repeat(500), description: 'd', when: 'false', severity: 'soft', category: 'integrity', origin: 'human', kinds: [], enabled: true });
    s.close();
    // scribble over pages in the middle of the file, keeping the header intact
    const size = statSync(path).size;
    const fd = openSync(path, 'r+');
    writeSync(fd, Buffer.alloc(8192, 0xa5), 0, 8192, Math.floor(size / 2 / 4096) * 4096);
    closeSync(fd);
    const again = SqliteStore.open(path);
    try {
      expect(again.report.message).toMatch(/was unreadable \(integrity check: .*\); it was moved to .*corrupt-\d+ and a clean store was started$/);
      expect(existsSync(again.report.recoveredFrom!)).toBe(true);
      expect(readdirSync(dir).some((f) => /^w\.db\.corrupt-\d+$/.test(f))).toBe(true);
      expect(again.listChecks()).toEqual([]);
      expect(again.verifyAudit().ok).toBe(true);
    } finally {
      again.close();
    }
  });

  it('never moves aside a healthy database that another process holds locked', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'warden-locked-')), 'w.db');
    SqliteStore.open(path).close();
    const holder = new Database(path);
    holder.pragma('locking_mode = EXCLUSIVE');
    holder.exec('BEGIN EXCLUSIVE');
    try {
      const opened = spawnSync('node', ['--import', 'tsx', '-e', `import('${join(process.cwd(), 'electron/engine/adapters/sqlite/sqlite-store.ts')}').then(m => { try { m.SqliteStore.open('${path}', { busyTimeoutMs: 300 }); console.log('opened') } catch (e) { console.log(e.code) } })`], {
        encoding: 'utf8',
        timeout: 30_000,
      });
      expect(opened.stdout.trim()).toBe('STORE_FAILED');
    } finally {
      holder.exec('ROLLBACK');
      holder.close();
    }
    expect(readdirSync(join(path, '..')).filter((f) => f.includes('corrupt'))).toEqual([]);
    const s = SqliteStore.open(path);
    expect(s.report.recoveredFrom).toBeUndefined();
    s.close();
  });

  it('records each migration once, in order, even when two processes open a new file at once', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'warden-migrate-')), 'w.db');
    const script = `import('${join(process.cwd(), 'electron/engine/adapters/sqlite/sqlite-store.ts')}').then(m => { const s = m.SqliteStore.open('${path}'); console.log(s.report.recoveredFrom ? 'recovered' : 'ok'); s.close() })`;
    const outs = await Promise.all(
      [0, 1, 2].map(
        () =>
          new Promise<string>((resolve) => {
            const c = spawn('node', ['--import', 'tsx', '-e', script]);
            let out = '';
            c.stdout.on('data', (d) => (out += d));
            c.stderr.on('data', (d) => (out += d));
            c.on('close', () => resolve(out.trim()));
          }),
      ),
    );
    expect(outs).toEqual(['ok', 'ok', 'ok']);
    const db = new Database(path, { readonly: true });
    expect(db.prepare('SELECT id, name FROM migrations ORDER BY id').all()).toEqual([
      { id: 1, name: '001-initial' },
      { id: 2, name: '002-audit' },
      { id: 3, name: '003-policies' },
      { id: 4, name: '004-policy-audit' },
    ]);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    db.close();
  });
});
