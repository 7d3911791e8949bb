import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openEngine } from '../../electron/engine/create-engine.js';
import type { Engine } from '../../electron/engine/engine.js';
import { startIntakeServer, type IntakeServer } from '../../electron/server/intake/intake-server.js';
import { loadOrCreateToken } from '../../electron/server/intake/token.js';
import { parseActionRequest } from '../../shared/validate.js';
import type { Verdict } from '../../shared/types.js';
import { postAction, send, type RawResponse } from '../server/intake-http.js';

let engine: Engine;
let server: IntakeServer;
let token: string;

beforeAll(async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'warden-fuzz-'));
  engine = await openEngine({ dataDir });
  token = loadOrCreateToken(dataDir);
  server = await startIntakeServer(engine, { token });
});

afterAll(async () => {
  await server?.close();
  await engine?.close();
});

// pieces of shell that stress the parser: quoting, substitutions, redirects, unbalanced groups
const shellPiece = fc.constantFrom(
  'rm', '-rf', '~', '/', '$(', ')', '`', "'", '"', '\\', '|', '||', '&&', ';', '&', '>', '>>', '<', '<<EOF', '2>&1', '{', '}', '(', ')', '$HOME', '${x:-/}',
  'eval', 'base64 -d', 'curl', 'http://x.example', 'sh -c', 'bash', '*', '?', '[', ']', '#', '\n', '\t', 'ls', 'cat', '/etc/passwd', '.ssh/id_rsa', 'chmod 777', 'sudo', ':(){ :|:& };:',
);
const shellCommand = fc.oneof(
  fc.array(shellPiece, { minLength: 1, maxLength: 25 }).map((p) => p.join(' ')),
  fc.array(shellPiece, { minLength: 1, maxLength: 25 }).map((p) => p.join('')),
  fc.string({ unit: 'grapheme', minLength: 1, maxLength: 200 }),
  fc.string({ unit: 'binary', minLength: 1, maxLength: 200 }),
);

const action = fc.oneof(
  shellCommand.map((command) => ({ type: 'shell', command })),
  fc.record({ type: fc.constant('tool'), name: fc.string({ maxLength: 40 }), arguments: fc.dictionary(fc.string({ maxLength: 12 }), fc.jsonValue({ maxDepth: 4 }), { maxKeys: 6 }) }),
  fc.record({ type: fc.constant('sql'), query: fc.oneof(fc.string({ maxLength: 200 }), fc.constantFrom('DROP TABLE users;', 'SELECT * FROM t WHERE a = 1', "SELECT ' FROM", 'DELETE FROM x WHERE')) }),
  fc.record({ type: fc.constant('web'), element: fc.string({ maxLength: 40 }), operation: fc.string({ maxLength: 20 }) }),
  fc.record({ type: fc.constant('text'), content: fc.string({ maxLength: 300 }) }),
  fc.record({ type: fc.string({ maxLength: 10 }) }),
  fc.jsonValue({ maxDepth: 3 }),
);

const requestBody = fc.oneof(
  // shaped like an action request, valid or nearly so
  { weight: 6, arbitrary: fc.record({ request: fc.oneof(fc.string({ maxLength: 200 }), fc.constant('tidy up the project'), fc.integer()), action }, { requiredKeys: [] }).map((o) => JSON.stringify(o)) },
  // arbitrary JSON
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 6 }).map((v) => JSON.stringify(v)) },
  // arbitrary text, often not JSON
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 500 }) },
  // deep nesting
  { weight: 1, arbitrary: fc.integer({ min: 10, max: 50_000 }).map((n) => '['.repeat(n) + ']'.repeat(n)) },
  { weight: 1, arbitrary: fc.integer({ min: 10, max: 5_000 }).map((n) => `{"request":"x","action":{"type":"tool","name":"t","arguments":${'{"a":'.repeat(n)}1${'}'.repeat(n)}}}`) },
);

