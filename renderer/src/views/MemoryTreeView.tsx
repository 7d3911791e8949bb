import { useDeferredValue, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { select, zoom, zoomIdentity, type ZoomBehavior, type ZoomTransform } from 'd3';
import { centreOn, fitTransform, hitTest, palette, radialTreeLayout, searchNodes, type LaidNode, type TreeLayout } from '../layout/tree-layout.js';
import { useWarden } from '../store/use-warden.js';

const LINK = '#cbd5e1';
const MATCH = '#dc2626';
const FOCUS = '#111827';

/** The memory tree on a canvas: d3-zoom owns pan and zoom, a quadtree answers clicks. */
export function MemoryTreeView() {
  const nodes = useWarden((s) => s.nodes);
  const colour = useWarden((s) => s.colour);
  const setColour = useWarden((s) => s.setColour);
  const search = useWarden((s) => s.search);
  const setSearch = useWarden((s) => s.setSearch);
  const focusId = useWarden((s) => s.focusId);
  const focus = useWarden((s) => s.focus);
  const openLeaf = useWarden((s) => s.openLeaf);
  const loading = useWarden((s) => s.treeLoading);
  const openId = useWarden((s) => s.leaf?.node.id ?? null);
  const query = useDeferredValue(search);

  const layout = useMemo(() => {
    const t = performance.now();
    const l = radialTreeLayout(nodes, { colour });
    performance.measure('warden:tree-layout', { start: t, end: performance.now() });
    return l;
  }, [nodes, colour]);
  const matches = useMemo(() => searchNodes(nodes, query), [nodes, query]);
  const matchSet = useMemo(() => new Set(matches), [matches]);
  const leafMatches = useMemo(() => matches.filter((id) => layout.byId.get(id)?.kind === 'leaf'), [matches, layout]);

  const wrapRef = useRef<HTMLDivElement>(null);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const zoomRef = useRef<ZoomBehavior<HTMLCanvasElement, unknown> | null>(null);
  const transformRef = useRef<ZoomTransform>(zoomIdentity);
  const sizeRef = useRef({ w: 0, h: 0 });
  const frameRef = useRef(0);
  const drawRef = useRef<() => void>(() => undefined);
  const fittedRef = useRef<number | null>(null);
  const matchCursor = useRef(0);
  const [hover, setHover] = useState<LaidNode | null>(null);

  drawRef.current = () => {
    const canvas = canvasRef.current;
    if (!canvas) return;
    const started = performance.now();
    draw(canvas, layout, transformRef.current, sizeRef.current, matchSet, [focusId, openId, hover?.id ?? null]);
    if (canvas.dataset.drawn !== String(layout.leaves)) canvas.dataset.drawnAt = performance.now().toFixed(0);
    canvas.dataset.drawn = String(layout.leaves);
    canvas.dataset.drawMs = (performance.now() - started).toFixed(2);
  };
  const schedule = (): void => {
    if (frameRef.current) return;
    frameRef.current = requestAnimationFrame(() => {
      frameRef.current = 0;
      drawRef.current();
    });
  };

  // size, zoom and fit run as layout effects, in this order, so a remount with a loaded tree fits it
  // size the canvas to its box, at the screen's pixel density
  useLayoutEffect(() => {
    const wrap = wrapRef.current;
    const canvas = canvasRef.current;
    if (!wrap || !canvas) return;
    const resize = (): void => {
      const w = wrap.clientWidth;
      const h = wrap.clientHeight;
      const dpr = window.devicePixelRatio || 1;
      sizeRef.current = { w, h };
      canvas.width = Math.round(w * dpr);
      canvas.height = Math.round(h * dpr);
      canvas.style.width = `${w}px`;
      canvas.style.height = `${h}px`;
      schedule();
    };
    resize();
    const ro = new ResizeObserver(resize);
    ro.observe(wrap);
    return () => ro.disconnect();
  }, []);

  useLayoutEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas) return;
    const z = zoom<HTMLCanvasElement, unknown>()
      .scaleExtent([0.01, 60])
      .on('zoom', (ev: { transform: ZoomTransform }) => {
        transformRef.current = ev.transform;
        schedule();
      });
    zoomRef.current = z;
    const sel = select(canvas);
    sel.call(z);
    sel.on('dblclick.zoom', null);
    return () => {
      sel.on('.zoom', null);
      zoomRef.current = null;
      if (frameRef.current) cancelAnimationFrame(frameRef.current);
      frameRef.current = 0;
    };
  }, []);

  // fit the whole tree when its size changes a lot (first load, an import), not on every edit;
  // drawn at once, before other messages queued on the socket get the main thread
  useLayoutEffect(() => {
    const canvas = canvasRef.current;
    const z = zoomRef.current;
    if (!canvas || !z) return;
    const { w, h } = sizeRef.current;
    if (fittedRef.current === null || Math.abs(fittedRef.current - layout.radius) > layout.radius * 0.2) {
      fittedRef.current = layout.radius;
      const f = fitTransform(layout, w || 800, h || 600);
      select(canvas).call(z.transform, zoomIdentity.translate(f.x, f.y).scale(f.k));
    }
    drawRef.current();
  }, [layout]);

  useEffect(() => schedule(), [matchSet, focusId, openId, hover]);

  const centre = (id: string, minK = 6): void => {
    const canvas = canvasRef.current;
    const z = zoomRef.current;
    const n = layout.byId.get(id);
    if (!canvas || !z || !n) return;
    const { w, h } = sizeRef.current;
    const t = centreOn(n.x, n.y, w, h, Math.max(transformRef.current.k, minK));
    select(canvas).call(z.transform, zoomIdentity.translate(t.x, t.y).scale(t.k));
    canvas.dataset.centred = id;
  };

  // bring a focused node (from the timeline, the review queue or a match) into view
  useEffect(() => {
    if (focusId && layout.byId.has(focusId)) centre(focusId, 2);
  }, [focusId, layout]);

  const nodeAt = (clientX: number, clientY: number): LaidNode | undefined => {
    const canvas = canvasRef.current;
    if (!canvas) return undefined;
    const rect = canvas.getBoundingClientRect();
    const t = transformRef.current;
    const [x, y] = t.invert([clientX - rect.left, clientY - rect.top]);
    return hitTest(layout, x, y, 4 / t.k);
  };

  const onClick = (ev: React.MouseEvent<HTMLCanvasElement>): void => {
    const n = nodeAt(ev.clientX, ev.clientY);
    if (!n) return;
    if (n.kind === 'leaf') void openLeaf(n.id);
    else focus(n.id);
  };
  const onMove = (ev: React.MouseEvent<HTMLCanvasElement>): void => {
    const n = nodeAt(ev.clientX, ev.clientY) ?? null;
    if ((n?.id ?? null) !== (hover?.id ?? null)) setHover(n);
  };
  const nextMatch = (): void => {
    if (leafMatches.length === 0) return;
    const id = leafMatches[matchCursor.current % leafMatches.length]!;
    matchCursor.current++;
    focus(id);
    centre(id);
  };

  const steps = palette(colour);
  return (
    <div className="tree-view">
      <div className="toolbar">
        <label>
          Search
          <input
            type="search"
            value={search}
            placeholder="rule text or name"
            data-testid="tree-search"
            onChange={(e) => {
              matchCursor.current = 0;
              setSearch(e.target.value);
            }}
            onKeyDown={(e) => {
              if (e.key === 'Enter') nextMatch();
            }}
          />
        </label>
        <span className="muted" data-testid="tree-match-count">
          {query ? `${matches.length} matches` : ''}
        </span>
        <label>
          Colour by
          <select value={colour} onChange={(e) => setColour(e.target.value === 'hits' ? 'hits' : 'entropy')} data-testid="tree-colour">
            <option value="entropy">entropy</option>
            <option value="hits">hit rate</option>
          </select>
        </label>
        <span className="legend" aria-label={`colour scale of ${colour}, low to high`}>
          low
          {steps.map((c) => (
            <i key={c} className="swatch" style={{ background: c }} />
          ))}
          high
        </span>
        <span className="muted" data-testid="tree-size">
          {layout.leaves} leaves · {nodes.length} nodes{loading ? ' · loading…' : ''}
        </span>
        <ImportForm />
      </div>
      {leafMatches.length > 0 ? (
        <ul className="matches" aria-label="Matching leaves">
          {leafMatches.slice(0, 30).map((id) => (
            <li key={id}>
              <button
                type="button"
                className="link"
                data-testid="tree-match"
                onClick={() => {
                  centre(id);
                  void openLeaf(id);
                }}
              >
                {layout.byId.get(id)?.label ?? id}
              </button>
            </li>
          ))}
          {leafMatches.length > 30 ? <li className="muted">and {leafMatches.length - 30} more (Enter steps through them)</li> : null}
        </ul>
      ) : null}
      <div className="tree-wrap" ref={wrapRef}>
        <canvas
          ref={canvasRef}
          data-testid="tree-canvas"
          data-leaves={layout.leaves}
          role="img"
          aria-label={`Memory tree with ${layout.leaves} leaves; scroll to zoom, drag to pan, click a leaf to open it`}
          onClick={onClick}
          onMouseMove={onMove}
          onMouseLeave={() => setHover(null)}
        />
        {hover ? (
          <div className="hover" data-testid="tree-hover">
            {hover.kind}: {hover.label} · {hover.info.members} members · entropy {hover.info.entropy.toFixed(2)} · {hover.info.hits} hits
          </div>
        ) : null}
        {nodes.length <= 1 && !loading ? <p className="empty">The memory tree is empty. Import a SafeHarbor memory or decide a few reviews.</p> : null}
      </div>
    </div>
  );
}

