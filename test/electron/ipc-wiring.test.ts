/**
 * The Electron shell's IPC wiring under Node: the real handlers on a real engine, registered on
 * an ipcMain-like EventEmitter (Electron itself cannot run here), called through the preload's
 * API object exactly as the renderer calls it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventEmitter } from 'node:events';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { METHOD_NAMES, type WardenApi, type WireEvent } from '../../shared/contract.js';
import type { Verdict } from '../../shared/types.js';
import { openEngine } from '../../electron/engine/create-engine.js';
import type { Engine } from '../../electron/engine/engine.js';
import { createHandlers, type ConsoleHandlers } from '../../electron/engine/api/handlers.js';
import {
  EVENT_CHANNEL,
  METHOD_CHANNELS,
  methodOfChannel,
  registerIpcHandlers,
  validatedHandle,
  type InvokeEventLike,
  type IpcMainLike,
} from '../../electron/main/ipc-wiring.js';
import { buildPreloadApi } from '../../electron/preload/preload-api.js';

const PAGE = 'file:///opt/warden/renderer/dist/index.html';
const WINDOW_ID = 7;

/** A stand-in for Electron's ipcMain: handlers by channel, invoke rejects unknown channels as Electron does. */
class FakeIpcMain extends EventEmitter implements IpcMainLike {
  readonly handlers = new Map<string, (event: InvokeEventLike, ...args: unknown[]) => unknown>();
  handle(channel: string, listener: (event: InvokeEventLike, ...args: unknown[]) => unknown): void {
    if (this.handlers.has(channel)) throw new Error(`Attempted to register a second handler for '${channel}'`);
    this.handlers.set(channel, listener);
  }
  removeHandler(channel: string): void {
    this.handlers.delete(channel);
  }
  async invoke(event: InvokeEventLike, channel: string, ...args: unknown[]): Promise<unknown> {
    const h = this.handlers.get(channel);
    if (!h) throw new Error(`No handler registered for '${channel}'`);
    return h(event, ...args);
  }
}

const fromWindow: InvokeEventLike = { sender: { id: WINDOW_ID }, senderFrame: { url: `${PAGE}#/review` } };

let engine: Engine;
let handlers: ConsoleHandlers;
let ipc: FakeIpcMain;
let api: WardenApi;
let sent: WireEvent[];
let unregister: () => void;
const rendererListeners = new Set<(msg: WireEvent) => void>();

beforeAll(async () => {
  engine = await openEngine({ dataDir: mkdtempSync(join(tmpdir(), 'warden-ipc-')) });
  handlers = createHandlers({ engine });
  ipc = new FakeIpcMain();
  sent = [];
  unregister = registerIpcHandlers(ipc, handlers, { pageUrl: PAGE, webContentsId: () => WINDOW_ID }, (channel, msg) => {
    expect(channel).toBe(EVENT_CHANNEL);
    sent.push(msg);
    for (const fn of rendererListeners) fn(msg);
  });
  api = buildPreloadApi(
    (channel, params) => ipc.invoke(fromWindow, channel, params),
    (fn) => {
      rendererListeners.add(fn);
      return () => rendererListeners.delete(fn);
    },
  );
});

afterAll(async () => {
  unregister?.();
  handlers?.close();
  await engine?.close();
});

describe('Electron IPC wiring', () => {
  it('registers exactly one warden:<method> channel per contract method', () => {
    expect([...ipc.handlers.keys()].sort()).toEqual(METHOD_NAMES.map((m) => `warden:${m}`).sort());
    expect(METHOD_CHANNELS.map(methodOfChannel)).toEqual(METHOD_NAMES);
  });

  it('the preload exposes one function per method plus on, and nothing else', () => {
    expect(Object.keys(api).sort()).toEqual([...METHOD_NAMES, 'on'].sort());
    for (const k of Object.keys(api)) expect(typeof (api as unknown as Record<string, unknown>)[k]).toBe('function');
    expect(Object.isFrozen(api)).toBe(true);
  });

  it('round-trips results and events from the real engine', async () => {
    const status = await api['status.get']({});
    expect(status.tree.categories).toBeGreaterThanOrEqual(3);
    const events: Verdict[] = [];
    const off = api.on('verdict.created', (v) => events.push(v));
    const v = await api['verdicts.check']({ request: { request: 'tidy up', action: { type: 'shell', command: 'rm -rf ~' } } });
    expect(v).toMatchObject({ decision: 'deny', path: 'check' });
    expect(events.map((e) => e.id)).toEqual([v.id]);
    expect((await api['verdicts.get']({ id: v.id })).id).toBe(v.id);
    off();
    await api['verdicts.check']({ request: { request: 'list files', action: { type: 'shell', command: 'ls' } } });
    expect(events).toHaveLength(1);
    expect(sent.filter((m) => m.event === 'verdict.created')).toHaveLength(2);
  });

  it('errors keep their code and field across IPC', async () => {
    await expect(api['verdicts.get']({} as { id: string })).rejects.toMatchObject({ code: 'BAD_INPUT', field: 'id', message: expect.stringContaining('id') });
    await expect(api['verdicts.get']({ id: 'absent' })).rejects.toMatchObject({ code: 'NOT_FOUND', field: 'verdictId' });
    await expect(api['tree.revertEvent']({ eventId: 999_999 })).rejects.toMatchObject({ code: 'NOT_FOUND', field: 'eventId' });
  });

  it('rejects unknown channels', async () => {
    await expect(ipc.invoke(fromWindow, 'warden:engine.shutdown', {})).rejects.toThrow(/No handler/);
    await expect(ipc.invoke(fromWindow, 'status.get', {})).rejects.toThrow(/No handler/);
    expect(() => validatedHandle(ipc, 'other:status.get', { pageUrl: PAGE, webContentsId: () => WINDOW_ID }, async () => 1)).toThrow(/refusing/);
    expect(() => validatedHandle(ipc, 'warden:shell.exec', { pageUrl: PAGE, webContentsId: () => WINDOW_ID }, async () => 1)).toThrow(/refusing/);
    expect(ipc.handlers.has('other:status.get')).toBe(false);
  });

  it('rejects foreign senders: another page, another window, a subframe, no frame', async () => {
    const foreign: InvokeEventLike[] = [
      { sender: { id: WINDOW_ID }, senderFrame: { url: 'https://evil.example/index.html' } },
      { sender: { id: WINDOW_ID }, senderFrame: { url: 'file:///tmp/other.html' } },
      { sender: { id: WINDOW_ID + 1 }, senderFrame: { url: PAGE } },
      { sender: { id: WINDOW_ID }, senderFrame: { url: PAGE, parent: {} } },
      { sender: { id: WINDOW_ID }, senderFrame: null },
    ];
    const before = engine.listVerdicts({ limit: 1000 }).length;
    for (const ev of foreign) {
      const r = await ipc.invoke(ev, 'warden:verdicts.check', { request: { request: 'x', action: { type: 'shell', command: 'ls' } } });
      expect(r).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } });
    }
    // nothing ran on their behalf
    expect(engine.listVerdicts({ limit: 1000 })).toHaveLength(before);
    expect(await ipc.invoke(fromWindow, 'warden:status.get', {})).toMatchObject({ ok: true });
  });

  it('unregistering removes every channel and stops forwarding events', async () => {
    const count = sent.length;
    unregister();
    expect(ipc.handlers.size).toBe(0);
    await handlers['verdicts.check']({ request: { request: 'list files', action: { type: 'shell', command: 'ls' } } });
    expect(sent).toHaveLength(count);
  });
});