// raw bytes, mostly invalid UTF-8
const rawBody = fc.uint8Array({ minLength: 1, maxLength: 600 }).map((b) => Buffer.from(b));

/** What every answer must satisfy, whatever was sent. */
function checkAnswer(sent: string | Buffer, r: RawResponse): void {
  expect([200, 400, 413, 415]).toContain(r.status);
  expect(r.json, `answer is JSON (${r.status})`).toBeTypeOf('object');
  if (r.status !== 200) {
    const err = (r.json as { error: { code: string; message: string } }).error;
    expect(err.code).toMatch(/^[A-Z_]+$/);
    expect(err.message.length).toBeGreaterThan(5);
    return;
  }
  // a 200 only for a body that is a valid request, and never an allow for an action that did not parse
  let valid = true;
  try {
    parseActionRequest(JSON.parse(typeof sent === 'string' ? sent : new TextDecoder('utf-8', { fatal: true }).decode(sent)));
  } catch {
    valid = false;
  }
  expect(valid, `accepted an invalid request: ${String(sent).slice(0, 200)}`).toBe(true);
  const a = r.json as { decision: string; verdict: Verdict };
  expect(['allow', 'deny', 'ask']).toContain(a.decision);
  if (a.verdict.facts.parseError || a.verdict.error) expect(a.decision).not.toBe('allow');
}

describe('intake under hostile input', () => {
  it('answers thousands of generated bodies with a verdict or a clear error, never an allow on a parse failure', async () => {
    let answered = 0;
    await fc.assert(
      fc.asyncProperty(fc.oneof({ weight: 5, arbitrary: requestBody }, { weight: 1, arbitrary: rawBody }), async (body) => {
        const r = await postAction(server.url, token, body, '?wait=0&full=1');
        checkAnswer(body, r);
        answered++;
      }),
      { numRuns: 2500, seed: 20261122 },
    );
    expect(answered).toBe(2500);
    expect((await send(`${server.url}/v1/health`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
  });

  it('parses thousands of generated shell commands without crashing, and never allows one it could not parse', async () => {
    let parseFailures = 0;
    await fc.assert(
      fc.asyncProperty(shellCommand, async (command) => {
        const r = await postAction(server.url, token, { request: 'tidy up the project', action: { type: 'shell', command } }, '?wait=0&full=1');
        checkAnswer(JSON.stringify({ request: 'tidy up the project', action: { type: 'shell', command } }), r);
        if (r.status === 200 && (r.json as { verdict: Verdict }).verdict.facts.parseError) parseFailures++;
      }),
      { numRuns: 1000, seed: 7 },
    );
    // the generator does reach the parser's failure path
    expect(parseFailures).toBeGreaterThan(10);
  });

  it('answers huge bodies and floods of headers with a clear error and stays up', async () => {
    const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const huge = JSON.stringify({ request: 'x', action: { type: 'shell', command: 'a'.repeat(3 << 20) } });
    const tooBig = await send(`${server.url}/v1/actions`, { headers: auth, body: huge + ' '.repeat(2 << 20) });
    expect(tooBig.status).toBe(413);
    const longField = await postAction(server.url, token, { request: 'x', action: { type: 'shell', command: 'echo ' + 'a'.repeat((1 << 20) + 10) } });
    expect(longField.status).toBe(400);
    expect((longField.json as { error: { field: string } }).error.field).toBe('action.command');
    const manyHeaders: Record<string, string> = { ...auth };
    for (let i = 0; i < 3000; i++) manyHeaders[`x-h${i}`] = 'v'.repeat(20);
    const flooded = await send(`${server.url}/v1/actions`, { headers: manyHeaders, body: '{}' }).catch((e: Error) => ({ status: 0, text: e.message }) as RawResponse);
    expect([400, 431, 0]).toContain(flooded.status);
    expect((await send(`${server.url}/v1/health`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
  });
});
