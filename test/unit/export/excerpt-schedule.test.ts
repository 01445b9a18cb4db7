/**
 * The batches an export's PDF excerpts go out in (excerpt-schedule.ts): every excerpt once, a page
 * never split, each PDF's batches one after another, the PDFs with most excerpts first, and
 * batches that shrink so that the children finish together.
 */
import { describe, expect, it } from 'vitest';
import { ExcerptSchedule } from '../../../electron/services/export/excerpt-schedule.ts';

interface Job {
  id: string;
  ask: { page: number };
}

/** `counts[p]` excerpts on page p + 1 of the PDF named `name`, listed out of page order. */
function pdf(name: string, counts: number[]): { pdf: string; jobs: Job[] } {
  const jobs = counts.flatMap((n, p) => Array.from({ length: n }, (_, k) => ({ id: `${name}:${p + 1}:${k}`, ask: { page: p + 1 } })));
  return { pdf: name, jobs: jobs.reverse() };
}

function drain(schedule: ExcerptSchedule<string, Job>) {
  const out: { pdf: string; jobs: Job[]; pages: number }[] = [];
  for (let b = schedule.next(); b; b = schedule.next()) out.push(b);
  return out;
}

describe('ExcerptSchedule', () => {
  const pdfs = [pdf('plain', Array.from({ length: 40 }, () => 1)), pdf('charts', [8, 9, 7, 10, 6, 9, 8]), pdf('empty', [])];

  it('hands out every excerpt once, page by page in page order, a PDF at a time, most excerpts first', () => {
    const batches = drain(new ExcerptSchedule(pdfs, 2));
    const handed = batches.flatMap((b) => b.jobs.map((j) => j.id));
    const all = pdfs.flatMap((p) => p.jobs.map((j) => j.id));
    expect([...handed].sort()).toEqual([...all].sort());
    expect(new Set(handed).size).toBe(handed.length);
    // 'charts' has 57 excerpts, 'plain' 40: charts first, and each PDF's batches together.
    const order = batches.map((b) => b.pdf).filter((name, i, a) => a[i - 1] !== name);
    expect(order).toEqual(['charts', 'plain']);
    for (const b of batches) {
      const pages = b.jobs.map((j) => j.ask.page);
      expect(pages).toEqual([...pages].sort((x, y) => x - y));
      expect(new Set(pages).size).toBe(b.pages);
    }
    // A page's excerpts are all in one batch.
    const batchOfPage = new Map<string, number>();
    batches.forEach((b, i) => b.jobs.forEach((j) => {
      const page = `${b.pdf}:${j.ask.page}`;
      expect(batchOfPage.get(page) ?? i).toBe(i);
      batchOfPage.set(page, i);
    }));
  });

  it('starts with long batches and ends with short ones, so no child is left with a long last batch', () => {
    const batches = drain(new ExcerptSchedule([pdf('long', Array.from({ length: 200 }, () => 2))], 2));
    const sizes = batches.map((b) => b.jobs.length);
    // The first takes about a quarter of 400 excerpts (two children, two shares each); the last ones two pages.
    expect(sizes[0]).toBe(96);
    expect(batches[0]!.pages).toBe(48);
    expect(Math.max(...sizes.slice(-3))).toBeLessThanOrEqual(4);
    for (let i = 1; i < sizes.length; i++) expect(sizes[i]).toBeLessThanOrEqual(sizes[i - 1]!);
  });

  it('with one child (no pool) still hands out everything, and nothing from no PDFs', () => {
    expect(drain(new ExcerptSchedule(pdfs, 1)).reduce((n, b) => n + b.jobs.length, 0)).toBe(97);
    expect(new ExcerptSchedule<string, Job>([], 2).next()).toBeNull();
  });
});
