import path from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { Document, HeadingLevel, Packer, Paragraph, Table, TableCell, TableRow } from 'docx';
import { makePdf, writeFile } from '../../support/pdf-fixtures.ts';
import { describeEngines } from '../../support/engines.ts';
import { storedSegments } from '../../support/stored-text.ts';
import type { TestServices } from '../../support/workspace.ts';

// Known text on known pages and blocks; each must be found at a locator whose [start, end) is it.
const COLUMNS = [
  ['Left column opens the memo.', 'Retention is seven years.', 'Left column closes here.'],
  ['Right column starts anew.', 'Audits happen each quarter.', 'Right column ends the page.'],
];

// On both engines (issue 13): one empty workspace per engine for the suite (on PostgreSQL as an
// admin member), ingested through the engine and read back from it.
describeEngines('locators: stored text at [start, end) equals the known text', (engine) => {
  let services: TestServices;
  beforeAll(async () => {
    services = (await engine.open(async () => undefined, { as: 'admin', scope: 'suite' })).services;
    expect(services.evidence.engine).toBe(engine.name);
  }, 120_000);

  async function locate(sourceId: number, phrase: string) {
    for (const seg of await storedSegments(services, sourceId)) {
      const start = seg.text.indexOf(phrase);
      if (start >= 0) return { seg, start, end: start + phrase.length };
    }
    return null;
  }

  it('PDF pages: plain, multi-column, rotated 90° and 180°, each phrase on its own page', async () => {
    const pdf = await makePdf([
      { lines: ['Page one says hello.', 'Nothing else here.'] },
      { lines: [], columns: COLUMNS },
      { lines: ['This page is turned a quarter.', 'Rotation must not lose text.'], rotate: 90 },
      { lines: ['Upside down but still readable.'], rotate: 180 },
    ]);
    const file = writeFile(path.join(services.dir, 'pdf'), 'layout.pdf', pdf);
    const [r] = (await services.ingest.ingest({ paths: [file] })).files;
    if (!r?.ok) throw new Error(`ingest failed: ${JSON.stringify(r)}`);
    const expected: [string, number][] = [
      ['Page one says hello.', 1],
      ...COLUMNS.flat().map((line): [string, number] => [line, 2]),
      ['This page is turned a quarter.', 3],
      ['Rotation must not lose text.', 3],
      ['Upside down but still readable.', 4],
    ];
    for (const [phrase, page] of expected) {
      const hit = await locate(r.sourceId, phrase);
      expect(hit, phrase).not.toBeNull();
      expect(hit?.seg.page).toBe(page);
      expect(hit?.seg.text.slice(hit.start, hit.end)).toBe(phrase);
      const locator = JSON.parse(hit?.seg.locator ?? '{}') as { page: number; start: number; end: number };
      expect(locator.page).toBe(page);
      expect(hit?.end).toBeLessThanOrEqual(locator.end);
    }
    // Every stored item start falls inside the page text, in order.
    for (const seg of await storedSegments(services, r.sourceId)) {
      const starts = JSON.parse(seg.item_starts ?? '[]') as number[];
      expect(starts.every((s, i) => s <= seg.text.length && (i === 0 || s >= (starts[i - 1] ?? 0)))).toBe(true);
    }
  });

  it('DOCX blocks: heading path and block index for a table cell, a list item and a footnote-free paragraph', async () => {
    const doc = new Document({
      sections: [
        {
          children: [
            new Paragraph({ text: 'Chapter 1', heading: HeadingLevel.HEADING_1 }),
            new Paragraph({ text: 'Introductory paragraph about leave.' }),
            new Paragraph({ text: 'Section 1.2', heading: HeadingLevel.HEADING_2 }),
            new Table({ rows: [new TableRow({ children: [new TableCell({ children: [new Paragraph('Annual leave: 14 days')] }), new TableCell({ children: [new Paragraph('Sick leave: 10 days')] })] })] }),
            new Paragraph({ text: 'First bullet point', bullet: { level: 0 } }),
          ],
        },
      ],
    });
    const file = writeFile(path.join(services.dir, 'docx'), 'policy.docx', new Uint8Array(await Packer.toBuffer(doc)));
    const [r] = (await services.ingest.ingest({ paths: [file] })).files;
    if (!r?.ok) throw new Error(`ingest failed: ${JSON.stringify(r)}`);
    const cell = await locate(r.sourceId, 'Sick leave: 10 days');
    expect(cell?.seg.text.slice(cell.start, cell.end)).toBe('Sick leave: 10 days');
    expect(JSON.parse(cell?.seg.heading_path ?? '[]')).toEqual(['Chapter 1', 'Section 1.2']);
    expect(cell?.seg.block_type).toBe('table_cell');
    const bullet = await locate(r.sourceId, 'First bullet point');
    expect(bullet?.seg.block_type).toBe('list_item');
    const paragraphs = (await storedSegments(services, r.sourceId)).map((s) => s.paragraph);
    expect(paragraphs).toEqual(paragraphs.map((_, i) => i));
  });

  it('text files: UTF-8 and Latin-1 lines at their line numbers', async () => {
    const lines = ['Line one.', '', 'Größe and café on line three.', 'Line four ends it.'];
    const utf8 = writeFile(path.join(services.dir, 'txt'), 'utf8.txt', lines.join('\n'));
    const latin1 = writeFile(path.join(services.dir, 'txt'), 'latin1.txt', Buffer.from(lines.join('\r\n') + '\r\nMore Latin-1 text: naïve façade, Straße, déjà vu, señor.\r\n', 'latin1'));
    for (const file of [utf8, latin1]) {
      const [r] = (await services.ingest.ingest({ paths: [file] })).files;
      if (!r?.ok) throw new Error(`ingest failed: ${JSON.stringify(r)}`);
      const hit = await locate(r.sourceId, 'Größe and café on line three.');
      expect(hit?.seg.text.slice(hit.start, hit.end)).toBe('Größe and café on line three.');
      const before = hit?.seg.text.slice(0, hit.start) ?? '';
      expect((hit?.seg.line_start ?? 0) + (before.match(/\n/g)?.length ?? 0)).toBe(3);
    }
  });
});
