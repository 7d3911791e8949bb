/**
 * Per-install secrets kept as files in the data dir: 32 random bytes as hex, readable by the
 * owner only, created once (two processes racing to create one end up sharing the winner's).
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/** Reads the secret at `path`, creating it (mode 0600) on first use. */
export function loadOrCreateSecret(path: string): string {
  mkdirSync(dirname(path), { recursive: true });
  if (!existsSync(path)) {
    try {
      writeFileSync(path, randomBytes(32).toString('hex') + '\n', { mode: 0o600, flag: 'wx' });
    } catch (e) {
      // another process created it first: use theirs
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
  }
  chmodSync(path, 0o600);
  return readFileSync(path, 'utf8').trim();
}
