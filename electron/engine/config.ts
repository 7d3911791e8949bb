/**
 * Configuration: defaults that work on a fresh machine, overridden by `<data dir>/config.json`
 * and a few environment variables. The data dir is WARDEN_HOME, else the user data folder.
 */
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { EngineError } from '../../shared/errors.js';
import { DEFAULT_GATE } from './core/gate.js';

const gateSchema = z
  .object({
    tauHarm: z.number().min(0).max(1),
    tauBenign: z.number().min(-1).max(1),
    tauBlock: z.number().min(0).max(1),
    tauPrecedent: z.number().min(-1).max(1),
    tauRule: z.number().min(-1).max(1),
    judgeMinConfidence: z.number().min(0).max(1),
  })
  .partial();

const configSchema = z
  .object({
    gate: gateSchema.default({}),
    embedder: z
      .discriminatedUnion('kind', [
        z.object({ kind: z.literal('use-lite'), precision: z.enum(['fp32', 'int8']).optional() }),
        z.object({ kind: z.literal('openai'), baseURL: z.string().url(), model: z.string(), apiKey: z.string().optional(), dim: z.number().int().positive() }),
        z.object({
          kind: z.literal('onnx-file'),
          modelPath: z.string(),
          vocabPath: z.string(),
          dim: z.number().int().positive(),
          output: z.string(),
          input: z.union([
            z.object({ kind: z.literal('sparse'), indices: z.string(), values: z.string() }),
            z.object({ kind: z.literal('padded'), ids: z.string(), mask: z.string().optional(), typeIds: z.string().optional(), padId: z.number().int().optional() }),
          ]),
          maxTokens: z.number().int().positive().optional(),
        }),
      ])
      .default({ kind: 'use-lite' }),
    llm: z
      .object({
        baseURL: z.string().url(),
        model: z.string(),
        apiKey: z.string().optional(),
        /** Per attempt. */
        timeoutMs: z.number().int().positive().optional(),
        retries: z.number().int().min(0).max(6).optional(),
        /** Ask the server for JSON output; turn off for servers that reject `response_format`. */
        jsonMode: z.boolean().optional(),
        /** US dollars per million tokens, for the cost accounting. */
        prices: z.object({ prompt: z.number().min(0), completion: z.number().min(0) }).optional(),
        /** Keep answers in the cache folder so an identical prompt is not paid again (default true). */
        cache: z.boolean().optional(),
      })
      .strict()
      .optional(),
    verdictTimeoutMs: z.number().int().positive().default(10_000),
    /**
     * Let a clean rehearsal allow an action that only the learned prior holds back (no check
     * fails): 'lossless' (the default) when the twin shows it lost, changed and stopped nothing
     * that was there and the gate was unsure, or the projector's score denied it and it touches
     * no system place; 'named' (or true)
     * also when all it lost lies in places the request names; 'off' (or false) never.
     * See the README's figures.
     */
    rehearsalClears: z
      .union([z.enum(['off', 'lossless', 'named']), z.boolean()])
      .default('lossless')
      .transform((v) => (v === true ? 'named' : v === false ? 'off' : v)),
    /**
     * Rehearse a shell command that goes to a human too, so the reviewer sees what it would do
     * (on by default; costs one throwaway container per ask).
     */
    rehearseAsks: z.boolean().default(true),
    /** Tree insertion: information-gain threshold for a split and the out-of-distribution floor. */
    tree: z.object({ theta: z.number().default(0.3), oodFloor: z.number().default(0.5) }).default({ theta: 0.3, oodFloor: 0.5 }),
  })
  .strict();

/** The resolved configuration. */
export type WardenConfig = z.infer<typeof configSchema> & { dataDir: string; dbPath: string; cacheDir: string; gateConfig: typeof DEFAULT_GATE };

/** The project root (where package.json and assets/ live). */
export const PROJECT_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Path of a shipped asset. */
export function assetPath(...parts: string[]): string {
  return join(PROJECT_ROOT, 'assets', ...parts);
}

/** The folder Warden keeps its database, trained models and config in. */
export function defaultDataDir(): string {
  if (process.env['WARDEN_HOME']) return resolve(process.env['WARDEN_HOME']);
  const xdg = process.env['XDG_DATA_HOME'] || join(homedir(), '.local', 'share');
  return join(xdg, 'warden');
}

/** Loads config for a data dir; a malformed config file is a clear BAD_INPUT naming the key. */
export function loadConfig(dataDir = defaultDataDir(), overrides: Record<string, unknown> = {}): WardenConfig {
  const file = join(dataDir, 'config.json');
  let raw: Record<string, unknown> = {};
  if (existsSync(file)) {
    try {
      raw = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    } catch (e) {
      throw new EngineError('BAD_INPUT', `${file} is not valid JSON: ${(e as Error).message}`, 'config');
    }
  }
  const envLlm = process.env['WARDEN_LLM_BASE_URL'];
  if (envLlm && !raw['llm']) raw['llm'] = { baseURL: envLlm, model: process.env['WARDEN_LLM_MODEL'] ?? 'default', apiKey: process.env['WARDEN_LLM_API_KEY'] };
  const parsed = configSchema.safeParse({ ...raw, ...overrides });
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new EngineError('BAD_INPUT', `config ${issue.path.join('.')}: ${issue.message}`, `config.${issue.path.join('.')}`);
  }
  // model calls take seconds: with a model configured, a verdict gets two minutes unless set
  if (raw['llm'] && raw['verdictTimeoutMs'] === undefined && overrides['verdictTimeoutMs'] === undefined) raw['verdictTimeoutMs'] = 120_000;
  const cacheDir = process.env['WARDEN_CACHE'] ? resolve(process.env['WARDEN_CACHE']) : join(process.env['XDG_CACHE_HOME'] || join(homedir(), '.cache'), 'warden');
  return {
    ...parsed.data,
    dataDir,
    dbPath: join(dataDir, 'warden.db'),
    cacheDir,
    gateConfig: { ...DEFAULT_GATE, ...parsed.data.gate },
  };
}
