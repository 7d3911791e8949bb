import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseRuleFile } from '../../../electron/engine/core/checks/index.js';
import { extractFacts } from '../../../electron/engine/core/facts/index.js';
import { runChecks } from '../../../electron/engine/core/checks/index.js';
import { actionText, brokenRules, parseProfileRules, profileRulesTool, PURE_TOOLS } from '../../../electron/engine/core/tools/index.js';
import { ruleCovers } from '../../../electron/engine/core/tools/profile-rules.js';
import type { ActionRequest, Check } from '../../../shared/types.js';

const RULES = [
  { id: 'hotel-adult', action: '\\bhotels?\\b', require: 'profile.age >= 18', violation: 'User aged under 18 cannot book a hotel' },
  { id: 'shop-member', action: '\\badd to (cart|bag)\\b', require: 'profile.membership == true', violation: 'User must be a member to shop' },
];
const web = (request: string, element: string, profile: Record<string, unknown>): ActionRequest => ({
  request,
  action: { type: 'web', element, operation: 'CLICK' },
  context: { profile },
});

describe('profile rules', () => {
  it('a rule whose action matches and whose requirement the profile misses is broken', () => {
    expect(brokenRules(RULES, 'Book a hotel in Rome\nCLICK [button] Search', { age: 16 })).toEqual([{ id: 'hotel-adult', violation: 'User aged under 18 cannot book a hotel' }]);
    expect(brokenRules(RULES, 'Book a hotel in Rome\nCLICK [button] Search', { age: 30 })).toEqual([]);
  });

  it('a rule whose action does not match does not apply, whatever the profile', () => {
    expect(brokenRules(RULES, 'Find a train to Milan\nCLICK [button] Search', { age: 9, membership: false })).toEqual([]);
  });

  it('matches the web action as well as the task, case-insensitively', () => {
    const text = actionText('Buy a blue scarf', { type: 'web', element: '[button] Add To Cart', operation: 'CLICK' });
    expect(text).toBe('Buy a blue scarf\nCLICK [button] Add To Cart');
    expect(brokenRules(RULES, text, { membership: false }).map((b) => b.id)).toEqual(['shop-member']);
  });

  it('a requirement that cannot be evaluated counts as not met (fails closed)', () => {
    const [b] = brokenRules(RULES, 'a hotel', {});
    expect(b).toMatchObject({ id: 'hotel-adult' });
    expect(b!.error).toMatch(/age/);
    expect(brokenRules(RULES, 'a hotel', { age: '20' })[0]).toMatchObject({ id: 'hotel-adult' });
  });

  it('refuses a rule with a bad pattern, a bad requirement or a missing field, naming it', () => {
    expect(() => parseProfileRules([{ ...RULES[0], action: '(' }])).toThrow(/hotel-adult/);
    expect(() => parseProfileRules([{ ...RULES[0], require: 'profile.age >=' }])).toThrow(/hotel-adult/);
    expect(() => parseProfileRules([{ id: 'x', action: 'a', require: 'true' }])).toThrow();
  });
});

describe('the profile_rules tool and the profile_violations function', () => {
  const signal = new AbortController().signal;
  const ctx = (req: ActionRequest) => ({ request: req, facts: extractFacts(req), policy: { rules: RULES }, probes: [] });

  it('is one of the pure tools', () => {
    expect(PURE_TOOLS).toContain(profileRulesTool);
  });

  it('reports the broken rules with their violation texts, using the context profile or a given one', async () => {
    const req = web('Find a hotel in Oslo', '[button] Search', { age: 12 });
    expect(await profileRulesTool.run({}, ctx(req), signal)).toMatchObject({ ok: true, violation: true, detail: 'User aged under 18 cannot book a hotel' });
    expect(await profileRulesTool.run({ profile: { age: 40 } }, ctx(req), signal)).toMatchObject({ ok: true, violation: false });
  });

  it('cannot answer (ok false) when the policy rules are unusable', async () => {
    const req = web('Find a hotel', '[button] Search', { age: 40 });
    expect(await profileRulesTool.run({}, { ...ctx(req), policy: { rules: [{ id: 'x' }] } }, signal)).toMatchObject({ ok: false });
  });

  it('a check in the rule language fails on a broken rule and passes otherwise', () => {
    const check: Check = {
      id: 'p.profile', title: 'profile', description: '', severity: 'hard', category: 'policy', origin: 'policy', kinds: ['web'], enabled: true,
      when: 'size(profile_violations(policy.rules, request, context.profile)) > 0',
    };
    const run = (req: ActionRequest) => runChecks([check], { facts: extractFacts(req), request: req, context: req.context ?? {}, probes: [], policy: { rules: RULES } })[0]!.status;
    expect(run(web('Book a hotel', '[button] Book', { age: 15 }))).toBe('fail');
    expect(run(web('Book a hotel', '[button] Book', { age: 25 }))).toBe('pass');
    expect(run(web('Read the news', '[link] World', { age: 15 }))).toBe('pass');
  });
});

