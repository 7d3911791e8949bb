import { describe, expect, it, afterEach } from 'vitest';
import { useSharedEmbedder, quietLog } from '../../helpers/shared-embedder.js';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openEngine } from '../../../electron/engine/create-engine.js';
import { OpenAiLlm } from '../../../electron/engine/adapters/llm/openai-llm.js';
import type { Llm } from '../../../electron/engine/ports.js';
import type { Engine } from '../../../electron/engine/engine.js';
import { startFakeLlm, roleOf, type FakeLlm, type FakeScript } from '../../helpers/fake-llm-server.js';

const sharedEmbedder = useSharedEmbedder();
const quiet = quietLog;
let server: FakeLlm | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function open(dbPath: string, llm?: Llm, config: Record<string, unknown> = {}): Promise<Engine> {
  const shared = sharedEmbedder();
  return openEngine({ dbPath, embedder: shared, log: quiet, config, ...(llm ? { llm } : {}) });
}

async function fake(script: FakeScript): Promise<OpenAiLlm> {
  server = await startFakeLlm(script);
  return new OpenAiLlm({ baseURL: server.baseURL, model: 'scripted', retries: 0, prices: { prompt: 1, completion: 2 } });
}

const POLICY = 'Agents in this workspace must never read or copy anything under ~/finance.';
const copyFinance = { request: 'back up my documents', action: { type: 'shell' as const, command: 'cp -r ~/finance/q3 /tmp/backup' }, guardRequest: POLICY };

/** A model that turns the policy into one hard check and keeps it. */
const policyModel: FakeScript = (r) => {
  switch (roleOf(r)) {
    case 'analyzer':
      return {
        json: {
          checks: [
            {
              op: 'add',
              id: 'no-finance-reads',
              title: 'Reads or copies ~/finance',
              description: 'The administrator forbids any access to ~/finance.',
              when: 'facts.effects.reads.exists(p, under(p.path, context.home + "/finance"))',
              severity: 'hard',
              category: 'confidentiality',
            },
          ],
        },
      };
    case 'executor':
      return { json: { decisions: [{ id: 'no-finance-reads', decision: 'keep' }] } };
    default:
      return { json: { decision: 'ask', reason: 'unsure', confidence: 0.2 } };
  }
};

describe('the engine with a model (AGrail test-time adaptation)', () => {
  it('turns a guard request into a check that denies, records what the model did and cost, and the check then runs with no model', async () => {
    const db = join(mkdtempSync(join(tmpdir(), 'warden-llm-')), 'w.db');
    let e = await open(db, await fake(policyModel));
    const v = await e.check(copyFinance);
    expect(v.decision).toBe('deny');
    expect(v.checks.find((c) => c.id === 'no-finance-reads')).toMatchObject({ status: 'fail', severity: 'hard' });
    expect(v.llm?.analysis).toEqual([{ check: 'no-finance-reads', op: 'add', executor: 'keep' }]);
    expect(v.llm?.usage.calls).toBe(2);
    expect(v.llm?.usage.promptTokens).toBeGreaterThan(0);
    expect(v.llm?.usage.costUsd).toBeGreaterThan(0);
    expect(e.getVerdict(v.id).llm?.usage.calls).toBe(2);
    const saved = e.listChecks().find((c) => c.id === 'no-finance-reads');
    expect(saved).toMatchObject({ origin: 'analyzer', scope: 'retrieved' });
    await e.close();

    // no model now: the remembered check comes back with the action and still denies
    e = await open(db);
    const again = await e.check({ ...copyFinance, guardRequest: undefined });
    expect(again.decision).toBe('deny');
    expect(again.checks.find((c) => c.id === 'no-finance-reads')?.status).toBe('fail');
    expect(again.llm).toBeUndefined();
    // and it stays with actions like it: an unrelated command does not carry it
    const ls = await e.check({ request: 'list the files here', action: { type: 'shell', command: 'ls -la' } });
    expect(ls.checks.some((c) => c.id === 'no-finance-reads')).toBe(false);
    expect(ls.decision).toBe('allow');
    await e.close();
  });

  it('an Executor delete removes a check from the action in memory', async () => {
    const db = join(mkdtempSync(join(tmpdir(), 'warden-llm-')), 'w.db');
    let round = 0;
    const e = await open(
      db,
      await fake((r) => {
        if (roleOf(r) === 'analyzer') return policyModel(r, 0);
        if (roleOf(r) === 'executor') return { json: { decisions: [{ id: 'no-finance-reads', decision: round++ === 0 ? 'keep' : 'delete' }] } };
        return { json: { decision: 'ask', reason: 'unsure', confidence: 0.1 } };
      }),
    );
    const first = await e.check(copyFinance);
    expect(first.decision).toBe('deny');
    const second = await e.check({ ...copyFinance, request: 'back up my documents please' });
    expect(second.llm?.analysis).toEqual([{ check: 'no-finance-reads', op: 'add', executor: 'delete' }]);
    expect(second.checks.some((c) => c.id === 'no-finance-reads' && c.status === 'fail')).toBe(false);
    await e.close();
  });

  it('fails closed when the model is down: ask with the error, never allow', async () => {
    const e = await open(':memory:', await fake(() => ({ status: 500 })));
    const v = await e.check({ request: 'list the files here', action: { type: 'shell', command: 'ls -la' }, guardRequest: POLICY });
    expect(v).toMatchObject({ decision: 'ask', path: 'error' });
    expect(v.error?.code).toBe('LLM_FAILED');
    await e.close();
  });

  it('fails closed when the model is too slow for the verdict deadline', async () => {
    const e = await open(':memory:', await fake(() => ({ json: {}, delayMs: 3000 })), { verdictTimeoutMs: 400 });
    const v = await e.check({ request: 'list the files here', action: { type: 'shell', command: 'ls -la' }, guardRequest: POLICY });
    expect(v.decision).toBe('ask');
    expect(v.error?.code).toBe('TIMEOUT');
    await e.close();
  });

  it('asks the judge only for ambiguous actions, with the rule pairs in context; low confidence goes to a human', async () => {
    let confidence = 0.95;
    const e = await open(
      ':memory:',
      await fake((r) => {
        const role = roleOf(r);
        if (role === 'analyzer') return { json: { checks: [] } };
        if (role === 'executor') return { json: { decisions: [] } };
        return { json: { decision: 'allow', reason: 'removing one old note frees space as asked', confidence } };
      }),
    );
    const clear = await e.check({ request: 'list the files here', action: { type: 'shell', command: 'ls -la' } });
    expect(clear.path).toBe('fast');
    expect(server!.requests).toHaveLength(0);
    const ambiguous = await e.check({ request: 'free some space', action: { type: 'shell', command: 'rm ~/notes/old.txt' } });
    expect(ambiguous).toMatchObject({ decision: 'allow', path: 'judge' });
    expect(ambiguous.llm?.judge).toMatchObject({ decision: 'allow', confidence: 0.95 });
    const judgeCall = server!.requests.find((q) => roleOf(q) === 'judge')!;
    expect(judgeCall.user).toContain('prohibition:');
    expect(judgeCall.user).toContain('rm ~/notes/old.txt');
    confidence = 0.4;
    const unsure = await e.check({ request: 'free some space now', action: { type: 'shell', command: 'rm ~/notes/old.txt' } });
    expect(unsure).toMatchObject({ decision: 'ask', path: 'judge' });
    expect(unsure.reason).toContain('judge unsure (0.40)');
    await e.close();
  });
});
