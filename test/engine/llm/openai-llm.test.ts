import { describe, expect, it, afterEach } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OpenAiLlm, extractJson } from '../../../electron/engine/adapters/llm/openai-llm.js';
import { SqliteLlmCache } from '../../../electron/engine/adapters/llm/sqlite-llm-cache.js';
import { startFakeLlm, type FakeLlm, type FakeScript } from '../../helpers/fake-llm-server.js';

let server: FakeLlm | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function llmWith(script: FakeScript, extra: Partial<ConstructorParameters<typeof OpenAiLlm>[0]> = {}): Promise<OpenAiLlm> {
  server = await startFakeLlm(script);
  return new OpenAiLlm({ baseURL: server.baseURL, model: 'scripted', backoffMs: 10, ...extra });
}

const ask = { role: 'judge', system: "You are Warden's judge.", user: 'is ls safe?' };
const signal = (): AbortSignal => new AbortController().signal;

describe('JSON in a model answer', () => {
  it('takes a bare object, a fenced one and one inside prose', () => {
    expect(extractJson('{"a":1}')).toEqual({ value: { a: 1 }, repaired: false });
    expect(extractJson('Here you go:\n```json\n{"a": 2}\n```')?.value).toEqual({ a: 2 });
    expect(extractJson('I think {"decision": "deny"} is right.')?.value).toEqual({ decision: 'deny' });
  });

  it('repairs near-JSON and says so', () => {
    const r = extractJson("{'decision': 'allow', 'confidence': 0.9,}");
    expect(r).toEqual({ value: { decision: 'allow', confidence: 0.9 }, repaired: true });
    expect(extractJson('{"checks": [{"op": "keep", "id": "x"}')?.value).toEqual({ checks: [{ op: 'keep', id: 'x' }] });
  });

  it('rejects answers with no object in them', () => {
    expect(extractJson('I cannot help with that.')).toBeUndefined();
    expect(extractJson('[1, 2, 3]')).toBeUndefined();
  });
});

describe('OpenAiLlm against an OpenAI-compatible server', () => {
  it('returns the JSON, its token use and its cost, and asks for JSON output', async () => {
    const llm = await llmWith(() => ({ json: { decision: 'allow' }, usage: { prompt_tokens: 1000, completion_tokens: 200 } }), { prices: { prompt: 2, completion: 10 } });
    const r = await llm.completeJson(ask, signal());
    expect(r.json).toEqual({ decision: 'allow' });
    expect([r.promptTokens, r.completionTokens]).toEqual([1000, 200]);
    expect(r.costUsd).toBeCloseTo((1000 * 2 + 200 * 10) / 1e6, 10);
    expect(server!.requests[0]!.body['response_format']).toEqual({ type: 'json_object' });
    expect(server!.requests[0]!.messages.map((m) => m.role)).toEqual(['system', 'user']);
  });

  it('does not pay twice for an identical prompt, also after a restart with the disk cache', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'warden-llm-cache-')), 'c.db');
    let cache = new SqliteLlmCache(file);
    let llm = await llmWith(() => ({ json: { n: 1 } }), { cache });
    const first = await llm.completeJson(ask, signal());
    const second = await llm.completeJson(ask, signal());
    expect([first.cached, second.cached]).toEqual([false, true]);
    expect(second.costUsd).toBe(0);
    expect(server!.requests).toHaveLength(1);
    await llm.completeJson({ ...ask, user: 'is rm safe?' }, signal());
    expect(server!.requests).toHaveLength(2);
    cache.close();
    cache = new SqliteLlmCache(file);
    llm = new OpenAiLlm({ baseURL: server!.baseURL, model: 'scripted', cache });
    expect((await llm.completeJson(ask, signal())).cached).toBe(true);
    expect(server!.requests).toHaveLength(2);
    cache.close();
  });

  it('retries server errors and rate limits with backoff, then succeeds', async () => {
    const llm = await llmWith((_r, i) => (i === 0 ? { status: 503 } : i === 1 ? { status: 429 } : { json: { ok: true } }), { retries: 2 });
    expect((await llm.completeJson(ask, signal())).json).toEqual({ ok: true });
    expect(server!.requests).toHaveLength(3);
  });

  it('does not retry a request the server refuses, and fails with LLM_FAILED naming the status', async () => {
    const llm = await llmWith(() => ({ status: 400 }), { retries: 3 });
    await expect(llm.completeJson(ask, signal())).rejects.toMatchObject({ code: 'LLM_FAILED', message: expect.stringContaining('HTTP 400') });
    expect(server!.requests).toHaveLength(1);
  });

  it('gives up after its retries on a server that keeps failing', async () => {
    const llm = await llmWith(() => ({ status: 500 }), { retries: 1 });
    await expect(llm.completeJson(ask, signal())).rejects.toMatchObject({ code: 'LLM_FAILED', message: expect.stringContaining('2 attempt') });
    expect(server!.requests).toHaveLength(2);
  });

  it('times out a slow reply per attempt', async () => {
    const llm = await llmWith(() => ({ json: { late: true }, delayMs: 1500 }), { timeoutMs: 200, retries: 1 });
    const t0 = Date.now();
    await expect(llm.completeJson(ask, signal())).rejects.toMatchObject({ code: 'TIMEOUT' });
    expect(Date.now() - t0).toBeLessThan(1400);
    expect(server!.requests).toHaveLength(2);
  });

  it('stops at once when the verdict is cancelled', async () => {
    const llm = await llmWith(() => ({ json: {}, delayMs: 2000 }));
    const c = new AbortController();
    setTimeout(() => c.abort(), 100);
    await expect(llm.completeJson(ask, c.signal)).rejects.toMatchObject({ code: 'TIMEOUT' });
  });

  it('rejects an answer that is not JSON, and a body that is not a chat completion', async () => {
    let llm = await llmWith(() => ({ content: 'Sure! The command looks fine to me.' }));
    await expect(llm.completeJson(ask, signal())).rejects.toMatchObject({ code: 'LLM_FAILED', message: expect.stringContaining('JSON object') });
    await server!.close();
    llm = await llmWith(() => ({ raw: '<html>gateway error</html>' }), { retries: 0 });
    await expect(llm.completeJson(ask, signal())).rejects.toMatchObject({ code: expect.stringMatching(/LLM_FAILED/) });
  });

  it('can leave response_format out for servers that reject it', async () => {
    const llm = await llmWith(() => ({ json: { a: 1 } }), { jsonMode: false });
    await llm.completeJson(ask, signal());
    expect(server!.requests[0]!.body['response_format']).toBeUndefined();
  });
});
