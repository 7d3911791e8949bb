/** Runs the `warden` command line in a child process, as a user would, and collects what it printed. */
import { spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { testCache } from './temp-root.js';

const bin = join(process.cwd(), 'bin', 'warden.js');

/** `env` is added to the parent's environment; WARDEN_CACHE defaults to the tests' shared model cache. */
export function runWarden(args: string[], env: Record<string, string>): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn('node', [bin, ...args], { env: { ...process.env, WARDEN_CACHE: testCache(), ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}
