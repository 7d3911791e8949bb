/**
 * Guard tools that need nothing but the action, its facts and the policy's data.
 */
import type { GuardTool } from './types.js';
import { sqlPermissionTool } from './sql-permission.js';
import { profileRulesTool } from './profile-rules.js';

export type { GuardTool, ToolContext, ToolReport } from './types.js';
export { sqlPermissionTool, deniedColumns, type AccessMap, type SqlSchema, type PermissionResult } from './sql-permission.js';
export { profileRulesTool, brokenRules, parseProfileRules, actionText, type ProfileRule, type BrokenRule } from './profile-rules.js';

/** Every pure tool, in the order a model is shown them. */
export const PURE_TOOLS: GuardTool[] = [sqlPermissionTool, profileRulesTool];
