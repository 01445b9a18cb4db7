import { describe, expect, it } from 'vitest';
import { highlightOnPage, overlap } from '../../../renderer/src/features/viewer/highlight.ts';

/** Stored page texts, numbered from 1 as PDF pages are. */
const PAGES = ['Intro line.\nThe new building will open and the old site\n', 'will close at the end of the year.\nThe canteen stays open.', 'A third page.'];
const length = (page: number) => PAGES[page - 1]?.length ?? 0;
const partOn = (h: Parameters<typeof highlightOnPage>[0], page: number) => {
  const r = highlightOnPage(h, page, length(page));
  return r ? (PAGES[page - 1] ?? '').slice(r.start, r.end) : null;
};

describe('a PDF highlight split into pages', () => {
  it('marks one page from start to end when the quote does not run on', () => {
    const h = { page: 2, start: 0, end: 10 };
    expect([1, 2, 3].map((p) => partOn(h, p))).toEqual([null, 'will close', null]);
  });

  it('marks the first page from start to its end and the next from 0 to end: together, the quote’s stored text', () => {
    const start = PAGES[0]!.indexOf('the old site');
    const end = PAGES[1]!.indexOf(' at the end');
    const h = { page: 1, start, endPage: 2, end };
    expect(highlightOnPage(h, 1, length(1))).toEqual({ start, end: length(1) });
    expect(highlightOnPage(h, 2, length(2))).toEqual({ start: 0, end });
    expect([1, 2, 3].map((p) => partOn(h, p))).toEqual(['the old site\n', 'will close', null]);
  });

  it('marks the pages between whole when a quote spans more than two', () => {
    const h = { page: 1, start: 12, endPage: 3, end: 7 };
    expect([1, 2, 3].map((p) => partOn(h, p))).toEqual([PAGES[0]!.slice(12), PAGES[1], 'A third']);
  });

  it('marks nothing on a page where the quote’s part is empty or beyond the stored text', () => {
    expect(highlightOnPage({ page: 1, start: length(1), endPage: 2, end: 4 }, 1, length(1))).toBeNull();
    expect(highlightOnPage({ page: 1, start: 3, endPage: 2, end: 0 }, 2, length(2))).toBeNull();
    expect(highlightOnPage({ page: 2, start: 0, end: 999 }, 2, length(2))).toEqual({ start: 0, end: length(2) });
  });

  it('cuts each text item to the part of the page’s range it holds', () => {
    expect(overlap(10, 5, 12, 40)).toEqual([2, 5]);
    expect(overlap(10, 5, 15, 40)).toBeNull();
  });
});
