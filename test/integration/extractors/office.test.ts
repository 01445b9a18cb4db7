// PowerPoint and Excel sources (issue 14) on files written by pptxgenjs and exceljs: text per slide
// in reading order with table cells and notes, cells with A1 addresses and header labels, and
// quotes on slides, slide tables and sheet cells verified through the real ingest and verification.
import path from 'node:path';
import JSZip from 'jszip';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ExtractedDocument } from '../../../electron/services/ingest/extracted.ts';
import { extractPptx, pptxView } from '../../../electron/services/ingest/extractors/pptx.ts';
import { extractXlsx, NUMFMT_VERSION, xlsxView } from '../../../electron/services/ingest/extractors/xlsx.ts';
import type { CitationDetail } from '../../../shared/contract/answer-schemas.ts';
import { formatLocator } from '../../../shared/domain/locator.ts';
import { sameNumber } from '../../../shared/domain/sheet-cells.ts';
import { buildDeck, buildWorkbook } from '../../support/office-fixtures.ts';
import { writeFile } from '../../support/pdf-fixtures.ts';
import { openTestServices } from '../../support/workspace.ts';
import pkg from '../../../package.json' with { type: 'json' };

let deck: Uint8Array;
let book: Uint8Array;
beforeAll(async () => {
  deck = await buildDeck();
  book = await buildWorkbook();
});

const seg = (doc: ExtractedDocument, text: string) => {
  const found = doc.segments.find((s) => s.text === text);
  if (!found) throw new Error(`no block "${text}" in ${doc.segments.map((s) => s.text).join(' | ')}`);
  return found;
};

describe('PowerPoint', () => {
  it('reads each slide in reading order: title first, then by place; tables by cell with labels; notes apart', async () => {
    const doc = await extractPptx(deck, { fileName: 'review.pptx' });
    expect(doc).toMatchObject({ kind: 'pptx', method: 'ooxml-pptx@1', title: 'Quarterly Review', pageCount: 3, warnings: [] });
    expect(doc.properties?.authors).toEqual(['Finance Team']);
    const slide2 = doc.segments.filter((s) => s.slide === 2).map((s) => s.text);
    // The body was written before the title and the table but sits below them on the slide.
    expect(slide2).toEqual([
      'Revenue by region',
      'Region', 'FY2023', 'FY2024', 'North', '1,050', '1,200', 'South', '870', '915',
      'Revenue grew because enterprise renewals came in early.',
      'Mention that the South figure excludes the Lisbon office.',
    ]);
    expect(seg(doc, 'Revenue by region')).toMatchObject({ blockType: 'heading', headingPath: ['Revenue by region'] });
    expect(seg(doc, '1,200')).toMatchObject({ slide: 2, blockType: 'table_cell', cell: { table: 1, row: 2, col: 3, rowLabel: 'North', colLabel: 'FY2024' } });
    expect(seg(doc, 'Mention that the South figure excludes the Lisbon office.')).toMatchObject({ slide: 2, notes: true });
    // Side by side on slide 3: left to right, whatever their order in the file.
    expect(doc.segments.filter((s) => s.slide === 3).map((s) => s.text)).toEqual(['Travel budgets are cut by ten percent.', 'Hiring stays frozen until March.']);
    // Block numbers run through the deck, and the viewer's outline numbers the same blocks the same way.
    expect(doc.segments.map((s) => s.paragraph)).toEqual(doc.segments.map((_, i) => i));
    const outline = pptxView(deck, 'review.pptx').flatMap((s) => s.blocks.map((b) => [b.paragraph, b.text]));
    expect(outline).toEqual(doc.segments.map((s) => [s.paragraph, s.text]));
  });

  it('reads a macro-enabled deck without touching its macros', async () => {
    // A vbaProject.bin whose bytes are no valid deflate stream: inflating it would fail the file.
    const zip = await JSZip.loadAsync(deck);
    zip.file('ppt/vbaProject.bin', new Uint8Array(4096).fill(0xff), { compression: 'STORE' });
    const pptm = await zip.generateAsync({ type: 'uint8array', compression: 'DEFLATE' });
    const doc = await extractPptx(pptm, { fileName: 'review.pptm' });
    expect(doc.segments.map((s) => s.text)).toContain('Hiring stays frozen until March.');
  });
});

describe('Excel', () => {
  it('reads each sheet’s filled cells with A1 addresses, header labels, formatted values and formulas', async () => {
    const doc = await extractXlsx(book, { fileName: 'revenue.xlsx' });
    expect(doc).toMatchObject({ kind: 'xlsx', method: `ooxml-xlsx@1+numfmt@${NUMFMT_VERSION}`, title: 'Revenue workbook', warnings: [] });
    expect(pkg.dependencies.numfmt).toBe(NUMFMT_VERSION);
    expect(seg(doc, '1,200')).toMatchObject({ sheet: 'Revenue', address: 'C2', cell: { table: 1, row: 2, col: 3, rowLabel: 'North', colLabel: 'FY2024' } });
    expect(seg(doc, '14.3%')).toMatchObject({ address: 'D2', cell: { rowLabel: 'North', colLabel: 'Growth' } });
    // A formula is stored as its cached value, the formula beside it.
    expect(seg(doc, '2,115')).toMatchObject({ address: 'C4', formula: '=SUM(C2:C3)', cell: { rowLabel: 'Total', colLabel: 'FY2024' } });
    expect(seg(doc, 'Audited by Smith & Partners on 12 March.')).toMatchObject({ sheet: 'Notes', address: 'B3', cell: { table: 2, row: 3, col: 2 } });
    expect(formatLocator({ sheet: 'Revenue', address: 'C2', cell: { table: 1, row: 2, col: 3, rowLabel: 'North', colLabel: 'FY2024' }, start: 0, end: 5 })).toBe(
      'sheet Revenue · C2 (row North, column FY2024)',
    );
    const grid = xlsxView(book, 'revenue.xlsx');
    expect(grid.map((s) => [s.name, s.cells.length])).toEqual([['Revenue', 15], ['Notes', 2], ['Empty', 0]]);
    expect(grid.flatMap((s) => s.cells.map((c) => [c.paragraph, c.text]))).toEqual(doc.segments.map((s) => [s.paragraph, s.text]));
  });

  it('compares figures as numbers', () => {
    expect(sameNumber('1200', '1,200')).toBe(true);
    expect(sameNumber('$1,200.00', '1,200')).toBe(true);
    expect(sameNumber('(1,200)', '-1200')).toBe(true);
    expect(sameNumber('1,201', '1,200')).toBe(false);
    expect(sameNumber('12%', '12')).toBe(false);
    expect(sameNumber('1,20', '120')).toBe(false);
  });
});

