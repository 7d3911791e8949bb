/**
 * Operational failures are one error class with a string code, checked by code (not instanceof)
 * because errors cross IPC and sockets as plain objects.
 */

/** Every code an EngineError can carry. */
export type EngineErrorCode =
  | 'BAD_INPUT'
  | 'PARSE_FAILED'
  | 'EMBEDDER_FAILED'
  | 'MODEL_MISSING'
  | 'STORE_FAILED'
  | 'STORE_CORRUPT'
  | 'NOT_FOUND'
  | 'TIMEOUT'
  | 'SANDBOX_UNAVAILABLE'
  | 'JUDGE_FAILED'
  | 'LLM_FAILED'
  | 'CONFLICT'
  | 'INTERNAL';

/** An operational failure with a stable code and, for bad input, the field at fault. */
export class EngineError extends Error {
  readonly code: EngineErrorCode;
  readonly field?: string;
  constructor(code: EngineErrorCode, message: string, field?: string) {
    super(message);
    this.name = 'EngineError';
    this.code = code;
    if (field !== undefined) this.field = field;
  }
  /** Plain-object form for crossing process boundaries. */
  toJSON(): { code: EngineErrorCode; message: string; field?: string } {
    return this.field === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, field: this.field };
  }
}

/** True when `e` carries the given code, whether it is an EngineError or its serialised form. */
export function hasCode(e: unknown, code: EngineErrorCode): boolean {
  return typeof e === 'object' && e !== null && (e as { code?: unknown }).code === code;
}

/** Any thrown value as `{ code, message }`, never losing the message. */
export function toErrorInfo(e: unknown): { code: string; message: string; field?: string } {
  if (e instanceof EngineError) return e.toJSON();
  if (typeof e === 'object' && e !== null && typeof (e as { code?: unknown }).code === 'string') {
    const o = e as { code: string; message?: unknown; field?: unknown };
    const info: { code: string; message: string; field?: string } = { code: o.code, message: String(o.message ?? o.code) };
    if (typeof o.field === 'string') info.field = o.field;
    return info;
  }
  return { code: 'INTERNAL', message: e instanceof Error ? e.message : String(e) };
}
