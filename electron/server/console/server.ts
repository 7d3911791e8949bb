/**
 * The headless console: the built renderer over HTTP and the console contract over a WebSocket,
 * on 127.0.0.1 only, behind the install's console token.
 *
 * Starting it from a test or a script:
 *
 * ```ts
 * const engine = await openEngine({ dataDir });           // WARDEN_HOME-style temp dir
 * const server = await startConsoleServer({ engine, token: 'test-token', port: 0 });
 * await page.goto(server.url);                            // http://127.0.0.1:PORT/?token=...
 * // WebSocket clients: new WebSocket(`ws://127.0.0.1:${server.port}/ws?token=${server.token}`)
 * await server.close();                                   // then engine.close()
 * ```
 *
 * Without `token`, the install's token is read from (or created in) the engine's data dir (an
 * in-memory engine gets a fresh token for this run). `staticDir` defaults to renderer/dist; when
 * it holds no index.html, the page says how to build it. Given an engine, the server also polls
 * the store so verdicts recorded by other processes (`warden check`) reach the page. `close()`
 * leaves the engine open: whoever opened it closes it.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { createReadStream, existsSync, statSync } from 'node:fs';
import { dirname, extname, join, normalize, resolve, sep } from 'node:path';
import { randomBytes } from 'node:crypto';
import { WebSocketServer, type WebSocket } from 'ws';
import { EVENT_NAMES, type WireEvent, type WireRequest, type WireResponse } from '../../../shared/contract.js';
import { toErrorInfo } from '../../../shared/errors.js';
import type { Engine } from '../../engine/engine.js';
import type { Log } from '../../engine/ports.js';
import { PROJECT_ROOT, defaultDataDir } from '../../engine/config.js';
import { createHandlers, type ConsoleHandlers } from '../../engine/api/handlers.js';
import { tokenMatches } from '../intake/token.js';
import { loadOrCreateConsoleToken } from './console-token.js';

/** Options of {@link startConsoleServer}; give an engine, or handlers built over one. */
export interface ConsoleServerOptions {
  engine?: Engine;
  handlers?: ConsoleHandlers;
  /** 0 or absent: any free port. */
  port?: number;
  /** Only loopback is ever bound. */
  host?: '127.0.0.1';
  token?: string;
  staticDir?: string;
  log?: Log;
  /** Poll the store for verdicts other processes record (default true when an engine is given). */
  watchStore?: boolean;
}

/** A running console. */
export interface ConsoleServer {
  /** `http://127.0.0.1:PORT/?token=TOKEN` */
  url: string;
  token: string;
  port: number;
  close(): Promise<void>;
}

const MAX_FRAME = 64 << 20;
const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.map': 'application/json',
};

/** The strict content security policy of the console page. */
export function consoleCsp(port: number): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    `connect-src 'self' ws://127.0.0.1:${port} ws://localhost:${port}`,
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
    "form-action 'none'",
  ].join('; ');
}

