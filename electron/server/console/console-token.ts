/**
 * The console's own per-install token. It is separate from the intake token on purpose: agents
 * hold the intake token, and an agent must never be able to approve its own asks.
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Where the console token lives in the data dir. */
export function consoleTokenPath(dataDir: string): string {
  return join(dataDir, 'console-token');
}

/** Reads the install's console token, creating it (32 random bytes, hex, mode 0600) on first use. */
export function loadOrCreateConsoleToken(dataDir: string): string {
  mkdirSync(dataDir, { recursive: true });
  const p = consoleTokenPath(dataDir);
  if (!existsSync(p)) {
    try {
      writeFileSync(p, randomBytes(32).toString('hex') + '\n', { mode: 0o600, flag: 'wx' });
    } catch (e) {
      // another process created it first: use theirs
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
  }
  chmodSync(p, 0o600);
  return readFileSync(p, 'utf8').trim();
}
