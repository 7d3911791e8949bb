/**
 * The script the page inspector runs inside the page: it walks the DOM once and returns every
 * text an agent can read but a person cannot see (with why), and the visible text near the target
 * element (with how near). Scoring happens in Node, on plain data.
 *
 * The script is kept as JavaScript source rather than a TypeScript function: the engine compiles
 * without DOM types (STYLE.md), and a function passed to Playwright is sent as its source text,
 * which a loader that renames or wraps functions (tsx keeps names with a helper the page does not
 * have) would break. The test suite drives it through real Chromium.
 */
import type { ElementHandle } from 'playwright-core';

/** Where a hidden text was found. */
export type HiddenChannel = 'text' | 'comment' | 'attribute' | 'meta';

/** How a text relates to the target element in the DOM. */
export type TargetRelation = 'target' | 'ancestor' | 'label' | 'same form';

/** A text an agent reading the DOM would see but a person looking at the page would not. */
export interface ScannedHidden {
  channel: HiddenChannel;
  text: string;
  /** Why a person cannot see it: `display:none`, `font size 0`, `aria-label attribute`, ... */
  why: string[];
  selector: string;
  /**
   * Pixels between its box and the target's; a text with no box (display:none) is placed by its
   * nearest rendered siblings, else by its parent's place. Null without a target.
   */
  distance: number | null;
  relation: TargetRelation | null;
}

/** A visible block of text near the target. */
export interface ScannedNearby {
  text: string;
  selector: string;
  distance: number | null;
  relation: TargetRelation | null;
}

/** The target element as the page sees it. */
export interface ScannedTarget {
  selector: string;
  tag: string;
  text: string;
  visible: boolean;
  rect: { x: number; y: number; width: number; height: number };
}

/** What the scan returns. */
export interface PageScan {
  url: string;
  title: string;
  target: ScannedTarget | null;
  hidden: ScannedHidden[];
  nearby: ScannedNearby[];
  elements: number;
  /** True when the page had more elements or texts than the scan looks at. */
  truncated: boolean;
}

/** What the scan takes. */
export interface ScanArgs {
  target: ElementHandle | null;
  /** Visible text within this many pixels of the target counts as near it. */
  nearPx: number;
  /** Most entries of each channel returned. */
  maxItems: number;
}

