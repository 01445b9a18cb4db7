// PDFs as they arrive from the wild: damaged but recoverable, edited in place, labelled, rotated,
// protected by an owner password only. Each is ingested, and the stored text at each locator is the
// known text; what cannot be read is said per page.
import path from 'node:path';
import { expect, it } from 'vitest';
import { describeEngines } from '../../support/engines.ts';
import { withEngineDocs } from '../../support/engine-ingest.ts';
import { FIXTURES_DIR, makeFilledForm, makePdf, withIncrementalUpdate, withJunkAround, withDamagedPage, withPageLabels, withShiftedXref, writeFile, type PageSpec } from '../../support/pdf-fixtures.ts';
import { ingestOne, storedPhrase, storedTexts } from '../../support/stored-text.ts';
import { openTestServices, type TestServices } from '../../support/workspace.ts';

const PAGES: PageSpec[] = [1, 2, 3, 4].map((n) => ({ lines: [`Known text of page ${n}.`, `A second line on page ${n}.`] }));

// On both engines (issue 13): ingest writes through the engine in use, the text is read back from it.
describeEngines('PDF quirks from the wild', (engine) => {
  let services: TestServices;
  let docs: string;
  withEngineDocs(engine, (opened) => ({ services, docs } = opened));

  async function expectPagesAt(sourceId: number, pages: [string, number][]): Promise<void> {
    for (const [phrase, page] of pages) {
      const hit = await storedPhrase(services, sourceId, phrase);
      expect(hit.seg.page, phrase).toBe(page);
      expect(JSON.parse(hit.seg.locator)).toMatchObject({ page });
    }
  }

  it('recovers junk around the file and a broken xref table, with the same text on the same pages', async () => {
    const pdf = await makePdf(PAGES);
    for (const [name, bytes] of [
      ['junk-around.pdf', withJunkAround(pdf)],
      ['shifted-xref.pdf', withShiftedXref(pdf)],
    ] as const) {
      const r = await ingestOne(services, writeFile(docs, name, bytes));
      expect(r.warnings, name).toEqual([]);
      expect(r.segmentCount).toBe(4);
      await expectPagesAt(r.sourceId, [1, 2, 3, 4].map((n): [string, number] => [`Known text of page ${n}.`, n]));
    }
  });

  it('stores a page pdf.js cannot read as empty, says which, and keeps the pages it can read', async () => {
    const r = await ingestOne(services, writeFile(docs, 'damaged-page.pdf', await withDamagedPage(await makePdf(PAGES), 1)));
    await expectPagesAt(r.sourceId, [1, 3, 4].map((n): [string, number] => [`Known text of page ${n}.`, n]));
    expect(r.segmentCount).toBe(4);
    const failed = r.warnings.find((w) => w.code === 'EXTRACTION_FAILED');
    expect(failed?.message).toMatch(/^damaged-page\.pdf: 1 pages could not be read \(damaged content\): 2\./);
    expect((await services.evidence.sources.pageSegment(r.sourceId, 2))?.text).toBe('');
  });

  it('reads an incrementally updated PDF as its last revision', async () => {
    const r = await ingestOne(services, writeFile(docs, 'edited.pdf', await withIncrementalUpdate(await makePdf(PAGES), 2, 'Page three as amended in place.')));
    expect(r.warnings).toEqual([]);
    await expectPagesAt(r.sourceId, [
      ['Known text of page 2.', 2],
      ['Page three as amended in place.', 3],
      ['Known text of page 4.', 4],
    ]);
    expect((await storedTexts(services, r.sourceId)).join('\n')).not.toContain('Known text of page 3.');
  });

  it('stores page labels in every style beside the page numbers, and reads pages rotated 90, 180 and 270 degrees', async () => {
    const pages: PageSpec[] = Array.from({ length: 8 }, (_, i) => ({ lines: [`Labelled page ${i + 1} text.`], rotate: ([0, 90, 180, 270] as const)[i % 4] }));
    const pdf = await withPageLabels(await makePdf(pages), [
      [0, { S: 'R' }],
      [2, { S: 'D', P: 'A-' }],
      [4, { S: 'D', St: 10 }],
      [5, { S: 'a' }],
      [6, { P: 'Cover' }],
      [7, { S: 'r', St: 4 }],
    ]);
    const r = await ingestOne(services, writeFile(docs, 'labels.pdf', pdf));
    const labels = ['I', 'II', 'A-1', 'A-2', '10', 'a', 'Cover', 'iv'];
    for (const [i, label] of labels.entries()) {
      const hit = await storedPhrase(services, r.sourceId, `Labelled page ${i + 1} text.`);
      expect(hit.seg.page).toBe(i + 1);
      expect(hit.seg.page_label).toBe(label);
      expect(JSON.parse(hit.seg.locator)).toMatchObject({ page: i + 1, pageLabel: label });
    }
  });

  it('ingests a PDF with an owner password only, also when the batch gives a password meant for another file', async () => {
    // test/fixtures/README.md: restrictions on printing and copying, no user password.
    const file = path.join(FIXTURES_DIR, 'owner-password-only.pdf');
    const plain = await ingestOne(services, file);
    await expectPagesAt(plain.sourceId, [
      ['This document has an owner password only.', 1],
      ['Page two of the restricted document.', 2],
    ]);
    // A local workspace beside the engine's: the same text whichever engine stored it.
    const other = openTestServices();
    try {
      const withPassword = await ingestOne(other, file, 'a-password-for-another-file');
      expect(await storedTexts(other, withPassword.sourceId)).toEqual(await storedTexts(services, plain.sourceId));
    } finally {
      other.close();
    }
  });

  it('says that filled-in form fields are not indexed, and indexes them once the form is flattened', async () => {
    const form = await ingestOne(services, writeFile(docs, 'leave-form.pdf', await makeFilledForm()));
    await expectPagesAt(form.sourceId, [['Application for annual leave.', 1]]);
    expect((await storedTexts(services, form.sourceId)).join('\n')).not.toContain('Jane Q. Applicant');
    expect(form.warnings).toEqual([
      {
        code: 'PDF_FORM_NOT_INDEXED',
        message: expect.stringMatching(/^leave-form\.pdf: 2 filled-in form fields \(page 1\) hold text that is not part of the page text, so it is not indexed .* flatten the form/),
      },
    ]);
    const flat = await ingestOne(services, writeFile(docs, 'leave-form-flat.pdf', await makeFilledForm(true)));
    expect(flat.warnings).toEqual([]);
    await expectPagesAt(flat.sourceId, [
      ['Jane Q. Applicant', 1],
      ['Norway', 1],
    ]);
  });
});
