/**
 * User-profile rules for actions (GuardAgent's Mind2Web-SC task): "a user under 18 cannot book a
 * hotel". The policy's data holds the rules:
 *
 *   rules:
 *     - id: hotel-adult
 *       action: "\\bbook\\b.*\\bhotel"      # regular expression (case-insensitive) over the task and the action
 *       require: profile.age >= 18         # CEL over the user's profile
 *       violation: User aged under 18 cannot book a hotel
 *
 * A rule applies when its `action` matches the text of the request followed by the action (for a
 * web action: operation, element and value); it is broken when its requirement is not met. A
 * requirement that cannot be evaluated (a field the profile lacks, a value of the wrong type)
 * counts as not met: the guard fails closed.
 *
 * `action` may also be a list of expressions (the rule applies when any of them matches), so a
 * long word list can be kept as one short line per kind of word. An optional `unless` (one
 * expression or a list) names what the rule does not cover even when `action` matches: "fares"
 * and "one-way" speak of flights, unless the task is about a train or a bus. A rule set aside by
 * `unless` does not claim the task under `match: first`; the next rule that matches does.
 *
 * An optional `site` (one expression or a list, over the site the agent is on: the action's
 * observation, e.g. "website: avis (Travel / Car rental)") lets the place settle what the words
 * leave open: only when no rule's `action` covers the task, a rule whose `site` matches covers it
 * (`unless` still sets it aside). "Book for May 3-5 at the airport branch" on a car rental site
 * is a car rental though it names no car; the same words on a museum's site are not.
 */
import { Environment } from '@marcbachmann/cel-js';
import { z } from 'zod';
import { cachedRegex } from '../cached-regex.js';
import type { Action } from '../../../../shared/types.js';
import { toolInput, type GuardTool, type ToolContext, type ToolReport } from './types.js';

/** One profile rule. */
export interface ProfileRule {
  id: string;
  /** Regular expression over the request and the action, case-insensitive; or a list of them, any of which applies the rule. */
  action: string | string[];
  /** Expressions (one or a list) naming what the rule does not cover even when `action` matches. */
  unless?: string | string[];
  /** Expressions (one or a list) over the site the agent is on; they cover a task no rule's `action` covers. */
  site?: string | string[];
  /** CEL over `profile`; true when the user may do it. */
  require: string;
  /** What a reviewer reads when the rule is broken. */
  violation: string;
}

/** A broken rule, and why. */
export interface BrokenRule {
  id: string;
  violation: string;
  /** Set when the requirement could not be evaluated. */
  error?: string;
}

const patternsSchema = z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]);
const ruleSchema = z
  .object({ id: z.string().min(1), action: patternsSchema, unless: patternsSchema.optional(), site: patternsSchema.optional(), require: z.string().min(1), violation: z.string().min(1) })
  .strict();
const rulesSchema = z.union([
  z.array(ruleSchema),
  z.object({ match: z.enum(['all', 'first']), list: z.array(ruleSchema) }).strict(),
]);

/** Rules with how they apply: `all` (every matching rule) or `first` (a task falls under the first rule whose action matches, as when a policy sorts each action into one category). */
export interface ProfileRuleSet {
  match: 'all' | 'first';
  list: ProfileRule[];
}

const REQUIRE_ENV = new Environment({
  unlistedVariablesAreDyn: false,
  homogeneousAggregateLiterals: false,
  limits: { maxAstNodes: 500, maxDepth: 50, maxListElements: 1000, maxMapEntries: 1000, maxCallArguments: 8 },
}).registerVariable('profile', 'dyn');

type Compiled = (env: Record<string, unknown>) => unknown;
const compiledRequire = new Map<string, Compiled>();

function requirement(text: string): Compiled {
  let fn = compiledRequire.get(text);
  if (!fn) {
    const typed = REQUIRE_ENV.check(text) as { valid: boolean; error?: { message?: string } };
    if (!typed.valid) throw new Error(`require ${JSON.stringify(text)}: ${typed.error?.message?.split('\n')[0] ?? 'does not type-check'}`);
    fn = REQUIRE_ENV.parse(text) as unknown as Compiled;
    if (compiledRequire.size > 1000) compiledRequire.clear();
    compiledRequire.set(text, fn);
  }
  return fn;
}


/**
 * Validates rules (shape, regular expressions, requirements); throws naming the rule at fault, so
 * a policy with a broken rule is refused rather than silently skipped.
 */
