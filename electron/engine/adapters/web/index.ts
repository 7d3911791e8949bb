/**
 * The web tools as the engine wires them: the page inspector loads Playwright and starts
 * Chromium only when the Executor first asks for it, so an engine that never inspects a page
 * pays nothing for it.
 */
import type { GuardTool, ToolContext, ToolReport } from '../../core/tools/types.js';
import { PAGE_INSPECTOR_INFO } from './inspector-info.js';
import type { PageInspectorOptions, PlaywrightPageInspector } from './page-inspector.js';

/** A page inspector that loads on first use; `close()` stops its browser if it ever started. */
export function lazyPageInspector(opts: PageInspectorOptions = {}): GuardTool & { close(): Promise<void> } {
  let inspector: Promise<PlaywrightPageInspector> | undefined;
  return {
    ...PAGE_INSPECTOR_INFO,
    async run(input: unknown, ctx: ToolContext, signal: AbortSignal): Promise<ToolReport> {
      inspector ??= import('./page-inspector.js').then((m) => new m.PlaywrightPageInspector(opts));
      return (await inspector).run(input, ctx, signal);
    },
    async close(): Promise<void> {
      if (inspector) await (await inspector).close();
    },
  };
}
