/**
 * Adapters from the public evaluation sets to the case format of DESIGN.md. The data is read
 * from the benchmarks folder at evaluation time; it never ships with the app and is never
 * trained on.
 */
import { EngineError } from '../../../../shared/errors.js';
import type { EvalCase } from '../../../../shared/types.js';
import { benchmarksDir } from './common.js';
import { loadSafeOs } from './safe-os.js';
import { loadMind2WebSc } from './mind2web-sc.js';
import { loadEicuAc } from './eicu-ac.js';
import { loadAgentHarm } from './agentharm.js';
import { loadInjecAgent } from './injecagent.js';

/** The sets an adapter exists for. */
export type BenchmarkName = 'safe-os' | 'mind2web-sc' | 'eicu-ac' | 'agentharm' | 'injecagent';

/** Every set name, for command-line choices and loops. */
export const BENCHMARK_NAMES: readonly BenchmarkName[] = ['safe-os', 'mind2web-sc', 'eicu-ac', 'agentharm', 'injecagent'];

/**
 * The policy file (under assets/policies/) `warden eval <set>` loads for a set whose guard needs a
 * task-specific policy; `--policy FILE` names another. Sets not listed run without one.
 */
export const DEFAULT_POLICY_FILES: Partial<Record<BenchmarkName, string>> = {
  'mind2web-sc': 'mind2web-sc.yaml',
  'eicu-ac': 'eicu-ac.yaml',
};

/**
 * Loads a public set as cases. `dir` is the benchmarks folder; without it, WARDEN_BENCHMARKS or
 * the `shared/data/benchmarks` found upwards from the working directory. AgentHarm loads its
 * test_public split and InjecAgent its base setting; the per-set loaders take the others.
 */
export async function loadBenchmark(name: BenchmarkName, dir?: string): Promise<EvalCase[]> {
  const root = benchmarksDir(dir);
  switch (name) {
    case 'safe-os':
      return loadSafeOs(root);
    case 'mind2web-sc':
      return loadMind2WebSc(root);
    case 'eicu-ac':
      return loadEicuAc(root);
    case 'agentharm':
      return loadAgentHarm(root);
    case 'injecagent':
      return loadInjecAgent(root);
  }
  throw new EngineError('BAD_INPUT', `unknown benchmark ${JSON.stringify(name)}; one of ${BENCHMARK_NAMES.join(', ')}`, 'benchmark');
}

export { benchmarksDir };
export { loadSafeOs, loadMind2WebSc, loadEicuAc, loadAgentHarm, loadInjecAgent };
