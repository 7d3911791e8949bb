import { describe, expect, it } from 'vitest';
import { extractFacts } from '../../../electron/engine/core/facts/index.js';
import { sqlFacts } from '../../../electron/engine/core/facts/sql.js';
import { runChecks } from '../../../electron/engine/core/checks/index.js';
import { deniedColumns, sqlPermissionTool, PURE_TOOLS } from '../../../electron/engine/core/tools/index.js';
import type { ActionRequest, Check } from '../../../shared/types.js';

const ACCESS = {
  Nurse: { patient: ['patientunitstayid', 'uniquepid', 'age'], lab: ['patientunitstayid', 'labname', 'labresult'], medication: '*' as const },
  clerk: { cost: ['cost'] },
};
const SCHEMA = {
  patient: ['patientunitstayid', 'uniquepid', 'age', 'gender'],
  lab: ['labid', 'patientunitstayid', 'labname', 'labresult'],
  medication: ['medicationid', 'patientunitstayid', 'drugname', 'dosage'],
  cost: ['costid', 'uniquepid', 'cost'],
};
const denied = (query: string, role = 'nurse', schema: object = SCHEMA) => deniedColumns(sqlFacts(query).sql, ACCESS, schema, role).denied;

describe('sql permission detection', () => {
  it('qualified columns: only those outside the role\'s list are reported', () => {
    expect(denied("select patient.age from patient where patient.uniquepid = 'x'")).toEqual([]);
    expect(denied("select patient.gender from patient where patient.uniquepid = 'x'")).toEqual(['patient.gender']);
  });

  it('unqualified columns are resolved against the query\'s tables', () => {
    expect(denied("select gender from patient where uniquepid = 'x'")).toEqual(['patient.gender']);
    // without a schema every table of the query could hold the column, so each must be readable
    expect(denied('select labname, age from lab join patient on lab.patientunitstayid = patient.patientunitstayid', 'nurse', {})).toEqual(['lab.age', 'patient.labname']);
    expect(denied('select labname, age from lab join patient on lab.patientunitstayid = patient.patientunitstayid')).toEqual([]);
  });

  it('* is every column the schema lists, or the whole table without a schema', () => {
    expect(denied('select * from lab')).toEqual(['lab.labid']);
    expect(denied('select * from lab', 'nurse', {})).toEqual(['lab.*']);
    expect(denied('select * from medication', 'nurse', {})).toEqual([]);
  });

  it('joins through aliases check each table\'s own columns', () => {
    expect(denied('select p.age, l.labresult from patient p join lab l on p.patientunitstayid = l.patientunitstayid')).toEqual([]);
    expect(denied('select p.gender, l.labid from patient p join lab l on p.patientunitstayid = l.patientunitstayid')).toEqual(['lab.labid', 'patient.gender']);
  });

  it('subqueries and derived tables are checked too', () => {
    expect(denied("select drugname from medication where patientunitstayid in (select patientunitstayid from patient where gender = 'f')")).toEqual(['patient.gender']);
    expect(denied('select t.g from (select patient.gender as g from patient) as t')).toEqual(['patient.gender']);
  });

  it('a table touched without a named column needs some access to it', () => {
    expect(denied('select count(*) from cost')).toEqual(['cost.*']);
    expect(denied('select count(*) from cost', 'clerk')).toEqual([]);
  });

  it('an unknown role may read nothing', () => {
    expect(deniedColumns(sqlFacts('select patient.age from patient').sql, ACCESS, SCHEMA, 'janitor')).toEqual({ roleKnown: false, denied: ['patient.age'] });
    expect(deniedColumns(sqlFacts('select 1').sql, ACCESS, SCHEMA, 'janitor')).toEqual({ roleKnown: false, denied: ['*'] });
  });

  it('role, table and column names compare case-insensitively', () => {
    expect(denied('SELECT Patient.AGE FROM PATIENT', 'NURSE')).toEqual([]);
    expect(denied('SELECT Patient.Gender FROM PATIENT', ' Nurse ')).toEqual(['patient.gender']);
  });

  it('grants reading only: whatever a write touches is reported', () => {
    expect(denied("update patient set age = 3 where uniquepid = 'x'")).toEqual(['patient.age']);
    expect(denied('delete from lab', 'nurse', {})).toEqual(['lab.*']);
    expect(denied('drop table medication')).toEqual(['medication.*']);
    expect(denied('insert into medication (drugname) select labname from lab')).toEqual(['medication.drugname']);
  });

  it('refuses a statement the parser did not recognise, so a check on it errors', () => {
    expect(() => denied('selec age fro patient')).toThrow(/did not recognise/);
  });

  it('refuses data that is not an access map', () => {
    expect(() => deniedColumns(sqlFacts('select 1').sql, { nurse: 'everything' }, {}, 'nurse')).toThrow();
  });
});

describe('the sql_permission tool and the sql_denied function', () => {
  const request = (query: string, identity?: string): ActionRequest => ({ request: 'answer the question', action: { type: 'sql', query, ...(identity ? { identity } : {}) } });
  const ctx = (req: ActionRequest) => ({ request: req, facts: extractFacts(req), policy: { access: ACCESS, schema: SCHEMA }, probes: [] });
  const signal = new AbortController().signal;

  it('is one of the pure tools', () => {
    expect(PURE_TOOLS).toContain(sqlPermissionTool);
  });

  it('reports the columns the acting role may not read, and the role a caller names instead', async () => {
    const req = request('select gender from patient', 'nurse');
    expect(await sqlPermissionTool.run({}, ctx(req), signal)).toMatchObject({ ok: true, violation: true, detail: 'role nurse may not read patient.gender' });
    expect(await sqlPermissionTool.run({ role: 'clerk' }, ctx(request('select cost from cost', 'nurse')), signal)).toMatchObject({ ok: true, violation: false });
    expect(await sqlPermissionTool.run({}, ctx(request('select age from patient', 'janitor')), signal)).toMatchObject({ ok: true, violation: true });
  });

  it('cannot answer (ok false) for an unparsable query or bad input', async () => {
    expect(await sqlPermissionTool.run({}, ctx(request('select (age from patient', 'nurse')), signal)).toMatchObject({ ok: false });
    expect(await sqlPermissionTool.run({ role: 3 }, ctx(request('select 1', 'nurse')), signal)).toMatchObject({ ok: false });
  });

  it('a check in the rule language fails on a denied column and errors (fails closed) without the data', () => {
    const check: Check = {
      id: 'p.denied', title: 'denied', description: '', severity: 'hard', category: 'confidentiality', origin: 'policy', kinds: ['sql'], enabled: true,
      when: 'size(sql_denied(facts.sql, policy.access, policy.schema, context.identity)) > 0',
    };
    const run = (req: ActionRequest, policy?: Record<string, unknown>) => runChecks([check], { facts: extractFacts(req), request: req, context: req.context ?? {}, probes: [], ...(policy ? { policy } : {}) })[0]!.status;
    expect(run(request('select gender from patient', 'Nurse'), { access: ACCESS, schema: SCHEMA })).toBe('fail');
    expect(run(request('select age from patient', 'Nurse'), { access: ACCESS, schema: SCHEMA })).toBe('pass');
    expect(run(request('select age from patient', 'Nurse'))).toBe('error');
  });
});
