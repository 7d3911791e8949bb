import { describe, expect, it, afterEach } from 'vitest';
import { OpenAiLlm } from '../../../electron/engine/adapters/llm/openai-llm.js';
import { analyze, analyzerPrompt } from '../../../electron/engine/core/llm/analyzer.js';
import { execute } from '../../../electron/engine/core/llm/executor.js';
import { LlmJudge, judgePrompt } from '../../../electron/engine/core/llm/judge.js';
import { LlmMeter } from '../../../electron/engine/core/llm/structured.js';
import { extractFacts } from '../../../electron/engine/core/facts/index.js';
import { runChecks } from '../../../electron/engine/core/checks/run.js';
import type { ActionRequest, Check } from '../../../shared/types.js';
import type { GuardTool } from '../../../electron/engine/core/tools/types.js';
import type { JudgeInput } from '../../../electron/engine/ports.js';
import { startFakeLlm, roleOf, type FakeLlm, type FakeScript } from '../../helpers/fake-llm-server.js';

let server: FakeLlm | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function llmWith(script: FakeScript): Promise<OpenAiLlm> {
  server = await startFakeLlm(script);
  return new OpenAiLlm({ baseURL: server.baseURL, model: 'scripted', backoffMs: 5, retries: 0 });
}
const signal = (): AbortSignal => new AbortController().signal;

const builtin: Check = {
  id: 'delete-out-of-scope',
  title: 'Recursively deletes something the request did not ask for',
  description: 'builtin',
  when: 'facts.effects.deletes.exists(d, d.recursive && !d.inScope)',
  severity: 'hard',
  category: 'integrity',
  origin: 'builtin',
  kinds: ['shell'],
  enabled: true,
};

const req: ActionRequest = {
  request: 'free some disk space in my project',
  action: { type: 'shell', command: 'rm -rf ~/project/node_modules ~/.ssh' },
  guardRequest: 'Never touch SSH keys.',
  criteria: ['no changes to shared team folders'],
};
const facts = extractFacts(req);

describe('Analyzer', () => {
  it('puts the criteria, the guard request, the action, its facts and the retrieved checks in the prompt', () => {
    const { system, user } = analyzerPrompt({ request: req, facts, retrieved: [builtin] });
    expect(system).toContain("Warden's analyzer");
    expect(system).toContain('in_request_scope(path)');
    expect(user).toContain('Never touch SSH keys.');
    expect(user).toContain('no changes to shared team folders');
    expect(user).toContain('rm -rf ~/project/node_modules ~/.ssh');
    expect(user).toContain('"id":"delete-out-of-scope"');
    expect(user).toContain('/.ssh');
  });

  it('keeps, adds and revises checks; a revised library check becomes a new analyzer check and the original leaves this action', async () => {
    const llm = await llmWith(() => ({
      json: {
        checks: [
          { op: 'add', id: 'touches-ssh', title: 'Touches SSH keys', when: 'facts.effects.deletes.exists(d, d.path.contains("/.ssh"))', severity: 'hard', category: 'confidentiality' },
          { op: 'revise', id: 'delete-out-of-scope', title: 'Recursive delete outside node_modules', when: 'facts.effects.deletes.exists(d, d.recursive && !d.path.contains("node_modules"))' },
        ],
      },
    }));
    const meter = new LlmMeter();
    const a = await analyze(llm, { request: req, facts, retrieved: [builtin] }, meter, signal());
    expect(a.checks.map((c) => [c.check.id, c.op])).toEqual([
      ['touches-ssh', 'add'],
      ['delete-out-of-scope.adapted', 'revise'],
    ]);
    expect(a.save.every((c) => c.origin === 'analyzer' && c.scope === 'retrieved')).toBe(true);
    expect(a.save.find((c) => c.id === 'delete-out-of-scope.adapted')?.severity).toBe('hard');
    expect(a.drop).toEqual(['delete-out-of-scope']);
    expect(meter.usage.calls).toBe(1);
  });

  it('sends an expression that does not compile back once with the compiler message, then rejects what is still wrong', async () => {
    const llm = await llmWith((_r, i) => ({
      json: {
        checks:
          i === 0
            ? [{ op: 'add', id: 'bad', title: 'Bad', when: 'facts.effects.deletes.exists(d, ' }]
            : [
                { op: 'add', id: 'bad', title: 'Bad', when: 'no_such_function(1)' },
                { op: 'add', id: 'good', title: 'Good', when: 'size(facts.flags) > 3' },
              ],
      },
    }));
    const a = await analyze(llm, { request: req, facts, retrieved: [] }, new LlmMeter(), signal());
    expect(server!.requests).toHaveLength(2);
    expect(server!.requests[1]!.user).toContain('check bad');
    expect(a.checks.map((c) => c.check.id)).toEqual(['good']);
    expect(a.rejected.map((r) => r.check)).toEqual(['bad']);
  });

  it('rejects an answer that does not fit the shape twice (fail closed, no guessing)', async () => {
    const llm = await llmWith(() => ({ json: { verdict: 'safe' } }));
    await expect(analyze(llm, { request: req, facts, retrieved: [] }, new LlmMeter(), signal())).rejects.toMatchObject({ code: 'LLM_FAILED' });
    expect(server!.requests).toHaveLength(2);
  });

  it('merges duplicates into one check and drops the merged ones from the action', async () => {
    const twin: Check = { ...builtin, id: 'old-a', origin: 'analyzer' };
    const twin2: Check = { ...builtin, id: 'old-b', origin: 'analyzer' };
    const llm = await llmWith(() => ({ json: { checks: [{ op: 'merge', id: 'recursive-delete', merges: ['old-a', 'old-b'], title: 'Recursive delete', when: 'facts.effects.deletes.exists(d, d.recursive)' }] } }));
    const a = await analyze(llm, { request: req, facts, retrieved: [twin, twin2] }, new LlmMeter(), signal());
    expect(a.checks.map((c) => c.check.id)).toEqual(['recursive-delete']);
    expect(a.drop.sort()).toEqual(['old-a', 'old-b']);
  });
});

