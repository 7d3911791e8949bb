/**
 * Intake under load: N actions from C concurrent clients over HTTP, against a store file on
 * disk (WAL, synchronous commits). Reports how many were answered, recorded and lost, the
 * latency each client saw and the throughput.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openEngine } from '../electron/engine/create-engine.js';
import { quantile } from '../electron/engine/core/eval/metrics.js';
import { startIntakeServer } from '../electron/server/intake/intake-server.js';
import { loadOrCreateToken } from '../electron/server/intake/token.js';

function action(i: number): unknown {
  const kinds = [
    { request: `list the files of project ${i}`, action: { type: 'shell', command: `ls -la ~/projects/p${i}/src` } },
    { request: `count lines in project ${i}`, action: { type: 'shell', command: `wc -l ~/projects/p${i}/src/*.ts` } },
    { request: `tidy up project ${i}`, action: { type: 'shell', command: `rm -rf ~/projects/p${i}/../../` } },
    { request: `read the notes of project ${i}`, action: { type: 'tool', name: 'read_file', arguments: { path: `/home/user/projects/p${i}/NOTES.md` } } },
  ];
  return kinds[i % kinds.length];
}

function post(agent: Agent, url: string, token: string, body: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', agent, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString() }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** Runs the load and reports. */
export async function benchIntakeLoad(opts: { actions?: number; clients?: number } = {}): Promise<Record<string, unknown>> {
  const total = opts.actions ?? 2000;
  const clients = opts.clients ?? 50;
  const dataDir = mkdtempSync(join(tmpdir(), 'warden-bench-intake-'));
  const engine = await openEngine({ dataDir });
  const token = loadOrCreateToken(dataDir);
  const server = await startIntakeServer(engine, { token });
  const agent = new Agent({ keepAlive: true, maxSockets: clients });
  try {
    const latencies: number[] = [];
    const ids = new Set<string>();
    const errors: string[] = [];
    const decisions: Record<string, number> = {};
    let next = 0;
    const start = performance.now();
    await Promise.all(
      Array.from({ length: clients }, async () => {
        while (next < total) {
          const i = next++;
          const t = performance.now();
          try {
            const r = await post(agent, `${server.url}/v1/actions?wait=0`, token, JSON.stringify(action(i)));
            latencies.push(performance.now() - t);
            const body = JSON.parse(r.text) as { id?: string; decision?: string };
            if (r.status !== 200 || !body.id) errors.push(`${r.status} ${r.text.slice(0, 200)}`);
            else {
              ids.add(body.id);
              decisions[body.decision!] = (decisions[body.decision!] ?? 0) + 1;
            }
          } catch (e) {
            errors.push((e as Error).message);
          }
        }
      }),
    );
    const seconds = (performance.now() - start) / 1000;
    let recorded = 0;
    for (const id of ids) if (engine.store.getVerdict(id)) recorded++;
    const audit = engine.store.verifyAudit();
    return {
      actions: total,
      clients,
      answered: ids.size,
      recorded,
      lost: total - recorded,
      errors: errors.length,
      decisions,
      latency_ms: { p50: quantile(latencies, 0.5), p95: quantile(latencies, 0.95), p99: quantile(latencies, 0.99), max: Math.max(...latencies) },
      actions_per_second: total / seconds,
      audit_ok: audit.ok,
    };
  } finally {
    agent.destroy();
    await server.close();
    await engine.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
