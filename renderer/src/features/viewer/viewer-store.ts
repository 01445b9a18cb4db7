import { create } from 'zustand';
import type { SourceKind } from '../../../../shared/contract/schemas.ts';
import { markStep } from './reader-spans.ts';

/**
 * A PDF quote's characters: `start` counts from the start of `page`'s stored text, `end` from the
 * start of `endPage ?? page` (as a match place's offsets do), so a quote may run on across pages.
 */
export interface Highlight {
  page: number;
  start: number;
  /** The last page of the quote, when it runs on past `page`. */
  endPage?: number;
  end: number;
  /**
   * A quote that runs on: where its part on `page` ends and its part on `endPage` starts, so text
   * between them (a running footer, the next page's head) is not marked. Without them the first
   * page is marked to its end and the last from its start.
   */
  firstEnd?: number;
  lastStart?: number;
}

/**
 * A place in a document that flows (DOCX and HTML blocks, text lines), as locators give it: what
 * a page and a Highlight are to a PDF.
 */
export interface FlowTarget {
  /** DOCX/HTML: a block index (locator.paragraph). Text/Markdown: a line (locator.line). */
  at: number;
  /** The last block or line of the target, when it runs on past `at`. */
  endAt?: number;
  /**
   * The exact characters to highlight: `start` counts from the start of `at`, `end` from the start
   * of `endAt ?? at` (for text, from that line on, as a segment's offsets do). Without it the viewer
   * shows the place and highlights nothing.
   */
  range?: { start: number; end: number };
}

interface ViewerState {
  sourceId: number | null;
  kind: SourceKind | null;
  page: number;
  pageCount: number;
  highlight: Highlight | null;
  target: FlowTarget | null;
  /**
   * The highlight marks the passage closest to a quote that was not found: it is drawn and labelled
   * as "closest passage, not a match", never as the quote.
   */
  closest: boolean;
  /**
   * Bumped by every navigation (open, goTo): the PDF reader scrolls to `page` when it changes, and
   * not when scrolling by hand moves `page` (setVisiblePage).
   */
  nav: number;
  open(sourceId: number, kind: SourceKind, page?: number, highlight?: Highlight | null, closest?: boolean): void;
  /** Opens a DOCX, HTML, text or Markdown source at a block or line, with an optional exact range. */
  openAt(sourceId: number, kind: SourceKind, target: FlowTarget, closest?: boolean): void;
  setPageCount(n: number): void;
  goTo(page: number): void;
  /** The page scrolled into view by hand: shown as the current page, no navigation. */
  setVisiblePage(page: number): void;
  setTarget(target: FlowTarget | null): void;
}

export const useViewer = create<ViewerState>((set, get) => ({
  sourceId: null,
  kind: null,
  page: 1,
  pageCount: 0,
  highlight: null,
  target: null,
  closest: false,
  nav: 0,
  open: (sourceId, kind, page = 1, highlight = null, closest = false) => {
    markStep('open', page);
    set({
      sourceId,
      kind,
      page,
      highlight,
      target: null,
      closest: closest && highlight !== null,
      pageCount: get().sourceId === sourceId ? get().pageCount : 0,
      nav: get().nav + 1,
    });
  },
  openAt: (sourceId, kind, target, closest = false) => set({ sourceId, kind, page: 1, highlight: null, target, closest, pageCount: 0, nav: get().nav + 1 }),
  setPageCount: (pageCount) => set({ pageCount, page: Math.min(get().page, Math.max(1, pageCount)) }),
  goTo: (page) => {
    const { pageCount } = get();
    const clamped = Math.max(1, pageCount > 0 ? Math.min(page, pageCount) : page);
    set({ page: clamped, nav: get().nav + 1 });
  },
  setVisiblePage: (page) => set({ page }),
  setTarget: (target) => set({ target, closest: false }),
}));
