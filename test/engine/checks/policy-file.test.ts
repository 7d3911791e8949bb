import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseRuleFile, serializeRuleFile } from '../../../electron/engine/core/checks/index.js';

const FILE = `version: 1
policy:
  id: shop-ac
  title: Shop database access
  request: |
    Clerks may read orders but not customers' cards.
  kinds: [sql]
  otherwise: allow
  data:
    access:
      clerk: { orders: [id, total] }
checks:
  - id: shop-ac.denied
    title: The role may not read a column the query touches
    severity: hard
    origin: policy
    kinds: [sql]
    when: size(sql_denied(facts.sql, policy.access, context.identity)) > 0
`;

describe('the policy block of a rules file', () => {
  it('parses the policy with its checks and fills the defaults', () => {
    const r = parseRuleFile(FILE);
    if (!r.ok) throw new Error(JSON.stringify(r.issues));
    expect(r.policy).toEqual({
      id: 'shop-ac',
      title: 'Shop database access',
      request: "Clerks may read orders but not customers' cards.\n",
      kinds: ['sql'],
      otherwise: 'allow',
      data: { access: { clerk: { orders: ['id', 'total'] } } },
    });
    expect(r.checks.map((c) => c.id)).toEqual(['shop-ac.denied']);
    const bare = parseRuleFile('version: 1\npolicy:\n  id: p\n  title: t\n  request: r\n  kinds: [web]\nchecks: []\n');
    expect(bare.ok && bare.policy).toMatchObject({ otherwise: 'gate', data: {} });
  });

  it('a file without a policy block has none', () => {
    const r = parseRuleFile('version: 1\nchecks: []\n');
    expect(r).toEqual({ ok: true, checks: [] });
  });

  it('writes the policy back so that it reads back the same (round trip)', () => {
    const first = parseRuleFile(FILE);
    if (!first.ok) throw new Error('bad fixture');
    const again = parseRuleFile(serializeRuleFile(first.checks, first.policy));
    expect(again).toEqual(first);
  });

  it('round-trips the shipped policies', () => {
    for (const name of ['eicu-ac.yaml', 'mind2web-sc.yaml']) {
      const r = parseRuleFile(readFileSync(join(process.cwd(), 'assets', 'policies', name), 'utf8'));
      if (!r.ok) throw new Error(`${name}: ${JSON.stringify(r.issues)}`);
      expect(r.policy?.id).toBe(name.replace('.yaml', ''));
      expect(parseRuleFile(serializeRuleFile(r.checks, r.policy))).toEqual(r);
    }
  });

  it('reports each bad field of the policy with its path', () => {
    const bad = FILE.replace('id: shop-ac\n', 'id: Shop AC\n').replace('kinds: [sql]\n  otherwise: allow', 'kinds: [sql, fax]\n  otherwise: maybe').replace('  request: |\n    Clerks may read orders but not customers\' cards.\n', '');
    const r = parseRuleFile(bad);
    expect(r.ok).toBe(false);
    const paths = r.ok ? [] : r.issues.map((i) => i.path);
    expect(paths).toEqual(expect.arrayContaining(['policy.id', 'policy.request', 'policy.kinds.1', 'policy.otherwise']));
  });

  it('refuses unknown policy fields, a policy governing no kind, and data that is not a map', () => {
    const extra = parseRuleFile(FILE.replace('  otherwise: allow\n', '  otherwise: allow\n  owner: me\n'));
    expect(extra.ok ? [] : extra.issues.map((i) => i.path)).toEqual(['policy']);
    const none = parseRuleFile(FILE.replace('kinds: [sql]\n  otherwise', 'kinds: []\n  otherwise'));
    expect(none.ok ? [] : none.issues).toEqual([{ path: 'policy.kinds', message: 'a policy governs at least one action kind' }]);
    const list = parseRuleFile(FILE.replace(/  data:\n[\s\S]*?checks:/, '  data: [1, 2]\nchecks:'));
    expect(list.ok ? [] : list.issues.map((i) => i.path)).toEqual(['policy.data']);
  });

  it("refuses a check the policy would never run: another kind, or scope retrieved", () => {
    const other = parseRuleFile(FILE.replace('    kinds: [sql]\n    when', '    kinds: [sql, shell]\n    when'));
    expect(other.ok ? [] : other.issues.map((i) => i.path)).toEqual(['checks.shop-ac.denied.kinds']);
    const retrieved = parseRuleFile(FILE.replace('    origin: policy\n', '    origin: policy\n    scope: retrieved\n'));
    expect(retrieved.ok ? [] : retrieved.issues.map((i) => i.path)).toEqual(['checks.shop-ac.denied.scope']);
  });
});