describe('Executor', () => {
  const env = { facts, request: req, context: {}, probes: [] };
  const check: Check = { ...builtin, id: 'touches-ssh', title: 'Touches SSH keys', when: 'facts.effects.deletes.exists(d, d.path.contains("/.ssh"))', origin: 'analyzer' };
  const other: Check = { ...builtin, id: 'irrelevant', title: 'Irrelevant', when: 'false', origin: 'analyzer' };
  const policyCheck: Check = { ...builtin, id: 'needs-tool', title: 'Needs a lookup', when: 'false', origin: 'analyzer' };
  const analysis = { checks: [check, other, policyCheck].map((c) => ({ check: c, op: 'add' as const })), save: [], drop: [], rejected: [] };
  const lookups: unknown[] = [];
  const tool: GuardTool = {
    name: 'lookup',
    description: 'looks a thing up',
    inputHelp: '{ thing: string }',
    run: async (input) => {
      lookups.push(input);
      return { tool: 'lookup', ok: true, violation: (input as { thing?: string }).thing === 'forbidden', detail: 'looked it up' };
    },
  };
  const base = { request: req, facts, analysis, tools: [tool], toolContext: { request: req, facts, policy: {}, probes: [] }, runCheck: (c: Check) => runChecks([c], env)[0]! };

  it('keeps, deletes and runs checks with tools, and the tool decides what the expression cannot see', async () => {
    const llm = await llmWith(() => ({
      json: {
        decisions: [
          { id: 'touches-ssh', decision: 'keep' },
          { id: 'irrelevant', decision: 'delete' },
          { id: 'needs-tool', decision: 'run', tool: 'lookup', input: { thing: 'forbidden' } },
        ],
      },
    }));
    const x = await execute(llm, base, new LlmMeter(), signal());
    expect(x.decisions).toEqual([
      { check: 'touches-ssh', decision: 'keep' },
      { check: 'irrelevant', decision: 'delete' },
      { check: 'needs-tool', decision: 'run' },
    ]);
    expect(x.results.map((r) => [r.id, r.status])).toEqual([
      ['touches-ssh', 'fail'],
      ['needs-tool', 'fail'],
    ]);
    expect(lookups).toEqual([{ thing: 'forbidden' }]);
    expect(server!.requests[0]!.user).toContain('lookup: looks a thing up');
  });

  it('keeps a check the model forgot to mention, and a tool that fails makes the check an error (fail closed)', async () => {
    const broken: GuardTool = { ...tool, name: 'lookup', run: async () => ({ tool: 'lookup', ok: false, violation: false, detail: 'page did not load' }) };
    const llm = await llmWith(() => ({ json: { decisions: [{ id: 'needs-tool', decision: 'run', tool: 'lookup', input: {} }] } }));
    const x = await execute(llm, { ...base, tools: [broken] }, new LlmMeter(), signal());
    expect(x.results.map((r) => [r.id, r.status])).toEqual([
      ['touches-ssh', 'fail'],
      ['irrelevant', 'pass'],
      ['needs-tool', 'error'],
    ]);
    expect(x.results[2]!.detail).toContain('page did not load');
  });
});

