import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { OpenAiEmbedder } from '../../../electron/engine/adapters/embed/openai-embedder.js';
import { createEmbedder } from '../../../electron/engine/adapters/embed/create-embedder.js';
import { embedderContract } from './embedder-contract.js';

const DIM = 8;

/** A deterministic, unnormalised vector for a text: what the local server answers. */
function vectorOf(text: string): number[] {
  const v = Array.from({ length: DIM }, (_, k) => k + 1);
  for (const [i, ch] of [...text].entries()) v[(i + ch.codePointAt(0)!) % DIM]! += ch.codePointAt(0)! % 13;
  return v;
}

/**
 * A local server speaking the /v1/embeddings format. The model name picks a behaviour: answer
 * normally (rows in reverse order, as the index field allows), fail with HTTP 500, answer too
 * slowly, or answer with wrong widths or too few rows.
 */
const requests: { model: string; input: string[]; encoding_format?: string; auth?: string }[] = [];
let server: Server;
let baseURL: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const parsed = JSON.parse(body) as { model: string; input: string | string[]; encoding_format?: string };
      const input = Array.isArray(parsed.input) ? parsed.input : [parsed.input];
      requests.push({ model: parsed.model, input, encoding_format: parsed.encoding_format, auth: req.headers.authorization });
      const reply = (status: number, payload: unknown): void => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(payload));
      };
      if (req.url !== '/v1/embeddings') return reply(404, { error: { message: 'no such route' } });
      switch (parsed.model) {
        case 'fail':
          return reply(500, { error: { message: 'model crashed', type: 'server_error' } });
        case 'denied':
          return reply(401, { error: { message: 'bad key', type: 'invalid_request_error' } });
        case 'slow':
          setTimeout(() => reply(200, { object: 'list', data: [] }), 2_000).unref();
          return;
        case 'wide':
          return reply(200, { object: 'list', data: input.map((t, index) => ({ object: 'embedding', index, embedding: [...vectorOf(t), 1] })) });
        case 'short':
          return reply(200, { object: 'list', data: [{ object: 'embedding', index: 0, embedding: vectorOf(input[0]!) }] });
        case 'zero':
          return reply(200, { object: 'list', data: input.map((_, index) => ({ object: 'embedding', index, embedding: new Array(DIM).fill(0) })) });
        default: {
          const data = input.map((t, index) => ({ object: 'embedding', index, embedding: vectorOf(t) })).reverse();
          return reply(200, { object: 'list', model: parsed.model, data, usage: { prompt_tokens: 1, total_tokens: 1 } });
        }
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const make = (model: string, extra: Partial<ConstructorParameters<typeof OpenAiEmbedder>[0]> = {}): OpenAiEmbedder =>
  new OpenAiEmbedder({ baseURL, model, dim: DIM, apiKey: 'k-test', timeoutMs: 500, maxRetries: 0, ...extra });

describe('OpenAiEmbedder', () => {
  let ok: OpenAiEmbedder;
  beforeAll(() => {
    ok = make('encoder');
  });

  it('asks for float vectors with the key, puts rows back in input order and scales them to unit length', async () => {
    requests.length = 0;
    const [a, b] = await ok.embed(['first text', 'second']);
    expect(requests[0]).toMatchObject({ model: 'encoder', input: ['first text', 'second'], encoding_format: 'float', auth: 'Bearer k-test' });
    const want = vectorOf('first text');
    const n = Math.hypot(...want);
    a!.forEach((x, k) => expect(x).toBeCloseTo(want[k]! / n, 6));
    expect(Math.hypot(...b!)).toBeCloseTo(1, 6);
  });

  it('splits long lists into requests of batchSize texts', async () => {
    requests.length = 0;
    const texts = Array.from({ length: 5 }, (_, i) => `text ${i}`);
    const out = await make('encoder', { batchSize: 2 }).embed(texts);
    expect(requests.map((r) => r.input.length)).toEqual([2, 2, 1]);
    expect(out).toHaveLength(5);
    const [last] = await ok.embed(['text 4']);
    expect(Array.from(out[4]!)).toEqual(Array.from(last!));
  });

  it('fails with EMBEDDER_FAILED on an error reply, naming the status', async () => {
    await expect(make('fail').embed(['x'])).rejects.toMatchObject({ code: 'EMBEDDER_FAILED', message: expect.stringContaining('HTTP 500') });
    await expect(make('denied').embed(['x'])).rejects.toMatchObject({ code: 'EMBEDDER_FAILED', message: expect.stringContaining('HTTP 401') });
  });

  it('fails with EMBEDDER_FAILED when the endpoint does not answer in time', async () => {
    const started = Date.now();
    await expect(make('slow', { timeoutMs: 200 }).embed(['x'])).rejects.toMatchObject({ code: 'EMBEDDER_FAILED', message: expect.stringContaining('timed out') });
    expect(Date.now() - started).toBeLessThan(1_500);
  });

  it('fails with EMBEDDER_FAILED on vectors of the wrong width, missing rows or zero vectors', async () => {
    await expect(make('wide').embed(['x'])).rejects.toMatchObject({ code: 'EMBEDDER_FAILED', message: expect.stringContaining('9-d') });
    await expect(make('short').embed(['x', 'y'])).rejects.toMatchObject({ code: 'EMBEDDER_FAILED', message: expect.stringContaining('1 vectors for 2') });
    await expect(make('zero').embed(['x'])).rejects.toMatchObject({ code: 'EMBEDDER_FAILED' });
  });

  it('fails with EMBEDDER_FAILED when nothing listens', async () => {
    const closed = new OpenAiEmbedder({ baseURL: 'http://127.0.0.1:9/v1', model: 'm', dim: DIM, maxRetries: 0, timeoutMs: 500 });
    await expect(closed.embed(['x'])).rejects.toMatchObject({ code: 'EMBEDDER_FAILED' });
  });

  it('refuses settings without a model or with a bad width as BAD_INPUT', () => {
    expect(() => new OpenAiEmbedder({ baseURL, model: '', dim: DIM })).toThrow(expect.objectContaining({ code: 'BAD_INPUT', field: 'model' }));
    expect(() => new OpenAiEmbedder({ baseURL, model: 'm', dim: 0 })).toThrow(expect.objectContaining({ code: 'BAD_INPUT', field: 'dim' }));
  });

  it('is what a config spec of kind openai builds', async () => {
    const fromSpec = await createEmbedder({ kind: 'openai', baseURL, model: 'encoder', dim: DIM, maxRetries: 0 });
    expect(fromSpec.id).toBe(ok.id);
    const [a] = await fromSpec.embed(['same text']);
    const [b] = await ok.embed(['same text']);
    expect(Array.from(a!)).toEqual(Array.from(b!));
  });

  describe('the Embedder contract', () => embedderContract(() => ok));
});
