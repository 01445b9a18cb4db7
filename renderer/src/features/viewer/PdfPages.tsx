import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { observeElementOffset, useVirtualizer } from '@tanstack/react-virtual';
import type { FindHit } from '../../../../shared/contract/reader-schemas.ts';
import { currentPage, pageAt, pageTops, slotHeight } from './page-geometry.ts';
import { pageName } from './page-labels.ts';
import { PdfPageSlot } from './PdfPageSlot.tsx';
import { markStep } from './reader-spans.ts';
import { useReader } from './reader-store.ts';
import { useViewer } from './viewer-store.ts';
import { PAGE_GAP, scaleFor, SIDE_PAD, type Size } from './zoom.ts';

const LETTER: Size = { width: 612, height: 792 };
const NO_HITS: readonly { hit: FindHit; index: number }[] = [];

function useViewSize(el: HTMLElement | null): Size {
  const [size, setSize] = useState<Size>({ width: 800, height: 600 });
  useLayoutEffect(() => {
    if (!el) return;
    const update = () => setSize({ width: el.clientWidth, height: el.clientHeight });
    update();
    const ro = new ResizeObserver(update);
    ro.observe(el);
    return () => ro.disconnect();
  }, [el]);
  return size;
}

/**
 * The document as one continuous scroll of pages, drawn virtually: every page has its box (sized
 * from the pages loaded so far, the first page's size for the rest), and only the pages in or next
 * to the view are rendered, text layers included.
 */
