/**
 * Compiling and running checks. A check's `when` is a CEL expression over
 * { facts, request, action, context, ask, probes, policy }; true means the action violates it.
 * An expression that throws or yields a non-boolean reports `error`, which the gate treats as
 * failing closed.
 */
import { parse } from '@marcbachmann/cel-js';
import type { ActionRequest, Check, CheckResult, Facts, ProbeResult } from '../../../../shared/types.js';
import { probesEnv, type ProbesEnv } from './probes-env.js';

/** A compiled `when` expression. */
export type CompiledCheck = (env: Record<string, unknown>) => unknown;

const cache = new Map<string, CompiledCheck>();

/** Compiles (once per distinct expression) or throws with the parser's message. */
export function compileCheck(check: Pick<Check, 'id' | 'when'>): CompiledCheck {
  const hit = cache.get(check.when);
  if (hit) return hit;
  const fn = parse(check.when) as unknown as CompiledCheck;
  cache.set(check.when, fn);
  return fn;
}

/** What the checks see. */
export interface CheckEnvInput {
  facts: Facts;
  request: ActionRequest;
  context: object;
  probes: ProbeResult[];
  policy?: Record<string, unknown>;
}

/** The evaluation environment, built once per action. */
export function checkEnv(input: CheckEnvInput): Record<string, unknown> & { probes: ProbesEnv } {
  return {
    facts: input.facts,
    request: input.request,
    action: input.request.action,
    context: { user: 'user', cwd: '', profile: {}, ...input.context },
    ask: input.request.request.toLowerCase(),
    probes: probesEnv(input.probes),
    policy: input.policy ?? {},
  };
}

/** Runs checks against one action. Checks of other action kinds are skipped. */
export function runChecks(checks: { check: Check; compiled: CompiledCheck | undefined }[], input: CheckEnvInput): CheckResult[] {
  const env = checkEnv(input);
  const out: CheckResult[] = [];
  for (const { check, compiled } of checks) {
    const base = { id: check.id, title: check.title, severity: check.severity };
    if (check.kinds.length > 0 && !check.kinds.includes(input.facts.kind)) continue;
    if (check.probes?.length && !env.probes.available) {
      // without a live environment a probe check cannot be decided; hard ones are decided on
      // the facts alone by their own expressions, soft ones are skipped
      if (check.severity === 'soft') {
        out.push({ ...base, status: 'skipped', detail: 'needs a sandbox probe' });
        continue;
      }
    }
    if (!compiled) {
      out.push({ ...base, status: 'error', detail: 'the expression does not compile' });
      continue;
    }
    try {
      const v = compiled(env);
      if (typeof v !== 'boolean') out.push({ ...base, status: 'error', detail: `expression returned ${typeof v}, not a boolean` });
      else out.push({ ...base, status: v ? 'fail' : 'pass' });
    } catch (e) {
      out.push({ ...base, status: 'error', detail: String((e as Error).message ?? e).split('\n')[0]!.slice(0, 200) });
    }
  }
  return out;
}
