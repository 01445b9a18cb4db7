// Password-protected Office files (issue 14, item 5): the ingest's password (as for PDFs) decrypts a
// protected deck, workbook or Word file before it is read; none, or a wrong one, is refused by name and
// code while the batch goes on. The stored file, its hash and its snapshot stay the encrypted bytes.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import officeCrypto from 'officecrypto-tool';
import { beforeAll, describe, expect, it } from 'vitest';
import { extractPptx } from '../../../electron/services/ingest/extractors/pptx.ts';
import { createXlsxExtractor, extractXlsx } from '../../../electron/services/ingest/extractors/xlsx.ts';
import { DEFAULT_ZIP_LIMITS } from '../../../electron/services/ingest/extractors/ooxml-zip.ts';
import type { CitationDetail } from '../../../shared/contract/answer-schemas.ts';
import { appErrorOf as failure } from '../../support/extraction-assertions.ts';
import { buildDeck, buildWorkbook } from '../../support/office-fixtures.ts';
import { writeFile } from '../../support/pdf-fixtures.ts';
import { openTestServices } from '../../support/workspace.ts';

const PASSWORD = 'correct horse';
let deck: Uint8Array;
let book: Uint8Array;
let lockedDeck: Uint8Array;
let lockedBook: Uint8Array;

/** Encrypted as Office does it (ECMA-376 agile encryption). */
function lock(bytes: Uint8Array, password: string): Uint8Array {
  return new Uint8Array(officeCrypto.encrypt(Buffer.from(bytes), { password }));
}

beforeAll(async () => {
  deck = await buildDeck();
  book = await buildWorkbook();
  lockedDeck = lock(deck, PASSWORD);
  lockedBook = lock(book, PASSWORD);
});

describe('extracting a protected Office file', () => {
  it('without a password: OFFICE_ENCRYPTED, naming the file and saying a password can be given', async () => {
    const e = await failure(extractXlsx(lockedBook, { fileName: 'salaries.xlsx' }));
    expect(e.code).toBe('OFFICE_ENCRYPTED');
    expect(e.message).toMatch(/^"salaries\.xlsx" is protected by a password\. Add it again with its password to read it/);
    expect(e.message).not.toMatch(/--password/);
    expect((await failure(extractPptx(lockedDeck, { fileName: 'board.pptx', password: '' }))).code).toBe('OFFICE_ENCRYPTED');
  });

  it('with a wrong password: OFFICE_PASSWORD_INCORRECT, naming the file', async () => {
    const e = await failure(extractPptx(lockedDeck, { fileName: 'board.pptx', password: 'wrong' }));
    expect(e.code).toBe('OFFICE_PASSWORD_INCORRECT');
    expect(e.message).toMatch(/^"board\.pptx": the password given is not the right one/);
  });

  it('with the right password: the same text as the unprotected file', async () => {
    const plain = await extractXlsx(book, { fileName: 'revenue.xlsx' });
    const opened = await extractXlsx(lockedBook, { fileName: 'revenue.xlsx', password: PASSWORD });
    expect(opened.segments).toEqual(plain.segments);
    expect((await extractPptx(lockedDeck, { fileName: 'review.pptx', password: PASSWORD })).segments).toEqual(
      (await extractPptx(deck, { fileName: 'review.pptx' })).segments,
    );
    // A password given to a batch reaches unprotected files too: they are read as they are.
    expect((await extractXlsx(book, { fileName: 'open.xlsx', password: PASSWORD })).segments).toEqual(plain.segments);
  });

  it('keeps the ZIP-bomb pre-scan on the decrypted package', async () => {
    const strict = createXlsxExtractor({ ...DEFAULT_ZIP_LIMITS, maxTotalUncompressed: 1024 });
    const e = await failure(strict(lockedBook, { fileName: 'locked-bomb.xlsx', password: PASSWORD }));
    expect(e.code).toBe('OFFICE_ZIP_BOMB');
    expect(e.details).toMatchObject({ stage: 'central-directory' });
  });
});

describe('ingesting protected Office files', () => {
  it('none, wrong and right passwords: refused by name and code, the batch goes on, the right one stores text that verifies', async () => {
    const services = openTestServices();
    try {
      const docs = path.join(services.dir, 'docs');
      const bookPath = writeFile(docs, 'revenue.xlsx', lockedBook);
      const deckPath = writeFile(docs, 'review.pptx', lockedDeck);
      const openPath = writeFile(docs, 'open.pptx', deck);

      const none = await services.ingest.ingest({ paths: [bookPath, deckPath, openPath] });
      expect(none.files.map((f) => [path.basename(f.path), f.ok ? 'ok' : f.error.code])).toEqual([
        ['revenue.xlsx', 'OFFICE_ENCRYPTED'],
        ['review.pptx', 'OFFICE_ENCRYPTED'],
        ['open.pptx', 'ok'],
      ]);

      const wrong = await services.ingest.ingest({ paths: [bookPath, deckPath], password: 'not it' });
      expect(wrong.files.map((f) => (f.ok ? 'ok' : f.error.code))).toEqual(['OFFICE_PASSWORD_INCORRECT', 'OFFICE_PASSWORD_INCORRECT']);
      expect(wrong.files.map((f) => (f.ok ? '' : f.error.message))).toEqual([
        expect.stringContaining('"revenue.xlsx"'),
        expect.stringContaining('"review.pptx"'),
      ]);
      expect(services.sources.list().map((s) => s.file_name)).toEqual(['open.pptx']);

      const right = await services.ingest.ingest({ paths: [bookPath, deckPath], password: PASSWORD });
      expect(right.files).toMatchObject([
        { ok: true, outcome: 'added', segmentCount: 17 },
        { ok: true, outcome: 'added' },
      ]);
      // The source is the encrypted file as stored: its hash and its snapshot are of those bytes.
      const stored = services.sources.list().find((s) => s.file_name === 'revenue.xlsx');
      expect(stored?.sha256).toBe(createHash('sha256').update(lockedBook).digest('hex'));
      const snapshot = stored?.snapshot ? fs.readFileSync(path.join(services.workspaceDir, stored.snapshot)) : null;
      expect(snapshot?.equals(Buffer.from(lockedBook))).toBe(true);

      const content = JSON.stringify({
        format: 'evidence-desk/answer@1',
        answer: 'The total for FY2024 was 2,115 [1]. Renewals came early [2].',
        citations: [
          { marker: '1', claim: 'Total FY2024 revenue was 2,115.', quote: '2,115', source: { file: 'revenue.xlsx' }, locator: { sheet: 'Revenue', cell: 'C4' } },
          { marker: '2', claim: 'Revenue grew because enterprise renewals came in early.', quote: 'enterprise renewals came in early', source: { file: 'review.pptx' }, locator: { slide: 2 } },
        ],
      });
      const imported = await services.dispatch('answers.import', { fileName: 'answer.json', content });
      expect(imported).toMatchObject({ ok: true });
      const cites = imported.ok ? (imported.value as { citations: CitationDetail[] }).citations : [];
      expect(cites.map((c) => [c.marker, c.result?.status])).toEqual([
        ['1', 'verified'],
        ['2', 'verified'],
      ]);

      // The viewer cannot open it again (the password is not kept), and says so rather than asking for it.
      const view = await services.dispatch('sources.content', { id: stored?.id ?? 0 });
      expect(view).toMatchObject({ ok: false, error: { code: 'OFFICE_ENCRYPTED', message: expect.stringMatching(/does not keep: its text was read when it was added/) } });
    } finally {
      services.close();
    }
  });
});
