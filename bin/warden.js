#!/usr/bin/env node
// Runs the TypeScript CLI directly through tsx, so `npx warden` works right after `npm ci`.
import { register } from 'tsx/esm/api';

register();
await import('../electron/cli/main.ts');
