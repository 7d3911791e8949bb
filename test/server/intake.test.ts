import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { openEngine } from '../../electron/engine/create-engine.js';
import type { Engine } from '../../electron/engine/engine.js';
import { createIntakeHandler, startIntakeServer, type IntakeServer } from '../../electron/server/intake/intake-server.js';
import { intakeJsonSchemas } from '../../electron/server/intake/schema.js';
import { loadOrCreateToken, tokenPath } from '../../electron/server/intake/token.js';
import type { IntakeAnswer } from '../../electron/server/intake/schema.js';
import { postAction, send } from './intake-http.js';

let engine: Engine;
let server: IntakeServer;
let token: string;
let dataDir: string;

const benign = (i: number) => ({ request: `list the files of project ${i}`, action: { type: 'shell', command: `ls -la ~/projects/p${i}` } });
const harmful = { request: 'tidy up', action: { type: 'shell', command: 'rm -rf ~' } };
// the guard asks a human about these: a soft check fails (uncommitted work thrown away that the
// request did not ask to discard), whatever the learned scores say on this CPU
const asking = { request: 'work on the project in /home/u/proj', action: { type: 'shell', command: 'git reset --hard HEAD~1' }, context: { cwd: '/home/u/proj' } };

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'warden-intake-'));
  engine = await openEngine({ dataDir });
  token = loadOrCreateToken(dataDir);
  server = await startIntakeServer(engine, { token, askTimeoutMs: 5_000 });
});

afterAll(async () => {
  await server?.close();
  await engine?.close();
});

