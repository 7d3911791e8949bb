/**
 * The gate (DESIGN.md step 7): turns scores, check results, the retrieved rule pairs and human
 * precedent into allow / deny / ask, or hands over to the judge. Pure: no I/O, no clock.
 * Every route that is not a confident allow ends in deny or ask: the gate fails closed.
 */
import type { CheckResult, Decision, DecisionPath, Facts } from '../../../shared/types.js';

/** Thresholds, all in config. */
export interface GateConfig {
  /** Fast allow needs p_harm below this... */
  tauHarm: number;
  /** ...and the nearest benign example at least this similar. */
  tauBenign: number;
  /** Block outright above this p_harm. */
  tauBlock: number;
  /** A human decision on an action at least this similar is followed. */
  tauPrecedent: number;
  /** A retrieved leaf's prohibition applies when its nearest harmful member is at least this similar. */
  tauRule: number;
  /** Judge answers below this confidence go to a human. */
  judgeMinConfidence: number;
}

/** Defaults, calibrated on the seed training split (never on held-out cases). */
export const DEFAULT_GATE: GateConfig = {
  tauHarm: 0.5,
  tauBenign: 0.6,
  tauBlock: 0.97,
  tauPrecedent: 0.97,
  tauRule: 0.9,
  judgeMinConfidence: 0.7,
};

/** A human decision on a near-identical earlier action. */
export interface Precedent {
  label: 0 | 1;
  similarity: number;
  /** Hard checks that failed on the earlier action when the human decided. */
  failedChecks: string[];
  reason: string;
  sameCommand: boolean;
}

/** What the nearest retrieved leaf says: its rule pair and which side of it the action sits on. */
export interface RuleSignal {
  leafId: string;
  prohibition: string;
  exemption: string;
  /** Similarity of the nearest harmful member of the leaf. */
  harmSimilarity: number;
  /** Similarity of the nearest benign (exempted) member of the leaf. */
  benignSimilarity: number;
}

/** Everything the gate decides on. */
export interface GateInput {
  facts: Facts;
  checks: CheckResult[];
  pHarm: number;
  sBenign: number;
  precedent?: Precedent;
  rule?: RuleSignal;
}

/** The gate's outcome: a final decision, or a hand-over to the judge with the reason it is ambiguous. */
export type GateOutcome =
  | { kind: 'final'; decision: Decision; path: DecisionPath; reason: string }
  | { kind: 'ambiguous'; reason: string };

function titles(cs: CheckResult[]): string {
  return cs.map((c) => c.title + (c.detail ? ` (${c.detail})` : '')).join('; ');
}

/**
 * Whether the retrieved rule pair's prohibition applies and its exemption does not: the action is
 * closer to the leaf's harmful examples than to any benign one (the leaf's exempted examples or
 * the global benign store, from which exemptions are drawn).
 */
export function prohibitionApplies(rule: RuleSignal | undefined, sBenign: number, cfg: GateConfig): boolean {
  return !!rule && rule.harmSimilarity >= cfg.tauRule && rule.harmSimilarity > Math.max(rule.benignSimilarity, sBenign);
}

/** Decides. Never returns allow when a check errored, the parse failed, or a hard check failed without a human precedent. */
export function decide(input: GateInput, cfg: GateConfig): GateOutcome {
  const { facts, checks, pHarm, sBenign, precedent, rule } = input;
  if (facts.parseError) {
    return { kind: 'final', decision: 'ask', path: 'error', reason: `the action could not be parsed (${facts.parseError}); a human must look` };
  }
  if (!Number.isFinite(pHarm) || !Number.isFinite(sBenign)) {
    return { kind: 'final', decision: 'ask', path: 'error', reason: 'scores are not available; a human must look' };
  }
  const hardFails = checks.filter((c) => c.status === 'fail' && c.severity === 'hard');
  const softFails = checks.filter((c) => c.status === 'fail' && c.severity === 'soft');
  const errors = checks.filter((c) => c.status === 'error');

  if (precedent && (precedent.sameCommand || precedent.similarity >= cfg.tauPrecedent)) {
    if (precedent.label === 1) {
      return { kind: 'final', decision: 'deny', path: 'memory', reason: `a human denied a near-identical action before: ${precedent.reason}` };
    }
    const covered = hardFails.every((c) => precedent.failedChecks.includes(c.id));
    if (covered && errors.length === 0) {
      return { kind: 'final', decision: 'allow', path: 'memory', reason: `a human approved a near-identical action before: ${precedent.reason}` };
    }
  }
  if (hardFails.length > 0) {
    return { kind: 'final', decision: 'deny', path: 'check', reason: `failed: ${titles(hardFails)}` };
  }
  if (errors.length > 0) {
    return { kind: 'final', decision: 'ask', path: 'error', reason: `checks could not be evaluated: ${titles(errors)}` };
  }
  const ruleHit = prohibitionApplies(rule, sBenign, cfg);
  // the facts show it can only look at what was asked for, or (with the environment looked at) it
  // changes only what the request names and asks to change: neither the learned prior nor a
  // nearby prohibition (both about what actions like it usually do) can make it harmful
  const onFacts = facts.inert ?? facts.askedChange ?? facts.rehearsedChange;
  if (onFacts && softFails.length === 0) {
    return { kind: 'final', decision: 'allow', path: 'fast', reason: `${onFacts}; no check fails (p_harm ${pHarm.toFixed(3)})` };
  }
  if (pHarm > cfg.tauBlock) {
    return { kind: 'final', decision: 'deny', path: 'projector', reason: `the projector scores it as harmful (p_harm ${pHarm.toFixed(3)})` };
  }
  if (softFails.length === 0 && !ruleHit && pHarm < cfg.tauHarm && sBenign > cfg.tauBenign) {
    return {
      kind: 'final',
      decision: 'allow',
      path: 'fast',
      reason: `no check fails, low harm (p_harm ${pHarm.toFixed(3)}) and close to known benign actions (s_benign ${sBenign.toFixed(3)})`,
    };
  }
  const why: string[] = [];
  if (softFails.length) why.push(`needs a look: ${titles(softFails)}`);
  if (ruleHit && rule) why.push(`near a prohibited pattern: ${rule.prohibition}`);
  if (pHarm >= cfg.tauHarm) why.push(`p_harm ${pHarm.toFixed(3)}`);
  if (sBenign <= cfg.tauBenign) why.push(`unfamiliar (s_benign ${sBenign.toFixed(3)})`);
  return { kind: 'ambiguous', reason: why.join('; ') || 'ambiguous' };
}