export function PdfPages({ sourceId, pageCount, fileName, onView }: { sourceId: number; pageCount: number; fileName: string; onView(view: Size): void }) {
  const [scroller, setScroller] = useState<HTMLDivElement | null>(null);
  const view = useViewSize(scroller);
  useEffect(() => onView(view), [view, onView]);
  const zoom = useReader((s) => s.zoom);
  const sizes = useReader((s) => s.sizes);
  const pending = useReader((s) => s.pending);
  const find = useReader((s) => s.find);
  const nav = useViewer((s) => s.nav);
  const shown = useViewer((s) => s.page);

  const sizeOf = useCallback((p: number) => sizes[p] ?? sizes[1] ?? LETTER, [sizes]);
  const scale = scaleFor(zoom, sizeOf(shown), view);
  const tops = useMemo(() => pageTops(pageCount, sizeOf, scale), [pageCount, sizeOf, scale]);
  // Laid out from our own page tops, not the virtualizer's cache, so a zoom's new height is there
  // before the view is scrolled to keep its place.
  const totalHeight = pageCount === 0 ? 0 : (tops[pageCount - 1] ?? 0) + slotHeight(sizeOf(pageCount), scale) + PAGE_GAP;
  const maxWidth = useMemo(() => {
    let w = sizeOf(1).width;
    for (const s of Object.values(sizes)) w = Math.max(w, s.width);
    return Math.round(w * scale);
  }, [sizes, sizeOf, scale]);

  // The virtualizer hears of a scroll from the scroll event, a frame later; a navigation tells it
  // at once, so the page asked for is mounted (and starts loading) in the same commit.
  const offsetSink = useRef<((offset: number, isScrolling: boolean) => void) | null>(null);
  const virtualizer = useVirtualizer({
    count: pageCount,
    observeElementOffset: (instance, report) => {
      offsetSink.current = report;
      return observeElementOffset(instance, report);
    },
    getScrollElement: () => scroller,
    estimateSize: (i) => slotHeight(sizeOf(i + 1), scale),
    paddingStart: PAGE_GAP,
    // The pages in view only: a page asked for is drawn with nothing else competing for pdf.js.
    overscan: 0,
  });
  useLayoutEffect(() => virtualizer.measure(), [virtualizer, sizeOf, scale]);

  const hitsByPage = useMemo(() => {
    const m = new Map<number, { hit: FindHit; index: number }[]>();
    find.result?.hits.forEach((hit, index) => {
      const list = m.get(hit.page) ?? [];
      list.push({ hit, index });
      m.set(hit.page, list);
    });
    return m;
  }, [find.result]);

  // What the middle of the view shows (a page, how far down it, how far across the pages): a zoom,
  // or a page loading at another size than was assumed, keeps it in the middle.
  const anchor = useRef<{ page: number; fraction: number; across: number }>({ page: 1, fraction: 0, across: 0.5 });
  const anchorNow = useCallback(() => {
    if (!scroller || tops.length === 0) return;
    const middle = scroller.scrollTop + scroller.clientHeight / 2;
    const page = pageAt(tops, middle);
    anchor.current = {
      page,
      fraction: (middle - (tops[page - 1] ?? 0)) / slotHeight(sizeOf(page), scale),
      across: scroller.scrollWidth > 0 ? (scroller.scrollLeft + scroller.clientWidth / 2) / scroller.scrollWidth : 0.5,
    };
  }, [scroller, tops, sizeOf, scale]);
  const scrollTo = useCallback(
    (top: number) => {
      if (!scroller) return;
      scroller.scrollTop = top;
      offsetSink.current?.(scroller.scrollTop, false);
    },
    [scroller],
  );
  useLayoutEffect(() => {
    if (!scroller) return;
    const { page, fraction, across } = anchor.current;
    scroller.scrollTop = (tops[page - 1] ?? 0) + fraction * slotHeight(sizeOf(page), scale) - scroller.clientHeight / 2;
    scroller.scrollLeft = across * scroller.scrollWidth - scroller.clientWidth / 2;
    // Only a change of the layout moves the view (not a new callback).
  }, [tops]);

  // A navigation (a citation opened, a page asked for, a hit or outline entry clicked): scroll to
  // the page at once, say so until it is drawn, then centre the quote or the hit on it.
  const seenHighlight = useRef<unknown>(null);
  useLayoutEffect(() => {
    if (!scroller || pageCount === 0) return;
    const { page, highlight } = useViewer.getState();
    const reader = useReader.getState();
    const intent = reader.takeIntent();
    let revealAt: number | undefined;
    if (intent && intent.page === page) revealAt = intent.revealAt;
    else if (highlight && highlight !== seenHighlight.current && highlight.page === page) revealAt = highlight.start;
    seenHighlight.current = highlight;
    scrollTo((tops[page - 1] ?? 0) - PAGE_GAP);
    markStep('scrolled', page);
    anchorNow();
    const drawn = reader.statuses[page] !== undefined;
    if (revealAt === undefined && drawn) reader.setPending(null);
    else reader.setPending({ page, revealAt, message: `Opening page ${pageName(page, reader.labels)}…` });
    // Only a navigation scrolls (not a new layout: the anchor effect above keeps the place).
  }, [nav, pageCount, scroller]);

  const onScroll = useCallback(() => {
    if (!scroller || tops.length === 0) return;
    const top = scroller.scrollTop;
    const bottom = top + scroller.clientHeight;
    const heights = (p: number) => slotHeight(sizeOf(p), scale);
    const viewer = useViewer.getState();
    const page = currentPage(tops, heights, top, bottom, viewer.page);
    anchorNow();
    if (page !== viewer.page && !useReader.getState().pending) viewer.setVisiblePage(page);
  }, [scroller, tops, sizeOf, scale, anchorNow]);

  useEffect(() => {
    if (!scroller) return;
    scroller.addEventListener('scroll', onScroll, { passive: true });
    return () => scroller.removeEventListener('scroll', onScroll);
  }, [scroller, onScroll]);

  const onKeyDown = (e: KeyboardEvent) => {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    const { page, goTo } = useViewer.getState();
    const to = { PageDown: page + 1, PageUp: page - 1, Home: 1, End: pageCount }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    goTo(to);
  };

  const items = virtualizer.getVirtualItems();
  // While a page is being opened, the others in view wait for it (only if it is itself in view).
  const waitFor = pending && items.some((i) => i.index + 1 === pending.page) ? pending.page : null;
  return (
    <div
      ref={setScroller}
      className="pdf-scroll"
      tabIndex={0}
      role="region"
      aria-label={`Pages of ${fileName}`}
      aria-busy={pending !== null}
      onKeyDown={onKeyDown}
      data-testid="pdf-pages"
      data-scale={scale.toFixed(3)}
    >
      <div className="pdf-pages" style={{ height: totalHeight, width: Math.max(maxWidth + 2 * SIDE_PAD, 0) }}>
        {items.map((item) => {
          const page = item.index + 1;
          return (
            <div key={page} className="pdf-page-row" style={{ transform: `translateY(${tops[item.index] ?? item.start}px)` }}>
              <PdfPageSlot
                sourceId={sourceId}
                pageNumber={page}
                scale={scale}
                size={sizeOf(page)}
                current={page === shown}
                hits={hitsByPage.get(page) ?? NO_HITS}
                currentHit={find.current}
                revealAt={pending?.page === page ? pending.revealAt : undefined}
                deferred={waitFor !== null && waitFor !== page}
              />
            </div>
          );
        })}
      </div>
    </div>
  );
}
