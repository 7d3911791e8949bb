/**
 * The console's own per-install token. It is separate from the intake token on purpose: agents
 * hold the intake token, and an agent must never be able to approve its own asks.
 */
import { join } from 'node:path';
import { loadOrCreateSecret } from '../secret-file.js';

/** Where the console token lives in the data dir. */
export function consoleTokenPath(dataDir: string): string {
  return join(dataDir, 'console-token');
}

/** Reads the install's console token, creating it (32 random bytes, hex, mode 0600) on first use. */
export function loadOrCreateConsoleToken(dataDir: string): string {
  return loadOrCreateSecret(consoleTokenPath(dataDir));
}