const SOURCE = String.raw`(args) => {
  const doc = document;
  const root = doc.documentElement;
  const MAX_TEXT = 600;
  const MAX_ELEMENTS = 20000;
  const LIMIT = args.maxItems;
  const NEAR = args.nearPx;
  let truncated = false;

  const clean = (s) => String(s).replace(/\s+/g, ' ').trim();
  const cut = (s) => (s.length > MAX_TEXT ? s.slice(0, MAX_TEXT) + '\u2026' : s);
  const hasWords = (s) => /\p{L}{2}/u.test(s);

  const styles = new Map();
  const style = (el) => {
    let s = styles.get(el);
    if (!s) { s = getComputedStyle(el); styles.set(el, s); }
    return s;
  };
  const rects = new Map();
  const rectOf = (el) => {
    let r = rects.get(el);
    if (!r) {
      const b = el.getBoundingClientRect();
      r = { x: b.left + scrollX, y: b.top + scrollY, width: b.width, height: b.height };
      rects.set(el, r);
    }
    return r;
  };
  // the box of an element, or of its nearest ancestor that has one (display:none has none)
  const boxOf = (el) => {
    for (let cur = el; cur; cur = cur.parentElement) {
      const r = rectOf(cur);
      if (r.width > 0 || r.height > 0) return r;
    }
    return null;
  };
  const pageWidth = Math.max(innerWidth, root.clientWidth);
  const pageHeight = Math.max(innerHeight, root.scrollHeight, doc.body ? doc.body.scrollHeight : 0);

  const INTERACTIVE_TAGS = new Set(['A', 'BUTTON', 'INPUT', 'SELECT', 'TEXTAREA', 'SUMMARY', 'OPTION']);
  const INTERACTIVE_ROLES = new Set(['button', 'link', 'checkbox', 'radio', 'menuitem', 'menuitemcheckbox', 'menuitemradio', 'tab', 'option', 'combobox', 'textbox', 'searchbox', 'switch', 'slider', 'spinbutton']);
  const interactive = (el) => INTERACTIVE_TAGS.has(el.tagName) || INTERACTIVE_ROLES.has((el.getAttribute('role') || '').toLowerCase()) || el.hasAttribute('onclick');

  const selectorOf = (el) => {
    const parts = [];
    for (let cur = el; cur && cur.nodeType === 1 && parts.length < 6; cur = cur.parentElement) {
      const tag = cur.tagName.toLowerCase();
      if (cur.id) {
        const sel = '#' + CSS.escape(cur.id);
        let unique = false;
        try { unique = doc.querySelectorAll(sel).length === 1; } catch (e) { unique = false; }
        if (unique) { parts.unshift(sel); break; }
      }
      if (tag === 'html' || tag === 'body' || tag === 'head') { parts.unshift(tag); break; }
      let part = tag;
      const parent = cur.parentElement;
      if (parent) {
        const same = Array.from(parent.children).filter((c) => c.tagName === cur.tagName);
        if (same.length > 1) part += ':nth-of-type(' + (same.indexOf(cur) + 1) + ')';
      }
      parts.unshift(part);
    }
    return parts.join(' > ');
  };

  const parseColor = (value) => {
    const m = /^rgba?\(([^)]*)\)$/.exec(String(value).trim());
    if (!m) return value === 'transparent' ? [0, 0, 0, 0] : null;
    const n = m[1].split(/[\s,\/]+/).filter(Boolean).map((x) => (x.endsWith('%') ? parseFloat(x) / 100 : parseFloat(x)));
    if (n.length < 3 || n.some((x) => Number.isNaN(x))) return null;
    return [n[0], n[1], n[2], n.length > 3 ? n[3] : 1];
  };
  // the colour painted behind an element: its own and its ancestors' backgrounds over the white
  // canvas; unknown (null) when an image or a colour we cannot read is on the way
  const backgroundOf = (el) => {
    const layers = [];
    for (let cur = el; cur; cur = cur.parentElement) {
      const s = style(cur);
      if (s.backgroundImage && s.backgroundImage !== 'none') return null;
      const c = parseColor(s.backgroundColor);
      if (c === null) return null;
      if (c[3] > 0) { layers.push(c); if (c[3] >= 0.99) break; }
    }
    let base = [255, 255, 255];
    for (let i = layers.length - 1; i >= 0; i--) {
      const [r, g, b, a] = layers[i];
      base = [r * a + base[0] * (1 - a), g * a + base[1] * (1 - a), b * a + base[2] * (1 - a)];
    }
    return base;
  };
  const luminance = (c) => {
    const ch = c.slice(0, 3).map((v) => { const s = v / 255; return s <= 0.03928 ? s / 12.92 : Math.pow((s + 0.055) / 1.055, 2.4); });
    return 0.2126 * ch[0] + 0.7152 * ch[1] + 0.0722 * ch[2];
  };
  // text whose colour (blended over its background) is all but the background's own
  const colourHides = (el) => {
    const fg = parseColor(style(el).color);
    const bg = backgroundOf(el);
    if (!fg || !bg || fg[3] < 0.05) return false;
    const a = fg[3];
    const mixed = [fg[0] * a + bg[0] * (1 - a), fg[1] * a + bg[1] * (1 - a), fg[2] * a + bg[2] * (1 - a)];
    const l1 = luminance(mixed), l2 = luminance(bg);
    return (Math.max(l1, l2) + 0.05) / (Math.min(l1, l2) + 0.05) < 1.25;
  };

  // what hides an element itself, as opposed to what it inherits from an ancestor
  const reasonCache = new Map();
  const ownReasons = (el) => {
    let r = reasonCache.get(el);
    if (r) return r;
    r = [];
    const s = style(el);
    const p = el.parentElement ? style(el.parentElement) : null;
    if (el.tagName === 'NOSCRIPT') r.push('noscript (not shown while JavaScript runs)');
    if (el.hasAttribute('hidden')) r.push('hidden attribute');
    if (el.getAttribute('aria-hidden') === 'true') r.push('aria-hidden');
    if (s.display === 'none' && el.tagName !== 'NOSCRIPT') r.push('display:none');
    const invisible = (st) => st.visibility === 'hidden' || st.visibility === 'collapse';
    if (invisible(s) && !(p && invisible(p))) r.push('visibility:' + s.visibility);
    if (parseFloat(s.opacity) < 0.05) r.push('opacity ' + s.opacity);
    const size = parseFloat(s.fontSize);
    if (size < 4 && !(p && parseFloat(p.fontSize) < 4)) r.push('font size ' + size + 'px');
    const fg = parseColor(s.color);
    const pfg = p ? parseColor(p.color) : null;
    if (fg && fg[3] < 0.05 && !(pfg && pfg[3] < 0.05)) r.push('transparent text');
    if (s.display !== 'none') {
      if (/^rect\(0(px)?,? 0(px)?,? 0(px)?,? 0(px)?\)$/.test(s.clip) || /^inset\((50%|100%)/.test(s.clipPath) || /^circle\(0/.test(s.clipPath)) r.push('clipped away');
      const b = rectOf(el);
      if ((b.width <= 1 || b.height <= 1) && s.overflow !== 'visible' && el.textContent.trim() !== '') r.push('zero-size box');
      if ((b.width > 0 || b.height > 0) && (b.x + b.width <= 0 || b.y + b.height <= 0 || b.x >= pageWidth || b.y >= pageHeight)) r.push('off-screen');
      if (parseFloat(s.textIndent) <= -999) r.push('text indented off-screen');
      if (s.transform && /^matrix\(0, 0, 0, 0/.test(s.transform)) r.push('scaled to nothing');
    }
    reasonCache.set(el, r);
    return r;
  };

  let target = args.target || null;
  if (target) {
    for (let cur = target, i = 0; cur && i < 4; cur = cur.parentElement, i++) {
      if (interactive(cur)) { target = cur; break; }
    }
  }
  const targetBox = target ? boxOf(target) : null;
  const targetForm = target ? (target.form || target.closest('form')) : null;
  const targetLabels = target && target.labels ? Array.from(target.labels) : [];

  const relationOf = (el) => {
    if (!target || !el) return null;
    if (el === target || target.contains(el)) return 'target';
    if (targetLabels.some((l) => l === el || l.contains(el))) return 'label';
    if (el.contains(target)) {
      let depth = 0;
      for (let cur = target; cur && cur !== el; cur = cur.parentElement) depth++;
      if (depth <= 4) return 'ancestor';
    }
    if (targetForm && targetForm.contains(el)) return 'same form';
    return null;
  };
  // where a node sits: its own box, else (display:none has none) the boxes of its nearest
  // rendered siblings, else its parent's place, and so on up
  const anchorsOf = (el) => {
    for (let cur = el; cur && cur !== root; cur = cur.parentElement) {
      const own = cur.nodeType === 1 ? rectOf(cur) : { width: 0, height: 0 };
      if (own.width > 0 || own.height > 0) return [own];
      const near = [];
      for (let s = cur.previousElementSibling; s; s = s.previousElementSibling) {
        const b = rectOf(s);
        if (b.width > 0 || b.height > 0) { near.push(b); break; }
      }
      for (let s = cur.nextElementSibling; s; s = s.nextElementSibling) {
        const b = rectOf(s);
        if (b.width > 0 || b.height > 0) { near.push(b); break; }
      }
      if (near.length > 0) return near;
    }
    return [];
  };
  const distanceTo = (el) => {
    if (!targetBox || !el) return null;
    const a = targetBox;
    let best = null;
    for (const b of anchorsOf(el)) {
      const dx = Math.max(0, a.x - (b.x + b.width), b.x - (a.x + a.width));
      const dy = Math.max(0, a.y - (b.y + b.height), b.y - (a.y + a.height));
      const d = Math.round(Math.hypot(dx, dy));
      if (best === null || d < best) best = d;
    }
    return best;
  };

  const hiddenGroups = new Map();
  const blocks = new Map();
  const comments = [];
  const SKIP = new Set(['SCRIPT', 'STYLE', 'TEMPLATE', 'TITLE']);
  const walker = doc.createTreeWalker(doc, NodeFilter.SHOW_TEXT | NodeFilter.SHOW_COMMENT);
  let textNodes = 0;
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const value = n.nodeValue || '';
    if (!value.trim()) continue;
    if (n.nodeType === 8) {
      if (comments.length < LIMIT) comments.push(n);
      else truncated = true;
      continue;
    }
    const parent = n.parentElement;
    if (!parent || SKIP.has(parent.tagName) || parent.closest('head')) continue;
    if (++textNodes > MAX_ELEMENTS) { truncated = true; break; }
    const why = [];
    let hidingRoot = null;
    for (let cur = parent; cur && cur !== root; cur = cur.parentElement) {
      const own = ownReasons(cur);
      if (own.length > 0) {
        for (const w of own) if (!why.includes(w)) why.push(w);
        hidingRoot = cur;
      }
    }
    if (!hidingRoot && colourHides(parent)) {
      hidingRoot = parent;
      // widen to the outermost ancestor whose text is painted in its own background's colour
      while (hidingRoot.parentElement && hidingRoot.parentElement !== doc.body && hidingRoot.parentElement !== root && colourHides(hidingRoot.parentElement)) hidingRoot = hidingRoot.parentElement;
      why.push('text colour matches its background');
    }
    if (hidingRoot) {
      let g = hiddenGroups.get(hidingRoot);
      if (!g) {
        if (hiddenGroups.size >= LIMIT) { truncated = true; continue; }
        g = { why: [], parts: [] };
        hiddenGroups.set(hidingRoot, g);
      }
      for (const w of why) if (!g.why.includes(w)) g.why.push(w);
      g.parts.push(value);
      continue;
    }
    let block = parent;
    while (block.parentElement && block !== doc.body && style(block).display.startsWith('inline') && !interactive(block) && block.tagName !== 'LABEL') block = block.parentElement;
    let parts = blocks.get(block);
    if (!parts) { parts = []; blocks.set(block, parts); }
    parts.push(value);
  }

  const hidden = [];
  for (const [el, g] of hiddenGroups) {
    const text = clean(g.parts.join(' '));
    if (!hasWords(text)) continue;
    hidden.push({ channel: 'text', text: cut(text), why: g.why, selector: selectorOf(el), distance: distanceTo(el), relation: relationOf(el) });
  }
  for (const c of comments) {
    const text = clean(c.nodeValue);
    if (!hasWords(text)) continue;
    const host = c.parentElement;
    hidden.push({ channel: 'comment', text: cut(text), why: ['HTML comment'], selector: host ? selectorOf(host) : '', distance: distanceTo(c), relation: host ? relationOf(host) : null });
  }

  const ATTRIBUTES = ['title', 'alt', 'aria-label', 'aria-description', 'aria-placeholder', 'aria-roledescription', 'placeholder'];
  const all = doc.querySelectorAll('*');
  if (all.length > MAX_ELEMENTS) truncated = true;
  let attributeCount = 0;
  for (let i = 0; i < Math.min(all.length, MAX_ELEMENTS); i++) {
    const el = all[i];
    if (el.tagName === 'META') {
      const content = el.getAttribute('content');
      const key = el.getAttribute('name') || el.getAttribute('property') || el.getAttribute('http-equiv') || el.getAttribute('itemprop') || '';
      if (content && hasWords(content) && !/^(viewport|theme-color|color-scheme|format-detection|referrer|content-type)$/i.test(key)) {
        hidden.push({ channel: 'meta', text: cut(clean(content)), why: ['<meta' + (key ? ' ' + key : '') + '> content'], selector: selectorOf(el), distance: null, relation: null });
      }
      continue;
    }
    const names = [];
    for (const a of el.getAttributeNames()) if (ATTRIBUTES.includes(a) || a.startsWith('data-')) names.push(a);
    if (el.tagName === 'INPUT' && (el.getAttribute('type') || '').toLowerCase() === 'hidden' && el.hasAttribute('value')) names.push('value');
    for (const a of names) {
      const text = clean(el.getAttribute(a) || '');
      if (!hasWords(text)) continue;
      if (++attributeCount > LIMIT) { truncated = true; break; }
      hidden.push({ channel: 'attribute', text: cut(text), why: [(a === 'value' ? 'hidden input value' : a + ' attribute')], selector: selectorOf(el), distance: distanceTo(el), relation: relationOf(el) });
    }
  }

  const nearby = [];
  if (target) {
    for (const [el, parts] of blocks) {
      const text = clean(parts.join(' '));
      if (!hasWords(text)) continue;
      const relation = relationOf(el);
      const distance = distanceTo(el);
      if (relation === null && (distance === null || distance > NEAR)) continue;
      nearby.push({ text: cut(text), selector: selectorOf(el), distance, relation });
    }
    nearby.sort((a, b) => (a.distance ?? 1e9) - (b.distance ?? 1e9));
    if (nearby.length > LIMIT) { nearby.length = LIMIT; truncated = true; }
  }

  let targetInfo = null;
  if (target) {
    let visible = !!targetBox && rectOf(target).width > 0 && rectOf(target).height > 0;
    for (let cur = target; visible && cur && cur !== root; cur = cur.parentElement) if (ownReasons(cur).some((w) => w !== 'aria-hidden')) visible = false;
    const label = clean(target.innerText || target.value || target.getAttribute('aria-label') || target.getAttribute('placeholder') || target.getAttribute('title') || target.getAttribute('alt') || '');
    const r = rectOf(target);
    targetInfo = { selector: selectorOf(target), tag: target.tagName.toLowerCase(), text: label.length > 120 ? label.slice(0, 120) + '\u2026' : label, visible, rect: { x: Math.round(r.x), y: Math.round(r.y), width: Math.round(r.width), height: Math.round(r.height) } };
  }
  return { url: location.href, title: doc.title, target: targetInfo, hidden, nearby, elements: all.length, truncated };
}`;

/** The scan as a function Playwright can send to the page (built from source, see the module comment). */
export const scanPage = new Function(`return ${SOURCE}`)() as (args: ScanArgs) => PageScan;
