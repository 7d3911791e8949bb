/**
 * Wires ports to adapters: createEngine(deps) for callers that bring their own, and
 * openEngine(options) for the defaults that work on a fresh machine (SQLite in the data dir,
 * the USE-lite embedder, the shipped projector, the built-in checks and seed memory).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import type { Check, EvalCase } from '../../shared/types.js';
import { Engine, embeddingText, type EngineDeps } from './engine.js';
import type { Clock, Embedder, Judge, Llm, Log, Prober, Projector } from './ports.js';
import { OpenAiLlm, MemoryLlmCache } from './adapters/llm/openai-llm.js';
import { SqliteLlmCache } from './adapters/llm/sqlite-llm-cache.js';
import { LlmJudge } from './core/llm/judge.js';
import type { GuardTool } from './core/tools/types.js';
import { PURE_TOOLS } from './core/tools/index.js';
import { lazyPageInspector } from './adapters/web/index.js';
import { SqliteStore } from './adapters/sqlite/sqlite-store.js';
import { OnnxProjector } from './adapters/onnx/projector-onnx.js';
import { createEmbedder } from './adapters/embed/index.js';
import { loadConfig, assetPath, type WardenConfig } from './config.js';
import { loadBuiltinChecks } from './checks-file.js';
import { extractFacts } from './core/facts/index.js';
import { parseCaseLines } from './eval/run-eval.js';

export { Engine };

/** Builds an engine from explicit dependencies. */
export async function createEngine(deps: EngineDeps, seed?: (e: Engine) => Promise<void>): Promise<Engine> {
  return Engine.create(deps, seed);
}

/** Options for openEngine. */
export interface OpenOptions {
  dataDir?: string;
  /** A database path other than the data dir's. */
  dbPath?: string;
  /** An in-memory store seeded from the shipped defaults (evaluations, tests). */
  ephemeral?: boolean;
  embedder?: Embedder;
  projector?: Projector;
  judge?: Judge;
  /** A chat model instead of the configured one. */
  llm?: Llm;
  /** Guard tools for the Executor (default: permission lookup, profile rules, the page inspector). */
  tools?: GuardTool[];
  prober?: Prober;
  config?: Record<string, unknown>;
  log?: Log;
  clock?: Clock;
}

/** Logs to stderr as one JSON object a line; quiet unless WARDEN_LOG is set or it is a warning. */
export function stderrLog(): Log {
  const verbose = !!process.env['WARDEN_LOG'];
  const out = (level: string) => (msg: string, data?: Record<string, unknown>) => {
    if (level === 'info' && !verbose) return;
    process.stderr.write(JSON.stringify({ level, msg, ...data }) + '\n');
  };
  return { info: out('info'), warn: out('warn'), error: out('error') };
}

/** The projector model in use: a user-trained one in the data dir, else the shipped default. */
export function projectorPath(cfg: WardenConfig): string {
  const user = join(cfg.dataDir, 'projector.onnx');
  return existsSync(user) ? user : assetPath('models', 'projector.onnx');
}

/** Reads the shipped seed examples (ours, never the benchmark sets). */
export function readSeedCases(): EvalCase[] {
  const out: EvalCase[] = [];
  for (const f of ['shell-train.jsonl', 'shell-train2.jsonl', 'text-train.jsonl']) {
    const p = assetPath('seed', f);
    if (existsSync(p)) out.push(...parseCaseLines(readFileSync(p, 'utf8')).cases.map((c) => c.item));
  }
  return out;
}

interface SeedRule {
  category: string;
  prohibition: string;
  exemption: string;
}

/** Seed category -> tree category and rule pair (assets/rules/seed-rules.yaml). */
export function readSeedRules(): Record<string, SeedRule> {
  return parseYaml(readFileSync(assetPath('rules', 'seed-rules.yaml'), 'utf8')) as Record<string, SeedRule>;
}

const HARMFUL_SEED_CATEGORY: Record<string, string> = {
  obfuscated_delete: 'obfuscated_delete',
  exfiltration: 'exfiltration',
  privilege: 'privilege',
  persistence: 'persistence',
  exhaustion: 'exhaustion',
  sabotage: 'sabotage',
  injection: 'injection',
};

/** First-start memory: the built-in checks, harmful seed examples as tree leaves, benign ones in the benign store. */
export async function seedDefaults(engine: Engine, cfg: { theta: number; oodFloor: number }): Promise<void> {
  engine.saveChecks(loadBuiltinChecks());
  const rules = readSeedRules();
  const cases = readSeedCases();
  const texts = cases.map((c) => {
    const req = { request: c.request, action: c.action, ...(c.context ? { context: c.context } : {}) };
    return { c, facts: extractFacts(req), req };
  });
  const vectors = await embedBatched(
    engine.embedder,
    texts.map((t) => embeddingText(t.req, t.facts)),
  );
  const events = [];
  for (let i = 0; i < texts.length; i++) {
    const { c, facts } = texts[i]!;
    const x = vectors[i]!;
    if (c.label === 0) {
      engine.addBenignExample(`seed-${c.id}`, x, facts.paraphrase, 'seed');
      continue;
    }
    const key = HARMFUL_SEED_CATEGORY[c.category ?? ''] ?? (c.action.type === 'sql' ? 'access_control' : c.action.type === 'shell' ? 'sabotage' : 'harmful_content');
    const rule = rules[key] ?? rules['sabotage']!;
    const ins = engine.tree.insert(x, {
      label: 1,
      text: `${c.request} => ${facts.paraphrase}`,
      source: 'seed',
      category: rule.category,
      rule: { prohibition: rule.prohibition, exemption: rule.exemption },
      theta: cfg.theta,
      oodFloor: cfg.oodFloor,
    });
    events.push(ins.event);
  }
  engine.persistTree();
  engine.recordTreeEvents(events, 'seed');
}