function ImportForm() {
  const importSafeHarbor = useWarden((s) => s.importSafeHarbor);
  const loading = useWarden((s) => s.treeLoading);
  const [path, setPath] = useState('');
  return (
    <form
      className="inline"
      onSubmit={(e) => {
        e.preventDefault();
        if (path.trim()) void importSafeHarbor(path.trim());
      }}
    >
      <label>
        SafeHarbor file
        <input value={path} onChange={(e) => setPath(e.target.value)} placeholder="/path/to/memory.json" data-testid="import-path" />
      </label>
      <button type="submit" disabled={loading || !path.trim()} data-testid="import-button">
        Import
      </button>
    </form>
  );
}

function draw(canvas: HTMLCanvasElement, layout: TreeLayout, t: ZoomTransform, size: { w: number; h: number }, matches: Set<string>, marked: (string | null)[]): void {
  const ctx = canvas.getContext('2d');
  if (!ctx) return;
  const dpr = canvas.width / Math.max(1, size.w);
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.clearRect(0, 0, size.w, size.h);
  const k = t.k;
  // the visible window in layout units, with a margin, so off-screen work is skipped
  const pad = 20 / k;
  const x0 = -t.x / k - pad;
  const x1 = (size.w - t.x) / k + pad;
  const y0 = -t.y / k - pad;
  const y1 = (size.h - t.y) / k + pad;
  const inView = (x: number, y: number): boolean => x >= x0 && x <= x1 && y >= y0 && y <= y1;

  ctx.save();
  ctx.translate(t.x, t.y);
  ctx.scale(k, k);
  // leaf edges only once leaves stand apart on screen; before that they only grey the disc
  const leafLinks = k * layout.leafGap >= 2;
  ctx.beginPath();
  for (const l of layout.links) {
    if (l.toLeaf && !leafLinks) continue;
    if (!inView(l.x1, l.y1) && !inView(l.x2, l.y2)) continue;
    ctx.moveTo(l.x1, l.y1);
    ctx.lineTo(l.x2, l.y2);
  }
  ctx.strokeStyle = LINK;
  ctx.lineWidth = 0.6 / k;
  ctx.stroke();

  const minR = 0.9 / k;
  const byColour = new Map<string, LaidNode[]>();
  for (const n of layout.nodes) {
    if (!inView(n.x, n.y)) continue;
    let list = byColour.get(n.colour);
    if (!list) byColour.set(n.colour, (list = []));
    list.push(n);
  }
  for (const [fill, list] of byColour) {
    ctx.beginPath();
    for (const n of list) {
      const r = Math.max(n.r, minR);
      if (r * k < 1.5) ctx.rect(n.x - r, n.y - r, 2 * r, 2 * r);
      else {
        ctx.moveTo(n.x + r, n.y);
        ctx.arc(n.x, n.y, r, 0, 2 * Math.PI);
      }
    }
    ctx.fillStyle = fill;
    ctx.fill();
  }
  if (matches.size > 0) {
    ctx.beginPath();
    for (const id of matches) {
      const n = layout.byId.get(id);
      if (!n || !inView(n.x, n.y)) continue;
      const r = Math.max(n.r, minR) + 2.5 / k;
      ctx.moveTo(n.x + r, n.y);
      ctx.arc(n.x, n.y, r, 0, 2 * Math.PI);
    }
    ctx.strokeStyle = MATCH;
    ctx.lineWidth = 1.5 / k;
    ctx.stroke();
  }
  for (const id of marked) {
    const n = id ? layout.byId.get(id) : undefined;
    if (!n) continue;
    ctx.beginPath();
    ctx.arc(n.x, n.y, Math.max(n.r, minR) + 4 / k, 0, 2 * Math.PI);
    ctx.strokeStyle = FOCUS;
    ctx.lineWidth = 2 / k;
    ctx.stroke();
  }
  ctx.restore();

  // labels in screen space along the radius, so text stays crisp, the same size at any zoom,
  // and neighbours do not overwrite each other
  ctx.font = '11px system-ui, sans-serif';
  ctx.fillStyle = '#111827';
  ctx.textBaseline = 'middle';
  const leafLabels = k * layout.leafGap >= 11;
  let budget = 600;
  for (const n of layout.nodes) {
    if (budget <= 0) break;
    const show = n.kind === 'category' || (n.kind === 'cluster' && k > 1.2) || (n.kind === 'leaf' && leafLabels) || marked.includes(n.id);
    if (!show || !inView(n.x, n.y)) continue;
    const sx = t.x + n.x * k;
    const sy = t.y + n.y * k;
    const right = Math.sin(n.angle) >= 0;
    ctx.save();
    ctx.translate(sx, sy);
    ctx.rotate(n.angle - Math.PI / 2 + (right ? 0 : Math.PI));
    ctx.textAlign = right ? 'left' : 'right';
    ctx.fillText(n.label, (right ? 1 : -1) * (Math.max(n.r * k, 1) + 4), 0);
    ctx.restore();
    budget--;
  }
}
