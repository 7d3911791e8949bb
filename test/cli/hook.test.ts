import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openEngine } from '../../electron/engine/create-engine.js';
import type { Engine } from '../../electron/engine/engine.js';
import { runHook, type HookFormat } from '../../electron/cli/hook-command.js';
import { guardOf } from '../../electron/server/intake/guard-client.js';
import { startIntakeServer, type IntakeServer } from '../../electron/server/intake/intake-server.js';
import { intakeInfoPath, loadOrCreateToken, writeIntakeInfo } from '../../electron/server/intake/token.js';
import { testCache } from '../helpers/temp-root.js';

const bin = join(process.cwd(), 'bin', 'warden.js');
let engine: Engine;
let dataDir: string;

const pre = (tool_name: string, tool_input: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ session_id: 's1', cwd: '/home/u/proj', hook_event_name: 'PreToolUse', tool_name, tool_input, ...extra });

async function hook(text: string, format: HookFormat = 'claude') {
  const r = await runHook(text, { format, dataDir, home: '/home/u', guard: async () => guardOf(engine, false) });
  return { ...r, out: r.stdout ? JSON.parse(r.stdout) : undefined };
}

const decisionOf = (o: { hookSpecificOutput: { permissionDecision: string } }) => o.hookSpecificOutput.permissionDecision;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'warden-hook-'));
  engine = await openEngine({ dataDir });
});

afterAll(async () => {
  await engine?.close();
});

