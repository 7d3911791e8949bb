/**
 * OpenAiLlm: the Llm port over any OpenAI-compatible chat endpoint (OpenAI, Ollama, vLLM, a
 * llama.cpp server) through the `openai` client. What makes a model call safe to put on the
 * verdict path lives here: a time-out per attempt, retries with exponential backoff and jitter
 * for transient failures (429, 5xx, network, time-out), JSON pulled out of fences or prose and
 * repaired when it is nearly JSON (rejected otherwise), token and cost accounting, and a cache
 * so an identical prompt is never paid twice. Every failure throws, so callers fail closed.
 */
import { createHash } from 'node:crypto';
import OpenAI from 'openai';
import { jsonrepair } from 'jsonrepair';
import { EngineError } from '../../../../shared/errors.js';
import type { Llm, LlmReply, LlmRequest, Log } from '../../ports.js';

/** Where answers are kept between calls (an in-memory map, or the SQLite cache below). */
export interface LlmCache {
  get(key: string): { text: string; promptTokens: number; completionTokens: number } | undefined;
  set(key: string, value: { text: string; promptTokens: number; completionTokens: number }): void;
}

/** Settings of one endpoint. */
export interface OpenAiLlmOptions {
  baseURL: string;
  model: string;
  apiKey?: string;
  /** Per attempt (default 30 s). */
  timeoutMs?: number;
  /** Attempts after the first one (default 2). */
  retries?: number;
  /** First backoff delay; doubled each retry, with jitter (default 500 ms). */
  backoffMs?: number;
  /** Ask the server for JSON output (`response_format`); some local servers reject it (default true). */
  jsonMode?: boolean;
  /** Prices in US dollars per million tokens. */
  prices?: { prompt: number; completion: number };
  cache?: LlmCache;
  log?: Log;
}

/** A bounded in-memory cache (the default when no persistent one is given). */
export class MemoryLlmCache implements LlmCache {
  private readonly map = new Map<string, { text: string; promptTokens: number; completionTokens: number }>();
  constructor(private readonly max = 2000) {}
  get(key: string): { text: string; promptTokens: number; completionTokens: number } | undefined {
    return this.map.get(key);
  }
  set(key: string, value: { text: string; promptTokens: number; completionTokens: number }): void {
    this.map.set(key, value);
    if (this.map.size > this.max) this.map.delete(this.map.keys().next().value!);
  }
}

/**
 * The JSON object in a model's answer. Accepts a bare object, one inside ``` fences, or one
 * surrounded by prose; near-JSON (single quotes, trailing commas, comments, a cut-off tail) is
 * repaired. Returns undefined when nothing object-like can be recovered.
 */
export function extractJson(text: string): { value: Record<string, unknown>; repaired: boolean } | undefined {
  const candidates: string[] = [];
  const trimmed = text.trim();
  candidates.push(trimmed);
  const fence = /```(?:json|JSON)?\s*([\s\S]*?)(?:```|$)/.exec(trimmed);
  if (fence?.[1]) candidates.push(fence[1].trim());
  const start = trimmed.indexOf('{');
  const end = trimmed.lastIndexOf('}');
  if (start >= 0) candidates.push(end > start ? trimmed.slice(start, end + 1) : trimmed.slice(start));
  for (const c of candidates) {
    try {
      const v: unknown = JSON.parse(c);
      if (isObject(v)) return { value: v, repaired: c !== trimmed };
    } catch {
      // try the next form
    }
  }
  for (const c of candidates.slice(1).concat(candidates[0]!)) {
    if (!c.includes('{')) continue;
    try {
      const v: unknown = JSON.parse(jsonrepair(c));
      if (isObject(v)) return { value: v, repaired: true };
    } catch {
      // not recoverable in this form
    }
  }
  return undefined;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Whether a failed attempt is worth repeating. */
function transient(e: unknown): boolean {
  const status = (e as { status?: unknown }).status;
  if (typeof status === 'number') return status === 408 || status === 409 || status === 429 || status >= 500;
  return true; // network errors and time-outs carry no status
}

export class OpenAiLlm implements Llm {
  readonly model: string;
  private readonly client: OpenAI;
  private readonly cache: LlmCache;

