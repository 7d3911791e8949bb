import { useEffect, useRef, useState, type ReactNode } from 'react';
import { visibleRange } from '../layout/charts.js';

/** A fixed-row-height list that renders only the rows in view, so thousands of items stay light. */
export function VirtualList<T>(props: { items: T[]; rowHeight: number; height: number; render: (item: T, index: number) => ReactNode; keyOf: (item: T) => string; label: string; testId?: string; scrollTo?: number }) {
  const { items, rowHeight, height, render, keyOf, label, testId, scrollTo } = props;
  const ref = useRef<HTMLDivElement>(null);
  const [top, setTop] = useState(0);
  useEffect(() => {
    const el = ref.current;
    if (!el || scrollTo === undefined) return;
    const y = scrollTo * rowHeight;
    if (y < el.scrollTop) el.scrollTop = y;
    else if (y + rowHeight > el.scrollTop + el.clientHeight) el.scrollTop = y + rowHeight - el.clientHeight;
  }, [scrollTo, rowHeight]);
  const { start, end } = visibleRange(top, height, rowHeight, items.length);
  return (
    <div ref={ref} className="vlist" style={{ height }} onScroll={(e) => setTop(e.currentTarget.scrollTop)} role="list" aria-label={label} data-testid={testId}>
      <div style={{ height: items.length * rowHeight, position: 'relative' }}>
        {items.slice(start, end).map((item, i) => (
          <div key={keyOf(item)} role="listitem" className="vrow" style={{ position: 'absolute', top: (start + i) * rowHeight, height: rowHeight, left: 0, right: 0 }}>
            {render(item, start + i)}
          </div>
        ))}
      </div>
    </div>
  );
}