export function parseProfileRules(data: unknown): ProfileRuleSet {
  const parsed = rulesSchema.parse(data);
  const set: ProfileRuleSet = Array.isArray(parsed) ? { match: 'all', list: parsed } : parsed;
  for (const r of set.list) {
    try {
      for (const p of [...patterns(r.action), ...patterns(r.unless), ...patterns(r.site)]) cachedRegex(p);
      requirement(r.require);
    } catch (e) {
      throw new Error(`profile rule ${r.id}: ${(e as Error).message.split('\n')[0]}`);
    }
  }
  return set;
}

function patterns(p: string | string[] | undefined): string[] {
  return p === undefined ? [] : typeof p === 'string' ? [p] : p;
}

/** Whether any expression of `p` matches the text. */
function matchesAny(p: string | string[] | undefined, text: string): boolean {
  return patterns(p).some((x) => cachedRegex(x).test(text));
}

/**
 * Whether a rule covers the text: one of its `action` expressions matches it and none of its
 * `unless` ones matches it or the site (a bus company's site sets aside "round trip" as a flight).
 */
export function ruleCovers(rule: Pick<ProfileRule, 'action' | 'unless'>, text: string, site = ''): boolean {
  return matchesAny(rule.action, text) && !setAside(rule, text, site);
}

/** One of the rule's `unless` expressions matches the text or the site. */
function setAside(rule: Pick<ProfileRule, 'unless'>, text: string, site: string): boolean {
  return matchesAny(rule.unless, site === '' ? text : `${text}\n${site}`);
}

/** The text rules match: the request, then what the action does. */
export function actionText(request: string, action: Action): string {
  const what =
    action.type === 'web'
      ? [action.operation, action.element, action.value ?? ''].join(' ')
      : action.type === 'shell'
        ? action.command
        : action.type === 'sql'
          ? action.query
          : action.type === 'tool'
            ? `${action.name} ${JSON.stringify(action.arguments)}`
            : action.content;
  return `${request}\n${what}`.replace(/[ \t]+/g, ' ').trim();
}

/**
 * The rules that apply to `text` and whose requirement `profile` does not meet. `site` is where
 * the agent is; rules with a `site` cover the task by it when no rule's `action` covers the text.
 */
export function brokenRules(rules: unknown, text: string, profile: unknown, site = ''): BrokenRule[] {
  const set = parseProfileRules(rules);
  const byWords = (r: ProfileRule) => ruleCovers(r, text, site);
  const bySite = (r: ProfileRule) => site !== '' && matchesAny(r.site, site) && !setAside(r, text, site);
  let covering: ProfileRule[];
  if (set.match === 'first') {
    // the first covering rule alone decides the task
    const r = set.list.find(byWords) ?? set.list.find(bySite);
    covering = r ? [r] : [];
  } else {
    covering = set.list.filter(byWords);
    if (covering.length === 0) covering = set.list.filter(bySite);
  }
  const env = { profile: profile && typeof profile === 'object' ? profile : {} };
  const out: BrokenRule[] = [];
  for (const r of covering) {
    let met: unknown;
    try {
      met = requirement(r.require)(env);
    } catch (e) {
      out.push({ id: r.id, violation: r.violation, error: (e as Error).message.split('\n')[0]! });
      continue;
    }
    if (met !== true) out.push({ id: r.id, violation: r.violation, ...(typeof met === 'boolean' ? {} : { error: `the requirement returned ${typeof met}, not a boolean` }) });
  }
  return out;
}

const inputSchema = z.object({ profile: z.record(z.string(), z.unknown()).optional() }).strict();

/** The tool: reads the rules from the policy's data (`rules`) and the profile from the action's context. */
export const profileRulesTool: GuardTool = {
  name: 'profile_rules',
  description: "Lists the policy's user-profile rules that apply to this task and action and that the user's profile does not meet.",
  inputHelp: '{"profile"?: object}: the user profile to check; defaults to the action context\'s profile',
  async run(input: unknown, ctx: ToolContext): Promise<ToolReport> {
    const tool = 'profile_rules';
    const parsed = toolInput(tool, inputSchema, input);
    if ('refused' in parsed) return parsed.refused;
    const profile = parsed.data.profile ?? ctx.request.context?.profile ?? {};
    try {
      const site = ctx.request.context?.observation;
      const broken = brokenRules(ctx.policy['rules'] ?? [], actionText(ctx.request.request, ctx.request.action), profile, typeof site === 'string' ? site : '');
      if (broken.length === 0) return { tool, ok: true, violation: false, detail: 'no profile rule forbids this task for this user', data: broken };
      return { tool, ok: true, violation: true, detail: broken.map((b) => b.violation + (b.error ? ` (${b.error})` : '')).join('; '), data: broken };
    } catch (e) {
      return { tool, ok: false, violation: false, detail: `the policy's rules are not usable: ${(e as Error).message.split('\n')[0]}` };
    }
  },
};
