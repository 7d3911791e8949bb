/**
 * Checks (AGrail): compile and run, the rule language, the checks memory.
 */
export { compileCheck, runChecks, checkEnv, type CompiledCheck, type CheckEnvInput } from './run.js';
export { parseRuleFile, serializeRuleFile, type RuleIssue } from './rule-file.js';
export { ChecksMemory, type MemoryEntry } from './memory.js';
export { probesEnv, type ProbesEnv } from './probes-env.js';
