/**
 * The web page inspector (AGrail's web tool, for Mind2Web-style agents): before an agent clicks
 * or types on a page, load the page in Chromium, find the element it is about to act on, and look
 * for instructions planted for the agent: text a person cannot see but an agent reading the DOM
 * can (display:none, zero-size fonts, white on white, off-screen, comments, attributes, meta tags),
 * and visible text next to the element that addresses an AI rather than the human.
 *
 * Chromium runs with JavaScript on, downloads refused, pop-ups closed, service workers blocked and,
 * unless `allowNetwork` is set, every request to a host other than this machine aborted, so an
 * inspection can neither reach nor report to the outside. Every failure (bad input, a page that
 * does not load or answers an error status, a time-out, a target that is not there) is a report
 * with `ok: false`, which callers treat as unsafe.
 */
import { existsSync } from 'node:fs';
import { chromium, type Browser, type BrowserContext, type ElementHandle, type Locator, type Page } from 'playwright-core';
import { z } from 'zod';
import type { GuardTool, ToolContext, ToolReport } from '../../core/tools/types.js';
import { scoreInjectedText, type CueMatch } from '../../core/tools/injected-text.js';
import { PAGE_INSPECTOR_INFO } from './inspector-info.js';
import { scanPage, type HiddenChannel, type PageScan, type ScannedTarget, type TargetRelation } from './page-scan.js';

/** Debian's Chromium, which the project's browser tests also drive. */
export const DEFAULT_CHROMIUM = '/usr/bin/chromium';
/** Launch flags for headless Chromium in a container (no GPU, no sandbox user namespaces, no background traffic). */
export const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'];

/** How the inspector runs. */
export interface PageInspectorOptions {
  /** Chromium binary; default WARDEN_CHROMIUM, else /usr/bin/chromium. */
  executablePath?: string;
  /** Extra Chromium flags, added to {@link CHROMIUM_ARGS}. */
  args?: string[];
  /** Time for loading and inspecting one page, in ms (default 10 000); starting the browser is not counted. */
  timeoutMs?: number;
  /** Let the page reach hosts other than this machine (default false: only loopback and file:). */
  allowNetwork?: boolean;
  /** Visible text within this many pixels of the target counts as near it (default 250). */
  nearPx?: number;
  /** Most hidden texts listed in a report (default 50); findings are always all listed. */
  maxReported?: number;
}

/** Per-call options beyond the tool input. */
export interface InspectOptions {
  signal?: AbortSignal;
  /** Write a full-page screenshot here once the page has loaded. */
  screenshotPath?: string;
}

/** One text that reads as an instruction to an agent. */
export interface InjectionFinding {
  text: string;
  /** `hidden` when a person cannot see it (then `why` says how it is hidden). */
  visibility: 'hidden' | 'visible';
  channel: HiddenChannel;
  why: string[];
  selector: string;
  /** Pixels to the target element; null when there is no target or the text has no box. */
  distance: number | null;
  relation: TargetRelation | null;
  score: number;
  cues: CueMatch[];
}

/** One agent-readable hidden text, injected or not. */
export interface HiddenText {
  text: string;
  channel: HiddenChannel;
  why: string[];
  selector: string;
  distance: number | null;
  score: number;
}

/** The `data` of a report from a page that loaded. */
export interface PageInspection {
  url: string;
  title: string;
  operation?: string;
  target: (ScannedTarget & { matchedBy: string; matches: number }) | null;
  /** Injected instructions: hidden anywhere on the page, or visible near the target; strongest first. */
  findings: InjectionFinding[];
  /** Agent-readable hidden texts, highest score first (at most `maxReported`). */
  hidden: HiddenText[];
  counts: { hidden: number; nearby: number; elements: number };
  truncated: boolean;
  /** Requests the page tried to make to other hosts, which were aborted. */
  blockedRequests: string[];
}

/** The `data` of a report that could not answer. */
export interface InspectionFailure {
  error: { code: InspectionErrorCode; message: string; field?: string };
}

/** Why an inspection could not answer. */
export type InspectionErrorCode = 'BAD_INPUT' | 'BLOCKED' | 'BROWSER_UNAVAILABLE' | 'NAVIGATION_FAILED' | 'TIMEOUT' | 'ABORTED' | 'NOT_FOUND' | 'INTERNAL';

class InspectionError extends Error {
  constructor(
    readonly code: InspectionErrorCode,
    message: string,
    readonly field?: string,
  ) {
    super(message);
  }
}

