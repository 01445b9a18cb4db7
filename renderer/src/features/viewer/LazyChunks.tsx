import { useEffect, useLayoutEffect, useRef, useState, type ReactNode } from 'react';

/** Where to scroll: an element inside a chunk, found once the chunk is mounted. */
export interface ChunkFocus {
  chunk: number;
  element(scroller: HTMLElement): Element | null;
}

interface Props {
  count: number;
  /** Height of a chunk not yet mounted, in pixels: a guess; scroll anchoring absorbs the error. */
  estimate(chunk: number): number;
  render(chunk: number): ReactNode;
  /** A new object scrolls again, even to the same place. */
  focus: ChunkFocus | null;
  className: string;
}

/** How far beyond the visible part chunks are mounted, in pixels. */
const MOUNT_MARGIN = 1200;

/**
 * A long document in chunks that are mounted only as they near the viewport (and stay mounted;
 * content-visibility lets the browser skip laying out those far away), so a 5,000-line file or a
 * 300-page DOCX opens at once and scrolls smoothly. A focus mounts its chunk first, then scrolls.
 */
export function LazyChunks({ count, estimate, render, focus, className }: Props) {
  const scroller = useRef<HTMLDivElement>(null);
  const [mounted, setMounted] = useState<ReadonlySet<number>>(() => new Set([0]));
  const scrolledTo = useRef<ChunkFocus | null>(null);

  useEffect(() => {
    const root = scroller.current;
    if (!root) return;
    const observer = new IntersectionObserver(
      (entries) => {
        const near = entries.filter((e) => e.isIntersecting).map((e) => Number((e.target as HTMLElement).dataset['chunk']));
        if (near.length > 0) setMounted((m) => (near.every((c) => m.has(c)) ? m : new Set([...m, ...near])));
      },
      { root, rootMargin: `${MOUNT_MARGIN}px 0px` },
    );
    root.querySelectorAll(':scope > .chunk-placeholder').forEach((el) => observer.observe(el));
    return () => observer.disconnect();
  }, [mounted, count]);

  useEffect(() => {
    if (focus && !mounted.has(focus.chunk)) setMounted((m) => new Set([...m, focus.chunk]));
  }, [focus, mounted]);

  // Scroll to the focus once its chunk is in the page, and keep it there while chunks around it
  // mount and find their real heights, until the reader scrolls by themself.
  const pinned = useRef<Element | null>(null);
  useLayoutEffect(() => {
    const root = scroller.current;
    if (!root || !focus || scrolledTo.current === focus || !mounted.has(focus.chunk)) return;
    const el = focus.element(root);
    if (el) {
      el.scrollIntoView({ block: 'center' });
      scrolledTo.current = focus;
      pinned.current = el;
    }
  });
  useEffect(() => {
    const root = scroller.current;
    if (!root) return;
    const unpin = () => {
      pinned.current = null;
    };
    const observer = new ResizeObserver(() => pinned.current?.scrollIntoView({ block: 'center' }));
    root.querySelectorAll(':scope > .chunk').forEach((el) => observer.observe(el));
    const events = ['wheel', 'touchstart', 'pointerdown', 'keydown'] as const;
    events.forEach((type) => root.addEventListener(type, unpin, { passive: true }));
    return () => {
      observer.disconnect();
      events.forEach((type) => root.removeEventListener(type, unpin));
    };
  }, [mounted]);

  const chunks: ReactNode[] = [];
  for (let i = 0; i < count; i++) {
    chunks.push(
      mounted.has(i) ? (
        // Until the browser lays a far-away chunk out, it takes its estimated height, as its placeholder did.
        <div key={i} className="chunk" data-chunk={i} style={{ containIntrinsicSize: `auto ${estimate(i)}px` }}>
          {render(i)}
        </div>
      ) : (
        <div key={i} className="chunk-placeholder" data-chunk={i} style={{ height: estimate(i) }} />
      ),
    );
  }
  return (
    <div ref={scroller} className={className} tabIndex={0}>
      {chunks}
    </div>
  );
}
