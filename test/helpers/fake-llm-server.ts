/**
 * A local OpenAI-compatible chat server with scripted replies, for tests of the model-driven
 * roles. It speaks the real wire format (POST /v1/chat/completions, JSON body, `choices`,
 * `usage`), so the real `openai` client and the real adapter are exercised; only the model's
 * judgement is scripted. Replies can be slow, malformed, or HTTP errors.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One chat request as the server received it. */
export interface FakeChatRequest {
  model: string;
  messages: { role: string; content: string }[];
  body: Record<string, unknown>;
  /** The system message (where each role says who it is). */
  system: string;
  /** The last user message. */
  user: string;
}

/** What the server answers to one request. */
export interface FakeReply {
  /** The assistant message text. */
  content?: string;
  /** Shorthand: JSON.stringify(json) as the content. */
  json?: unknown;
  /** An HTTP error status instead of an answer. */
  status?: number;
  /** Wait this long before answering. */
  delayMs?: number;
  /** A raw response body (for bodies that are not even JSON). */
  raw?: string;
  usage?: { prompt_tokens: number; completion_tokens: number };
}

export type FakeScript = (req: FakeChatRequest, index: number) => FakeReply | Promise<FakeReply>;

/** A running fake endpoint. */
export interface FakeLlm {
  baseURL: string;
  requests: FakeChatRequest[];
  close(): Promise<void>;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function send(res: ServerResponse, status: number, body: string): void {
  if (res.destroyed) return;
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(body);
}

/** Starts the server on a free loopback port. */
export async function startFakeLlm(script: FakeScript): Promise<FakeLlm> {
  const requests: FakeChatRequest[] = [];
  const server = createServer((req, res) => {
    void (async () => {
      if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions')) return send(res, 404, JSON.stringify({ error: { message: `no route ${req.method} ${req.url}` } }));
      const body = JSON.parse(await readBody(req)) as Record<string, unknown>;
      const messages = (body['messages'] as { role: string; content: string }[]) ?? [];
      const chat: FakeChatRequest = {
        model: String(body['model']),
        messages,
        body,
        system: messages.find((m) => m.role === 'system')?.content ?? '',
        user: [...messages].reverse().find((m) => m.role === 'user')?.content ?? '',
      };
      const index = requests.length;
      requests.push(chat);
      let reply: FakeReply;
      try {
        reply = await script(chat, index);
      } catch (e) {
        return send(res, 500, JSON.stringify({ error: { message: `script failed: ${(e as Error).message}` } }));
      }
      if (reply.delayMs) await new Promise((r) => setTimeout(r, reply.delayMs));
      if (reply.status) return send(res, reply.status, JSON.stringify({ error: { message: `scripted HTTP ${reply.status}` } }));
      if (reply.raw !== undefined) return send(res, 200, reply.raw);
      const content = reply.content ?? JSON.stringify(reply.json ?? {});
      const usage = reply.usage ?? { prompt_tokens: Math.ceil(messages.reduce((n, m) => n + m.content.length, 0) / 4), completion_tokens: Math.ceil(content.length / 4) };
      send(
        res,
        200,
        JSON.stringify({
          id: `chatcmpl-${index}`,
          object: 'chat.completion',
          created: Math.floor(Date.now() / 1000),
          model: chat.model,
          choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
          usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens },
        }),
      );
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Routes by the role a system prompt names ("You are Warden's analyzer" -> 'analyzer'). */
export function roleOf(req: FakeChatRequest): string {
  return /You are Warden's ([a-z-]+)/.exec(req.system)?.[1] ?? 'unknown';
}