const inputSchema = z.object({
  url: z.string({ error: (i) => (i.input === undefined ? 'url is missing' : 'url must be a string') }).trim().min(1, 'url is empty').max(8192, 'url is longer than 8192 characters'),
  element: z.string({ error: 'element must be a string' }).max(2000, 'element is longer than 2000 characters').optional(),
  operation: z.string({ error: 'operation must be a string' }).max(200, 'operation is longer than 200 characters').optional(),
});

/** The tool's input. */
export type PageInspectorInput = z.infer<typeof inputSchema>;

function parseInput(input: unknown): PageInspectorInput {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) throw new InspectionError('BAD_INPUT', 'input must be an object with url and optionally element and operation', 'input');
  const r = inputSchema.safeParse(input);
  if (!r.success) {
    const issue = r.error.issues[0];
    const field = issue && issue.path.length > 0 ? issue.path.map(String).join('.') : 'input';
    const message = issue ? (issue.message.includes(field) ? issue.message : `${field}: ${issue.message}`) : 'invalid input';
    throw new InspectionError('BAD_INPUT', message, field);
  }
  return r.data;
}

/** True for this machine: localhost (and *.localhost), 127.0.0.0/8, ::1. */
export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.toLowerCase().replace(/^\[|\]$/g, '');
  return h === 'localhost' || h.endsWith('.localhost') || h === '::1' || /^127(?:\.\d{1,3}){3}$/.test(h);
}

/** Whether the page may make a request to `url`. */
function requestAllowed(url: string, allowNetwork: boolean): boolean {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return false;
  }
  if (u.protocol === 'data:' || u.protocol === 'blob:' || u.protocol === 'about:' || u.protocol === 'file:') return true;
  if (!['http:', 'https:', 'ws:', 'wss:'].includes(u.protocol)) return false;
  return allowNetwork || isLoopbackHost(u.hostname);
}

/** Checks the URL to inspect: http(s) or file:, and a loopback host unless the network is allowed. */
function checkUrl(raw: string, allowNetwork: boolean): URL {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw new InspectionError('BAD_INPUT', `url is not an absolute URL: ${JSON.stringify(raw.slice(0, 200))}`, 'url');
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:' && u.protocol !== 'file:') {
    throw new InspectionError('BAD_INPUT', `url has the scheme "${u.protocol.replace(/:$/, '')}"; only http, https and file URLs can be inspected`, 'url');
  }
  if (u.protocol !== 'file:' && !allowNetwork && !isLoopbackHost(u.hostname)) {
    throw new InspectionError('BLOCKED', `url points at ${u.hostname}, and network access is off: only this machine (localhost, 127.0.0.0/8, ::1) and file: URLs can be inspected unless the inspector is created with allowNetwork`, 'url');
  }
  return u;
}

// Playwright's ARIA roles that a Mind2Web element prefix ("[combobox] Sort By") may name
const ARIA_ROLES = new Set(['alert', 'button', 'checkbox', 'combobox', 'dialog', 'gridcell', 'heading', 'img', 'link', 'listbox', 'listitem', 'menu', 'menuitem', 'menuitemcheckbox', 'menuitemradio', 'option', 'radio', 'row', 'searchbox', 'slider', 'spinbutton', 'switch', 'tab', 'textbox', 'treeitem']);
const TAG_NAME = /^[a-z][a-z0-9-]*$/;

type Candidate = { how: string; locator: Locator };

