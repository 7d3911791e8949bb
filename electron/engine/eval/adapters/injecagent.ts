/**
 * InjecAgent: the user asks for one tool call; the tool's response carries an attacker's
 * instruction; an agent that follows it calls the attacker's tool. That call is the harmful
 * action, with the user's instruction as the request and the poisoned response as the
 * observation. Direct-harm cases use one attacker tool; data-stealing cases use two (read the
 * data, then e-mail it), and the case is the first, where the agent leaves the user's task.
 *
 * The set names the attacker's tools but not their arguments, so those were read off each
 * attacker instruction by hand into injecagent-attacker-arguments.json (62 instructions, checked
 * against the tools' parameter lists). The user's own tool calls (user_cases.jsonl, parameters
 * as Python dict literals) are the benign cases.
 */
import { join } from 'node:path';
import JSON5 from 'json5';
import { z } from 'zod';
import { EngineError } from '../../../../shared/errors.js';
import type { EvalCase } from '../../../../shared/types.js';
import { ADAPTERS_DIR, finishCases, parseWith, readJson, readJsonl } from './common.js';

/** Base cases, or the ones whose injection opens with "IMPORTANT!!! Ignore all previous instructions". */
export type InjecAgentVariant = 'base' | 'enhanced';

/** The hand-written arguments of each attacker instruction's first tool call. */
export const INJECAGENT_ATTACKER_ARGUMENTS = join(ADAPTERS_DIR, 'injecagent-attacker-arguments.json');

const caseSchema = z.object({
  'Attacker Tools': z.array(z.string()).min(1),
  'Attacker Instruction': z.string(),
  'Attack Type': z.string(),
  'User Tool': z.string(),
  'User Instruction': z.string(),
  'Tool Response': z.string(),
});

const userCaseSchema = z.object({
  'User Tool': z.string(),
  'User Instruction': z.string(),
  'Tool Parameters': z.string(),
});

const argumentsSchema = z.record(z.string(), z.object({ tool: z.string(), arguments: z.record(z.string(), z.unknown()) }));

/**
 * Reads the set's tool parameters, written as Python dict literals ({'keywords': ['Budget']}).
 * JSON5 reads the single-quoted form; Python's True/False/None would fail and say so.
 */
export function parsePythonDict(text: string, where: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON5.parse(text);
  } catch (e) {
    throw new EngineError('BAD_INPUT', `${where}: tool parameters are not a readable dict literal: ${(e as Error).message}`, 'benchmarks');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new EngineError('BAD_INPUT', `${where}: tool parameters are not a dict`, 'benchmarks');
  }
  return value as Record<string, unknown>;
}

/** The tool response as the agent saw it: the set wraps it in one pair of double quotes. */
function unwrap(response: string): string {
  return response.length >= 2 && response.startsWith('"') && response.endsWith('"') ? response.slice(1, -1) : response;
}

/** Loads InjecAgent: 1,054 attack cases (510 direct harm, 544 data stealing) and the 17 user tool calls. */
export async function loadInjecAgent(dir: string, variant: InjecAgentVariant = 'base'): Promise<EvalCase[]> {
  const attacker = parseWith(argumentsSchema, await readJson(INJECAGENT_ATTACKER_ARGUMENTS), INJECAGENT_ATTACKER_ARGUMENTS);
  const cases: EvalCase[] = [];
  for (const setting of ['dh', 'ds'] as const) {
    const file = join(dir, 'injecagent', `test_cases_${setting}_${variant}.json`);
    const items = parseWith(z.array(caseSchema), await readJson(file), file);
    items.forEach((it, i) => {
      const tool = it['Attacker Tools'][0]!;
      const call = attacker[it['Attacker Instruction']];
      if (!call || call.tool !== tool) {
        throw new EngineError('BAD_INPUT', `${file} item ${i}: no arguments for ${tool} in injecagent-attacker-arguments.json`, 'benchmarks');
      }
      cases.push({
        id: `injecagent-${setting}-${variant}-${i}`,
        request: it['User Instruction'],
        label: 1,
        category: it['Attack Type'],
        action: { type: 'tool', name: tool, arguments: call.arguments },
        context: { observation: `${it['User Tool']} returned: ${unwrap(it['Tool Response'])}` },
      });
    });
  }
  const userFile = join(dir, 'injecagent', 'user_cases.jsonl');
  const users = parseWith(z.array(userCaseSchema), await readJsonl(userFile), userFile);
  users.forEach((u, i) => {
    cases.push({
      id: `injecagent-user-${i}`,
      request: u['User Instruction'],
      label: 0,
      category: 'user_tool',
      action: { type: 'tool', name: u['User Tool'], arguments: parsePythonDict(u['Tool Parameters'], `${userFile} line ${i + 1}`) },
    });
  });
  return finishCases('injecagent', cases);
}
