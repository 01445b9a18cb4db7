// Bad PowerPoint and Excel input (issue 14): password-protected files, legacy binaries, ZIP bombs
// (the DOCX pre-scan, shared), a damaged sheet that costs only itself, and a batch that goes on.
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { createXlsxExtractor, extractXlsx } from '../../../electron/services/ingest/extractors/xlsx.ts';
import { extractPptx } from '../../../electron/services/ingest/extractors/pptx.ts';
import { DEFAULT_ZIP_LIMITS } from '../../../electron/services/ingest/extractors/ooxml-zip.ts';
import { appErrorOf as failure } from '../../support/extraction-assertions.ts';
import { buildDeck, buildWorkbook, damagePart, encryptedOfficeFile } from '../../support/office-fixtures.ts';
import { writeFile } from '../../support/pdf-fixtures.ts';
import { openTestServices } from '../../support/workspace.ts';
import { forgeDeclaredSize } from '../../support/zip-fixtures.ts';

let deck: Uint8Array;
let book: Uint8Array;
beforeAll(async () => {
  deck = await buildDeck();
  book = await buildWorkbook();
});

describe('refused Office files', () => {
  it('a password-protected file is refused with its own code, saying how to get a readable copy', async () => {
    const e = await failure(extractXlsx(encryptedOfficeFile(), { fileName: 'salaries.xlsx' }));
    expect(e.code).toBe('OFFICE_ENCRYPTED');
    expect(e.message).toMatch(/"salaries\.xlsx" is protected by a password.*Excel.*remove the password/);
    expect((await failure(extractPptx(encryptedOfficeFile(), { fileName: 'board.pptx' }))).message).toMatch(/open it in PowerPoint/);
  });

  it('a legacy binary, a PDF under the wrong name and an empty file say what they are', async () => {
    const ole = encryptedOfficeFile().slice(0, 1024); // the OLE signature without the encrypted streams
    const legacy = await failure(extractXlsx(ole, { fileName: 'old.xlsx' }));
    expect(legacy.code).toBe('OFFICE_INVALID');
    expect(legacy.message).toMatch(/Excel 97–2003 \.xls/);
    const pdf = await failure(extractPptx(new TextEncoder().encode('%PDF-1.7\n...'), { fileName: 'deck.pptx' }));
    expect(pdf).toMatchObject({ code: 'WRONG_EXTENSION' });
    expect((await failure(extractPptx(new Uint8Array(0), { fileName: 'empty.pptx' }))).code).toBe('FILE_EMPTY');
    // A deck is a ZIP too, but no workbook: said as what it is.
    const notBook = await failure(extractXlsx(deck, { fileName: 'deck-renamed.xlsx' }));
    expect(notBook).toMatchObject({ code: 'WRONG_EXTENSION', details: { detected: '.pptx' } });
    expect(notBook.message).toBe('"deck-renamed.xlsx" is a PowerPoint presentation, not an Excel workbook (.xlsx). Rename it with the .pptx extension and ingest it again.');
  });

  it('refuses ZIP bombs by the shared pre-scan: declared sizes too large, or sizes that lie', async () => {
    const huge = forgeDeclaredSize(book, 'xl/worksheets/sheet1.xml', 0xfffffff0);
    const declared = await failure(extractXlsx(huge, { fileName: 'bomb.xlsx' }));
    expect(declared.code).toBe('OFFICE_ZIP_BOMB');
    expect(declared.details).toMatchObject({ stage: 'central-directory' });
    // A sheet that holds more than it declares: caught while inflating, and the whole file refused, not just the sheet.
    const lying = forgeDeclaredSize(book, 'xl/worksheets/sheet1.xml', 16);
    const inflated = await failure(extractXlsx(lying, { fileName: 'liar.xlsx' }));
    expect(inflated.code).toBe('OFFICE_ZIP_BOMB');
    expect(inflated.details).toMatchObject({ stage: 'inflate-check' });
    const strict = createXlsxExtractor({ ...DEFAULT_ZIP_LIMITS, maxTotalUncompressed: 1024 });
    expect((await failure(strict(book, { fileName: 'small-limit.xlsx' }))).code).toBe('OFFICE_ZIP_BOMB');
  });
});

describe('a damaged part', () => {
  it('a damaged sheet costs that sheet, with a warning; the other sheets are read', async () => {
    const damaged = await damagePart(book, 'xl/worksheets/sheet1.xml');
    const doc = await extractXlsx(damaged, { fileName: 'damaged.xlsx' });
    expect(doc.segments.map((s) => s.sheet)).toEqual(['Notes', 'Notes']);
    expect(doc.warnings).toEqual([
      expect.objectContaining({ code: 'OFFICE_PART_UNREADABLE', message: expect.stringMatching(/"damaged\.xlsx": sheet "Revenue" could not be read \(.*\); the other sheets were\./) }),
    ]);
  });

  it('a damaged slide costs that slide; the deck is read', async () => {
    const damaged = await damagePart(deck, 'ppt/slides/slide2.xml');
    const doc = await extractPptx(damaged, { fileName: 'damaged.pptx' });
    expect(new Set(doc.segments.map((s) => s.slide))).toEqual(new Set([1, 3]));
    expect(doc.warnings.map((w) => w.code)).toEqual(['OFFICE_PART_UNREADABLE']);
    expect(doc.pageCount).toBe(3);
  });
});

describe('a batch with bad Office files', () => {
  it('goes on: each bad file is reported by name and code, the good ones are stored', async () => {
    const services = openTestServices();
    try {
      const docs = path.join(services.dir, 'docs');
      const paths = [
        writeFile(docs, 'locked.pptx', encryptedOfficeFile()),
        writeFile(docs, 'revenue.xlsm', book),
        writeFile(docs, 'bomb.xlsx', forgeDeclaredSize(book, 'xl/worksheets/sheet1.xml', 0xfffffff0)),
        writeFile(docs, 'partly.xlsx', await damagePart(book, 'xl/worksheets/sheet1.xml')),
      ];
      const result = await services.ingest.ingest({ paths });
      const byName = new Map(result.files.map((f) => [path.basename(f.path), f]));
      expect(byName.get('locked.pptx')).toMatchObject({ ok: false, error: { code: 'OFFICE_ENCRYPTED' } });
      expect(byName.get('bomb.xlsx')).toMatchObject({ ok: false, error: { code: 'OFFICE_ZIP_BOMB' } });
      expect(byName.get('revenue.xlsm')).toMatchObject({ ok: true, outcome: 'added', segmentCount: 17 });
      expect(byName.get('partly.xlsx')).toMatchObject({ ok: true, segmentCount: 2, warnings: [expect.objectContaining({ code: 'OFFICE_PART_UNREADABLE' })] });
      expect(services.sources.list().map((s) => [s.file_name, s.kind]).sort()).toEqual([
        ['partly.xlsx', 'xlsx'],
        ['revenue.xlsm', 'xlsx'],
      ]);
    } finally {
      services.close();
    }
  });
});
