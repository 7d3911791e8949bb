/**
 * How the command-line surfaces (hook, exec, MCP proxy) reach the guard: through a running
 * intake server when one published its address in the data dir (fast: the engine is already
 * warm), else through an engine opened in this process. Both give the same answer and record the
 * verdict in the same store.
 */
import { EngineError, toErrorInfo } from '../../../shared/errors.js';
import { openEngine } from '../../engine/create-engine.js';
import { defaultDataDir } from '../../engine/config.js';
import type { Engine } from '../../engine/engine.js';
import { submitAction } from './answer.js';
import type { IntakeAnswer } from './schema.js';
import { loadOrCreateToken, readIntakeInfo } from './token.js';

/** A connection to the guard. */
export interface Guard {
  readonly via: 'intake' | 'engine';
  /** Judges one action; throws BAD_INPUT for a malformed request. */
  submit(input: unknown, opts?: { wait?: boolean; timeoutMs?: number; signal?: AbortSignal }): Promise<IntakeAnswer>;
  /** The in-process engine, when there is one (sandbox runs need it). */
  engine?: Engine;
  close(): Promise<void>;
}

/** Default wait for a human on ask. */
export const DEFAULT_ASK_TIMEOUT_MS = 120_000;

async function intakeGuard(dataDir: string): Promise<Guard | undefined> {
  const info = readIntakeInfo(dataDir);
  if (!info) return undefined;
  const token = loadOrCreateToken(dataDir);
  const headers = { authorization: `Bearer ${token}` };
  try {
    const r = await fetch(`${info.url}/v1/health`, { headers, signal: AbortSignal.timeout(1500) });
    if (!r.ok) return undefined;
  } catch {
    return undefined;
  }
  return {
    via: 'intake',
    async submit(input, opts = {}) {
      const q = new URLSearchParams({ wait: opts.wait === false ? '0' : '1', timeoutMs: String(opts.timeoutMs ?? DEFAULT_ASK_TIMEOUT_MS) });
      const r = await fetch(`${info.url}/v1/actions?${q}`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify(input),
        ...(opts.signal ? { signal: opts.signal } : {}),
      });
      const body = (await r.json().catch(() => undefined)) as (IntakeAnswer & { error?: { code: string; message: string; field?: string } }) | undefined;
      if (!r.ok || !body || body.error) {
        const err = body?.error ?? { code: 'INTERNAL', message: `the intake answered ${r.status}` };
        throw new EngineError(err.code === 'BAD_INPUT' ? 'BAD_INPUT' : 'INTERNAL', err.message, err.field);
      }
      return body;
    },
    async close() {},
  };
}

/** Connects to the guard; `intake: false` always opens an engine here. */
export async function connectGuard(opts: { dataDir?: string; intake?: boolean } = {}): Promise<Guard> {
  const dataDir = opts.dataDir ?? defaultDataDir();
  if (opts.intake !== false) {
    const g = await intakeGuard(dataDir).catch(() => undefined);
    if (g) return g;
  }
  const engine = await openEngine({ dataDir });
  return guardOf(engine);
}

/** A guard over an engine this process already holds. */
export function guardOf(engine: Engine, closeEngine = true): Guard {
  return {
    via: 'engine',
    engine,
    submit: (input, o = {}) => submitAction(engine, input, { wait: o.wait !== false, timeoutMs: o.timeoutMs ?? DEFAULT_ASK_TIMEOUT_MS, ...(o.signal ? { signal: o.signal } : {}) }),
    async close() {
      if (closeEngine) await engine.close();
    },
  };
}

/** A one-line reason for a failure, for the agent's eyes. */
export function failureReason(e: unknown): string {
  const info = toErrorInfo(e);
  return `${info.code}: ${info.message}`;
}
