import { describe, expect, it } from 'vitest';
import { useSharedEmbedder, quietLog } from '../helpers/shared-embedder.js';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openEngine } from '../../electron/engine/create-engine.js';

import type { Engine } from '../../electron/engine/engine.js';

const sharedEmbedder = useSharedEmbedder();
const quiet = quietLog;

async function open(dbPath: string): Promise<Engine> {
  const shared = sharedEmbedder();
  return openEngine({ dbPath, embedder: shared, log: quiet });
}

const policyFile = (otherwise: 'allow' | 'gate' = 'allow', id = 'shop-ac') => `version: 1
policy:
  id: ${id}
  title: Shop database access
  request: Clerks may read order ids and totals, nothing else.
  kinds: [sql]
  otherwise: ${otherwise}
  data:
    access:
      clerk: { orders: [id, total] }
    schema:
      orders: [id, total, card_number]
checks:
  - id: ${id}.denied
    title: The query reads a column the role may not read
    severity: hard
    origin: policy
    kinds: [sql]
    when: size(sql_denied(facts.sql, policy.access, policy.schema, context.identity)) > 0
`;
const sql = (query: string, identity = 'clerk', request = 'show the order totals') => ({ request, action: { type: 'sql' as const, query, identity } });

describe('task-specific policies in the engine', () => {
  it('a failing policy check denies with its title; none failing with otherwise: allow allows on the policy', async () => {
    const e = await open(':memory:');
    expect(e.importRules(policyFile())).toEqual({ ok: true, imported: 1 });
    const bad = await e.check(sql('select card_number from orders'));
    expect(bad).toMatchObject({ decision: 'deny', path: 'check' });
    expect(bad.reason).toContain('The query reads a column the role may not read');
    const star = await e.check(sql('select * from orders'));
    expect(star.decision).toBe('deny');
    const ok = await e.check(sql('select total from orders where id = 7'));
    expect(ok).toMatchObject({ decision: 'allow', path: 'policy' });
    expect(ok.checks.find((c) => c.id === 'shop-ac.denied')).toMatchObject({ status: 'pass' });
    // an action of a kind the policy does not govern is untouched by it
    const shell = await e.check({ request: 'list files', action: { type: 'shell', command: 'ls' } });
    expect(shell.path).not.toBe('policy');
    expect(shell.checks.some((c) => c.id === 'shop-ac.denied')).toBe(false);
    await e.close();
  });

  it('under a policy, a parse error, a check error and a failing built-in hard check never allow', async () => {
    const e = await open(':memory:');
    e.importRules(policyFile());
    const unparsable = await e.check(sql('select (total from orders'));
    expect(unparsable.decision).not.toBe('allow');
    expect(unparsable.path).not.toBe('policy');
    const unknownStatement = await e.check(sql('selec total fro orders'));
    expect(unknownStatement.decision).not.toBe('allow');
    const builtin = await e.check(sql("select load_file('/etc/passwd'), total from orders"));
    expect(builtin).toMatchObject({ decision: 'deny', path: 'check' });
    expect(builtin.checks.find((c) => c.id === 'sql-file-access')).toMatchObject({ status: 'fail' });
    // a policy whose data its check cannot read: the check errors and the action is not allowed
    const broken = policyFile().replace(/  data:\n[\s\S]*?checks:/, '  data: {}\nchecks:');
    expect(e.importRules(broken)).toEqual({ ok: true, imported: 1 });
    const errored = await e.check(sql('select total from orders'));
    expect(errored.checks.find((c) => c.id === 'shop-ac.denied')).toMatchObject({ status: 'error' });
    expect(errored.decision).not.toBe('allow');
    await e.close();
  });

  it('with otherwise: gate the usual gate decides what no policy check fails', async () => {
    const e = await open(':memory:');
    e.importRules(policyFile('gate'));
    const v = await e.check(sql('select total from orders where id = 7'));
    expect(v.path).not.toBe('policy');
    expect((await e.check(sql('select card_number from orders'))).decision).toBe('deny');
    await e.close();
  });

  it('the policy and its checks survive a restart on a SQLite file, and removing it removes both', async () => {
    const db = join(mkdtempSync(join(tmpdir(), 'warden-policy-')), 'w.db');
    let e = await open(db);
    e.importRules(policyFile());
    await e.close();
    e = await open(db);
    expect(e.listPolicies()).toEqual([
      expect.objectContaining({ id: 'shop-ac', kinds: ['sql'], otherwise: 'allow', checks: ['shop-ac.denied'], data: expect.objectContaining({ access: { clerk: { orders: ['id', 'total'] } } }) }),
    ]);
    expect(await e.check(sql('select total from orders'))).toMatchObject({ decision: 'allow', path: 'policy' });
    expect(e.removePolicy('shop-ac')).toBe(true);
    expect(e.removePolicy('shop-ac')).toBe(false);
    expect(e.listPolicies()).toEqual([]);
    expect(e.listChecks().some((c) => c.id === 'shop-ac.denied')).toBe(false);
    expect((await e.check(sql('select total from orders'))).path).not.toBe('policy');
    await e.close();
    e = await open(db);
    expect(e.listPolicies()).toEqual([]);
    await e.close();
  });

  it('a new version of a policy replaces its checks; a check id of another policy or of a plain check is refused', async () => {
    const e = await open(':memory:');
    e.importRules(policyFile());
    const renamed = policyFile().replace('- id: shop-ac.denied', '- id: shop-ac.columns');
    expect(e.importRules(renamed)).toEqual({ ok: true, imported: 1 });
    expect(e.listPolicies()[0]!.checks).toEqual(['shop-ac.columns']);
    expect(e.listChecks().some((c) => c.id === 'shop-ac.denied')).toBe(false);
    const other = policyFile('allow', 'other').replace('- id: other.denied', '- id: shop-ac.columns');
    expect(e.importRules(other)).toEqual({ ok: false, issues: [{ path: 'checks.shop-ac.columns', message: 'the id belongs to policy shop-ac' }] });
    const plain = policyFile('allow', 'other').replace('- id: other.denied', '- id: delete-home');
    expect(e.importRules(plain)).toMatchObject({ ok: false, issues: [{ path: 'checks.delete-home' }] });
    await e.close();
  });

  it('exports a policy as a rules file that imports back, and leaves policy checks out of the plain export', async () => {
    const e = await open(':memory:');
    e.importRules(policyFile());
    const text = e.exportRules('shop-ac');
    expect(text).toContain('policy:');
    expect(e.exportRules()).not.toContain('shop-ac.denied');
    const before = e.listPolicies();
    expect(e.importRules(text)).toEqual({ ok: true, imported: 1 });
    expect(e.listPolicies()).toEqual(before);
    expect(() => e.exportRules('nope')).toThrow(/no policy/);
    await e.close();
  });
});