describe('Judge', () => {
  const input: JudgeInput = {
    request: req,
    facts,
    rules: [{ leafId: 'l1', category: 'integrity', similarity: 0.91, rule: { prohibition: 'Do not delete key material.', exemption: 'Unless the user names the key to rotate.' } }],
    checks: [{ id: 'touches-ssh', title: 'Touches SSH keys', severity: 'soft', status: 'fail' }],
    probes: [],
    scores: { pHarm: 0.6, sBenign: 0.3 },
  };

  it('sees the rule pair, the failing checks and the scores, and returns its decision with usage', async () => {
    const llm = await llmWith((r) => (roleOf(r) === 'judge' ? { json: { decision: 'deny', reason: 'deletes SSH keys nobody asked about', confidence: 0.92 } } : { status: 500 }));
    const { user } = judgePrompt(input);
    expect(user).toContain('prohibition: Do not delete key material.');
    expect(user).toContain('exemption: Unless the user names the key to rotate.');
    expect(user).toContain('fail (soft): Touches SSH keys');
    expect(user).toContain('p_harm 0.600');
    const out = await new LlmJudge(llm).judge(input, signal());
    expect(out).toMatchObject({ decision: 'deny', confidence: 0.92 });
    expect(out.usage?.calls).toBe(1);
  });

  it('rejects a confidence outside 0..1 or an unknown decision after one correction', async () => {
    const llm = await llmWith((_r, i) => ({ json: i === 0 ? { decision: 'maybe', reason: 'x', confidence: 3 } : { decision: 'block', reason: 'x', confidence: 0.5 } }));
    await expect(new LlmJudge(llm).judge(input, signal())).rejects.toMatchObject({ code: 'LLM_FAILED' });
    expect(server!.requests[1]!.user).toMatch(/decision|confidence/);
  });
});


describe('policy drafting (a guard request in plain language becomes an editable rules file)', () => {
  it('writes a rules file with the policy block and compiled checks that parses back, after one correction of a bad expression', async () => {
    const { draftPolicy } = await import('../../../electron/engine/core/llm/policy-draft.js');
    const { parseRuleFile } = await import('../../../electron/engine/core/checks/rule-file.js');
    const llm = await llmWith((_r, i) => ({
      json: {
        data: { tables: ['orders', 'products'] },
        checks: [
          i === 0
            ? { id: 'known-tables', title: 'Reads only the listed tables', when: 'facts.sql.tables.exists(t, !(t.name in policy.tables)' }
            : { id: 'known-tables', title: 'Reads only the listed tables', description: 'Agents may query orders and products only.', when: 'facts.sql.tables.exists(t, !(t.name in policy.tables))' },
        ],
      },
    }));
    const d = await draftPolicy(llm, { id: 'shop-db', title: 'Shop database', request: 'Agents may query orders and products only.', kinds: ['sql'], otherwise: 'allow' }, new LlmMeter(), signal());
    expect(server!.requests).toHaveLength(2);
    expect(server!.requests[0]!.user).toContain('Agents may query orders and products only.');
    const parsed = parseRuleFile(d.text);
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.policy).toMatchObject({ id: 'shop-db', kinds: ['sql'], otherwise: 'allow', data: { tables: ['orders', 'products'] } });
    expect(parsed.checks.map((c) => [c.id, c.origin, c.severity])).toEqual([['shop-db.known-tables', 'analyzer', 'hard']]);
    // the drafted check decides: a query of another table violates it, a listed one does not
    const ask = (query: string) => {
      const r: ActionRequest = { request: 'report', action: { type: 'sql', query } };
      return runChecks(parsed.checks, { facts: extractFacts(r), request: r, context: {}, probes: [], policy: parsed.policy!.data })[0]!.status;
    };
    expect(ask('SELECT * FROM customers')).toBe('fail');
    expect(ask('SELECT id FROM orders')).toBe('pass');
  });
});
