/**
 * Ports: the roles the engine needs from the outside world. Adapters (one folder per outside
 * thing under adapters/) implement them; create-engine.ts wires one adapter to each port.
 */
import type { Decision, ProbeResult, RetrievedRule, CheckResult, ActionRequest, Facts, LlmUsage, RehearsalReport } from '../../shared/types.js';

export type { LlmUsage };

/** Turns text into unit-length vectors. */
export interface Embedder {
  /** Stable id of the model (changes when the vectors would change). */
  readonly id: string;
  readonly dim: number;
  /** One unit vector per text, in order. Empty strings are embedded as a single space. */
  embed(texts: string[]): Promise<Float32Array[]>;
  close?(): Promise<void>;
}

/** The learned projector: p_harm and the latent vector for one or more embeddings. */
export interface Projector {
  readonly id: string;
  score(xs: Float32Array[]): Promise<{ pHarm: number; z: Float32Array }[]>;
  close?(): Promise<void>;
}

/** What the judge sees. */
export interface JudgeInput {
  request: ActionRequest;
  facts: Facts;
  rules: RetrievedRule[];
  checks: CheckResult[];
  probes: ProbeResult[];
  scores: { pHarm: number; sBenign: number };
}

/** What the judge answers. */
export interface JudgeOutput {
  decision: Decision;
  reason: string;
  confidence: number;
  /** What the judge's model calls cost, when it used a model. */
  usage?: LlmUsage;
}

/** An LLM judge for ambiguous actions (SafeHarbor 3.5). */
export interface Judge {
  judge(input: JudgeInput, signal: AbortSignal): Promise<JudgeOutput>;
}

/** Read-only looks at a live environment before a verdict (AGrail's OS environment detection). */
export interface Prober {
  /** Run the probes a set of facts needs; never mutates the environment. */
  probe(facts: Facts, request: ActionRequest, signal: AbortSignal): Promise<ProbeResult[]>;
  /**
   * Runs the action's command once in a throwaway twin of the environment and reports what it
   * changed; the environment itself is not touched. Optional: probers without a twin leave it out.
   */
  rehearse?(request: ActionRequest, signal: AbortSignal): Promise<RehearsalReport>;
}

/** Milliseconds since the epoch; injected so tests control time. */
export interface Clock {
  now(): number;
}

/** Structured log sink. */
export interface Log {
  info(msg: string, data?: Record<string, unknown>): void;
  warn(msg: string, data?: Record<string, unknown>): void;
  error(msg: string, data?: Record<string, unknown>): void;
}

/** One chat call whose answer must be a JSON object. */
export interface LlmRequest {
  /** Which role asks (analyzer, executor, judge, rule-generator, agent): logs and accounting. */
  role: string;
  system: string;
  user: string;
  maxTokens?: number;
  /** Extra turns (e.g. the model's bad reply and the correction asked for). */
  followUp?: { assistant: string; user: string }[];
}

/** A model's answer: the JSON object it returned (repaired if it was nearly JSON) and its cost. */
export interface LlmReply {
  json: unknown;
  text: string;
  repaired: boolean;
  cached: boolean;
  promptTokens: number;
  completionTokens: number;
  costUsd: number;
  latencyMs: number;
}

/**
 * An OpenAI-compatible chat model. Implementations time out, retry transient failures with
 * backoff, repair or reject non-JSON answers and cache identical prompts; every failure throws
 * LLM_FAILED (or TIMEOUT) so callers fail closed.
 */
export interface Llm {
  readonly model: string;
  completeJson(req: LlmRequest, signal: AbortSignal): Promise<LlmReply>;
}