describe('quotes on slides and cells, through ingest and verification', () => {
  it('verifies slide text, slide-table cells and sheet cells at their claimed place, and says where', async () => {
    const services = openTestServices();
    try {
      const docs = path.join(services.dir, 'docs');
      const ingest = await services.ingest.ingest({ paths: [writeFile(docs, 'review.pptx', deck), writeFile(docs, 'revenue.xlsx', book)] });
      expect(ingest.files.map((f) => f.ok)).toEqual([true, true]);
      const content = JSON.stringify({
        format: 'evidence-desk/answer@1',
        answer: 'Renewals came early [1]. North reached 1,200 [2]. The total for FY2024 was 2,115 [3]. North was 1200 [4]. Lisbon is excluded [5]. Hiring is frozen [6].',
        citations: [
          { marker: '1', claim: 'Revenue grew because enterprise renewals came in early.', quote: 'enterprise renewals came in early', source: { file: 'review.pptx' }, locator: { slide: 2 } },
          { marker: '2', claim: 'North revenue was 1,200 in FY2024.', quote: '1,200', source: { file: 'review.pptx' }, locator: { slide: 2 } },
          { marker: '3', claim: 'Total FY2024 revenue was 2,115.', quote: '2,115', source: { file: 'revenue.xlsx' }, locator: { sheet: 'Revenue', cell: 'C4' } },
          { marker: '4', claim: 'North revenue was 1200 in FY2024.', quote: '1200', source: { file: 'revenue.xlsx' }, locator: { sheet: 'revenue', cell: 'C2' } },
          { marker: '5', claim: 'The South figure excludes Lisbon.', quote: 'excludes the Lisbon office', source: { file: 'review.pptx' }, locator: { slide: 2 } },
          { marker: '6', claim: 'Hiring stays frozen.', quote: 'Hiring stays frozen until March', source: { file: 'review.pptx' }, locator: { slide: 1 } },
        ],
      });
      const imported = await services.dispatch('answers.import', { fileName: 'answer.json', content });
      expect(imported).toMatchObject({ ok: true });
      const cites = imported.ok ? (imported.value as { citations: CitationDetail[] }).citations : [];
      const byMarker = new Map(cites.map((c) => [c.marker, c]));
      const result = (m: string) => byMarker.get(m)?.result;

      expect(result('1')).toMatchObject({ status: 'verified', place: { unit: 'block', slide: 2 } });
      // A figure is judged with what names its cell (table heading, row and column labels, formula).
      expect(result('2')).toMatchObject({ status: 'verified', verdict: 'supported', method: 'exact', place: { slide: 2, cell: { table: 1, row: 2, col: 3, rowLabel: 'North', colLabel: 'FY2024' } } });
      expect(result('3')).toMatchObject({ status: 'verified', verdict: 'supported', place: { sheet: 'Revenue', address: 'C4', cell: { rowLabel: 'Total', colLabel: 'FY2024' } } });
      // "1200" is the cell shown "1,200": the same number.
      expect(result('4')).toMatchObject({ status: 'verified', method: 'normalised', matchedText: '1,200', place: { sheet: 'Revenue', address: 'C2' } });
      expect(result('5')).toMatchObject({ status: 'verified', place: { slide: 2, notes: true } });
      // Claimed on slide 1, found on slide 3.
      expect(result('6')).toMatchObject({ status: 'verified_elsewhere', place: { slide: 3 } });

      // The stored locators carry slide, sheet, address and formula.
      const xlsxId = ingest.files[1]?.ok ? ingest.files[1].sourceId : 0;
      const total = services.sources.segments(xlsxId).find((g) => g.text === '2,115');
      expect(JSON.parse(total?.locator ?? '{}')).toMatchObject({ sheet: 'Revenue', address: 'C4', formula: '=SUM(C2:C3)', cell: { table: 1, row: 4, col: 3 } });
      const place2 = result('2')?.place;
      expect(place2 ? formatLocator(place2) : '').toBe('slide 2 · table 1, row North, column FY2024');
      const place5 = result('5')?.place;
      expect(place5 ? formatLocator(place5) : '').toBe('slide 2 notes');

      // The viewer's content for each: the outline and the grid, block for block the stored text.
      const slides = await services.dispatch('sources.content', { id: ingest.files[0]?.ok ? ingest.files[0].sourceId : 0 });
      expect(slides).toMatchObject({ ok: true, value: { view: 'slides', kind: 'pptx' } });
      const grid = await services.dispatch('sources.content', { id: xlsxId });
      expect(grid).toMatchObject({ ok: true, value: { view: 'grid', kind: 'xlsx' } });
    } finally {
      services.close();
    }
  });
});
