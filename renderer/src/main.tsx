import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import type { WardenApi } from '../../shared/contract.js';
import { consoleSocketUrl, createWsApi } from './api/ws-api.js';
import { createWardenStore } from './store/store.js';
import { App } from './views/App.js';
import './app.css';

declare global {
  interface Window {
    /** Set by the Electron preload; absent in a browser. */
    warden?: WardenApi;
  }
}

function pickApi(): WardenApi {
  if (window.warden) return window.warden;
  const token = new URLSearchParams(window.location.search).get('token') ?? '';
  return createWsApi(consoleSocketUrl(window.location), token);
}

const store = createWardenStore(pickApi());
const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <App store={store} />
    </StrictMode>,
  );
}
