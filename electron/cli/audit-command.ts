/**
 * `warden audit verify` and `warden audit export`: the hash-chained audit trail of every verdict,
 * human decision, memory change and check change. Both read the store file directly (no model
 * to load), in one read snapshot, while other processes keep writing.
 */
import type { Command } from 'commander';
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { toErrorInfo } from '../../shared/errors.js';
import { loadConfig } from '../engine/config.js';
import { SqliteStore } from '../engine/adapters/sqlite/sqlite-store.js';

function openStore(path?: string): SqliteStore {
  const store = SqliteStore.open(path ?? loadConfig().dbPath);
  if (store.report.message) process.stderr.write(store.report.message + '\n');
  return store;
}

function guardedAction<A extends unknown[]>(fn: (...args: A) => Promise<void> | void): (...args: A) => Promise<void> {
  return async (...args: A) => {
    try {
      await fn(...args);
    } catch (e) {
      process.stderr.write(JSON.stringify({ error: toErrorInfo(e) }) + '\n');
      process.exitCode = 2;
    }
  };
}

/** Registers `warden audit`. */
export function registerAuditCommand(program: Command): void {
  const audit = program.command('audit').description('the append-only, hash-chained audit trail');
  audit
    .command('verify')
    .description('check the chain and every verdict, review, tree event and check against it; exit 1 when anything was edited or deleted')
    .option('--store <path>', 'the store file (default: the data dir)')
    .option('--head <hash>', 'a head hash noted earlier: also detects entries cut off the end')
    .action(
      guardedAction((opts: { store?: string; head?: string }) => {
        const store = openStore(opts.store);
        try {
          const report = opts.head ? { ...store.verifyAudit(), ...checkHead(store, opts.head) } : store.verifyAudit();
          process.stdout.write(JSON.stringify(report, null, 2) + '\n');
          if (!report.ok) process.exitCode = 1;
        } finally {
          store.close();
        }
      }),
    );
  audit
    .command('export')
    .description('write every audit entry as JSON lines (stdout, or --out FILE)')
    .option('--store <path>', 'the store file (default: the data dir)')
    .option('--out <file>', 'write to this file instead of stdout')
    .action(
      guardedAction(async (opts: { store?: string; out?: string }) => {
        const store = openStore(opts.store);
        const out = opts.out ? createWriteStream(opts.out) : process.stdout;
        // a reader that stops early (`| head`) ends the export, not an error
        let closed = false;
        out.on('error', (e: NodeJS.ErrnoException) => {
          if (e.code !== 'EPIPE') throw e;
          closed = true;
        });
        try {
          for (const e of store.iterateAudit()) {
            if (closed) break;
            if (!out.write(JSON.stringify(e) + '\n')) await new Promise<void>((resolve) => {
              const done = (): void => resolve();
              (out as NodeJS.WritableStream).once('drain', done);
              (out as NodeJS.WritableStream).once('error', done);
            });
          }
        } finally {
          store.close();
          if (opts.out) {
            (out as ReturnType<typeof createWriteStream>).end();
            await once(out, 'finish');
          }
        }
      }),
    );
}

/** Whether the noted head is still in the chain (it must be, unless entries were cut off). */
function checkHead(store: SqliteStore, head: string): { ok?: boolean; problems?: { problem: string }[] } {
  const found = store.db.prepare('SELECT 1 FROM audit WHERE hash = ?').get(head) !== undefined;
  if (found) return {};
  const r = store.verifyAudit();
  return { ok: false, problems: [...r.problems, { problem: `the noted head ${head.slice(0, 12)}... is not in the chain (entries were removed from the end)` }] };
}
