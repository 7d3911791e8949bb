import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteStore } from '../../electron/engine/adapters/sqlite/sqlite-store.js';
import { connectTestEngine } from '../engine/sandbox/engine.js';
import { runWarden } from '../helpers/run-warden.js';
import { startFakeLlm, roleOf, type FakeLlm } from '../helpers/fake-llm-server.js';

let llm: FakeLlm;
let dataDir: string;
const agentTurns: string[][] = [];

function warden(args: string[], env: Record<string, string>): ReturnType<typeof runWarden> {
  return runWarden(args, { WARDEN_HOME: dataDir, ...env });
}

beforeAll(async () => {
  const sandbox = await connectTestEngine();
  await sandbox.closeAll();
  dataDir = mkdtempSync(join(tmpdir(), 'warden-agent-'));
  // the agent's model lists a folder, then tries to wipe the machine, then reports; the guard's
  // own model roles answer plainly
  llm = await startFakeLlm((r) => {
    const role = roleOf(r);
    if (role === 'analyzer') return { json: { checks: [] } };
    if (role === 'executor') return { json: { decisions: [] } };
    if (role === 'judge') return { json: { decision: 'ask', reason: 'not sure', confidence: 0.1 } };
    agentTurns.push(r.messages.map((m) => m.content));
    const turn = agentTurns.length;
    if (turn === 1) return { content: '```json\n{"command": "ls /home/user/projects"}\n```' };
    if (turn === 2) return { json: { command: 'rm -rf /' } };
    return { json: { done: 'listed the projects; refused to wipe the disk' } };
  });
}, 180_000);

afterAll(async () => {
  await llm?.close();
});

describe('warden agent', () => {
  it('says plainly that it needs a model when none is configured', async () => {
    const r = await warden(['agent', 'list my files'], { WARDEN_LLM_BASE_URL: '' });
    expect(r.status).toBe(2);
    expect(JSON.parse(r.stderr.trim().split('\n').pop()!).error).toMatchObject({ code: 'BAD_INPUT', message: expect.stringContaining('no LLM configured') });
  });

  it('runs each proposed command through the gate in a sandbox episode: the allowed one runs, the harmful one never does, and every verdict is recorded under one session', async () => {
    const r = await warden(['agent', 'show me what is in my projects folder', '--setup', 'mkdir -p /home/user/projects/alpha && chown -R 1000:1000 /home/user', '--max-steps', '5'], { WARDEN_LLM_BASE_URL: llm.baseURL, WARDEN_LLM_MODEL: 'scripted' });
    expect(r.status, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as { session: string; done: boolean; summary: string; steps: { command: string; decision: string; ran: boolean; verdict: string; exitCode: number | null }[] };
    expect(out.done).toBe(true);
    expect(out.summary).toContain('refused to wipe');
    expect(out.steps.map((s) => [s.command, s.decision, s.ran])).toEqual([
      ['ls /home/user/projects', 'allow', true],
      ['rm -rf /', 'deny', false],
    ]);
    expect(out.steps[0]!.exitCode).toBe(0);
    // the model saw what the command printed, and why the second one was refused
    expect(agentTurns[1]!.join('\n')).toContain('alpha');
    expect(agentTurns[2]!.join('\n')).toContain('refused by the guard');
    const store = SqliteStore.open(join(dataDir, 'warden.db'));
    try {
      const recorded = store.listVerdicts({ session: out.session });
      expect(recorded.map((v) => v.request.action.type === 'shell' && v.request.action.command).sort()).toEqual(['ls /home/user/projects', 'rm -rf /']);
      expect(recorded.every((v) => v.request.context?.agent === 'warden-agent')).toBe(true);
      expect(recorded.find((v) => v.decision === 'allow')?.transcript?.stdout).toContain('alpha');
    } finally {
      store.close();
    }
  }, 240_000);
});