describe('warden hook (Claude Code PreToolUse)', () => {
  it('judges shell commands: a harmless one is allowed, wiping the home directory is denied', async () => {
    const ok = await hook(pre('Bash', { command: 'ls -la', description: 'list files' }));
    expect(ok.exitCode).toBe(0);
    expect(ok.out).toEqual({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow', permissionDecisionReason: expect.stringContaining('Warden allowed') } });
    const bad = await hook(pre('Bash', { command: 'rm -rf ~' }));
    expect(bad.exitCode).toBe(0);
    expect(decisionOf(bad.out)).toBe('deny');
    expect(bad.out.hookSpecificOutput.permissionDecisionReason).toMatch(/home directory/i);
    const v = engine.listVerdicts({ limit: 1 })[0]!;
    expect(v.request).toMatchObject({ action: { type: 'shell', command: 'rm -rf ~' }, context: { agent: 'claude-code', session: 's1', cwd: '/home/u/proj' } });
  });

  it('judges file edits with the path written: a key planted in authorized_keys is denied', async () => {
    const r = await hook(pre('Write', { file_path: '/home/u/.ssh/authorized_keys', content: 'ssh-ed25519 AAAA attacker' }));
    expect(decisionOf(r.out)).toBe('deny');
    const v = engine.listVerdicts({ limit: 1 })[0]!;
    expect(v.facts.effects.writes.map((w) => w.path)).toEqual(['/home/u/.ssh/authorized_keys']);
    for (const [tool, input, path] of [
      ['Edit', { file_path: '/home/u/proj/src/a.ts', old_string: 'a', new_string: 'b' }, '/home/u/proj/src/a.ts'],
      ['MultiEdit', { file_path: '/home/u/proj/src/b.ts', edits: [{ old_string: 'x', new_string: 'y' }] }, '/home/u/proj/src/b.ts'],
      ['NotebookEdit', { notebook_path: '/home/u/proj/nb.ipynb', new_source: 'print(1)' }, '/home/u/proj/nb.ipynb'],
    ] as const) {
      const e = await hook(pre(tool, input));
      expect(['allow', 'ask', 'deny']).toContain(decisionOf(e.out));
      expect(engine.listVerdicts({ limit: 1 })[0]!.facts.effects.writes.map((w) => w.path)).toEqual([path]);
    }
  });

  it('judges web fetches and searches as network use', async () => {
    await hook(pre('WebFetch', { url: 'https://example.com/docs', prompt: 'summarise' }));
    expect(engine.listVerdicts({ limit: 1 })[0]!.facts.effects.network[0]).toMatchObject({ target: 'example.com' });
    await hook(pre('WebSearch', { query: 'sqlite wal mode' }));
    expect(engine.listVerdicts({ limit: 1 })[0]!.facts.effects.network.length).toBe(1);
  });

  it("judges tool calls against the human's prompt from UserPromptSubmit of the same session", async () => {
    const remembered = await hook(JSON.stringify({ session_id: 's2', cwd: '/home/u/proj', hook_event_name: 'UserPromptSubmit', prompt: 'delete the build folder in /home/u/proj' }));
    expect(remembered).toMatchObject({ stdout: '', exitCode: 0 });
    await hook(pre('Bash', { command: 'rm -rf /home/u/proj/build' }, { session_id: 's2' }));
    expect(engine.listVerdicts({ limit: 1 })[0]!.request.request).toBe('delete the build folder in /home/u/proj');
  });

  it.each([
    ['not JSON', '{"hook_event_name": "PreToolUse", '],
    ['an array', '[1,2,3]'],
    ['no tool name', JSON.stringify({ hook_event_name: 'PreToolUse', tool_input: {} })],
    ['tool_input not an object', JSON.stringify({ hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: 'rm -rf /' })],
    ['Bash without a command', pre('Bash', { description: 'nothing' })],
    ['another event', JSON.stringify({ hook_event_name: 'PostToolUse', tool_name: 'Bash', tool_input: { command: 'ls' } })],
    ['invalid UTF-8', Buffer.from([0x7b, 0xff, 0xfe, 0x7d]).toString('utf8')],
    ['empty input', ''],
  ])('fails closed on %s: a deny decision and exit 2', async (_name, text) => {
    const r = await hook(text);
    expect(r.exitCode).toBe(2);
    expect(decisionOf(r.out)).toBe('deny');
    expect(r.out.hookSpecificOutput.permissionDecisionReason).toMatch(/BAD_INPUT/);
    expect(r.stderr).toMatch(/blocked/);
  });

  it('fails closed when the guard itself fails', async () => {
    const r = await runHook(pre('Bash', { command: 'ls' }), {
      format: 'claude',
      dataDir,
      guard: async () => {
        throw new Error('store is locked');
      },
    });
    expect(r.exitCode).toBe(2);
    expect(JSON.parse(r.stdout).hookSpecificOutput).toMatchObject({ permissionDecision: 'deny', permissionDecisionReason: expect.stringContaining('store is locked') });
  });

  it('speaks the Gemini CLI and plain Warden dialects too', async () => {
    const g = await hook(JSON.stringify({ session_id: 'g', cwd: '/home/u', hook_event_name: 'BeforeTool', tool_name: 'run_shell_command', tool_input: { command: 'rm -rf ~' } }), 'gemini');
    expect(g.out).toMatchObject({ decision: 'deny' });
    const w = await hook(JSON.stringify({ request: 'list files', action: { type: 'shell', command: 'ls -la' } }), 'warden');
    expect(w).toMatchObject({ exitCode: 0, out: { decision: 'allow', id: expect.any(String) } });
    const wBad = await hook(JSON.stringify({ request: 'x', action: { type: 'warp' } }), 'warden');
    expect(wBad).toMatchObject({ exitCode: 2, out: { decision: 'deny' } });
  });
});

describe('warden hook as a process', () => {
  let server: IntakeServer;
  const env = () => ({ ...process.env, WARDEN_HOME: dataDir, WARDEN_CACHE: testCache() });

  afterAll(async () => {
    rmSync(intakeInfoPath(dataDir), { force: true });
    await server?.close();
  });

  const run = (input: string, args: string[] = []) =>
    new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = spawn('node', [bin, 'hook', ...args], { env: env() });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (c) => (stdout += c));
      child.stderr.on('data', (c) => (stderr += c));
      child.on('close', (status) => resolve({ status, stdout, stderr }));
      child.stdin.end(input);
    });

  it('blocks malformed input with exit 2 and a deny on stdout', () => {
    const r = spawnSync('node', [bin, 'hook'], { env: env(), input: 'garbage', encoding: 'utf8' });
    expect(r.status).toBe(2);
    expect(JSON.parse(r.stdout).hookSpecificOutput.permissionDecision).toBe('deny');
  });

  it('judges in its own engine when no intake runs, and through the intake when one does', async () => {
    const local = await run(pre('Bash', { command: 'rm -rf ~' }));
    expect(local.status).toBe(0);
    expect(JSON.parse(local.stdout).hookSpecificOutput.permissionDecision).toBe('deny');

    server = await startIntakeServer(engine, { token: loadOrCreateToken(dataDir) });
    writeIntakeInfo(dataDir, { url: server.url, pid: process.pid, startedAt: Date.now() });
    const seen: string[] = [];
    const off = engine.on('verdict.created', (v) => seen.push(v.id));
    const viaIntake = await run(pre('Bash', { command: 'cat README.md' }));
    off();
    expect(viaIntake.status).toBe(0);
    expect(['allow', 'ask']).toContain(JSON.parse(viaIntake.stdout).hookSpecificOutput.permissionDecision);
    // the verdict was made by the intake's engine (this process), not a second one
    expect(seen.length).toBe(1);
  });
});
