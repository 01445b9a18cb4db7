import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { IngestProgress } from '../../../shared/contract/events.ts';
import type { IngestFileResult, WorkspaceSettings } from '../../../shared/contract/schemas.ts';
import { MAX_IMAGE_PIXELS } from '../../../electron/services/ingest/extractors/pdf.ts';
import { makeImagePages, makePdf, writeFile } from '../../support/pdf-fixtures.ts';
import { callHandler, openTestServices, workspaceSnapshot, type TestServices } from '../../support/workspace.ts';

let services: TestServices | undefined;
afterEach(() => services?.close());

function failureOf(r: IngestFileResult | undefined): { code: string; message: string; details?: Record<string, unknown> } {
  if (!r || r.ok) throw new Error(`expected a failure, got ${JSON.stringify(r)}`);
  return r.error;
}

const pages = (n: number, tag: string) => Array.from({ length: n }, (_, i) => ({ lines: [`${tag}, page ${i + 1} of ${n}.`] }));

describe('ingest caps: pages, bytes and pixels', () => {
  it('a PDF over the workspace page cap (set through settings) is refused with PDF_TOO_MANY_PAGES before any page is read; one at the cap goes in', async () => {
    services = openTestServices();
    const s = services;
    expect((await callHandler<WorkspaceSettings>(s, 'workspace.settings', {})).maxPdfPages).toBe(20_000);
    expect((await callHandler<WorkspaceSettings>(s, 'workspace.updateSettings', { maxPdfPages: 5 })).maxPdfPages).toBe(5);
    const docs = path.join(s.dir, 'docs');
    const over = writeFile(docs, 'six-pages.pdf', await makePdf(pages(6, 'Too long')));
    const at = writeFile(docs, 'five-pages.pdf', await makePdf(pages(5, 'Just right')));
    const before = workspaceSnapshot(s);
    const events: IngestProgress[] = [];
    const off = s.events.subscribe((e) => {
      if (e.type === 'ingest.progress') events.push(e);
    });
    const refused = (await s.ingest.ingest({ paths: [over] })).files;
    off();
    const e = failureOf(refused[0]);
    expect(e.code).toBe('PDF_TOO_MANY_PAGES');
    expect(e.message).toContain('six-pages.pdf has 6 pages, over the limit of 5 pages');
    expect(e.details).toEqual({ file: 'six-pages.pdf', pageCount: 6, maxPages: 5 });
    // No page of it was extracted: no page progress at all, and nothing stored.
    expect(events.filter((p) => p.page !== undefined)).toEqual([]);
    expect(events.map((p) => p.phase)).toEqual(['hashing', 'extracting', 'failed']);
    expect(workspaceSnapshot(s)).toBe(before);

    const accepted = (await s.ingest.ingest({ paths: [at] })).files[0];
    expect(accepted?.ok && accepted.segmentCount).toBe(5);
  });

  it('magic bytes decide, not the name: every kind refuses bytes of another format with a code naming the file and what it really is', async () => {
    services = openTestServices();
    const docs = path.join(services.dir, 'docs');
    const pdf = await makePdf(pages(1, 'A real PDF'));
    const zip = Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(200, 0x20)]);
    const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(200, 1)]);
    const named = [
      writeFile(docs, 'report.html', pdf),
      writeFile(docs, 'notes.md', pdf),
      writeFile(docs, 'memo.pdf', zip),
      writeFile(docs, 'letter.docx', pdf),
      writeFile(docs, 'photo.txt', png),
    ];
    const before = workspaceSnapshot(services);
    const errors = (await services.ingest.ingest({ paths: named })).files.map(failureOf);
    expect(errors.map((e) => e.code)).toEqual(['WRONG_EXTENSION', 'WRONG_EXTENSION', 'WRONG_EXTENSION', 'WRONG_EXTENSION', 'UNSUPPORTED_TYPE']);
    expect(errors.map((e) => /a PDF file|a ZIP archive|is a PDF|a PNG image/.test(e.message))).toEqual([true, true, true, true, true]);
    errors.forEach((e, i) => expect(e.message).toContain(path.basename(named[i] ?? '')));
    expect(workspaceSnapshot(services)).toBe(before);
  });

  it('the size cap is checked on the opened file before it is read: a 3 GB sparse file is refused without hashing', async () => {
    services = openTestServices();
    const s = services;
    const big = path.join(s.dir, 'huge.txt');
    fs.writeFileSync(big, 'x');
    fs.truncateSync(big, 3 * 1024 ** 3); // sparse: no disk used, but reading it would take 3 GB
    const phases: string[] = [];
    const off = s.events.subscribe((e) => {
      if (e.type === 'ingest.progress') phases.push(e.phase);
    });
    const e = failureOf((await s.ingest.ingest({ paths: [big] })).files[0]);
    off();
    expect(e.code).toBe('FILE_TOO_LARGE');
    expect(e.message).toContain('huge.txt is 3072.0 MB, over the 512 MB limit');
    expect(phases).toEqual(['failed']);
  });

  it(`the pixel cap: a textless page's image over ${MAX_IMAGE_PIXELS.toLocaleString('en-US')} pixels is not decoded (the page reads as blank), a scan-sized one is (the page is flagged as a scan)`, async () => {
    services = openTestServices();
    const file = writeFile(path.join(services.dir, 'docs'), 'scans.pdf', await makeImagePages([[2480, 3508], [9000, 9000]]));
    const result = (await services.ingest.ingest({ paths: [file] })).files[0];
    if (!result?.ok) throw new Error(JSON.stringify(result));
    const flags = services.db.prepare('SELECT page, no_text_layer FROM segments WHERE source_id = ? ORDER BY page').all(result.sourceId) as { page: number; no_text_layer: number }[];
    expect(flags).toEqual([
      { page: 1, no_text_layer: 1 },
      { page: 2, no_text_layer: 0 },
    ]);
    expect(result.warnings.map((w) => w.code)).toEqual(['PDF_NO_TEXT_LAYER']);
    expect(result.warnings[0]?.message).toContain('1 of 2 pages have no text layer');
  });
});
