/**
 * The headless console's door: loopback only, the install's token, same-origin pages only, a
 * strict CSP on the page, and no file outside the renderer's folder.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { openEngine } from '../../electron/engine/create-engine.js';
import type { Engine } from '../../electron/engine/engine.js';
import { startConsoleServer, type ConsoleServer } from '../../electron/server/console/server.js';
import { consoleTokenPath, loadOrCreateConsoleToken } from '../../electron/server/console/console-token.js';
import { wsClient } from './console-client.js';

let engine: Engine;
let server: ConsoleServer;
let dataDir: string;
let staticDir: string;
let token: string;

function get(port: number, path: string, headers: Record<string, string> = {}, host = '127.0.0.1'): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host, port, path, headers }, (res) => {
      let body = '';
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'warden-console-server-'));
  staticDir = join(dataDir, 'dist');
  mkdirSync(join(staticDir, 'assets'), { recursive: true });
  writeFileSync(join(staticDir, 'index.html'), '<!doctype html><title>console</title><script type="module" src="./assets/app.js"></script>');
  writeFileSync(join(staticDir, 'assets', 'app.js'), 'export const ok = 1;');
  writeFileSync(join(dataDir, 'secret.txt'), 'do not serve');
  engine = await openEngine({ dataDir });
  token = loadOrCreateConsoleToken(dataDir);
  server = await startConsoleServer({ engine, token, staticDir });
});

afterAll(async () => {
  await server?.close();
  await engine?.close();
});

describe('console server', () => {
  it('keeps a per-install token readable by its owner only, the same on every start', () => {
    expect(token).toMatch(/^[0-9a-f]{64}$/);
    expect(statSync(consoleTokenPath(dataDir)).mode & 0o777).toBe(0o600);
    expect(loadOrCreateConsoleToken(dataDir)).toBe(token);
    expect(server.url).toBe(`http://127.0.0.1:${server.port}/?token=${token}`);
  });

  it('serves the page with a strict CSP and its assets, and nothing outside the folder', async () => {
    const page = await get(server.port, `/?token=${token}`);
    expect(page.status).toBe(200);
    expect(page.body).toContain('<title>console</title>');
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe');
    expect(csp).toContain(`connect-src 'self' ws://127.0.0.1:${server.port}`);
    expect(page.headers['referrer-policy']).toBe('no-referrer');
    const js = await get(server.port, '/assets/app.js');
    expect(js.status).toBe(200);
    expect(js.headers['content-type']).toContain('text/javascript');
    for (const p of ['/../secret.txt', '/%2e%2e/secret.txt', '/assets/../../secret.txt', '/missing.js']) {
      const r = await get(server.port, p);
      expect(r.body).not.toContain('do not serve');
    }
    expect((await get(server.port, '/missing.js')).status).toBe(404);
  });

  it('refuses a foreign Host header (DNS rebinding)', async () => {
    const r = await get(server.port, '/', { Host: `evil.example:${server.port}` });
    expect(r.status).toBe(421);
  });

  it('says how to build the page when the renderer is not built', async () => {
    const bare = await startConsoleServer({ engine, token, staticDir: join(dataDir, 'nothing-here'), watchStore: false });
    try {
      const r = await get(bare.port, '/');
      expect(r.status).toBe(503);
      expect(r.body).toContain('npm run build:renderer');
    } finally {
      await bare.close();
    }
  });

  it('accepts the WebSocket with the token and the console origin', async () => {
    const c = await wsClient(`ws://127.0.0.1:${server.port}/ws?token=${token}`, { Origin: `http://127.0.0.1:${server.port}` });
    expect((await c.call('status.get', {})).storePath).toBe(join(dataDir, 'warden.db'));
    await c.close();
  });

  it('refuses a WebSocket without a token, with a wrong token, or from a foreign origin', async () => {
    const base = `ws://127.0.0.1:${server.port}/ws`;
    await expect(wsClient(base)).rejects.toMatchObject({ code: 'HTTP_401' });
    await expect(wsClient(`${base}?token=${'0'.repeat(64)}`)).rejects.toMatchObject({ code: 'HTTP_401' });
    await expect(wsClient(`${base}?token=${token.slice(0, 10)}`)).rejects.toMatchObject({ code: 'HTTP_401' });
    await expect(wsClient(`${base}?token=${token}`, { Origin: 'https://evil.example' })).rejects.toMatchObject({ code: 'HTTP_403' });
    await expect(wsClient(`${base}?token=${token}`, { Origin: `http://127.0.0.1:${server.port + 1}` })).rejects.toMatchObject({ code: 'HTTP_403' });
    await expect(wsClient(`ws://127.0.0.1:${server.port}/other?token=${token}`)).rejects.toMatchObject({ code: 'HTTP_404' });
  });

  it('answers malformed frames with an error and keeps the connection', async () => {
    const { default: WebSocket } = await import('ws');
    const ws = new WebSocket(`ws://127.0.0.1:${server.port}/ws?token=${token}`);
    await new Promise((r) => ws.once('open', r));
    const replies: unknown[] = [];
    ws.on('message', (d) => replies.push(JSON.parse(d.toString())));
    ws.send('not json');
    ws.send(JSON.stringify({ method: 'status.get', params: {} }));
    ws.send(JSON.stringify({ id: 7, method: 'status.get', params: {} }));
    const t0 = Date.now();
    while (replies.length < 3 && Date.now() - t0 < 10_000) await new Promise((r) => setTimeout(r, 20));
    expect(replies[0]).toMatchObject({ id: 0, error: { code: 'BAD_INPUT', field: 'frame' } });
    expect(replies[1]).toMatchObject({ id: 0, error: { code: 'BAD_INPUT', field: 'id' } });
    expect(replies[2]).toMatchObject({ id: 7, result: { version: expect.any(String) } });
    ws.close();
  });

  it('binds 127.0.0.1 only', async () => {
    const others = Object.values(networkInterfaces())
      .flat()
      .filter((a) => a && a.family === 'IPv4' && !a.internal)
      .map((a) => a!.address);
    for (const addr of others) await expect(get(server.port, '/', {}, addr)).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    await expect(get(server.port, '/', {}, '::1')).rejects.toBeDefined();
  });

  it('streams verdicts that another process records', async () => {
    const c = await wsClient(`ws://127.0.0.1:${server.port}/ws?token=${token}`);
    const seen: string[] = [];
    c.on('verdict.created', (v) => seen.push(v.id));
    const out = await new Promise<string>((resolve, reject) => {
      const child = spawn(process.execPath, ['bin/warden.js', 'check', '--request', 'tidy up', '--shell', 'rm -rf ~'], { env: { ...process.env, WARDEN_HOME: dataDir }, stdio: ['ignore', 'pipe', 'pipe'] });
      let s = '';
      child.stdout.on('data', (d) => (s += d));
      child.on('error', reject);
      child.on('close', () => resolve(s));
    });
    const id = (JSON.parse(out) as { id: string }).id;
    const t0 = Date.now();
    while (!seen.includes(id) && Date.now() - t0 < 10_000) await new Promise((r) => setTimeout(r, 50));
    expect(seen).toContain(id);
    await c.close();
  });
});

describe('warden serve', () => {
  it('prints the console URL with its token first, serves it, and stops cleanly on SIGTERM', async () => {
    const home = mkdtempSync(join(tmpdir(), 'warden-serve-'));
    const child = spawn(process.execPath, ['bin/warden.js', 'serve'], { env: { ...process.env, WARDEN_HOME: home }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const t0 = Date.now();
    // (a first start builds the store and loads the models; on a loaded machine that can take a while)
    while (!out.includes('\n') && Date.now() - t0 < 50_000) await new Promise((r) => setTimeout(r, 50));
    const first = out.split('\n')[0]!;
    const fileToken = loadOrCreateConsoleToken(home);
    expect(first).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:\\d+/\\?token=${fileToken}$`));
    const port = Number(new URL(first).port);
    const c = await wsClient(`ws://127.0.0.1:${port}/ws?token=${fileToken}`);
    expect((await c.call('status.get', {})).storePath).toBe(join(home, 'warden.db'));
    await c.close();
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    await expect(get(port, '/')).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  }, 90_000);
});
