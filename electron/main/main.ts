/**
 * The Electron main process: hosts the engine and the sandbox service, opens one locked-down
 * window on the built renderer, and wires the console contract over IPC (ipc-wiring.ts). Built to
 * main.js by `npm run build:shell`.
 */
import { app, BrowserWindow, ipcMain, session, shell } from 'electron';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { PROJECT_ROOT, loadConfig } from '../engine/config.js';
import { openEngine, stderrLog } from '../engine/create-engine.js';
import { createHandlers } from '../engine/api/handlers.js';
import { sandboxServiceFor } from '../engine/gated-run.js';
import { registerIpcHandlers } from './ipc-wiring.js';

const PAGE = join(PROJECT_ROOT, 'renderer', 'dist', 'index.html');
const PAGE_URL = pathToFileURL(PAGE).href;
const PRELOAD = join(PROJECT_ROOT, 'electron', 'preload', 'preload.cjs');
const CSP = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'none'";

let win: BrowserWindow | undefined;

async function start(): Promise<void> {
  const log = stderrLog();
  const cfg = loadConfig();
  const engine = await openEngine({ log });
  const sandbox = sandboxServiceFor(engine, { log });
  const handlers = createHandlers({ engine, sandbox, log, gate: cfg.gateConfig, ...(cfg.llm ? { llm: { model: cfg.llm.model, baseURL: cfg.llm.baseURL } } : {}) });
  const stopWatch = handlers.watchStore();

  session.defaultSession.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [CSP] } });
  });
  // the console needs no camera, microphone, notifications or anything else
  session.defaultSession.setPermissionRequestHandler((_wc, _perm, callback) => callback(false));

  const unregister = registerIpcHandlers(ipcMain, handlers, { pageUrl: PAGE_URL, webContentsId: () => win?.webContents.id }, (channel, msg) => {
    if (win && !win.isDestroyed()) win.webContents.send(channel, msg);
  });

  app.on('web-contents-created', (_e, contents) => {
    contents.setWindowOpenHandler(({ url }) => {
      // links to the outside open in the user's browser, never in a new app window
      if (url.startsWith('https://')) void shell.openExternal(url);
      return { action: 'deny' };
    });
    contents.on('will-navigate', (event, url) => {
      if (url !== PAGE_URL) event.preventDefault();
    });
    contents.on('will-attach-webview', (event) => event.preventDefault());
  });

  win = new BrowserWindow({
    width: 1400,
    height: 900,
    title: 'Warden',
    show: false,
    webPreferences: {
      preload: PRELOAD,
      contextIsolation: true,
      nodeIntegration: false,
      sandbox: true,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      spellcheck: false,
    },
  });
  win.once('ready-to-show', () => win?.show());
  await win.loadFile(PAGE);

  let closing = false;
  app.on('before-quit', (event) => {
    if (closing) return;
    closing = true;
    event.preventDefault();
    unregister();
    stopWatch();
    handlers.close();
    void sandbox
      .close()
      .catch(() => undefined)
      .then(() => engine.close())
      .finally(() => app.exit(0));
  });
}

app.enableSandbox();
app.on('window-all-closed', () => app.quit());
app
  .whenReady()
  .then(start)
  .catch((e: unknown) => {
    process.stderr.write(`Warden could not start: ${(e as Error).message ?? String(e)}\n`);
    app.exit(1);
  });
