/**
 * The console's API over the headless console's WebSocket: one request id per call, a map of
 * pending calls, events fanned out to subscribers, and a reconnect with backoff. The object it
 * returns has the same shape as the Electron preload's, so nothing above this file can tell them
 * apart.
 */
import { EVENT_NAMES, METHOD_NAMES, type EventName, type Events, type MethodName, type WardenApi, type WireEvent, type WireResponse } from '../../../shared/contract.js';

/** An error answered by the engine (or by the transport), keeping the engine's code and field. */
export class ApiError extends Error {
  readonly code: string;
  readonly field?: string;
  constructor(code: string, message: string, field?: string) {
    super(message);
    this.name = 'ApiError';
    this.code = code;
    if (field !== undefined) this.field = field;
  }
}

/** The few parts of the browser's WebSocket the client uses; tests may pass another implementation. */
export interface SocketLike {
  readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  onopen: ((ev: unknown) => void) | null;
  onclose: ((ev: { code: number; reason: string }) => void) | null;
  onerror: ((ev: unknown) => void) | null;
  onmessage: ((ev: { data: unknown }) => void) | null;
}

/** Options of {@link createWsApi}. */
export interface WsApiOptions {
  /** Opens a socket; defaults to the browser's WebSocket. */
  connect?: (url: string) => SocketLike;
  /** Longest wait between reconnect attempts, in ms. */
  maxBackoffMs?: number;
  /** Called when the connection opens or drops, so a shell can say so. */
  onConnection?: (state: 'open' | 'closed') => void;
}

/** A WebSocket-backed API object plus `close()` to stop reconnecting. */
export type WsApi = WardenApi & { close(): void };

const OPEN = 1;

/**
 * Creates the API for `url` (the console's `ws://host:port/ws` address) with `token`. Calls made
 * while the socket is down wait for the next connection; calls in flight when it drops fail with
 * code `DISCONNECTED`, since the server may or may not have run them.
 */
export function createWsApi(url: string, token: string, opts: WsApiOptions = {}): WsApi {
  const connect = opts.connect ?? ((u: string) => new WebSocket(u) as unknown as SocketLike);
  const maxBackoff = opts.maxBackoffMs ?? 5000;
  const address = `${url}${url.includes('?') ? '&' : '?'}token=${encodeURIComponent(token)}`;
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: unknown) => void }>();
  const queued: string[] = [];
  const listeners = new Map<EventName, Set<(payload: never) => void>>();
  let nextId = 1;
  let socket: SocketLike | null = null;
  let closed = false;
  let backoff = 250;
  let timer: ReturnType<typeof setTimeout> | null = null;

  const open = (): void => {
    if (closed) return;
    const s = connect(address);
    socket = s;
    s.onopen = () => {
      backoff = 250;
      opts.onConnection?.('open');
      for (const frame of queued.splice(0)) s.send(frame);
    };
    s.onmessage = (ev) => {
      if (typeof ev.data !== 'string') return;
      let msg: WireResponse | WireEvent;
      try {
        msg = JSON.parse(ev.data) as WireResponse | WireEvent;
      } catch {
        return;
      }
      if ('event' in msg) {
        for (const fn of listeners.get(msg.event) ?? []) fn(msg.payload as never);
        return;
      }
      const p = pending.get(msg.id);
      if (!p) return;
      pending.delete(msg.id);
      if ('error' in msg) p.reject(new ApiError(msg.error.code, msg.error.message, msg.error.field));
      else p.resolve(msg.result);
    };
    s.onerror = () => undefined;
    s.onclose = (ev) => {
      if (socket !== s) return;
      socket = null;
      opts.onConnection?.('closed');
      for (const [id, p] of pending) {
        pending.delete(id);
        p.reject(new ApiError('DISCONNECTED', `the connection to the console closed (${ev.code}${ev.reason ? `: ${ev.reason}` : ''}) before an answer came`));
      }
      if (closed) return;
      timer = setTimeout(open, backoff);
      backoff = Math.min(maxBackoff, backoff * 2);
    };
  };

  const call = (method: MethodName, params: unknown): Promise<unknown> => {
    if (closed) return Promise.reject(new ApiError('DISCONNECTED', 'the console connection was closed'));
    const id = nextId++;
    const frame = JSON.stringify({ id, method, params: params ?? {} });
    return new Promise((resolve, reject) => {
      pending.set(id, { resolve, reject });
      if (socket && socket.readyState === OPEN) socket.send(frame);
      else queued.push(frame);
    });
  };

  const api = {
    on<E extends EventName>(event: E, fn: (payload: Events[E]) => void): () => void {
      if (!EVENT_NAMES.includes(event)) throw new ApiError('BAD_INPUT', `unknown event ${String(event)}`, 'event');
      let set = listeners.get(event);
      if (!set) listeners.set(event, (set = new Set()));
      set.add(fn as (payload: never) => void);
      return () => {
        set.delete(fn as (payload: never) => void);
      };
    },
    close(): void {
      closed = true;
      if (timer) clearTimeout(timer);
      socket?.close(1000, 'closed by the console');
      socket = null;
      for (const [id, p] of pending) {
        pending.delete(id);
        p.reject(new ApiError('DISCONNECTED', 'the console connection was closed'));
      }
    },
  } as Record<string, unknown>;
  for (const m of METHOD_NAMES) api[m] = (params: unknown) => call(m, params);
  open();
  return api as WsApi;
}

/** The WebSocket address of the console that served this page. */
export function consoleSocketUrl(loc: { protocol: string; host: string }): string {
  return `${loc.protocol === 'https:' ? 'wss' : 'ws'}://${loc.host}/ws`;
}
