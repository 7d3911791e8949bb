/**
 * The agent intake API: HTTP on loopback with the install's token. An agent posts an action and
 * gets the verdict (waiting for a human on ask, denied when nobody decides in time); consoles
 * and scripts follow every verdict as a stream. Every refusal and failure is a JSON error with a
 * code; nothing here ever turns an unreadable request into an allow.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { EngineError, toErrorInfo } from '../../../shared/errors.js';
import type { ReviewDecision, Verdict } from '../../../shared/types.js';
import type { Engine } from '../../engine/engine.js';
import type { Log } from '../../engine/ports.js';
import { submitAction } from './answer.js';
import { intakeJsonSchemas } from './schema.js';
import { tokenMatches } from './token.js';

/** How the intake behaves. */
export interface IntakeOptions {
  token: string;
  /** Longest wait for a human on ask (default 120 s); nobody deciding is a deny. */
  askTimeoutMs?: number;
  /** Largest request body (default 4 MiB: an action's fields may hold 1 MiB each). */
  maxBodyBytes?: number;
  /** Deepest JSON nesting accepted in a body (default 64). */
  maxDepth?: number;
  /** Origins allowed besides none (browsers send one; agents do not). */
  allowedOrigins?: string[];
  log?: Log;
}

/** A running intake server. */
export interface IntakeServer {
  url: string;
  port: number;
  server: Server;
  close(): Promise<void>;
}

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

/** True for an address a loopback interface carries. */
export function isLoopbackAddress(addr: string | undefined): boolean {
  if (!addr) return false;
  return LOOPBACK.has(addr) || /^(::ffff:)?127\.\d+\.\d+\.\d+$/.test(addr);
}

/** True for a host name that only ever means this machine. */
export function isLoopbackHost(host: string): boolean {
  return host === 'localhost' || isLoopbackAddress(host.replace(/^\[|\]$/g, ''));
}

class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly field?: string,
  ) {
    super(message);
  }
}

const STATUS_OF: Record<string, number> = { BAD_INPUT: 400, NOT_FOUND: 404, CONFLICT: 409, TIMEOUT: 504, STORE_FAILED: 503 };

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text), 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' });
  res.end(text);
}

function sendError(res: ServerResponse, e: unknown): void {
  if (e instanceof HttpError) {
    sendJson(res, e.status, { error: { code: e.code, message: e.message, ...(e.field ? { field: e.field } : {}) } });
    return;
  }
  const info = toErrorInfo(e);
  sendJson(res, STATUS_OF[info.code] ?? 500, { error: info });
}

/** The depth of a parsed JSON value, walked without recursion (a deep body must not overflow the stack). */
function depthOf(value: unknown, limit: number): number {
  let max = 0;
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length) {
    const [v, d] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (d > max) max = d;
    if (max > limit) return max;
    for (const child of Array.isArray(v) ? v : Object.values(v as object)) stack.push([child, d + 1]);
  }
  return max;
}

const decoder = new TextDecoder('utf-8', { fatal: true });

/** Reads and parses a JSON body within the limits; every failure is a 4xx HttpError. */
function readJsonBody(req: IncomingMessage, maxBytes: number, maxDepth: number): Promise<unknown> {
  const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/json') return Promise.reject(new HttpError(415, 'UNSUPPORTED_MEDIA_TYPE', `send the action as application/json, not ${type || 'no content type'}`, 'content-type'));
  const declared = Number(req.headers['content-length'] ?? NaN);
  if (Number.isFinite(declared) && declared > maxBytes) return Promise.reject(new HttpError(413, 'PAYLOAD_TOO_LARGE', `the body is ${declared} bytes; the limit is ${maxBytes}`, 'body'));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let failed = false;
    req.on('data', (c: Buffer) => {
      if (failed) return;
      size += c.length;
      if (size > maxBytes) {
        failed = true;
        chunks.length = 0;
        reject(new HttpError(413, 'PAYLOAD_TOO_LARGE', `the body exceeds ${maxBytes} bytes`, 'body'));
        return;
      }
      chunks.push(c);
    });
    req.on('error', (e) => {
      if (!failed) reject(new HttpError(400, 'BAD_INPUT', `the body could not be read: ${e.message}`, 'body'));
      failed = true;
    });
    req.on('end', () => {
      if (failed) return;
      let text: string;
      try {
        text = decoder.decode(Buffer.concat(chunks));
      } catch {
        reject(new HttpError(400, 'BAD_INPUT', 'the body is not valid UTF-8', 'body'));
        return;
      }
      if (text.trim() === '') return reject(new HttpError(400, 'BAD_INPUT', 'the body is empty; send an action request as JSON', 'body'));
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch (e) {
        reject(new HttpError(400, 'BAD_INPUT', `the body is not valid JSON: ${(e as Error).message.slice(0, 200)}`, 'body'));
        return;
      }
      if (depthOf(value, maxDepth) > maxDepth) return reject(new HttpError(400, 'BAD_INPUT', `the body nests deeper than ${maxDepth} levels`, 'body'));
      resolve(value);
    });
  });
}

