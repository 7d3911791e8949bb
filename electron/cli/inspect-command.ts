/**
 * `warden inspect <url>`: load a page in Chromium and report hidden or injected instructions near
 * the element an agent is about to act on. Exit code 0 when nothing was found, 1 when the page
 * holds instructions aimed at an agent, 2 when it could not be inspected (which a caller must
 * treat as unsafe).
 */
import { InvalidArgumentError, type Command } from 'commander';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { toErrorInfo } from '../../shared/errors.js';
import type { ToolReport } from '../engine/core/tools/types.js';
import type { InspectionFailure, PageInspection } from '../engine/adapters/web/page-inspector.js';

/** Options of `warden inspect`. */
export interface InspectFlags {
  element?: string;
  operation?: string;
  json?: boolean;
  timeout?: number;
  allowNetwork?: boolean;
  screenshot?: string;
}

/** A URL as given, or a file: URL for a path to an existing file (`warden inspect ./page.html`). */
export function inspectTarget(arg: string): string {
  if (/^[a-z][a-z0-9+.-]*:/i.test(arg)) return arg;
  return existsSync(arg) ? pathToFileURL(resolve(arg)).href : arg;
}

function quote(s: string, n = 140): string {
  const one = s.replace(/\s+/g, ' ');
  return JSON.stringify(one.length > n ? `${one.slice(0, n - 1)}\u2026` : one);
}

/** The report as lines a person reads in a terminal. */
export function formatInspection(report: ToolReport): string {
  if (!report.ok) {
    const err = (report.data as InspectionFailure | undefined)?.error;
    return `NOT INSPECTED  ${report.detail}${err ? `\n  code: ${err.code}${err.field ? `, field: ${err.field}` : ''}` : ''}\n`;
  }
  const d = report.data as PageInspection;
  const lines = [`${report.violation ? 'INJECTED' : 'CLEAN'}  ${d.url}${d.title ? `  (${d.title})` : ''}`, `  ${report.detail}`];
  if (d.target) lines.push(`  target: ${d.target.tag} ${quote(d.target.text, 60)} at ${d.target.selector} (matched as ${d.target.matchedBy}${d.target.matches > 1 ? `, first visible of ${d.target.matches}` : ''})`);
  if (d.findings.length > 0) {
    lines.push('  findings:');
    d.findings.forEach((f, i) => {
      const how = f.visibility === 'hidden' ? f.why.join(', ') : 'visible';
      const dist = f.distance === null ? '' : `, ${f.distance} px away`;
      lines.push(`   ${i + 1}. [${how}${dist}] ${quote(f.text)}`);
      lines.push(`      at ${f.selector || '(document)'}; score ${f.score}: ${f.cues.map((c) => `${c.cue} "${c.phrase}"`).join(', ')}`);
    });
  }
  const others = d.hidden.filter((h) => !d.findings.some((f) => f.selector === h.selector && f.text === h.text));
  if (others.length > 0) {
    lines.push(`  other hidden text (${d.counts.hidden - d.findings.filter((f) => f.visibility === 'hidden').length}, not instructions):`);
    for (const h of others.slice(0, 8)) lines.push(`   - [${h.why.join(', ')}] ${quote(h.text, 90)}`);
  }
  if (d.blockedRequests.length > 0) lines.push(`  blocked requests to other hosts: ${d.blockedRequests.slice(0, 5).join(', ')}${d.blockedRequests.length > 5 ? ', ...' : ''}`);
  if (d.truncated) lines.push('  (the page is large; only part of it was scanned)');
  return lines.join('\n') + '\n';
}

/** Runs one inspection and prints it; returns the exit code. */
export async function runInspectCommand(url: string, flags: InspectFlags, out: (s: string) => void = (s) => process.stdout.write(s)): Promise<number> {
  // loaded here, so other commands do not pay for playwright at start-up
  const { PlaywrightPageInspector } = await import('../engine/adapters/web/page-inspector.js');
  const inspector = new PlaywrightPageInspector({
    ...(flags.timeout !== undefined ? { timeoutMs: flags.timeout } : {}),
    ...(flags.allowNetwork ? { allowNetwork: true } : {}),
  });
  try {
    const input = { url: inspectTarget(url), ...(flags.element !== undefined ? { element: flags.element } : {}), ...(flags.operation !== undefined ? { operation: flags.operation } : {}) };
    const report = await inspector.inspect(input, flags.screenshot ? { screenshotPath: resolve(flags.screenshot) } : {});
    out(flags.json ? JSON.stringify(report, null, 2) + '\n' : formatInspection(report));
    return !report.ok ? 2 : report.violation ? 1 : 0;
  } finally {
    await inspector.close();
  }
}

/** Registers `warden inspect`. */
export function registerInspectCommand(program: Command): void {
  program
    .command('inspect')
    .description('load a web page in Chromium and report hidden or injected instructions near an element (exit 0 clean, 1 injected, 2 not inspected)')
    .argument('<url>', 'http(s) or file URL, or a path to an HTML file')
    .option('--element <text>', 'the element the agent is about to act on: visible text, label, CSS selector or "[role] text"')
    .option('--operation <op>', 'what the agent is about to do (CLICK, TYPE, SELECT, ...)')
    .option('--json', 'print the whole report as JSON')
    .option('--timeout <ms>', 'time for loading and inspecting the page (default 10000)', (v) => {
      const n = Number(v);
      if (!Number.isInteger(n) || n <= 0) throw new InvalidArgumentError(`--timeout must be a positive whole number of milliseconds, not ${v}`);
      return n;
    })
    .option('--allow-network', 'let the page reach hosts other than this machine (off by default)')
    .option('--screenshot <file>', 'also save a screenshot of the loaded page')
    .action(async (url: string, flags: InspectFlags) => {
      try {
        process.exitCode = await runInspectCommand(url, flags);
      } catch (e) {
        process.stderr.write(JSON.stringify({ error: toErrorInfo(e) }) + '\n');
        process.exitCode = 2;
      }
    });
}
