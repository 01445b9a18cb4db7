/**
 * Issue 9 (export speed): an extraction child keeps the PDF of its last excerpt batch open for the
 * next batch named by the same SHA-256. The excerpts drawn from a kept PDF are the ones a fresh
 * open draws, and a batch of another PDF gets that PDF's excerpts, not the kept one's.
 */
import { describe, expect, it } from 'vitest';
import { extract } from '../../../electron/services/ingest/extractors/index.ts';
import { pdfExcerptBatch } from '../../../electron/services/export/pdf-excerpt-batch.ts';
import type { PdfExcerptAsk, PdfExcerptResult } from '../../../electron/services/export/pdf-excerpt.ts';
import { makePdf } from '../../support/pdf-fixtures.ts';

/** One ask per page: the page's first line. */
async function asksOf(bytes: Uint8Array): Promise<PdfExcerptAsk[]> {
  const doc = await extract('pdf', bytes, { fileName: 'a.pdf' });
  return doc.segments.map((seg, i) => ({ page: i + 1, pageLabel: null, pageText: seg.text, start: 0, end: seg.text.indexOf('\n') > 0 ? seg.text.indexOf('\n') : 20 }));
}

const images = (results: PdfExcerptResult[]): string[] =>
  results.map((r) => {
    if (!('excerpt' in r) || !('image' in r.excerpt)) throw new Error('note' in r ? r.note : 'not an image');
    return r.excerpt.image.dataUri;
  });

describe('excerpt batches of a kept PDF', () => {
  it('draws from the kept PDF what a fresh open draws, and a batch of another PDF from that PDF', async () => {
    const pages = (tag: string) => Array.from({ length: 3 }, (_, p) => ({ lines: [`${tag} page ${p + 1}: the evidence line that the excerpt shows boxed.`, 'A line of context below it.'] }));
    const a = await makePdf(pages('Alpha'), 'Alpha');
    const b = await makePdf(pages('Bravo'), 'Bravo');
    const asksA = await asksOf(a);
    const asksB = await asksOf(b);
    const fresh = images((await pdfExcerptBatch(a, asksA, {})).results);
    const freshB = images((await pdfExcerptBatch(b, asksB, {})).results);
    expect(freshB).not.toEqual(fresh);

    // Two batches of A under its name (the second from the kept PDF), then B under its own.
    const first = await pdfExcerptBatch(a, asksA.slice(0, 1), { key: 'sha-a' });
    const second = await pdfExcerptBatch(a, asksA.slice(1), { key: 'sha-a' });
    expect([...images(first.results), ...images(second.results)]).toEqual(fresh);
    expect(images((await pdfExcerptBatch(b, asksB, { key: 'sha-b' })).results)).toEqual(freshB);
    expect(images((await pdfExcerptBatch(a, asksA, { key: 'sha-a' })).results)).toEqual(fresh);
  });
});