/** Starts the console on 127.0.0.1; resolves once it listens. */
export async function startConsoleServer(opts: ConsoleServerOptions): Promise<ConsoleServer> {
  if (!opts.handlers && !opts.engine) throw new Error('startConsoleServer needs an engine or handlers');
  const ownHandlers = !opts.handlers;
  const handlers = opts.handlers ?? createHandlers({ engine: opts.engine!, ...(opts.log ? { log: opts.log } : {}) });
  const token = opts.token ?? defaultToken(opts.engine);
  const staticDir = resolve(opts.staticDir ?? join(PROJECT_ROOT, 'renderer', 'dist'));
  const log = opts.log;
  let port = 0;

  const allowedHosts = (): Set<string> => new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
  const allowedOrigins = (): Set<string> => new Set([`http://127.0.0.1:${port}`, `http://localhost:${port}`]);

  const http = createServer((req, res) => {
    // a foreign Host header means DNS rebinding: another site's name resolving to 127.0.0.1
    if (!allowedHosts().has(req.headers.host ?? '')) return plain(res, 421, 'wrong host');
    if (req.method !== 'GET' && req.method !== 'HEAD') return plain(res, 405, 'method not allowed');
    serveStatic(req, res, staticDir, port);
  });

  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_FRAME });
  const sockets = new Set<Socket>();
  http.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });

  http.on('upgrade', (req: IncomingMessage, socket: Socket, head: Buffer) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const refuse = (status: number, why: string): void => {
      socket.end(`HTTP/1.1 ${status} ${why}\r\nConnection: close\r\nContent-Type: text/plain\r\nContent-Length: ${Buffer.byteLength(why)}\r\n\r\n${why}`);
    };
    if (url.pathname !== '/ws') return refuse(404, 'not found');
    if (!allowedHosts().has(req.headers.host ?? '')) return refuse(421, 'wrong host');
    const origin = req.headers.origin;
    // browsers always send Origin; a page from any other origin must not drive the console
    if (origin !== undefined && !allowedOrigins().has(origin)) return refuse(403, 'foreign origin');
    if (!tokenMatches(url.searchParams.get('token') ?? undefined, token)) return refuse(401, 'missing or wrong token');
    wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req));
  });

  const clients = new Set<WebSocket>();
  wss.on('connection', (ws: WebSocket) => {
    clients.add(ws);
    ws.on('close', () => clients.delete(ws));
    ws.on('error', () => clients.delete(ws));
    ws.on('message', (data, isBinary) => {
      if (isBinary) return send(ws, { id: 0, error: { code: 'BAD_INPUT', message: 'frames must be JSON text', field: 'frame' } });
      let msg: Partial<WireRequest>;
      try {
        msg = JSON.parse(data.toString()) as Partial<WireRequest>;
      } catch {
        return send(ws, { id: 0, error: { code: 'BAD_INPUT', message: 'a frame is not valid JSON', field: 'frame' } });
      }
      const id = typeof msg?.id === 'number' && Number.isSafeInteger(msg.id) ? msg.id : 0;
      if (id === 0) return send(ws, { id: 0, error: { code: 'BAD_INPUT', message: 'a request needs a positive integer id', field: 'id' } });
      handlers.call(String(msg.method), msg.params).then(
        (result) => send(ws, { id, result: result ?? null }),
        (e: unknown) => {
          const info = toErrorInfo(e);
          if (info.code === 'INTERNAL') log?.error('console method failed', { method: String(msg.method), ...info });
          send(ws, { id, error: info });
        },
      );
    });
  });

  const offs = EVENT_NAMES.map((event) =>
    handlers.events.on(event, (payload) => {
      if (clients.size === 0) return;
      const frame = JSON.stringify({ event, payload } satisfies WireEvent);
      for (const ws of clients) if (ws.readyState === ws.OPEN) ws.send(frame);
    }),
  );
  const stopWatch = (opts.watchStore ?? opts.engine !== undefined) ? handlers.watchStore() : undefined;

  await new Promise<void>((resolveListen, reject) => {
    http.once('error', reject);
    http.listen(opts.port ?? 0, '127.0.0.1', () => {
      http.off('error', reject);
      resolveListen();
    });
  });
  port = (http.address() as AddressInfo).port;

  return {
    url: `http://127.0.0.1:${port}/?token=${token}`,
    token,
    port,
    async close() {
      stopWatch?.();
      for (const off of offs) off();
      if (ownHandlers) handlers.close();
      for (const ws of clients) ws.terminate();
      await new Promise<void>((r) => wss.close(() => r()));
      const closed = new Promise<void>((r) => http.close(() => r()));
      for (const s of sockets) s.destroy();
      await closed;
    },
  };
}

/** The token beside the engine's store; an in-memory engine gets one for this run only. */
function defaultToken(engine: Engine | undefined): string {
  if (!engine) return loadOrCreateConsoleToken(defaultDataDir());
  if (engine.storePath === ':memory:') return randomBytes(32).toString('hex');
  return loadOrCreateConsoleToken(dirname(engine.storePath));
}

function send(ws: WebSocket, msg: WireResponse): void {
  if (ws.readyState !== ws.OPEN) return;
  ws.send(JSON.stringify(msg, (_k, v: unknown) => (typeof v === 'number' && !Number.isFinite(v) ? null : v)));
}

function plain(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', 'X-Content-Type-Options': 'nosniff', 'Cache-Control': 'no-store' });
  res.end(text + '\n');
}

function securityHeaders(port: number): Record<string, string> {
  return {
    'Content-Security-Policy': consoleCsp(port),
    'X-Content-Type-Options': 'nosniff',
    'X-Frame-Options': 'DENY',
    // the page URL carries the token: never send it anywhere else
    'Referrer-Policy': 'no-referrer',
    'Cross-Origin-Opener-Policy': 'same-origin',
    'Cross-Origin-Resource-Policy': 'same-origin',
  };
}

function serveStatic(req: IncomingMessage, res: ServerResponse, root: string, port: number): void {
  const index = join(root, 'index.html');
  if (!existsSync(index)) {
    res.writeHead(503, { ...securityHeaders(port), 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' });
    res.end('<!doctype html><title>Warden console</title><p>The console is not built yet: run <code>npm run build:renderer</code>, then reload this page.</p>\n');
    return;
  }
  let pathname: string;
  try {
    pathname = decodeURIComponent(new URL(req.url ?? '/', 'http://127.0.0.1').pathname);
  } catch {
    return plain(res, 400, 'bad path');
  }
  const candidate = normalize(join(root, pathname));
  let file = index;
  if (candidate.startsWith(root + sep) && existsSync(candidate) && statSync(candidate).isFile()) file = candidate;
  else if (extname(pathname) !== '') return plain(res, 404, 'not found');
  const isHtml = file.endsWith('.html');
  res.writeHead(200, {
    ...securityHeaders(port),
    'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream',
    'Cache-Control': isHtml ? 'no-store' : 'max-age=3600',
  });
  if (req.method === 'HEAD') return void res.end();
  createReadStream(file).pipe(res);
}