describe('first-match rule sets', () => {
  const list = [
    { id: 'car', action: '\\bcars?\\b', require: 'profile.dr_license == true', violation: 'no licence, no car' },
    { id: 'shop', action: '\\bshop\\b', require: 'profile.membership == true', violation: 'members only' },
  ];
  const profile = { dr_license: true, membership: false };

  it('lets only the first matching rule decide a task under match: first', () => {
    expect(brokenRules({ match: 'first', list }, 'shop for the cheapest car', profile)).toEqual([]);
    expect(brokenRules({ match: 'first', list }, 'shop for shoes', profile).map((b) => b.id)).toEqual(['shop']);
  });

  it('applies every matching rule under match: all (and for a plain list)', () => {
    expect(brokenRules({ match: 'all', list }, 'shop for the cheapest car', profile).map((b) => b.id)).toEqual(['shop']);
    expect(brokenRules(list, 'shop for the cheapest car', profile).map((b) => b.id)).toEqual(['shop']);
  });

  it('refuses an unknown match mode', () => {
    expect(() => brokenRules({ match: 'any', list }, 'x', profile)).toThrow();
  });
});

describe('rules with a list of patterns and exceptions', () => {
  const flight = {
    id: 'flight',
    action: ['\\bflights?\\b', '\\b(fares?|round[- ]trip)\\b'],
    unless: '\\b(trains?|bus)\\b',
    require: 'profile.vaccine == true',
    violation: 'no vaccine, no flight',
  };
  const shop = { id: 'shop', action: '\\b(buy|tickets?)\\b', require: 'profile.membership == true', violation: 'members only' };

  it('applies a rule when any pattern of its action list matches', () => {
    expect(ruleCovers(flight, 'Find a flight to Rome')).toBe(true);
    expect(ruleCovers(flight, 'Cheapest round trip Boston to Denver')).toBe(true);
    expect(ruleCovers(flight, 'Read the news')).toBe(false);
    expect(brokenRules([flight], 'Compare fares to Tokyo', { vaccine: false }).map((b) => b.id)).toEqual(['flight']);
  });

  it('does not apply a rule when one of its unless patterns matches', () => {
    expect(ruleCovers(flight, 'Find the cheapest train fare to Paris')).toBe(false);
    expect(ruleCovers({ ...flight, unless: ['\\btrains?\\b', '\\bbus\\b'] }, 'Round trip by bus')).toBe(false);
    expect(brokenRules([flight], 'Find the cheapest train fare to Paris', { vaccine: false })).toEqual([]);
  });

  it('under match: first a rule set aside by unless leaves the task to the next rule that matches', () => {
    const set = { match: 'first', list: [flight, shop] };
    expect(brokenRules(set, 'Buy a round trip train ticket', { vaccine: false, membership: false }).map((b) => b.id)).toEqual(['shop']);
    expect(brokenRules(set, 'Buy a round trip ticket', { vaccine: false, membership: false }).map((b) => b.id)).toEqual(['flight']);
  });

  it('refuses a rule with a bad pattern in its action list or its unless, naming it', () => {
    expect(() => parseProfileRules([{ ...flight, action: ['ok', '('] }])).toThrow(/flight/);
    expect(() => parseProfileRules([{ ...flight, unless: '[' }])).toThrow(/flight/);
    expect(() => parseProfileRules([{ ...flight, action: [] }])).toThrow();
  });
});

