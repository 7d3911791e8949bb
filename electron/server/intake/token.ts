/**
 * The per-install intake token and the file that tells local clients (hook, exec, MCP proxy)
 * where a running intake server listens. Both live in the data dir, readable by the owner only.
 */
import { timingSafeEqual } from 'node:crypto';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadOrCreateSecret } from '../secret-file.js';

/** Where the token lives. */
export function tokenPath(dataDir: string): string {
  return join(dataDir, 'intake-token');
}

/** Where a running intake server writes its address. */
export function intakeInfoPath(dataDir: string): string {
  return join(dataDir, 'intake.json');
}

/** Reads the install's token, creating it (32 random bytes, hex, mode 0600) on first use. */
export function loadOrCreateToken(dataDir: string): string {
  return loadOrCreateSecret(tokenPath(dataDir));
}

/** Constant-time comparison of a presented token with the install's. */
export function tokenMatches(presented: string | undefined, token: string): boolean {
  if (presented === undefined) return false;
  const a = Buffer.from(presented);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** What a running intake server publishes for local clients. */
export interface IntakeInfo {
  url: string;
  pid: number;
  startedAt: number;
}

/** Publishes the server's address (mode 0600). */
export function writeIntakeInfo(dataDir: string, info: IntakeInfo): void {
  writeFileSync(intakeInfoPath(dataDir), JSON.stringify(info) + '\n', { mode: 0o600 });
}

/** The published address, when a server wrote one and it parses. */
export function readIntakeInfo(dataDir: string): IntakeInfo | undefined {
  try {
    const o = JSON.parse(readFileSync(intakeInfoPath(dataDir), 'utf8')) as Partial<IntakeInfo>;
    return typeof o.url === 'string' && typeof o.pid === 'number' ? { url: o.url, pid: o.pid, startedAt: Number(o.startedAt ?? 0) } : undefined;
  } catch {
    return undefined;
  }
}

/** Removes the published address if it is still ours. */
export function removeIntakeInfo(dataDir: string, pid = process.pid): void {
  if (readIntakeInfo(dataDir)?.pid === pid) rmSync(intakeInfoPath(dataDir), { force: true });
}
