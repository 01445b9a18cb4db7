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

  it('leaves out the text between the parts of a quote that runs on: the first page’s footer, the next page’s head', () => {
    const pages = ['The new building will open and the old site\nAnnual report 2024 · page 1', 'Annual report 2024\nwill close at the end of the year.'];
    const split = (h: Parameters<typeof highlightOnPage>[0]) => pages.map((t, i) => {
      const r = highlightOnPage(h, i + 1, t.length);
      return r ? t.slice(r.start, r.end) : null;
    });
    const start = pages[0]!.indexOf('the old');
    const firstEnd = pages[0]!.indexOf('\nAnnual');
    const lastStart = pages[1]!.indexOf('will');
    const end = pages[1]!.indexOf(' at the end');
    expect(split({ page: 1, start, endPage: 2, end, firstEnd, lastStart })).toEqual(['the old site', 'will close']);
    // A result stored without the parts keeps marking to the page's end and from the next one's start.
    expect(split({ page: 1, start, endPage: 2, end })).toEqual([pages[0]!.slice(start), pages[1]!.slice(0, end)]);
  });

  it('marks the pages between whole and the outer pages to their parts when a quote spans three', () => {
    const h = { page: 1, start: 12, endPage: 3, end: 7, firstEnd: 20, lastStart: 2 };
    expect([1, 2, 3].map((p) => partOn(h, p))).toEqual([PAGES[0]!.slice(12, 20), PAGES[1], 'third']);
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
