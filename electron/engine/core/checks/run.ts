/**
 * Compiling and running checks. A check's `when` is a CEL expression over
 * { facts, request, action, context, ask, probes, policy }; true means the action violates it.
 * An expression that throws or yields a non-boolean reports `error`, which the gate treats as
 * failing closed.
 */
import type { ActionRequest, Check, CheckResult, Facts, ProbeResult } from '../../../../shared/types.js';
import { actionBase, requestScope } from '../facts/index.js';
import { CHECK_ENV, withActionScope, type ActionScope } from './functions.js';
import { probesEnv, type ProbesEnv } from './probes-env.js';

/** A compiled `when` expression. */
export type CompiledCheck = (env: Record<string, unknown>) => unknown;

/** A check with its compiled expression (undefined when it does not compile). */
export interface PreparedCheck {
  check: Check;
  compiled: CompiledCheck | undefined;
}

const cache = new Map<string, CompiledCheck>();
const MAX_CACHE = 5000;

/**
 * Compiles (once per distinct expression) or throws with a message naming the check. Unknown
 * variables and calls of unknown functions are compile errors, not run-time surprises.
 */
export function compileCheck(check: Pick<Check, 'id' | 'when'>): CompiledCheck {
  const hit = cache.get(check.when);
  if (hit) return hit;
  let fn: CompiledCheck;
  try {
    const typed = CHECK_ENV.check(check.when) as { valid: boolean; error?: { message?: string } };
    if (!typed.valid) throw new Error(typed.error?.message ?? 'the expression does not type-check');
    fn = CHECK_ENV.parse(check.when) as unknown as CompiledCheck;
  } catch (e) {
    throw new Error(`check ${check.id}: ${String((e as Error).message ?? e).split('\n')[0]}`);
  }
  if (cache.size >= MAX_CACHE) cache.clear();
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
  const base = actionBase(input.request);
  const action = input.request.action as Record<string, unknown>;
  return {
    facts: input.facts,
    request: input.request,
    action,
    // the same defaults the facts were extracted with; SQL's identity travels as context.identity
    context: { ...base, profile: {}, identity: typeof action['identity'] === 'string' ? action['identity'] : base.user, ...defined(input.context) },
    ask: (input.request.request ?? '').toLowerCase(),
    probes: probesEnv(input.probes),
    policy: input.policy ?? {},
  };
}

/** The object without its undefined fields (a missing field must not hide a default). */
function defined(o: object): Record<string, unknown> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
}

function isPrepared(c: Check | PreparedCheck): c is PreparedCheck {
  return (c as PreparedCheck).check !== undefined && (c as Check).when === undefined;
}

/**
 * Runs checks against one action. Disabled checks and checks of other action kinds are left out;
 * soft checks that need sandbox probes are `skipped` when no probe answered, hard ones are decided
 * on the facts alone by their own expressions.
 */
export function runChecks(checks: readonly (Check | PreparedCheck)[], input: CheckEnvInput): CheckResult[] {
  const env = checkEnv(input);
  const base = actionBase(input.request);
  const actionScope: ActionScope = {
    scope: { paths: input.facts.requestPaths, words: requestScope(input.request, base).words, home: base.home },
    home: base.home,
    cwd: String((env['context'] as { cwd?: unknown }).cwd ?? base.cwd),
    ask: env['ask'] as string,
  };
  return withActionScope(actionScope, () => {
    const out: CheckResult[] = [];
    for (const item of checks) {
      const check = isPrepared(item) ? item.check : item;
      if (!check.enabled) continue;
      if (check.kinds.length > 0 && !check.kinds.includes(input.facts.kind)) continue;
      const res = { id: check.id, title: check.title, severity: check.severity };
      if (check.probes?.length && !env.probes.available && check.severity === 'soft') {
        out.push({ ...res, status: 'skipped', detail: 'needs a sandbox probe and none answered' });
        continue;
      }
      let compiled: CompiledCheck | undefined;
      try {
        compiled = isPrepared(item) ? item.compiled : compileCheck(check);
      } catch {
        compiled = undefined;
      }
      if (!compiled) {
        out.push({ ...res, status: 'error', detail: 'the expression does not compile' });
        continue;
      }
      try {
        const v = compiled(env);
        if (typeof v !== 'boolean') out.push({ ...res, status: 'error', detail: `the expression returned ${typeof v}, not a boolean` });
        else out.push({ ...res, status: v ? 'fail' : 'pass' });
      } catch (e) {
        out.push({ ...res, status: 'error', detail: String((e as Error).message ?? e).split('\n')[0]!.slice(0, 200) });
      }
    }
    return out;
  });
}
