import { useVirtualizer } from '@tanstack/react-virtual';
import { useRef, type ReactNode } from 'react';
import { INITIAL_RECT, measureShown, overscanFor } from './virtual-lists.ts';

interface Props {
  count: number;
  /** A row's height before it is measured. */
  estimate: number;
  /** The list's name for screen readers. */
  label: string;
  className: string;
  row(index: number): ReactNode;
  /** A stable key for row `index` (an id), so a measured row keeps its size when the list changes. */
  rowKey(index: number): string | number;
}

/**
 * A list drawn virtually in a box of its own (issue 16), for lists inside dialogs: the box takes
 * focus, so arrows and Page Up/Down scroll it, Home and End go to the first and last row, and the
 * rows near its viewport are drawn; each row tells screen readers its place in the whole list.
 */
export function VirtualRows({ count, estimate, label, className, row, rowKey }: Props) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => estimate,
    overscan: overscanFor(count, 8),
    initialRect: INITIAL_RECT,
    measureElement: measureShown(estimate),
    getItemKey: rowKey,
  });
  return (
    <div
      className="virtual-rows-scroll"
      ref={scrollRef}
      tabIndex={0}
      role="region"
      aria-label={label}
      onKeyDown={(e) => {
        // Home and End by index: the rows beyond the drawn ones have no height the browser knows of yet.
        if (e.target !== e.currentTarget || count === 0 || (e.key !== 'Home' && e.key !== 'End')) return;
        e.preventDefault();
        virtualizer.scrollToIndex(e.key === 'Home' ? 0 : count - 1, { align: e.key === 'Home' ? 'start' : 'end' });
      }}
    >
      <ul className={`${className} virtual`} aria-label={label} style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
        {virtualizer.getVirtualItems().map((item) => (
          <li key={item.key} data-index={item.index} ref={virtualizer.measureElement} aria-setsize={count} aria-posinset={item.index + 1} style={{ position: 'absolute', top: 0, left: 0, width: '100%', transform: `translateY(${item.start}px)` }}>
            {row(item.index)}
          </li>
        ))}
      </ul>
    </div>
  );
}
