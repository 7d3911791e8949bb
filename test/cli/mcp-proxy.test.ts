import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { openEngine } from '../../electron/engine/create-engine.js';
import type { Engine } from '../../electron/engine/engine.js';
import { startIntakeServer, type IntakeServer } from '../../electron/server/intake/intake-server.js';
import { intakeInfoPath, loadOrCreateToken, writeIntakeInfo } from '../../electron/server/intake/token.js';
import { startMcpProxy } from '../../electron/server/mcp-proxy/mcp-proxy.js';
import { stableTmp, testCache } from '../helpers/temp-root.js';

const bin = join(process.cwd(), 'bin', 'warden.js');
const fsServer = join(process.cwd(), 'node_modules', '@modelcontextprotocol', 'server-filesystem', 'dist', 'index.js');
let engine: Engine;
let dataDir: string;
let server: IntakeServer;
let shared: string;

type ToolResult = { isError?: boolean; content: { type: string; text: string }[] };
const textOf = (r: unknown) => (r as ToolResult).content.map((c) => c.text).join('\n');

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'warden-mcp-'));
  // a fixed folder name: the path is part of what the guard embeds, so a random one made the
  // first read's score (and whether it reached the reviewer) vary from run to run
  shared = join(realpathSync(stableTmp()), 'warden-mcp-files');
  rmSync(shared, { recursive: true, force: true });
  mkdirSync(shared);
  writeFileSync(join(shared, 'notes.txt'), 'meeting at noon\n');
  writeFileSync(join(shared, 'todo.txt'), 'buy milk\n');
  mkdirSync(join(shared, '.ssh'));
  writeFileSync(join(shared, '.ssh', 'id_ed25519'), '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH PRIVATE KEY-----\n');
  engine = await openEngine({ dataDir });
  server = await startIntakeServer(engine, { token: loadOrCreateToken(dataDir) });
  writeIntakeInfo(dataDir, { url: server.url, pid: process.pid, startedAt: Date.now() });
});

afterAll(async () => {
  rmSync(intakeInfoPath(dataDir), { force: true });
  rmSync(shared, { recursive: true, force: true });
  await server?.close();
  await engine?.close();
});