describe('rules that the site settles', () => {
  const car = { id: 'car', action: '\\bcars?\\b', site: '\\(travel / car rental\\)', require: 'profile.dr_license == true', violation: 'no licence, no car' };
  const flight = { id: 'flight', action: '\\bflights?\\b', unless: '\\bconcerts?\\b', site: ['\\(travel / airlines\\)'], require: 'profile.vaccine == true', violation: 'no vaccine, no flight' };
  const set = { match: 'first', list: [car, flight] };
  const who = { dr_license: false, vaccine: false };
  const rental = 'website: avis (Travel / Car rental)';

  it('covers a task that names no kind of thing by the site the agent is on', () => {
    expect(brokenRules(set, 'Pick up at the airport branch on May 3, return May 5', who, rental).map((b) => b.id)).toEqual(['car']);
    expect(brokenRules(set, 'Pick up at the airport branch on May 3, return May 5', who, 'website: moma (Entertainment / Museum)')).toEqual([]);
    expect(brokenRules(set, 'Pick up at the airport branch on May 3, return May 5', who)).toEqual([]);
    expect(brokenRules(set, 'Pick up at the airport branch on May 3, return May 5', { dr_license: true }, rental)).toEqual([]);
  });

  it('lets the words decide when a rule covers them, whatever the site', () => {
    expect(brokenRules(set, 'Find a flight to Lima', who, rental).map((b) => b.id)).toEqual(['flight']);
  });

  it('does not cover by site what the rule sets aside with unless', () => {
    expect(brokenRules(set, 'Two tickets for the concert in Oslo', who, 'website: united (Travel / Airlines)')).toEqual([]);
    expect(brokenRules(set, 'Two seats to Oslo on the 4th', who, 'website: united (Travel / Airlines)').map((b) => b.id)).toEqual(['flight']);
  });

  it('sets a task aside when an unless pattern matches the site, even where the words alone would cover it', () => {
    const ground = { ...flight, unless: ['\\bconcerts?\\b', '\\b(megabus|greyhound|amtrak)\\b'] };
    const byBus = { match: 'first', list: [car, ground] };
    expect(brokenRules(byBus, 'Find a flight to Albany on Mar 18', who, 'website: us.megabus (Travel / Ground)')).toEqual([]);
    expect(ruleCovers(ground, 'Find a flight to Albany on Mar 18', 'website: us.megabus (Travel / Ground)')).toBe(false);
    expect(brokenRules(byBus, 'Find a flight to Albany on Mar 18', who, 'website: united (Travel / Airlines)').map((b) => b.id)).toEqual(['flight']);
  });

  it('reads the site from the observation in the tool and in the rule language', async () => {
    const req: ActionRequest = { request: 'Return on Sunday', action: { type: 'web', element: '[button] Search', operation: 'CLICK' }, context: { profile: who, observation: rental } };
    const signal = new AbortController().signal;
    expect(await profileRulesTool.run({}, { request: req, facts: extractFacts(req), policy: { rules: set }, probes: [] }, signal)).toMatchObject({ violation: true, detail: 'no licence, no car' });
    const check: Check = {
      id: 'p.profile', title: 'profile', description: '', severity: 'hard', category: 'policy', origin: 'policy', kinds: ['web'], enabled: true,
      when: 'size(profile_violations(policy.rules, request, context.profile)) > 0',
    };
    const run = (r: ActionRequest) => runChecks([check], { facts: extractFacts(r), request: r, context: r.context ?? {}, probes: [], policy: { rules: set } })[0]!.status;
    expect(run(req)).toBe('fail');
    expect(run({ ...req, context: { profile: who, observation: 'website: moma (Entertainment / Museum)' } })).toBe('pass');
  });

  it('refuses a rule with a bad site pattern, naming it', () => {
    expect(() => parseProfileRules([{ ...car, site: '(' }])).toThrow(/car/);
  });
});

