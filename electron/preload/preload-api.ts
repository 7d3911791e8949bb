/**
 * The renderer's API object as the Electron preload builds it: exactly one function per contract
 * method plus `on`, over two narrow functions (invoke a `warden:` channel, listen to events). It
 * never hands out ipcRenderer itself. Free of 'electron' so it is tested under Node.
 */
import { EVENT_NAMES, IPC_PREFIX, METHOD_NAMES, type EventName, type WardenApi, type WireEvent } from '../../shared/contract.js';

/** The envelope main answers with (see electron/main/ipc-wiring.ts). */
type Envelope = { ok: true; result: unknown } | { ok: false; error: { code: string; message: string; field?: string } };

/** An error from main, keeping the engine's code and field. */
export interface ApiErrorLike extends Error {
  code: string;
  field?: string;
}

function toError(e: { code: string; message: string; field?: string }): ApiErrorLike {
  const err = new Error(e.message) as ApiErrorLike;
  err.name = 'ApiError';
  err.code = e.code;
  if (e.field !== undefined) err.field = e.field;
  return err;
}

/** Builds the API from `invoke(channel, params)` and `listen(fn)` (which returns its unsubscribe). */
export function buildPreloadApi(invoke: (channel: string, params: unknown) => Promise<unknown>, listen: (fn: (msg: WireEvent) => void) => () => void): WardenApi {
  const api: Record<string, unknown> = {};
  for (const method of METHOD_NAMES) {
    api[method] = async (params: unknown) => {
      const env = (await invoke(`${IPC_PREFIX}${method}`, params ?? {})) as Envelope;
      if (!env || typeof env !== 'object' || !('ok' in env)) throw toError({ code: 'INTERNAL', message: `no answer from ${method}` });
      if (!env.ok) throw toError(env.error);
      return env.result;
    };
  }
  api['on'] = (event: EventName, fn: (payload: unknown) => void) => {
    if (!(EVENT_NAMES as string[]).includes(event)) throw new Error(`unknown event ${String(event)}`);
    return listen((msg) => {
      if (msg.event === event) fn(msg.payload);
    });
  };
  return Object.freeze(api) as unknown as WardenApi;
}
