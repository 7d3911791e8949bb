/**
 * A minimal Node client of the console's WebSocket, speaking the wire format of shared/contract.ts,
 * and the same call/on shape over the handlers directly, so one suite runs against both.
 */
import WebSocket from 'ws';
import type { EventName, Events, WireEvent, WireRequest, WireResponse } from '../../shared/contract.js';
import type { ConsoleHandlers } from '../../electron/engine/api/handlers.js';

/** What the contract suite drives: a call by name and event subscription. */
export interface ContractClient {
  call(method: string, params?: unknown): Promise<any>;
  on<E extends EventName>(event: E, fn: (payload: Events[E]) => void): () => void;
  close(): Promise<void>;
}

/** An error as it crossed the transport. */
export class WireError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly field?: string,
  ) {
    super(message);
  }
}

/** Calls the handlers in-process (still through their validation). */
export function directClient(h: ConsoleHandlers): ContractClient {
  return {
    call: async (method, params) => {
      try {
        return await h.call(method, params);
      } catch (e) {
        const o = e as { code: string; message: string; field?: string };
        throw new WireError(o.code, o.message, o.field);
      }
    },
    on: (event, fn) => h.events.on(event, fn),
    close: async () => undefined,
  };
}

/** Opens `ws://127.0.0.1:PORT/ws?token=...` and resolves once connected. */
export async function wsClient(url: string, headers: Record<string, string> = {}): Promise<ContractClient> {
  const ws = new WebSocket(url, { headers });
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
    ws.once('unexpected-response', (_req, res) => reject(new WireError(`HTTP_${res.statusCode}`, `refused with ${res.statusCode}`)));
  });
  let next = 1;
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: unknown) => void }>();
  const listeners = new Map<string, Set<(p: unknown) => void>>();
  ws.on('message', (data) => {
    const msg = JSON.parse(data.toString()) as WireResponse | WireEvent;
    if ('event' in msg) {
      for (const fn of listeners.get(msg.event) ?? []) fn(msg.payload);
      return;
    }
    const p = pending.get(msg.id);
    if (!p) return;
    pending.delete(msg.id);
    if ('error' in msg) p.reject(new WireError(msg.error.code, msg.error.message, msg.error.field));
    else p.resolve(msg.result);
  });
  return {
    call(method, params) {
      const id = next++;
      const frame: WireRequest = { id, method: method as WireRequest['method'], params: params ?? {} };
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve, reject });
        ws.send(JSON.stringify(frame));
      });
    },
    on(event, fn) {
      const set = listeners.get(event) ?? new Set();
      listeners.set(event, set);
      set.add(fn as (p: unknown) => void);
      return () => set.delete(fn as (p: unknown) => void);
    },
    close: () =>
      new Promise<void>((resolve) => {
        if (ws.readyState === ws.CLOSED) return resolve();
        ws.once('close', () => resolve());
        ws.close();
      }),
  };
}