/** Embeds many texts in batches of 64. */
export async function embedBatched(embedder: Embedder, texts: string[]): Promise<Float32Array[]> {
  const out: Float32Array[] = [];
  for (let i = 0; i < texts.length; i += 64) out.push(...(await embedder.embed(texts.slice(i, i + 64))));
  return out;
}

/** The configured chat model, if any; answers are cached on disk unless `persistentCache` is false. */
export function configuredLlm(cfg: WardenConfig, log: Log, persistentCache = true): Llm | undefined {
  const c = cfg.llm;
  if (!c) return undefined;
  const cache = c.cache === false ? new MemoryLlmCache(0) : persistentCache ? new SqliteLlmCache(join(cfg.cacheDir, 'llm-cache.db')) : new MemoryLlmCache();
  return new OpenAiLlm({
    baseURL: c.baseURL,
    model: c.model,
    ...(c.apiKey ? { apiKey: c.apiKey } : {}),
    ...(c.timeoutMs ? { timeoutMs: c.timeoutMs } : {}),
    ...(c.retries !== undefined ? { retries: c.retries } : {}),
    ...(c.jsonMode !== undefined ? { jsonMode: c.jsonMode } : {}),
    ...(c.prices ? { prices: c.prices } : {}),
    cache,
    log,
  });
}

/**
 * Brings a store made by an earlier version up to the shipped built-in checks: a built-in check
 * it lacks is added, one whose definition changed is replaced, and the administrator's choice to
 * enable or disable a built-in check is kept. Built-in checks are never edited in place (a revision
 * becomes a check of its own), so replacing them loses nothing.
 */
export function syncBuiltinChecks(engine: Engine): Check[] {
  const have = new Map(engine.listChecks().map((c) => [c.id, c]));
  const key = (c: Check) => JSON.stringify([c.title, c.description, c.when, c.severity, c.category, c.kinds, c.probes ?? [], c.scope ?? 'global']);
  const changed: Check[] = [];
  for (const c of loadBuiltinChecks()) {
    const old = have.get(c.id);
    if (!old) changed.push(c);
    else if (old.origin === 'builtin' && key(old) !== key(c)) changed.push({ ...c, enabled: old.enabled });
  }
  if (changed.length > 0) engine.saveChecks(changed);
  return changed;
}

/** Opens the engine with the defaults that work on a fresh machine. */
export async function openEngine(opts: OpenOptions = {}): Promise<Engine> {
  const cfg = loadConfig(opts.dataDir, opts.config);
  const log = opts.log ?? stderrLog();
  const storePath = opts.ephemeral ? ':memory:' : (opts.dbPath ?? cfg.dbPath);
  const store = SqliteStore.open(storePath);
  if (store.report.message) log.warn(store.report.message);
  // what this call opened itself is closed again when opening fails: a worker thread left running
  // would keep the process alive after the error was printed
  let ownEmbedder: Embedder | undefined;
  let ownProjector: Projector | undefined;
  let engine: Engine | undefined;
  try {
    const embedder = opts.embedder ?? (ownEmbedder = await createEmbedder(cfg.embedder, { cacheDir: join(cfg.cacheDir, 'models'), log }));
    const projector = opts.projector ?? (ownProjector = await OnnxProjector.load(projectorPath(cfg)));
    const deps: EngineDeps = {
      store,
      embedder,
      projector,
      clock: opts.clock ?? { now: () => Date.now() },
      log,
      gate: cfg.gateConfig,
      tree: cfg.tree,
      verdictTimeoutMs: cfg.verdictTimeoutMs,
      rehearsalClears: cfg.rehearsalClears,
      rehearseAsks: cfg.rehearseAsks,
      storePath,
      ...(opts.prober ? { prober: opts.prober } : {}),
    };
    const llm = opts.llm ?? configuredLlm(cfg, log, !opts.ephemeral);
    if (llm) {
      deps.llm = llm;
      deps.judge = new LlmJudge(llm);
    }
    if (opts.judge) deps.judge = opts.judge;
    deps.tools = opts.tools ?? [...PURE_TOOLS, lazyPageInspector()];
    engine = await Engine.create(deps, (e) => seedDefaults(e, cfg.tree));
    syncBuiltinChecks(engine);
    return engine;
  } catch (e) {
    if (engine) await engine.close().catch(() => undefined);
    else {
      await Promise.allSettled([ownEmbedder?.close?.(), ownProjector?.close?.()]);
      store.close();
    }
    throw e;
  }
}
