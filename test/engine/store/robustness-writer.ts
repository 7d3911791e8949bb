/**
 * A writer process for the robustness tests: writes verdicts (and now and then a tree event and a
 * check) into the store at argv[2] as fast as it can, printing "ack <id>" only after each commit,
 * until it is killed. Write latencies and any failure go to stderr.
 */
import { SqliteStore } from '../../../electron/engine/adapters/sqlite/sqlite-store.js';
import type { Verdict } from '../../../shared/types.js';

const [path, tag] = [process.argv[2]!, process.argv[3] ?? 'w'];
const store = SqliteStore.open(path);
const facts = { kind: 'shell' as const, commands: [], effects: { reads: [], writes: [], deletes: [], modeChanges: [], ownerChanges: [], network: [], signals: [], privilege: [], persistence: [], exhaustion: [], execution: [] }, flags: [], requestPaths: [], paraphrase: 'p', commandForm: 'c' };
let worst = 0;
for (let i = 0; ; i++) {
  const id = `${tag}-${process.pid}-${i}`;
  const v: Verdict = { id, at: Date.now(), decision: i % 3 === 0 ? 'deny' : 'allow', path: 'fast', reason: 'r'.repeat(200), scores: { pHarm: 0.1, sBenign: 0.9 }, rules: [], checks: [], probes: [], facts, request: { request: `burst ${i}`, action: { type: 'shell', command: `ls /tmp/${i}` } }, latencyMs: 1 };
  const t = performance.now();
  try {
    if (i % 10 === 5) {
      store.transaction(() => {
        store.saveVerdict(v);
        store.appendEvent({ at: Date.now(), kind: 'merge', nodeId: `n-${id}`, parentId: null, detail: 'burst' }, { id });
      });
    } else if (i % 25 === 7) {
      store.transaction(() => {
        store.saveVerdict(v);
        store.saveCheck({ id: `c-${tag}`, title: `t${i}`, description: 'd', when: 'false', severity: 'soft', category: 'integrity', origin: 'human', kinds: [], enabled: true });
      });
    } else store.saveVerdict(v);
  } catch (e) {
    process.stderr.write(`error ${(e as Error).message}\n`);
    process.exit(3);
  }
  const ms = performance.now() - t;
  if (ms > worst) {
    worst = ms;
    process.stderr.write(`worst ${ms.toFixed(1)}\n`);
  }
  process.stdout.write(`ack ${id}\n`);
}