describe('warden mcp-proxy with the real filesystem server', () => {
  it('forwards the handshake and tools/list, denies harmful calls before the server sees them, lets a benign read through', async () => {
    const transport = new StdioClientTransport({
      command: 'node',
      args: [bin, 'mcp-proxy', '--ask-timeout', '8000', '--', 'node', fsServer, shared],
      env: { ...(process.env as Record<string, string>), WARDEN_HOME: dataDir, WARDEN_CACHE: testCache() },
      stderr: 'pipe',
    });
    const client = new Client({ name: 'warden-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      expect(client.getServerVersion()?.name).toBe('secure-filesystem-server');
      const tools = (await client.listTools()).tools.map((t) => t.name);
      expect(tools).toEqual(expect.arrayContaining(['read_text_file', 'write_file', 'list_directory']));

      // a reviewer at the console approves what touches no secret and leaves anything touching a secret
      // unanswered, so such an ask runs into the proxy's time-out (a deny) and teaches nothing
      const asked: string[] = [];
      const off = engine.on('verdict.created', (v) => {
        if (v.decision !== 'ask') return;
        asked.push(v.id);
        if (!v.facts.effects.reads.some((r) => r.sensitive)) void engine.decide({ verdictId: v.id, outcome: 'approve', reason: 'reading notes in the shared folder is fine', reviewer: 'carol' });
      });
      try {
        // planting a key: inside the server's allowed folder, so only the guard stands in the way
        const plant = await client.callTool({ name: 'write_file', arguments: { path: join(shared, '.ssh', 'authorized_keys'), content: 'ssh-ed25519 AAAA attacker@evil' } });
        expect(plant.isError).toBe(true);
        expect(textOf(plant)).toMatch(/^Denied by Warden: check: .*run again later/);
        expect(existsSync(join(shared, '.ssh', 'authorized_keys'))).toBe(false);

        // reading a private key, inside the folder and outside it: never reaches the server
        for (const path of [join(shared, '.ssh', 'id_ed25519'), '/root/.ssh/id_rsa']) {
          const key = await client.callTool({ name: 'read_text_file', arguments: { path } });
          expect(key.isError).toBe(true);
          expect(textOf(key)).toMatch(/^Denied by Warden/);
          expect(textOf(key)).not.toContain('PRIVATE KEY');
          // the server's folder is in the request, but a key in it is not asked for: a check says so
          expect(engine.listVerdicts({ limit: 1 })[0]!.checks.find((c) => c.id === 'read-secret-unasked')?.status, path).toBe('fail');
        }

        // a plain read of notes in the shared folder passes
        const notes = await client.callTool({ name: 'read_text_file', arguments: { path: join(shared, 'notes.txt') } });
        expect(notes.isError, textOf(notes)).toBeFalsy();
        expect(textOf(notes)).toBe('meeting at noon\n');
        // the first search of the folder goes to the reviewer, who approves it
        const beforeSearch = asked.length;
        const found = await client.callTool({ name: 'search_files', arguments: { path: shared, pattern: '*notes*' } });
        expect(found.isError, textOf(found)).toBeFalsy();
        expect(textOf(found)).toContain(join(shared, 'notes.txt'));
        expect(asked.length).toBe(beforeSearch + 1);
        // and the next search like it passes on what the guard learned, with no human
        const todo = await client.callTool({ name: 'search_files', arguments: { path: shared, pattern: '*todo*' } });
        expect(textOf(todo)).toContain(join(shared, 'todo.txt'));
        expect(asked.length).toBe(beforeSearch + 1);
        expect(engine.listVerdicts({ limit: 1 })[0]).toMatchObject({ decision: 'allow', path: 'memory', request: { action: { type: 'tool', name: 'search_files' }, context: { agent: 'mcp:index.js' } } });
      } finally {
        off();
      }
    } finally {
      await client.close();
    }
  });
});

describe('MCP proxy relay', () => {
  async function connected(judge: Parameters<typeof startMcpProxy>[0]['judge'], args = [fsServer, shared]) {
    const [clientSide, proxySide] = InMemoryTransport.createLinkedPair();
    const proxy = await startMcpProxy({ upstream: { command: 'node', args, stderr: 'pipe' }, downstream: proxySide, judge });
    const client = new Client({ name: 'relay-test', version: '1.0.0' });
    await client.connect(clientSide);
    return { client, proxy };
  }

  it('denies every call when the judge fails (fail closed)', async () => {
    const { client, proxy } = await connected(async () => {
      throw new Error('engine crashed');
    });
    try {
      const r = await client.callTool({ name: 'read_text_file', arguments: { path: join(shared, 'notes.txt') } });
      expect(r.isError).toBe(true);
      expect(textOf(r)).toMatch(/engine crashed/);
    } finally {
      await client.close();
      await proxy.close();
    }
  });

  it('hands the judge the tool name and arguments, and forwards only what it allows', async () => {
    const calls: { name: string; arguments: Record<string, unknown> }[] = [];
    const { client, proxy } = await connected(async (call) => {
      calls.push(call);
      return call.arguments['path'] === join(shared, 'todo.txt') ? { allow: true, reason: 'ok' } : { allow: false, reason: 'not this one' };
    });
    try {
      expect(textOf(await client.callTool({ name: 'read_text_file', arguments: { path: join(shared, 'todo.txt') } }))).toBe('buy milk\n');
      const no = await client.callTool({ name: 'read_text_file', arguments: { path: join(shared, 'notes.txt') } });
      expect(textOf(no)).toBe('Denied by Warden: not this one');
      expect(calls.map((c) => c.name)).toEqual(['read_text_file', 'read_text_file']);
      // everything else passes through without the judge
      await client.listTools();
      await client.ping();
      expect(calls.length).toBe(2);
    } finally {
      await client.close();
      await proxy.close();
    }
  });

  it('forwards resources, prompts and server notifications untouched', async () => {
    const fixture = join(process.cwd(), 'test', 'cli', 'mcp-proxy-fixture-server.ts');
    const judged: string[] = [];
    const { client, proxy } = await connected(async (call) => {
      judged.push(call.name);
      return { allow: true, reason: 'ok' };
    }, ['--import', 'tsx', fixture]);
    const logs: unknown[] = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void logs.push(n.params.data));
    try {
      expect((await client.listResources()).resources.map((r) => r.uri)).toEqual(['memo://readme']);
      expect((await client.readResource({ uri: 'memo://readme' })).contents[0]).toMatchObject({ text: 'fixture readme' });
      expect((await client.listPrompts()).prompts.map((p) => p.name)).toEqual(['greet']);
      expect((await client.getPrompt({ name: 'greet', arguments: { name: 'ada' } })).messages[0]!.content).toMatchObject({ text: 'hello ada' });
      expect(textOf(await client.callTool({ name: 'echo', arguments: { text: 'hi' } }))).toBe('hi');
      expect(logs).toEqual(['echoing hi']);
      expect(judged).toEqual(['echo']);
    } finally {
      await client.close();
      await proxy.close();
    }
  });
});
