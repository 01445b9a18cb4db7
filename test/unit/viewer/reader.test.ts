import { describe, expect, it } from 'vitest';
import { findInPages, phrasePattern } from '../../../shared/search/find-in-pages.ts';
import { pieces, markClass } from '../../../renderer/src/features/viewer/highlight.ts';
import { currentPage, pageAt, pageTops, slotHeight } from '../../../renderer/src/features/viewer/page-geometry.ts';
import { hasOwnLabels, resolvePageInput } from '../../../renderer/src/features/viewer/page-labels.ts';
import { scaleFor, stepZoom } from '../../../renderer/src/features/viewer/zoom.ts';

describe('find over stored page text', () => {
  const pages = [
    { page: 1, label: 'i', text: 'Petty cash is counted\nevery Friday. PETTY  CASH again.' },
    { page: 2, label: '1', text: 'No match here.' },
    { page: 3, label: '2', text: 'Ünïcode petty cash (and a.b*c).' },
  ];

  it('matches a phrase case-insensitively across any white space, with stored offsets and a snippet', () => {
    const r = findInPages(pages, 'petty cash', 100);
    expect(r.total).toBe(3);
    expect(r.truncated).toBe(false);
    expect(r.hits.map((h) => [h.page, pages[h.page === 1 ? 0 : 2]?.text.slice(h.start, h.end)])).toEqual([
      [1, 'Petty cash'],
      [1, 'PETTY  CASH'],
      [3, 'petty cash'],
    ]);
    const hit = r.hits[1];
    expect(hit?.snippet.slice(...(hit.snippetHit ?? [0, 0]))).toBe('PETTY  CASH');
    expect(hit?.snippet).not.toContain('\n');
    expect(findInPages(pages, 'counted every', 10).hits[0]).toMatchObject({ page: 1, pageLabel: 'i', start: 14, end: 27 });
  });

  it('takes the query literally (no pattern syntax) and lists at most the limit, counting all', () => {
    expect(findInPages(pages, 'a.b*c', 10).hits).toHaveLength(1);
    expect(findInPages(pages, 'a.b', 10).hits).toHaveLength(1);
    const r = findInPages(pages, 'e', 2);
    expect(r.hits).toHaveLength(2);
    expect(r.total).toBeGreaterThan(2);
    expect(r.truncated).toBe(true);
    expect(phrasePattern('   ')).toBeNull();
    expect(findInPages(pages, '  ', 10)).toEqual({ hits: [], total: 0, truncated: false });
  });
});

describe('marks in a text item', () => {
  it('cuts an item at every mark boundary, a find hit inside the quote carrying both', () => {
    const got = pieces('the quick brown fox', 100, [
      { start: 104, end: 115, kind: 'quote' },
      { start: 110, end: 119, kind: 'find-current' },
      { start: 0, end: 50, kind: 'find' },
    ]);
    expect(got.map((p) => [p.text, markClass(p.kinds)])).toEqual([
      ['the ', ''],
      ['quick ', 'quote-highlight'],
      ['brown', 'quote-highlight find-hit current'],
      [' fox', 'find-hit current'],
    ]);
    expect(pieces('plain', 0, [])).toEqual([{ text: 'plain', kinds: new Set() }]);
  });
});

describe('pages by printed label or number', () => {
  const labels = ['i', 'ii', 'iii', '1', '2', '3', 'A-1'];
  it('prefers the printed label, then the page number, and refuses what is neither', () => {
    expect(resolvePageInput('iii', labels, 7)).toBe(3);
    expect(resolvePageInput('II', labels, 7)).toBe(2);
    expect(resolvePageInput('2', labels, 7)).toBe(5);
    expect(resolvePageInput('a-1', labels, 7)).toBe(7);
    expect(resolvePageInput('7', labels, 7)).toBe(7);
    expect(resolvePageInput('8', labels, 7)).toBeNull();
    expect(resolvePageInput('iv', labels, 7)).toBeNull();
    expect(resolvePageInput(' ', labels, 7)).toBeNull();
    expect(hasOwnLabels(labels)).toBe(true);
    expect(hasOwnLabels(['1', '2', null])).toBe(false);
  });
});

describe('the continuous layout and zoom', () => {
  const letter = { width: 612, height: 792 };
  it('lays pages one under another and finds the page at a point and the current page', () => {
    const sizes = (p: number) => (p === 2 ? { width: 792, height: 612 } : letter);
    const tops = pageTops(4, sizes, 1);
    expect([...tops]).toEqual([12, 12 + 804, 12 + 804 + 624, 12 + 804 + 624 + 804]);
    expect(pageAt(tops, 0)).toBe(1);
    expect(pageAt(tops, 900)).toBe(2);
    expect(pageAt(tops, 1e9)).toBe(4);
    const h = (p: number) => slotHeight(sizes(p), 1);
    // The page shown stays while it holds the middle of the view, even if another shows as much.
    expect(currentPage(tops, h, 500, 1100, 1)).toBe(1);
    expect(currentPage(tops, h, 500, 1100, 3)).toBe(1);
    expect(currentPage(tops, h, 700, 1300, 1)).toBe(2);
    expect(currentPage(tops, h, 820, 1400, 1)).toBe(2);
  });

  it('fits width or page to the view and steps through the zoom levels', () => {
    expect(scaleFor({ kind: 'fit-width' }, letter, { width: 644, height: 400 })).toBeCloseTo(1);
    expect(scaleFor({ kind: 'fit-page' }, letter, { width: 644, height: 420 })).toBeCloseTo(396 / 792);
    expect(scaleFor({ kind: 'scale', scale: 1.5 }, letter, { width: 10, height: 10 })).toBe(1.5);
    expect(stepZoom(1.02, 1)).toEqual({ kind: 'scale', scale: 1.25 });
    expect(stepZoom(1.02, -1)).toEqual({ kind: 'scale', scale: 1 });
    expect(stepZoom(4, 1)).toEqual({ kind: 'scale', scale: 4 });
  });
});
