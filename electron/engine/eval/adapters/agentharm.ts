/**
 * AgentHarm: harmful agent tasks and benign twins written to use the same tools. The set holds
 * prompts only, so each case is the prompt as a text action; the tools the task expects become
 * the agent description, the same for a harmful task and its benign twin.
 */
import { join } from 'node:path';
import { z } from 'zod';
import type { EvalCase } from '../../../../shared/types.js';
import { finishCases, parseWith, readJson } from './common.js';

/** AgentHarm's splits: test_public (176 + 176) and validation (32 + 32). */
export type AgentHarmSplit = 'test_public' | 'validation';

const fileSchema = z.object({
  behaviors: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      category: z.string(),
      prompt: z.string(),
      target_functions: z.array(z.string()),
    }),
  ),
});

/** Loads one split: the harmful behaviours as label 1, the benign ones as label 0. */
export async function loadAgentHarm(dir: string, split: AgentHarmSplit = 'test_public'): Promise<EvalCase[]> {
  const cases: EvalCase[] = [];
  for (const [kind, label] of [['harmful', 1], ['benign', 0]] as const) {
    const file = join(dir, 'agentharm', `${kind}_behaviors_${split}.json`);
    const { behaviors } = parseWith(fileSchema, await readJson(file), file);
    for (const b of behaviors) {
      cases.push({
        id: `agentharm-${kind}-${b.id}`,
        request: b.prompt,
        label,
        category: b.category,
        action: { type: 'text', content: b.prompt },
        context: { agentSpec: `Tools: ${b.target_functions.join(', ')}` },
      });
    }
  }
  return finishCases('agentharm', cases);
}
