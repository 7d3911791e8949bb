/**
 * The IPC half of the Electron shell, kept free of 'electron' so it runs and is tested under plain
 * Node: one `warden:<method>` channel per contract method, every call checked for its channel
 * prefix and its sender (the app's own window and page), and engine events forwarded on
 * `warden:event`. Results and errors cross as an envelope, because Electron keeps only the
 * message of a rejected invoke and the console needs the error's code and field.
 */
import { EVENT_NAMES, IPC_PREFIX, METHOD_NAMES, isMethodName, type MethodName, type WireEvent } from '../../shared/contract.js';
import { toErrorInfo } from '../../shared/errors.js';
import type { HandlerEvents } from '../engine/api/handlers.js';

/** The channel of one method. */
export function channelFor(method: MethodName): string {
  return `${IPC_PREFIX}${method}`;
}

/** The channel engine events travel on, main to renderer. */
export const EVENT_CHANNEL = `${IPC_PREFIX}event`;

/** Every method's channel, in contract order. */
export const METHOD_CHANNELS: readonly string[] = METHOD_NAMES.map(channelFor);

/** The method a channel names, or undefined for anything that is not exactly `warden:<method>`. */
export function methodOfChannel(channel: string): MethodName | undefined {
  if (!channel.startsWith(IPC_PREFIX)) return undefined;
  const name = channel.slice(IPC_PREFIX.length);
  return isMethodName(name) ? name : undefined;
}

/** What an invoke carries about its sender (a subset of Electron's IpcMainInvokeEvent). */
export interface InvokeEventLike {
  sender: { id: number };
  senderFrame: { url: string; parent?: unknown } | null;
}

/** The part of Electron's ipcMain the shell uses. */
export interface IpcMainLike {
  handle(channel: string, listener: (event: InvokeEventLike, ...args: unknown[]) => unknown): void;
  removeHandler(channel: string): void;
}

/** The envelope every method answers with over IPC. */
export type IpcEnvelope = { ok: true; result: unknown } | { ok: false; error: { code: string; message: string; field?: string } };

/** Who may call: the app window's web contents, on the app's own page, from its top frame. */
export interface TrustedSender {
  /** The page the window loads, e.g. file:///…/renderer/dist/index.html. */
  pageUrl: string;
  /** The window's webContents id; calls from other contents are refused. */
  webContentsId(): number | undefined;
}

/** Whether an invoke comes from the app's own window and page. */
export function isTrustedSender(event: InvokeEventLike, trusted: TrustedSender): boolean {
  const frame = event.senderFrame;
  if (!frame || frame.parent) return false;
  const id = trusted.webContentsId();
  if (id === undefined || event.sender.id !== id) return false;
  let url: URL;
  let page: URL;
  try {
    url = new URL(frame.url);
    page = new URL(trusted.pageUrl);
  } catch {
    return false;
  }
  return url.protocol === page.protocol && url.host === page.host && url.pathname === page.pathname;
}

/**
 * Registers `channel` only when it carries the Warden prefix and names a contract method, as VS
 * Code's validated ipcMain does; every call is checked against the sender before it runs.
 */
export function validatedHandle(
  ipcMain: IpcMainLike,
  channel: string,
  trusted: TrustedSender,
  fn: (params: unknown) => Promise<unknown>,
): void {
  if (!methodOfChannel(channel)) throw new Error(`refusing to register IPC channel ${channel}: not ${IPC_PREFIX}<contract method>`);
  ipcMain.handle(channel, async (event, ...args): Promise<IpcEnvelope> => {
    if (!isTrustedSender(event, trusted)) return { ok: false, error: { code: 'FORBIDDEN', message: `refused ${channel}: the sender is not the Warden window` } };
    if (args.length > 1) return { ok: false, error: { code: 'BAD_INPUT', message: `${channel} takes one params object`, field: 'params' } };
    try {
      return { ok: true, result: await fn(args[0]) };
    } catch (e) {
      return { ok: false, error: toErrorInfo(e) };
    }
  });
}

/** What the wiring needs from the handlers: a validated call by name and the event stream. */
export interface CallableHandlers {
  call(method: string, params: unknown): Promise<unknown>;
  events: HandlerEvents;
}

/**
 * Wires every contract method to its channel and forwards every contract event through `send`.
 * Returns the function that removes it all again.
 */
export function registerIpcHandlers(ipcMain: IpcMainLike, handlers: CallableHandlers, trusted: TrustedSender, send: (channel: string, msg: WireEvent) => void): () => void {
  for (const method of METHOD_NAMES) validatedHandle(ipcMain, channelFor(method), trusted, (params) => handlers.call(method, params));
  const offs = EVENT_NAMES.map((event) => handlers.events.on(event, (payload) => send(EVENT_CHANNEL, { event, payload })));
  return () => {
    for (const off of offs) off();
    for (const ch of METHOD_CHANNELS) ipcMain.removeHandler(ch);
  };
}