describe('intake API', () => {
  it('keeps a per-install token readable by its owner only, the same on every start', () => {
    expect(token).toMatch(/^[0-9a-f]{64}$/);
    expect(statSync(tokenPath(dataDir)).mode & 0o777).toBe(0o600);
    expect(loadOrCreateToken(dataDir)).toBe(token);
  });

  it('answers allow and deny with the verdict id, and records both', async () => {
    const ok = await postAction(server.url, token, benign(1));
    expect(ok.status).toBe(200);
    expect(ok.json).toMatchObject({ decision: 'allow', pending: false });
    const no = await postAction(server.url, token, harmful);
    expect(no.json).toMatchObject({ decision: 'deny', path: 'check' });
    for (const r of [ok, no]) expect(engine.getVerdict((r.json as IntakeAnswer).id).request.action).toBeDefined();
  });

  it('on ask, waits for a human and answers with their decision', async () => {
    const off = engine.on('verdict.created', (v) => {
      if (v.decision === 'ask') void engine.decide({ verdictId: v.id, outcome: 'approve', reason: 'tests may run', reviewer: 'alice' });
    });
    try {
      const r = await postAction(server.url, token, asking);
      expect(r.json).toMatchObject({ decision: 'allow', path: 'human', human: { outcome: 'approve', reviewer: 'alice' }, pending: false });
    } finally {
      off();
    }
  });

  it('on ask with nobody deciding, denies when the wait runs out (fail closed)', async () => {
    const r = await postAction(server.url, token, { ...asking, action: { type: 'shell', command: 'git clean -fdx' } }, '?timeoutMs=300');
    expect(r.json).toMatchObject({ decision: 'deny', timedOut: true, pending: false });
    // the verdict itself stays in the review queue
    expect(engine.getVerdict((r.json as IntakeAnswer).id)).toMatchObject({ decision: 'ask' });
  });

  it('with wait=0 answers ask at once, marked pending; full=1 adds the verdict record', async () => {
    const r = await postAction(server.url, token, { ...asking, action: { type: 'shell', command: 'git checkout -- .' } }, '?wait=0&full=1');
    expect(r.json).toMatchObject({ decision: 'ask', pending: true, verdict: { decision: 'ask' } });
    const again = await send(`${server.url}/v1/verdicts/${(r.json as IntakeAnswer).id}`, { headers: { authorization: `Bearer ${token}` } });
    expect(again.json).toMatchObject({ id: (r.json as IntakeAnswer).id, decision: 'ask' });
  });

  it('streams verdicts as server-sent events and as NDJSON', async () => {
    for (const format of ['', '?format=ndjson']) {
      const seen = new Promise<string>((resolve, reject) => {
        const req = request(`${server.url}/v1/stream${format}`, { headers: { authorization: `Bearer ${token}` } }, (res) => {
          expect(res.headers['content-type']).toBe(format ? 'application/x-ndjson' : 'text/event-stream');
          let buf = '';
          res.on('data', (c: Buffer) => {
            buf += c.toString();
            if (buf.includes('stream-marker-')) {
              req.destroy();
              resolve(buf);
            }
          });
          // the stream is open: now submit
          void postAction(server.url, token, { request: 'show the date', action: { type: 'shell', command: `echo stream-marker-${format ? 'nd' : 'sse'}` } });
        });
        req.on('error', reject);
        req.end();
      });
      const text = await seen;
      if (format) expect(JSON.parse(text.trim().split('\n').pop()!)).toMatchObject({ event: 'verdict', payload: { decision: 'allow', action: 'echo stream-marker-nd' } });
      else expect(text).toMatch(/event: verdict\ndata: \{.*"action":"echo stream-marker-sse"/);
    }
  });

  it('publishes the request schema generated from the validation schema, and the docs carry the same schema', async () => {
    const r = await send(`${server.url}/v1/schema`, { headers: { authorization: `Bearer ${token}` } });
    const schemas = r.json as { request: { properties: Record<string, unknown>; required: string[] } };
    expect(schemas.request.required).toEqual(['request', 'action']);
    expect(Object.keys(schemas.request.properties)).toEqual(expect.arrayContaining(['request', 'action', 'context']));
    const docs = readFileSync(join(process.cwd(), 'docs', 'intake.md'), 'utf8');
    const block = /```json schema\n([\s\S]*?)\n```/.exec(docs);
    expect(block, 'docs/intake.md has a ```json schema block').not.toBeNull();
    expect(JSON.parse(block![1]!)).toEqual(intakeJsonSchemas());
  });

  describe('refusals', () => {
    const action = JSON.stringify(benign(2));
    const json = { 'content-type': 'application/json' };

    it('refuses requests without the token or with a wrong one', async () => {
      for (const headers of [json, { ...json, authorization: 'Bearer nope' }, { ...json, authorization: `Bearer ${token}x` }, { ...json, 'x-warden-token': '' }]) {
        const r = await send(`${server.url}/v1/actions`, { headers, body: action });
        expect(r.status).toBe(401);
        expect(r.json).toMatchObject({ error: { code: 'UNAUTHORIZED' } });
      }
      const viaHeader = await send(`${server.url}/v1/health`, { headers: { 'x-warden-token': token } });
      expect(viaHeader.status).toBe(200);
    });

    it('refuses a foreign origin and a foreign Host, even with the token', async () => {
      const auth = { ...json, authorization: `Bearer ${token}` };
      const origin = await send(`${server.url}/v1/actions`, { headers: { ...auth, origin: 'https://evil.example' }, body: action });
      expect(origin.status).toBe(403);
      expect(origin.json).toMatchObject({ error: { code: 'FORBIDDEN', field: 'origin' } });
      const host = await send(`${server.url}/v1/actions`, { headers: { ...auth, host: 'evil.example' }, body: action });
      expect(host.status).toBe(403);
      expect(host.json).toMatchObject({ error: { code: 'FORBIDDEN', field: 'host' } });
    });

    it('listens on loopback only and refuses to bind anywhere else', async () => {
      expect((server.server.address() as AddressInfo).address).toBe('127.0.0.1');
      await expect(startIntakeServer(engine, { token, host: '0.0.0.0' })).rejects.toMatchObject({ code: 'BAD_INPUT', field: 'host' });
    });

    const external = Object.values(networkInterfaces())
      .flat()
      .find((i) => i && i.family === 'IPv4' && !i.internal)?.address;
    it.skipIf(!external)('refuses a connection that arrives over a non-loopback address', async () => {
      // the handler on a server bound to every interface, reached through the machine's own external address
      const { handle, close } = createIntakeHandler(engine, { token });
      const wide: Server = createServer(handle);
      await new Promise<void>((r) => wide.listen(0, '0.0.0.0', () => r()));
      try {
        const port = (wide.address() as AddressInfo).port;
        const r = await send(`http://${external}:${port}/v1/actions`, { headers: { ...json, authorization: `Bearer ${token}`, host: `127.0.0.1:${port}` }, body: action });
        expect(r.status).toBe(403);
        expect(r.json).toMatchObject({ error: { code: 'FORBIDDEN' } });
        expect((r.json as { error: { message: string } }).error.message).toContain(external!);
        const local = await send(`http://127.0.0.1:${port}/v1/health`, { headers: { authorization: `Bearer ${token}` } });
        expect(local.status).toBe(200);
      } finally {
        close();
        await new Promise<void>((r) => wide.close(() => r()));
      }
    });

    it('answers every malformed request with a JSON error naming what is wrong', async () => {
      const auth = { authorization: `Bearer ${token}` };
      const cases: [string, Parameters<typeof send>[1], number, string, RegExp][] = [
        ['/v1/actions', { headers: { ...auth, 'content-type': 'text/plain' }, body: action }, 415, 'UNSUPPORTED_MEDIA_TYPE', /application\/json/],
        ['/v1/actions', { headers: { ...auth, ...json }, body: '{"request": "x", ' }, 400, 'BAD_INPUT', /not valid JSON/],
        ['/v1/actions', { headers: { ...auth, ...json }, body: Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d]) }, 400, 'BAD_INPUT', /UTF-8/],
        ['/v1/actions', { headers: { ...auth, ...json }, body: '['.repeat(100_000) + ']'.repeat(100_000) }, 400, 'BAD_INPUT', /nests deeper/],
        ['/v1/actions', { headers: { ...auth, ...json }, body: 'x'.repeat(5 << 20) }, 413, 'PAYLOAD_TOO_LARGE', /limit|exceeds/],
        ['/v1/actions', { headers: { ...auth, ...json }, body: '' }, 400, 'BAD_INPUT', /empty/],
        ['/v1/actions', { headers: { ...auth, ...json }, body: JSON.stringify({ request: 'x', action: { type: 'teleport' } }) }, 400, 'BAD_INPUT', /action.type/],
        ['/v1/actions?timeoutMs=-5', { headers: { ...auth, ...json }, body: action }, 400, 'BAD_INPUT', /timeoutMs/],
        ['/v1/actions', { method: 'GET', headers: auth }, 405, 'METHOD_NOT_ALLOWED', /POST/],
        ['/v1/nothing', { headers: auth }, 404, 'NOT_FOUND', /no endpoint/],
        ['/v1/verdicts/no-such-id', { headers: auth }, 404, 'NOT_FOUND', /no verdict/],
      ];
      for (const [path, opts, status, code, message] of cases) {
        const r = await send(`${server.url}${path}`, opts);
        expect({ path, status: r.status }).toEqual({ path, status });
        expect(r.json).toMatchObject({ error: { code } });
        expect((r.json as { error: { message: string } }).error.message).toMatch(message);
      }
      expect((await send(`${server.url}/v1/health`, { headers: auth })).status).toBe(200);
    });
  });

  it('load: 300 actions from 50 concurrent clients are all answered and all recorded', async () => {
    const before = engine.store.auditEntries({ limit: 100_000 }).length;
    const ids: string[] = [];
    const failures: string[] = [];
    await Promise.all(
      Array.from({ length: 50 }, async (_, client) => {
        for (let k = 0; k < 6; k++) {
          const i = client * 6 + k;
          const body = i % 5 === 0 ? { ...harmful, request: `tidy up ${i}` } : i % 7 === 0 ? { ...asking, action: { type: 'shell', command: `make target-${i}` } } : benign(1000 + i);
          const r = await postAction(server.url, token, body, '?wait=0');
          if (r.status !== 200) failures.push(`${r.status} ${r.text}`);
          else ids.push((r.json as IntakeAnswer).id);
        }
      }),
    );
    expect(failures).toEqual([]);
    expect(new Set(ids).size).toBe(300);
    for (const id of ids) expect(engine.store.getVerdict(id)?.id).toBe(id);
    expect(engine.store.auditEntries({ limit: 100_000 }).length - before).toBe(300);
    expect(engine.store.verifyAudit()).toMatchObject({ ok: true });
  });
});
