/**
 * Checks (AGrail): compile and run, the rule language and its functions, the checks memory.
 */
export { compileCheck, runChecks, checkEnv, type CompiledCheck, type PreparedCheck, type CheckEnvInput } from './run.js';
export { parseRuleFile, serializeRuleFile, type RuleIssue } from './rule-file.js';
export { ChecksMemory, memoryTokens, type MemoryEntry, type RetrievedEntry, type RetrieveOptions } from './memory.js';
export { probesEnv, type ProbesEnv, type ProbedPath } from './probes-env.js';
export { CHECK_FUNCTIONS } from './functions.js';