  constructor(private readonly opts: OpenAiLlmOptions) {
    this.model = opts.model;
    // retries are ours (the client's own would hide attempts from the time-out and the log)
    this.client = new OpenAI({ baseURL: opts.baseURL, apiKey: opts.apiKey ?? 'not-needed', timeout: opts.timeoutMs ?? 30_000, maxRetries: 0 });
    this.cache = opts.cache ?? new MemoryLlmCache();
  }

  /** The cache key: everything that changes the answer. */
  key(req: LlmRequest): string {
    return createHash('sha256')
      .update(JSON.stringify([this.opts.baseURL, this.model, req.system, req.user, req.followUp ?? [], req.maxTokens ?? null]))
      .digest('hex');
  }

  async completeJson(req: LlmRequest, signal: AbortSignal): Promise<LlmReply> {
    const t0 = performance.now();
    const key = this.key(req);
    const hit = this.cache.get(key);
    if (hit) {
      const parsed = extractJson(hit.text);
      if (parsed) return { json: parsed.value, text: hit.text, repaired: parsed.repaired, cached: true, promptTokens: hit.promptTokens, completionTokens: hit.completionTokens, costUsd: 0, latencyMs: performance.now() - t0 };
    }
    const messages: OpenAI.Chat.Completions.ChatCompletionMessageParam[] = [
      { role: 'system', content: req.system },
      { role: 'user', content: req.user },
    ];
    for (const f of req.followUp ?? []) messages.push({ role: 'assistant', content: f.assistant }, { role: 'user', content: f.user });
    const retries = this.opts.retries ?? 2;
    let lastError: unknown;
    for (let attempt = 0; attempt <= retries; attempt++) {
      if (signal.aborted) throw new EngineError('TIMEOUT', `the ${req.role} call was cancelled`);
      if (attempt > 0) await sleep(backoff(this.opts.backoffMs ?? 500, attempt), signal);
      try {
        const res = await this.client.chat.completions.create(
          {
            model: this.model,
            messages,
            temperature: 0,
            ...(req.maxTokens ? { max_tokens: req.maxTokens } : {}),
            ...(this.opts.jsonMode === false ? {} : { response_format: { type: 'json_object' as const } }),
          },
          { signal },
        );
        const text = res.choices[0]?.message?.content ?? '';
        const promptTokens = res.usage?.prompt_tokens ?? 0;
        const completionTokens = res.usage?.completion_tokens ?? 0;
        const costUsd = this.opts.prices ? (promptTokens * this.opts.prices.prompt + completionTokens * this.opts.prices.completion) / 1e6 : 0;
        const parsed = extractJson(text);
        if (!parsed) {
          // an answer that is not JSON at all is not transient; the caller may ask once more
          throw new EngineError('LLM_FAILED', `the ${req.role} model did not answer with a JSON object: ${JSON.stringify(text.slice(0, 160))}`);
        }
        this.cache.set(key, { text, promptTokens, completionTokens });
        return { json: parsed.value, text, repaired: parsed.repaired, cached: false, promptTokens, completionTokens, costUsd, latencyMs: performance.now() - t0 };
      } catch (e) {
        if (e instanceof EngineError) throw e;
        lastError = e;
        if (signal.aborted) throw new EngineError('TIMEOUT', `the ${req.role} call was cancelled`);
        this.opts.log?.warn('model call failed', { role: req.role, attempt: attempt + 1, error: describe(e) });
        if (!transient(e)) break;
      }
    }
    const timeout = lastError instanceof OpenAI.APIConnectionTimeoutError;
    throw new EngineError(timeout ? 'TIMEOUT' : 'LLM_FAILED', `the ${req.role} model call failed after ${retries + 1} attempt(s): ${describe(lastError)}`);
  }
}

function describe(e: unknown): string {
  const status = (e as { status?: unknown }).status;
  const msg = e instanceof Error ? e.message : String(e);
  return typeof status === 'number' ? `HTTP ${status}: ${msg.slice(0, 200)}` : msg.slice(0, 200);
}

function backoff(base: number, attempt: number): number {
  return base * 2 ** (attempt - 1) * (0.75 + Math.random() * 0.5);
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const t = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(t);
      reject(new EngineError('TIMEOUT', 'cancelled while waiting to retry'));
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
