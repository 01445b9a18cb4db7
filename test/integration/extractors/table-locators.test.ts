// Tables as locators (issue 11): DOCX and HTML cells keep table, row and column, named by headers
// where the table has them; a quote from a cell is placed in that cell and said in words.
import { describe, expect, it } from 'vitest';
import type { ExtractedDocument } from '../../../electron/services/ingest/extracted.ts';
import { extractDocx } from '../../../electron/services/ingest/extractors/docx.ts';
import { extractHtml } from '../../../electron/services/ingest/extractors/html.ts';
import { cellText, formatLocator } from '../../../shared/domain/locator.ts';
import { writeFile } from '../../support/pdf-fixtures.ts';
import { makeWordPackage, para, run } from '../../support/word-fixtures.ts';
import { openTestServices } from '../../support/workspace.ts';
import path from 'node:path';

const enc = (s: string): Uint8Array => new TextEncoder().encode(s);
const cellOf = (doc: ExtractedDocument, text: string) => doc.segments.find((s) => s.text === text)?.cell;

const FIGURES = `<table>
  <thead><tr><th>Item</th><th>FY2023</th><th>FY2024</th></tr></thead>
  <tbody>
    <tr><th scope="row">REVENUE</th><td>10.1</td><td>12.4</td></tr>
    <tr><th scope="row">COSTS</th><td>8.0</td><td><p>7.5</p><p>after savings</p></td></tr>
  </tbody>
</table>`;

describe('HTML tables', () => {
  it('names a cell by its row and column headers', async () => {
    const doc = await extractHtml(enc(`<html><body><p>Figures below.</p>${FIGURES}<p>Done.</p></body></html>`), { fileName: 'f.html' });
    expect(cellOf(doc, '12.4')).toEqual({ table: 1, row: 2, col: 3, rowLabel: 'REVENUE', colLabel: 'FY2024' });
    expect(cellOf(doc, '10.1')).toEqual({ table: 1, row: 2, col: 2, rowLabel: 'REVENUE', colLabel: 'FY2023' });
    // Two paragraphs in one cell: both are that cell.
    expect(cellOf(doc, 'after savings')).toEqual({ table: 1, row: 3, col: 3, rowLabel: 'COSTS', colLabel: 'FY2024' });
    expect(cellOf(doc, '7.5')).toEqual(cellOf(doc, 'after savings'));
    // The header cells themselves, and text outside the table.
    expect(cellOf(doc, 'FY2024')).toEqual({ table: 1, row: 1, col: 3 });
    expect(cellOf(doc, 'REVENUE')).toEqual({ table: 1, row: 2, col: 1, colLabel: 'Item' });
    expect(cellOf(doc, 'Done.')).toBeUndefined();
    expect(cellText({ table: 1, row: 2, col: 3, rowLabel: 'REVENUE', colLabel: 'FY2024' })).toBe('table 1, row REVENUE, column FY2024');
  });

  it('uses numbers without headers, counts tables in order, follows colspan and nested tables', async () => {
    const html = `<body>
      <table><tr><td>a1</td><td>b1</td></tr><tr><td colspan="2">wide</td><td>c2</td></tr></table>
      <table><tr><td>outer<table><tr><td>inner</td></tr></table></td><td>after</td></tr></table>
    </body>`;
    const doc = await extractHtml(enc(html), { fileName: 't.html' });
    expect(cellOf(doc, 'b1')).toEqual({ table: 1, row: 1, col: 2 });
    expect(cellOf(doc, 'c2')).toEqual({ table: 1, row: 2, col: 3 });
    expect(cellOf(doc, 'inner')).toEqual({ table: 3, row: 1, col: 1 });
    expect(cellOf(doc, 'after')).toEqual({ table: 2, row: 1, col: 2 });
    expect(cellText({ table: 1, row: 2, col: 3 })).toBe('table 1, row 2, column 3');
  });
});

const tc = (text: string): string => `<w:tc><w:tcPr><w:tcW w:w="2000" w:type="dxa"/></w:tcPr>${para(run(text))}</w:tc>`;
const tr = (cells: string[], header = false): string => `<w:tr>${header ? '<w:trPr><w:tblHeader/></w:trPr>' : ''}${cells.map(tc).join('')}</w:tr>`;
const tbl = (rows: string): string => `<w:tbl><w:tblPr><w:tblW w:w="0" w:type="auto"/></w:tblPr><w:tblGrid><w:gridCol w:w="2000"/><w:gridCol w:w="2000"/><w:gridCol w:w="2000"/></w:tblGrid>${rows}</w:tbl>`;

async function figuresDocx(): Promise<Uint8Array> {
  return makeWordPackage({
    body: [
      para(run('Key figures for the year.')),
      tbl(tr(['Item', 'FY2023', 'FY2024'], true) + tr(['REVENUE', '10.1 million', '12.4 million']) + tr(['COSTS', '8.0 million', '7.5 million'])),
      para(run('Between the tables.')),
      tbl(tr(['north', 'south', 'east']) + tr(['one', 'two', 'three'])),
    ].join(''),
  });
}

describe('DOCX tables', () => {
  it('names cells by the header row and the first column; a table without a header row by numbers', async () => {
    const doc = await extractDocx(await figuresDocx(), { fileName: 'figures.docx' });
    expect(cellOf(doc, '12.4 million')).toEqual({ table: 1, row: 2, col: 3, rowLabel: 'REVENUE', colLabel: 'FY2024' });
    expect(cellOf(doc, '7.5 million')).toEqual({ table: 1, row: 3, col: 3, rowLabel: 'COSTS', colLabel: 'FY2024' });
    expect(cellOf(doc, 'two')).toEqual({ table: 2, row: 2, col: 2 });
    expect(cellOf(doc, 'Between the tables.')).toBeUndefined();
  });

  it('a quote from a cell is placed in that cell, stored in the locator and said in words on the card', async () => {
    const services = openTestServices();
    try {
      const file = writeFile(path.join(services.dir, 'docs'), 'figures.docx', await figuresDocx());
      const [r] = (await services.ingest.ingest({ paths: [file] })).files;
      expect(r?.ok).toBe(true);
      const id = r?.ok ? r.sourceId : 0;
      const stored = services.sources.segments(id).find((g) => g.text === '12.4 million');
      expect(JSON.parse(stored?.locator ?? '{}')).toMatchObject({ cell: { table: 1, row: 2, col: 3, rowLabel: 'REVENUE', colLabel: 'FY2024' } });
      const content = JSON.stringify({
        format: 'evidence-desk/answer@1',
        answer: 'Revenue reached 12.4 million [1].',
        citations: [{ marker: '1', claim: 'Revenue reached 12.4 million.', quote: '12.4 million', source: { file: 'figures.docx' } }],
      });
      const imported = await services.dispatch('answers.import', { fileName: 'a.json', content });
      expect(imported).toMatchObject({ ok: true });
      const place = imported.ok ? (imported.value as { citations: { result: { place: { cell?: unknown; unit: string; at: number } } }[] }).citations[0]?.result.place : null;
      expect(place).toMatchObject({ unit: 'block', at: stored?.paragraph, cell: { table: 1, rowLabel: 'REVENUE', colLabel: 'FY2024' } });
      expect(formatLocator({ paragraph: place?.at ?? 0, cell: { table: 1, row: 2, col: 3, rowLabel: 'REVENUE', colLabel: 'FY2024' } })).toBe(`¶ ${stored?.paragraph} · table 1, row REVENUE, column FY2024`);
    } finally {
      services.close();
    }
  });
});
