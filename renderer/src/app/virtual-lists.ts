import { measureElement, observeElementRect, type Virtualizer } from '@tanstack/react-virtual';
import { useEffect, useLayoutEffect, useRef, useState, type RefObject } from 'react';
import { rowAt, type PageWindow } from './page-window.ts';

/** Lists this short are drawn whole: a screenful of rows costs little, and every row stays findable. */
export const DRAW_WHOLE_BELOW = 40;

export function overscanFor(count: number, near: number): number {
  return count <= DRAW_WHOLE_BELOW ? count : near;
}

/** The size a list assumes before it is first measured (it may start in a hidden tab). */
export const INITIAL_RECT = { width: 480, height: 720 };

/**
 * A list in a hidden tab measures 0 high, which would empty it; it keeps the size it last had, so
 * its rows, its place and its focus target survive switching tabs.
 */
export function keepSizeWhileHidden<S extends Element, I extends Element>(instance: Virtualizer<S, I>, cb: (rect: { width: number; height: number }) => void): void | (() => void) {
  let last = INITIAL_RECT;
  return observeElementRect(instance, (rect) => {
    if (rect.height > 0) last = rect;
    cb(rect.height > 0 ? rect : last);
  });
}

/**
 * Rows measure 0 high while their tab is hidden: they keep their size instead (`fallback` until one
 * is known), or the list would take every row for visible and draw them all.
 */
export function measureShown(fallback: number) {
  return <S extends Element, I extends Element>(el: I, entry: ResizeObserverEntry | undefined, instance: Virtualizer<S, I>): number => {
    const size = measureElement(el, entry, instance);
    if (size > 0) return size;
    const index = instance.indexFromElement(el);
    return instance.measurementsCache[index]?.size ?? fallback;
  };
}

/**
 * Where a list starts inside the scroll area it shares with what is above it (a ledger, a form):
 * the virtualiser's scrollMargin, measured after each render since what is above may change height,
 * and again when what is above it resizes without the list drawing (a long answer's text laid out
 * as it nears the screen).
 */
export function useScrollMargin(list: RefObject<HTMLElement | null>, scroller: RefObject<HTMLElement | null>): number {
  const [margin, setMargin] = useState(0);
  const measure = () => {
    const l = list.current;
    const s = scroller.current;
    if (!l || !s) return;
    const m = l.getBoundingClientRect().top - s.getBoundingClientRect().top + s.scrollTop;
    setMargin((old) => (Math.abs(m - old) > 1 ? m : old));
  };
  useLayoutEffect(measure);
  useEffect(() => {
    const l = list.current;
    if (!l) return;
    const above = new ResizeObserver(measure);
    for (let e = l.previousElementSibling; e; e = e.previousElementSibling) above.observe(e);
    return () => above.disconnect();
    // Once: the elements above the list are those of its scroll area, which stays.
  }, []);
  return margin;
}

/**
 * What a row drawn by a virtualiser carries: its index for measuring, its place in the whole list
 * for screen readers, and its position (below the list's start, `margin`, with `gap` under it).
 */
export function placedRow(item: { index: number; start: number }, setSize: number, margin: number, gap: number) {
  return {
    'data-index': item.index,
    'aria-setsize': setSize,
    'aria-posinset': item.index + 1,
    style: { position: 'absolute', top: 0, left: 0, width: '100%', paddingBottom: gap, transform: `translateY(${item.start - margin}px)` } as const,
  };
}

/** How many times a row not yet drawn is scrolled to again before the list gives up on it. */
const REVEAL_TRIES = 8;

/**
 * Scrolls a paged list to a row, and again after each drawing that loaded its page but left it
 * off screen: the real rows' heights differ from the estimate, and on a slow machine the
 * virtualiser has stopped correcting its scroll (it gives up after 5 s) by the time the page
 * arrives and its rows are measured, which left a jump short of its row (seen at the end of a
 * 10,000-row library sorted by name). `cancel` drops the pending scrolls (the user took the scroll
 * back, e.g. by the wheel).
 */
export function useRevealWhenLoaded<S extends Element, I extends Element, T>(virtualizer: Virtualizer<S, I>, window: PageWindow<T>) {
  const pending = useRef<{ index: number; tries: number } | null>(null);
  // After every drawing: cheap, and a measured row may have moved the target without a new page.
  useEffect(() => {
    const p = pending.current;
    if (p === null || !rowAt(window, p.index)) return;
    if (virtualizer.getVirtualItems().some((item) => item.index === p.index) || p.tries >= REVEAL_TRIES) {
      pending.current = null;
      return;
    }
    p.tries += 1;
    virtualizer.scrollToIndex(p.index, { align: 'auto' });
  });
  return {
    reveal(index: number) {
      pending.current = { index, tries: 0 };
      virtualizer.scrollToIndex(index, { align: 'auto' });
    },
    cancel() {
      pending.current = null;
    },
  };
}
