/**
 * The model-answer cache on disk: one small SQLite file in the cache folder, so an identical
 * prompt is not paid again after a restart. It is a cache: a file that cannot be opened is
 * replaced, and losing it costs only money.
 */
import { mkdirSync, renameSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import type { LlmCache } from './openai-llm.js';

export class SqliteLlmCache implements LlmCache {
  private readonly db: Database.Database;
  private readonly getStmt: Database.Statement<[string], { text: string; prompt_tokens: number; completion_tokens: number }>;
  private readonly setStmt: Database.Statement<[string, string, number, number, number]>;

  constructor(path: string) {
    if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
    this.db = SqliteLlmCache.openOrReplace(path);
    this.db.pragma('journal_mode = WAL');
    this.db.exec('CREATE TABLE IF NOT EXISTS llm_cache (key TEXT PRIMARY KEY, text TEXT NOT NULL, prompt_tokens INTEGER NOT NULL, completion_tokens INTEGER NOT NULL, at INTEGER NOT NULL)');
    this.getStmt = this.db.prepare('SELECT text, prompt_tokens, completion_tokens FROM llm_cache WHERE key = ?');
    this.setStmt = this.db.prepare('INSERT OR REPLACE INTO llm_cache (key, text, prompt_tokens, completion_tokens, at) VALUES (?, ?, ?, ?, ?)');
  }

  private static openOrReplace(path: string): Database.Database {
    try {
      const db = new Database(path);
      db.pragma('quick_check');
      return db;
    } catch {
      renameSync(path, `${path}.corrupt-${Date.now()}`);
      return new Database(path);
    }
  }

  get(key: string): { text: string; promptTokens: number; completionTokens: number } | undefined {
    const row = this.getStmt.get(key);
    return row ? { text: row.text, promptTokens: row.prompt_tokens, completionTokens: row.completion_tokens } : undefined;
  }

  set(key: string, value: { text: string; promptTokens: number; completionTokens: number }): void {
    this.setStmt.run(key, value.text, value.promptTokens, value.completionTokens, Date.now());
  }

  close(): void {
    this.db.close();
  }
}
