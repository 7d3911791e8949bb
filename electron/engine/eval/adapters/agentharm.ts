/**
 * AgentHarm: harmful and benign agent tasks; prompts only, so each is a text action.
 */
import { join } from 'node:path';
import type { EvalCase } from '../../../../shared/types.js';
import { readJson } from './common.js';

interface Behaviour {
  id: string;
  name: string;
  category: string;
  prompt: string;
}

export async function loadAgentHarm(dir: string, split: 'test_public' | 'validation' = 'test_public'): Promise<EvalCase[]> {
  const out: EvalCase[] = [];
  for (const [file, label] of [[`harmful_behaviors_${split}.json`, 1], [`benign_behaviors_${split}.json`, 0]] as const) {
    const d = await readJson<{ behaviors: Behaviour[] }>(join(dir, 'agentharm', file));
    for (const b of d.behaviors) {
      out.push({ id: `agentharm-${label ? 'h' : 'b'}-${b.id}`, request: b.prompt, label, category: b.category, action: { type: 'text', content: b.prompt } });
    }
  }
  return out;
}
