// OCR of scanned pages, through the real pool and tesseract.js (slow: one or two small pages per test).
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { AnswerDetail } from '../../../shared/contract/answer-schemas.ts';
import type { IngestProgress } from '../../../shared/contract/events.ts';
import type { OcrRerunResult, PageText } from '../../../shared/contract/schemas.ts';
import { VerificationResult } from '../../../shared/verification/result-schema.ts';
import { makePdf, writeFile } from '../../support/pdf-fixtures.ts';
import { makeMixedPdf, makeScannedPdf } from '../../support/scan-fixtures.ts';
import { callHandler, openTestServices, type TestServices } from '../../support/workspace.ts';

let services: TestServices | undefined;
afterEach(() => services?.close());

const SCANNED_LINES = ['The tenant shall pay the annual rent of 42,000 euros', 'in four equal instalments before the first day', 'of each quarter, as agreed on 3 March 2021.'];

// OCR takes seconds a page, and many more on a machine shared with other work.
const OCR_TIMEOUT = 300_000;

const words = (t: string) => t.replace(/[^\p{L}\p{N}]+/gu, ' ').trim().toLowerCase().split(' ');

describe('OCR of pages without a text layer', () => {
  it('a mixed PDF: only its scanned page is read by OCR, with word boxes where the words are, and a quote on it verifies with a note that it is OCR text', async () => {
    services = openTestServices();
    const s = services;
    const pdf = await makeMixedPdf([{ lines: ['A typed cover page with a real text layer.'] }, { lines: SCANNED_LINES }], [2]);
    const file = writeFile(path.join(s.dir, 'docs'), 'lease-scan.pdf', pdf);
    const events: IngestProgress[] = [];
    const off = s.events.subscribe((e) => {
      if (e.type === 'ingest.progress') events.push(e);
    });
    const [result] = (await s.ingest.ingest({ paths: [file] })).files;
    off();
    if (!result?.ok) throw new Error(JSON.stringify(result));
    expect(result.warnings.map((w) => w.code)).toEqual(['PDF_OCR_TEXT']);
    expect(result.warnings[0]?.message).toMatch(/lease-scan\.pdf: 1 of 2 pages are scans without a text layer; their text was recognised by OCR \(mean confidence \d+%\): 2\./);
    // The progress says which page is being read by OCR, and only that one.
    expect(events.filter((e) => e.ocr).map((e) => e.page)).toEqual([2]);

    const page1 = await callHandler<PageText>(s, 'sources.pageText', { id: result.sourceId, page: 1 });
    expect(page1.ocr).toBeNull();
    expect(page1.text).toContain('A typed cover page');
    const page2 = await callHandler<PageText>(s, 'sources.pageText', { id: result.sourceId, page: 2 });
    expect(page2.noTextLayer).toBe(true);
    expect(words(page2.text)).toEqual(words(SCANNED_LINES.join(' ')));
    expect(page2.ocr?.method).toMatch(/^tesseract\.js@7\.\d+\.\d+ eng 300dpi$/);
    expect(page2.ocr?.confidence).toBeGreaterThan(80);
    // One box per word item, each inside the page; the first word sits where makePdf drew it
    // (x = 72 pt of 612, first baseline 720 pt up from the bottom of 792, 12 pt type).
    expect(page2.ocr?.boxes).toHaveLength(page2.itemStarts.length);
    const items = page2.itemStarts.map((at, i) => page2.text.slice(at, page2.itemStarts[i + 1] ?? page2.text.length).trim());
    expect(items.join(' ')).toBe(page2.text.trim().replace(/\s+/g, ' '));
    expect(items.every((w) => !/\s/.test(w))).toBe(true);
    const [x0, y0, x1, y1] = page2.ocr?.boxes[0] ?? [0, 0, 0, 0];
    expect(page2.text.slice(page2.itemStarts[0], page2.itemStarts[1])).toMatch(/^The\s$/);
    expect(x0).toBeCloseTo(72 / 612, 2);
    expect(y1).toBeCloseTo((792 - 720) / 792, 2);
    expect(y0).toBeGreaterThan((792 - 720 - 12) / 792 - 0.01);
    expect(x1).toBeGreaterThan(x0);

    const detail = VerificationResult.parse(
      (
        await callHandler<AnswerDetail>(s, 'answers.import', {
          fileName: 'answer.json',
          content: JSON.stringify({
            format: 'evidence-desk/answer@1',
            question: 'What is the rent?',
            answer: 'The rent is 42,000 euros a year [1].',
            citations: [{ marker: '1', claim: 'The annual rent is 42,000 euros.', quote: 'the annual rent of 42,000 euros in four equal instalments', source: { file: 'lease-scan.pdf' }, locator: { page: 2 } }],
          }),
        })
      ).verification,
    );
    const c = detail.citations[0];
    expect(c).toMatchObject({ status: 'verified', verdict: 'supported', match: { page: 2 } });
    expect(c?.notes.join(' ')).toMatch(/found on OCR text of a scanned page \(recognition confidence \d+%\)/);
    expect(page2.text.slice(c?.match?.start, c?.match?.end).replace(/\s+/g, ' ')).toBe('the annual rent of 42,000 euros in four equal instalments');
  }, OCR_TIMEOUT);

  it('--no-ocr stores the scan without text and says so; OCR run later fills the page in, and search finds its words', async () => {
    services = openTestServices();
    const s = services;
    const file = writeFile(path.join(s.dir, 'docs'), 'fax.pdf', await makeScannedPdf([{ lines: ['Faxed confirmation of the delivery schedule.'] }]));
    const [result] = (await s.ingest.ingest({ paths: [file], ocr: false })).files;
    if (!result?.ok) throw new Error(JSON.stringify(result));
    expect(result.warnings.map((w) => w.code)).toEqual(['PDF_NO_TEXT_LAYER']);
    expect(result.warnings[0]?.message).toContain('OCR was turned off for this ingestion');
    expect((await callHandler<PageText>(s, 'sources.pageText', { id: result.sourceId, page: 1 })).text).toBe('');

    const missing = await s.dispatch('sources.ocr', { id: result.sourceId, languages: ['spa'] });
    expect(missing.ok ? null : missing.error).toMatchObject({ code: 'OCR_LANGUAGE_MISSING', message: expect.stringContaining('@tesseract.js-data/<code>') });

    const rerun = await callHandler<OcrRerunResult>(s, 'sources.ocr', { id: result.sourceId });
    expect(rerun).toMatchObject({ sourceId: result.sourceId, scannedPages: [1], recognisedPages: [1] });
    const page = await callHandler<PageText>(s, 'sources.pageText', { id: result.sourceId, page: 1 });
    expect(words(page.text)).toEqual(words('Faxed confirmation of the delivery schedule.'));
    expect(page.ocr?.boxes).toHaveLength(6);
    const hits = await callHandler<{ hits: { sourceId: number }[] }>(s, 'search.query', { query: 'delivery schedule', limit: 5 });
    expect(hits.hits.map((h) => h.sourceId)).toContain(result.sourceId);
    // The run is on the record.
    expect(s.db.prepare("SELECT count(*) AS n FROM audit_log WHERE action = 'source.ocr'").get()).toEqual({ n: 1 });
  }, OCR_TIMEOUT);

  it('Cancel while a scan is being read stops its OCR at once: nothing of it is stored, and the child is free for the next file', async () => {
    // One child that is never killed for being late (grace of 10 minutes): the next ingest can only
    // run if the child stopped its OCR when asked.
    services = openTestServices({ pool: { size: 1, graceMs: 600_000 } });
    const s = services;
    const docs = path.join(s.dir, 'docs');
    const scan = writeFile(docs, 'long-scan.pdf', await makeScannedPdf([{ lines: SCANNED_LINES }, { lines: SCANNED_LINES }], 200));
    const off = s.events.subscribe((e) => {
      if (e.type === 'ingest.progress' && e.ocr) void s.dispatch('sources.cancelIngest', { batchId: e.batchId });
    });
    const cancelled = await s.ingest.ingest({ paths: [scan] });
    off();
    expect(cancelled.cancelled).toBe(true);
    expect(cancelled.files[0]).toMatchObject({ ok: false, error: { code: 'CANCELLED' } });
    expect(s.sources.count()).toBe(0);
    const typed = writeFile(docs, 'typed.pdf', await makePdf([{ lines: ['A typed page after the cancelled scan.'] }]));
    const [next] = (await s.ingest.ingest({ paths: [typed] })).files;
    expect(next?.ok).toBe(true);
  }, OCR_TIMEOUT);
});