function bearer(req: IncomingMessage): string | undefined {
  const auth = req.headers['authorization'];
  if (typeof auth === 'string' && /^Bearer\s+/i.test(auth)) return auth.replace(/^Bearer\s+/i, '').trim();
  const h = req.headers['x-warden-token'];
  return typeof h === 'string' ? h.trim() : undefined;
}

/** What a stream subscriber sees of a verdict unless it asks for everything. */
function verdictSummary(v: Verdict): Record<string, unknown> {
  const a = v.request.action;
  const what = a.type === 'shell' ? a.command : a.type === 'tool' ? a.name : a.type === 'sql' ? a.query : a.type === 'web' ? `${a.operation} ${a.element}` : a.content;
  return { id: v.id, at: v.at, decision: v.decision, path: v.path, reason: v.reason, kind: a.type, action: what.slice(0, 500), agent: v.request.context?.agent, session: v.request.context?.session };
}

/** A request handler (usable with any node:http server) plus the cleanup of its streams. */
export function createIntakeHandler(engine: Engine, opts: IntakeOptions): { handle: (req: IncomingMessage, res: ServerResponse) => void; close: () => void } {
  const askTimeoutMs = opts.askTimeoutMs ?? 120_000;
  const maxBody = opts.maxBodyBytes ?? 4 << 20;
  const maxDepth = opts.maxDepth ?? 64;
  const origins = new Set(opts.allowedOrigins ?? []);
  const streams = new Set<ServerResponse>();

  const authorise = (req: IncomingMessage): void => {
    if (!isLoopbackAddress(req.socket.remoteAddress)) throw new HttpError(403, 'FORBIDDEN', `the intake only answers this machine (loopback), not ${req.socket.remoteAddress ?? 'an unknown address'}`);
    // a page on another site that resolves its own name to 127.0.0.1 still sends its own Host
    const host = (req.headers.host ?? '').replace(/:\d+$/, '');
    if (!isLoopbackHost(host)) throw new HttpError(403, 'FORBIDDEN', `Host ${req.headers.host ?? '(none)'} is not this machine`, 'host');
    const origin = req.headers.origin;
    if (origin !== undefined && !origins.has(origin)) throw new HttpError(403, 'FORBIDDEN', `requests from origin ${origin} are refused`, 'origin');
    if (!tokenMatches(bearer(req), opts.token)) throw new HttpError(401, 'UNAUTHORIZED', 'a valid intake token is required (Authorization: Bearer <token>; the token is in the data dir, file intake-token)', 'authorization');
  };

  const stream = (req: IncomingMessage, res: ServerResponse, url: URL): void => {
    const ndjson = url.searchParams.get('format') === 'ndjson';
    const full = url.searchParams.get('full') === '1';
    res.writeHead(200, { 'content-type': ndjson ? 'application/x-ndjson' : 'text/event-stream', 'cache-control': 'no-store', connection: 'keep-alive', 'x-content-type-options': 'nosniff' });
    const send = (event: string, payload: unknown): void => {
      res.write(ndjson ? JSON.stringify({ event, payload }) + '\n' : `event: ${event}\ndata: ${JSON.stringify(payload)}\n\n`);
    };
    // headers out now: a subscriber knows it is connected before the first verdict
    res.flushHeaders();
    if (!ndjson) res.write(': warden verdict stream\n\n');
    const offVerdict = engine.on('verdict.created', (v: Verdict) => send('verdict', full ? v : verdictSummary(v)));
    const offReview = engine.on('review.decided', (r: ReviewDecision) => send('review', r));
    const beat = setInterval(() => res.write(ndjson ? '\n' : ': keep-alive\n\n'), 15_000);
    streams.add(res);
    const end = (): void => {
      offVerdict();
      offReview();
      clearInterval(beat);
      streams.delete(res);
    };
    req.on('close', end);
    res.on('close', end);
  };

  const route = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    authorise(req);
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const path = url.pathname.replace(/\/+$/, '') || '/';
    const only = (method: string): void => {
      if (req.method !== method) throw new HttpError(405, 'METHOD_NOT_ALLOWED', `${path} takes ${method}, not ${req.method}`);
    };
    if (path === '/v1/actions') {
      only('POST');
      const body = await readJsonBody(req, maxBody, maxDepth);
      const waitParam = url.searchParams.get('wait');
      const wait = waitParam === null || !['0', 'false', 'no'].includes(waitParam);
      const t = url.searchParams.get('timeoutMs');
      const asked = t === null ? askTimeoutMs : Number(t);
      if (!Number.isInteger(asked) || asked < 0) throw new HttpError(400, 'BAD_INPUT', `timeoutMs must be a whole number of milliseconds, not ${t}`, 'timeoutMs');
      // the server's own limit wins: no client keeps a human-wait open longer than it allows
      const timeoutMs = Math.min(asked, askTimeoutMs);
      const controller = new AbortController();
      // the agent gave up: stop waiting for a human on its behalf
      res.on('close', () => controller.abort());
      const answer = await submitAction(engine, body, { wait, timeoutMs, full: url.searchParams.get('full') === '1', signal: controller.signal });
      sendJson(res, 200, answer);
      return;
    }
    if (path.startsWith('/v1/verdicts/')) {
      only('GET');
      sendJson(res, 200, engine.getVerdict(decodeURIComponent(path.slice('/v1/verdicts/'.length))));
      return;
    }
    if (path === '/v1/stream') {
      only('GET');
      stream(req, res, url);
      return;
    }
    if (path === '/v1/schema') {
      only('GET');
      sendJson(res, 200, intakeJsonSchemas());
      return;
    }
    if (path === '/v1/health') {
      only('GET');
      sendJson(res, 200, { ok: true, store: engine.storePath });
      return;
    }
    throw new HttpError(404, 'NOT_FOUND', `no endpoint ${req.method} ${path}; see GET /v1/schema and docs/intake.md`);
  };

  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    route(req, res).catch((e: unknown) => {
      if (!(e instanceof HttpError) && !(e instanceof EngineError)) opts.log?.error('intake request failed', { url: req.url, ...toErrorInfo(e) });
      // a refused body is not read further; close the connection once the answer is out
      if (e instanceof HttpError && (e.status === 413 || e.status === 415)) res.setHeader('connection', 'close');
      sendError(res, e);
    });
  };
  const close = (): void => {
    for (const s of streams) s.end();
    streams.clear();
  };
  return { handle, close };
}

/** Starts the intake on a loopback address (127.0.0.1 unless another loopback host is given). */
export async function startIntakeServer(engine: Engine, opts: IntakeOptions & { port?: number; host?: string }): Promise<IntakeServer> {
  const host = opts.host ?? '127.0.0.1';
  if (!isLoopbackHost(host)) throw new EngineError('BAD_INPUT', `the intake listens on loopback only; ${host} is not a loopback address`, 'host');
  const { handle, close } = createIntakeHandler(engine, opts);
  const server = createServer({ requestTimeout: 60_000, headersTimeout: 20_000 }, handle);
  server.on('clientError', (_err, socket) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\ncontent-type: application/json\r\nconnection: close\r\n\r\n{"error":{"code":"BAD_INPUT","message":"malformed HTTP request"}}');
    else socket.destroy();
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (e: NodeJS.ErrnoException) => reject(new EngineError('BAD_INPUT', `cannot listen on ${host}:${opts.port ?? 0}: ${e.message}`, 'port')));
    server.listen(opts.port ?? 0, host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const shown = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${shown}:${port}`,
    port,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        close();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
