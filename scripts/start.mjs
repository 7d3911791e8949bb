#!/usr/bin/env node
// `npm start`: opens the Electron app when its binary is installed, otherwise serves the same
// console in the browser (`warden serve`). Builds the renderer and the shell first when missing.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);

function electronBinary() {
  try {
    // the electron package exports the path of its downloaded binary, and throws when there is none
    const p = require('electron');
    return typeof p === 'string' && existsSync(p) ? p : undefined;
  } catch {
    return undefined;
  }
}

function npmRun(script) {
  const r = spawnSync('npm', ['run', '--silent', script], { cwd: root, stdio: ['ignore', 'inherit', 'inherit'] });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

function run(cmd, args) {
  const child = spawn(cmd, args, { cwd: root, stdio: 'inherit' });
  for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}

if (!existsSync(join(root, 'renderer', 'dist', 'index.html'))) npmRun('build:renderer');
const electron = electronBinary();
if (electron) {
  if (!existsSync(join(root, 'electron', 'main', 'main.js')) || !existsSync(join(root, 'electron', 'preload', 'preload.cjs'))) npmRun('build:shell');
  run(electron, [root, ...process.argv.slice(2)]);
} else {
  process.stderr.write('Electron is not installed here; serving the same console in the browser instead (open the address below).\n');
  run(process.execPath, [join(root, 'bin', 'warden.js'), 'serve', ...process.argv.slice(2)]);
}
