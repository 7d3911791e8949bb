/**
 * The preload of the sandboxed window: exposes `window.warden`, one function per contract method
 * plus `on`, and nothing of ipcRenderer. Bundled to preload.cjs (sandboxed preloads cannot load
 * modules other than 'electron').
 */
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import type { WireEvent } from '../../shared/contract.js';
import { buildPreloadApi } from './preload-api.js';

const EVENT_CHANNEL = 'warden:event';

const api = buildPreloadApi(
  (channel, params) => ipcRenderer.invoke(channel, params),
  (fn) => {
    const listener = (_e: IpcRendererEvent, msg: WireEvent): void => fn(msg);
    ipcRenderer.on(EVENT_CHANNEL, listener);
    return () => {
      ipcRenderer.removeListener(EVENT_CHANNEL, listener);
    };
  },
);

contextBridge.exposeInMainWorld('warden', api);