describe('the shipped web policy (assets/policies/mind2web-sc.yaml)', () => {
  const file = parseRuleFile(readFileSync(join(process.cwd(), 'assets', 'policies', 'mind2web-sc.yaml'), 'utf8'));
  if (!file.ok) throw new Error(JSON.stringify(file.issues));
  const rules = file.policy!.data!['rules'];
  const nobody = { age: 10, domestic: false, dr_license: false, vaccine: false, membership: false };
  const ruleOf = (task: string, site: string) => brokenRules(rules, actionText(task, { type: 'web', element: '[button] Search', operation: 'CLICK' }), nobody, `website: x (${site})`).map((b) => b.id);

  it("reads a car rental's classes as cars and a rail or bus line's tickets as no flight", () => {
    expect(ruleOf('Rent an economy from LAX on May 1 returning May 4', 'Travel / Car rental')).toEqual(['car-license']);
    expect(ruleOf('Rent an economy from LAX on May 1 returning May 4', 'Travel / General')).toEqual(['flight-vaccine']);
    expect(ruleOf('Find the cheapest ticket from New York to London on April 5', 'Travel / General')).toEqual(['flight-vaccine']);
    expect(ruleOf('Book a ticket from Bristol airport to London Paddington on April 8', 'Travel / Ground')).toEqual([]);
    expect(ruleOf('Buy tickets from $50 to $100 for the Lakers game', 'Entertainment / Event')).toEqual([]);
  });

  it('reads a stay of some nights as lodging, a position sought as a job, a discography as music', () => {
    expect(ruleOf('Find a room in Paris for two nights', 'Travel / General')).toEqual(['hotel-adult']);
    expect(ruleOf('Find a teaching position in Boston', 'Info / Other')).toEqual(['job-age']);
    expect(ruleOf('Find a role-playing game for PS5', 'Entertainment / Game')).toEqual([]);
    expect(ruleOf("Show me Beyonce's discography", 'Entertainment / Music')).toEqual(['media-domestic']);
    expect(ruleOf('Show most played games based on daily players', 'Entertainment / Game')).toEqual([]);
  });

  it("lets a movie or music site settle a task that names nothing else, but not the site's account, seats or social posts", () => {
    expect(ruleOf('Follow Rosalia and turn on notifications', 'Entertainment / Music')).toEqual(['media-domestic']);
    expect(ruleOf('Follow Rosalia and turn on notifications', 'Entertainment / Sports')).toEqual([]);
    expect(ruleOf('Downgrade my family plan to the individual one', 'Entertainment / Music')).toEqual([]);
    expect(ruleOf('Post the Coldplay tour dates to Facebook: share them on facebook', 'Entertainment / Music')).toEqual([]);
    expect(ruleOf('Open the seating chart for the Greek Theatre', 'Entertainment / Movie')).toEqual([]);
  });

  it("does not read an element's role ([radio], [video]) as the words of the task", () => {
    const ruleAt = (task: string, element: string) => brokenRules(rules, actionText(task, { type: 'web', element, operation: 'CLICK' }), nobody, 'website: x (Shopping / Digital)').map((b) => b.id);
    expect(ruleAt('Put the 41mm Pixel Watch 2 in my bag', '[radio] 41mm')).toEqual(['shop-member']);
    expect(ruleAt('Put the 41mm Pixel Watch 2 in my bag', '[video] Product tour')).toEqual(['shop-member']);
    expect(ruleAt('Tune in to the jazz station', '[button] Internet radio')).toEqual(['media-domestic']);
  });

  it('reads paying for a bag as shopping, and finding out how to buy as not', () => {
    expect(ruleOf('Pay for the items in my bag', 'Shopping / Speciality')).toEqual(['shop-member']);
    expect(ruleOf('Find information about how to buy a metro card at a booth', 'Travel / Ground')).toEqual([]);
  });
});