/** Ways to find the element the agent named, most specific first. */
function candidates(page: Page, element: string): Candidate[] {
  const spec = element.replace(/\s+/g, ' ').trim();
  const out: Candidate[] = [];
  const hinted = /^\[([A-Za-z][\w-]*)\]\s*(.*)$/.exec(spec);
  const text = (hinted ? hinted[2]! : spec).trim();
  if (hinted) {
    const hint = hinted[1]!.toLowerCase();
    if (ARIA_ROLES.has(hint)) out.push({ how: `role ${hint}${text ? ` named "${text}"` : ''}`, locator: text ? page.getByRole(hint as Parameters<Page['getByRole']>[0], { name: text }) : page.getByRole(hint as Parameters<Page['getByRole']>[0]) });
    if (TAG_NAME.test(hint)) out.push({ how: `<${hint}>${text ? ` with text "${text}"` : ''}`, locator: text ? page.locator(hint).filter({ hasText: text }) : page.locator(hint) });
  } else if (/[#.[\]>:=]/.test(spec)) {
    out.push({ how: `selector ${spec}`, locator: page.locator(spec) });
  }
  if (text) {
    for (const exact of [true, false]) {
      const how = exact ? `"${text}"` : `containing "${text}"`;
      out.push(
        { how: `button ${how}`, locator: page.getByRole('button', { name: text, exact }) },
        { how: `link ${how}`, locator: page.getByRole('link', { name: text, exact }) },
        { how: `field labelled ${how}`, locator: page.getByLabel(text, { exact }) },
        { how: `field with placeholder ${how}`, locator: page.getByPlaceholder(text, { exact }) },
        { how: `text ${how}`, locator: page.getByText(text, { exact }) },
        { how: `image with alt ${how}`, locator: page.getByAltText(text, { exact }) },
        { how: `element titled ${how}`, locator: page.getByTitle(text, { exact }) },
      );
    }
  }
  return out;
}

/** The element the agent named, preferring one a person can see; undefined when none matches. */
async function findTarget(page: Page, element: string): Promise<{ handle: ElementHandle; how: string; matches: number } | undefined> {
  for (const c of candidates(page, element)) {
    let n: number;
    try {
      n = await c.locator.count();
    } catch {
      continue; // not a valid selector after all: try it as text
    }
    if (n === 0) continue;
    let pick = 0;
    for (let i = 0; i < Math.min(n, 10); i++) {
      if (await c.locator.nth(i).isVisible()) {
        pick = i;
        break;
      }
    }
    const handle = await c.locator.nth(pick).elementHandle();
    if (handle) return { handle, how: c.how, matches: n };
  }
  return undefined;
}

function clip(s: string, n: number): string {
  return s.length > n ? `${s.slice(0, n - 1)}\u2026` : s;
}

function describeTarget(t: PageInspection['target']): string {
  if (!t) return 'the page';
  const label = t.text ? ` "${clip(t.text, 40)}"` : '';
  return `the ${t.tag}${label}`;
}

function where(f: InjectionFinding): string {
  const how = f.visibility === 'hidden' ? `hidden: ${f.why.join(', ')}` : 'visible';
  const rel = f.relation === 'target' ? 'on the target itself' : f.relation === 'label' ? "in the target's label" : f.relation === 'same form' ? "in the target's form" : f.relation === 'ancestor' ? 'around the target' : undefined;
  const dist = f.distance !== null ? `${f.distance} px from the target` : undefined;
  return [how, rel ?? dist].filter(Boolean).join('; ');
}

/** Builds the report from a scan: scores every text and decides. Pure. */
export function judgeScan(scan: PageScan, opts: { matchedBy: string; matches: number; operation?: string; blockedRequests: string[]; maxReported: number }): ToolReport & { data: PageInspection } {
  let ownHosts: string[] = [];
  try {
    const host = new URL(scan.url).hostname;
    if (host) ownHosts = [host];
  } catch {
    ownHosts = [];
  }
  const findings: InjectionFinding[] = [];
  const hidden: HiddenText[] = [];
  for (const h of scan.hidden) {
    const s = scoreInjectedText(h.text, { ownHosts });
    hidden.push({ text: h.text, channel: h.channel, why: h.why, selector: h.selector, distance: h.distance, score: s.score });
    if (s.injected) findings.push({ text: h.text, visibility: 'hidden', channel: h.channel, why: h.why, selector: h.selector, distance: h.distance, relation: h.relation, score: s.score, cues: s.cues });
  }
  for (const v of scan.nearby) {
    const s = scoreInjectedText(v.text, { ownHosts });
    if (s.injected) findings.push({ text: v.text, visibility: 'visible', channel: 'text', why: [], selector: v.selector, distance: v.distance, relation: v.relation, score: s.score, cues: s.cues });
  }
  findings.sort((a, b) => b.score - a.score || (a.distance ?? 1e9) - (b.distance ?? 1e9));
  hidden.sort((a, b) => b.score - a.score || (a.distance ?? 1e9) - (b.distance ?? 1e9));
  const target = scan.target ? { ...scan.target, matchedBy: opts.matchedBy, matches: opts.matches } : null;
  const data: PageInspection = {
    url: scan.url,
    title: scan.title,
    ...(opts.operation ? { operation: opts.operation } : {}),
    target,
    findings,
    hidden: hidden.slice(0, opts.maxReported),
    counts: { hidden: scan.hidden.length, nearby: scan.nearby.length, elements: scan.elements },
    truncated: scan.truncated,
    blockedRequests: opts.blockedRequests,
  };
  const acting = opts.operation ? `an agent's ${opts.operation.toUpperCase()} on ${describeTarget(target)}` : `an agent acting on ${describeTarget(target)}`;
  let detail: string;
  if (findings.length > 0) {
    const top = findings[0]!;
    const more = findings.length > 1 ? ` ${findings.length - 1} more text${findings.length > 2 ? 's' : ''} read the same way.` : '';
    detail = `The page holds instructions aimed at an AI agent: "${clip(top.text, 160)}" (${where(top)}); ${acting} may follow them.${more}`;
  } else {
    detail = target
      ? `No text near ${describeTarget(target)} or hidden on the page reads as instructions to an AI agent (${scan.hidden.length} hidden and ${scan.nearby.length} nearby texts checked).`
      : `No hidden text on the page reads as instructions to an AI agent (${scan.hidden.length} checked; name an element to check the visible text around it too).`;
  }
  if (target && !target.visible) detail += ` The target element is not visible to a person.`;
  return { tool: PlaywrightPageInspector.toolName, ok: true, violation: findings.length > 0, detail, data };
}

/**
 * A GuardTool that inspects a web page around the element an agent is about to act on, in real
 * Chromium through playwright-core. One browser is shared by every call, launched on first use
 * and closed by {@link close}; each call gets a fresh browser context.
 */
export class PlaywrightPageInspector implements GuardTool {
  static readonly toolName = PAGE_INSPECTOR_INFO.name;
  readonly name = PAGE_INSPECTOR_INFO.name;
  readonly description = PAGE_INSPECTOR_INFO.description;
  readonly inputHelp = PAGE_INSPECTOR_INFO.inputHelp;

  private readonly executablePath: string;
  private readonly args: string[];
  private readonly timeoutMs: number;
  private readonly allowNetwork: boolean;
  private readonly nearPx: number;
  private readonly maxReported: number;
  private browser: Promise<Browser> | undefined;

  constructor(opts: PageInspectorOptions = {}) {
    this.executablePath = opts.executablePath ?? process.env['WARDEN_CHROMIUM'] ?? DEFAULT_CHROMIUM;
    const args = [...CHROMIUM_ARGS, ...(opts.args ?? [])];
    // a second wall behind request routing: names other than localhost resolve to nothing
    if (!opts.allowNetwork) args.push('--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE *.localhost, EXCLUDE 127.*, EXCLUDE [::1]');
    this.args = args;
    this.timeoutMs = opts.timeoutMs ?? 10_000;
    this.allowNetwork = opts.allowNetwork ?? false;
    this.nearPx = opts.nearPx ?? 250;
    this.maxReported = opts.maxReported ?? 50;
  }

  /** GuardTool entry: fields missing from `input` come from the request's web action. */
  async run(input: unknown, ctx: ToolContext, signal: AbortSignal): Promise<ToolReport> {
    const action = ctx.request.action;
    let merged = input;
    if (action.type === 'web' && typeof input === 'object' && input !== null && !Array.isArray(input)) {
      const given = input as Record<string, unknown>;
      merged = {
        ...(action.url !== undefined ? { url: action.url } : {}),
        ...(action.element.trim() !== '' ? { element: action.element } : {}),
        ...(action.operation.trim() !== '' ? { operation: action.operation } : {}),
        ...given,
      };
    }
    return this.inspect(merged, { signal });
  }

  /** Inspects one page; never throws, failures come back as `ok: false` with `data.error`. */
  async inspect(input: unknown, opts: InspectOptions = {}): Promise<ToolReport> {
    try {
      const parsed = parseInput(input);
      const url = checkUrl(parsed.url, this.allowNetwork);
      if (opts.signal?.aborted) throw new InspectionError('ABORTED', 'the inspection was cancelled before it started');
      const browser = await this.launch();
      return await this.inspectWith(browser, url, parsed, opts);
    } catch (e) {
      return this.failure(e);
    }
  }

  /** Closes the shared browser, if one was started. */
  async close(): Promise<void> {
    const b = this.browser;
    this.browser = undefined;
    if (b) await (await b.catch(() => undefined))?.close();
  }

  private failure(e: unknown): ToolReport {
    const err = e instanceof InspectionError ? e : new InspectionError('INTERNAL', e instanceof Error ? e.message : String(e));
    const data: InspectionFailure = { error: { code: err.code, message: err.message, ...(err.field !== undefined ? { field: err.field } : {}) } };
    return { tool: this.name, ok: false, violation: false, detail: `The page could not be inspected: ${err.message}`, data };
  }

  private launch(): Promise<Browser> {
    if (!this.browser) {
      if (!existsSync(this.executablePath)) return Promise.reject(new InspectionError('BROWSER_UNAVAILABLE', `no Chromium at ${this.executablePath} (apt-get install chromium, or set WARDEN_CHROMIUM)`));
      const started = chromium.launch({ executablePath: this.executablePath, args: this.args, timeout: 30_000 }).catch((e: unknown) => {
        throw new InspectionError('BROWSER_UNAVAILABLE', `Chromium did not start: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}`);
      });
      this.browser = started;
      started.then(
        (b) => b.on('disconnected', () => {
          if (this.browser === started) this.browser = undefined;
        }),
        () => {
          if (this.browser === started) this.browser = undefined;
        },
      );
    }
    return this.browser;
  }

  private async inspectWith(browser: Browser, url: URL, input: PageInspectorInput, opts: InspectOptions): Promise<ToolReport> {
    const context = await browser.newContext({ acceptDownloads: false, serviceWorkers: 'block', javaScriptEnabled: true, viewport: { width: 1280, height: 900 } });
    const stop = new AbortController();
    const timer = setTimeout(() => stop.abort(new InspectionError('TIMEOUT', `the page did not load and get inspected within ${this.timeoutMs} ms`)), this.timeoutMs);
    const onAbort = (): void => stop.abort(new InspectionError('ABORTED', 'the inspection was cancelled'));
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    const stopped = new Promise<never>((_, reject) => stop.signal.addEventListener('abort', () => reject(stop.signal.reason), { once: true }));
    const work = this.load(context, url, input, opts);
    work.catch(() => undefined); // closing the context below rejects it once the race is decided
    try {
      return await Promise.race([work, stopped]);
    } finally {
      clearTimeout(timer);
      opts.signal?.removeEventListener('abort', onAbort);
      await context.close().catch(() => undefined);
    }
  }

  private async load(context: BrowserContext, url: URL, input: PageInspectorInput, opts: InspectOptions): Promise<ToolReport> {
    const blocked: string[] = [];
    await context.route('**/*', (route) => {
      const target = route.request().url();
      if (requestAllowed(target, this.allowNetwork)) return route.continue();
      if (blocked.length < 20) blocked.push(clip(target, 200));
      return route.abort('blockedbyclient');
    });
    await context.routeWebSocket(
      (u) => !requestAllowed(u.href, this.allowNetwork),
      (ws) => {
        if (blocked.length < 20) blocked.push(clip(ws.url(), 200));
        return ws.close();
      },
    );
    const page = await context.newPage();
    // the inspection looks at one page; whatever else the page opens is closed unseen
    context.on('page', (p) => {
      if (p !== page) p.close().catch(() => undefined);
    });
    page.setDefaultTimeout(this.timeoutMs);
    let response;
    try {
      response = await page.goto(url.href, { waitUntil: 'load', timeout: this.timeoutMs });
    } catch (e) {
      const msg = e instanceof Error ? e.message.split('\n')[0]! : String(e);
      if (/Timeout \d+ms exceeded/.test(msg)) throw new InspectionError('TIMEOUT', `the page did not load within ${this.timeoutMs} ms`);
      throw new InspectionError('NAVIGATION_FAILED', `the page did not load: ${msg.replace(/^page\.goto: /, '')}`);
    }
    if (response && response.status() >= 400) throw new InspectionError('NAVIGATION_FAILED', `the page answered HTTP ${response.status()} ${response.statusText()}`.trim());
    // let scripts that build the page after load settle, without waiting long for chatty pages
    await page.waitForLoadState('networkidle', { timeout: Math.min(2_000, this.timeoutMs) }).catch(() => undefined);
    if (opts.screenshotPath) await page.screenshot({ path: opts.screenshotPath, fullPage: true });

    const element = input.element?.trim() ? input.element.trim() : undefined;
    let found: Awaited<ReturnType<typeof findTarget>>;
    if (element !== undefined) {
      found = await findTarget(page, element);
      if (!found) throw new InspectionError('NOT_FOUND', `no element matching ${JSON.stringify(clip(element, 120))} on ${page.url()} (looked for a button, link, label, placeholder, text, alt text or title${/[#.[\]>:=]/.test(element) ? ', and a CSS selector' : ''})`, 'element');
    }
    const scan = await page.evaluate(scanPage, { target: found?.handle ?? null, nearPx: this.nearPx, maxItems: 1000 });
    return judgeScan(scan, {
      matchedBy: found?.how ?? '',
      matches: found?.matches ?? 0,
      ...(input.operation ? { operation: input.operation } : {}),
      blockedRequests: blocked,
      maxReported: this.maxReported,
    });
  }
}
