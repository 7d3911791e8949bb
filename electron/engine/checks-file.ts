/**
 * Loading the built-in checks shipped in assets/rules/builtin.yaml (file I/O kept out of core/).
 */
import { readFileSync } from 'node:fs';
import type { Check } from '../../shared/types.js';
import { EngineError } from '../../shared/errors.js';
import { parseRuleFile } from './core/checks/index.js';
import { assetPath } from './config.js';

/** The built-in check library; a broken shipped file is an internal error naming the issues. */
export function loadBuiltinChecks(): Check[] {
  const parsed = parseRuleFile(readFileSync(assetPath('rules', 'builtin.yaml'), 'utf8'));
  if (!parsed.ok) throw new EngineError('INTERNAL', `assets/rules/builtin.yaml: ${parsed.issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`);
  return parsed.checks;
}
