/**
 * Issue 9: a PDF excerpt's boxes come from the text-item geometry stored at ingestion
 * (page_text_items, migration 18), not from reading the page again. Ingestion stores every text
 * page's geometry, joining into exactly its stored text; the export boxes the quote from it (an
 * item's stored width, changed, changes the box); and a page ingested before the geometry was
 * stored (its row absent) gets the same excerpt, pixel for pixel, read from the page as before,
 * after which its geometry is kept. The excerpts are drawn by the extraction children, as in the app.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readAnswerFile } from '../../../electron/cli/answer-file.ts';
import { excerptCacheDir } from '../../../electron/services/export/excerpt-cache.ts';
import { ITEM_FIELDS, unpackTextItems } from '../../../electron/services/ingest/text-geometry.ts';
import type { SegmentRow } from '../../../electron/services/store/sources-store.ts';
import type { AnswerDetail } from '../../../shared/contract/answer-schemas.ts';
import { reportFromJson } from '../../../shared/report/json.ts';
import type { ReportImageExcerpt } from '../../../shared/report/schema.ts';
import { makePdf, writeFile } from '../../support/pdf-fixtures.ts';
import { ingestAll, nativeAnswer } from '../../support/policy-workspace.ts';
import { callHandler, openTestServices, type TestServices } from '../../support/workspace.ts';

const LINES = Array.from({ length: 24 }, (_, i) => `Line ${i + 1} of the text around the quoted sentence.`);
LINES[10] = 'Before the quote, the board agreed that refunds are made within thirty days, after it.';
const QUOTE = 'the board agreed that refunds are made within thirty days';

async function workspace(): Promise<{ services: TestServices; sourceId: number; answerId: number }> {
  const services = openTestServices();
  const docs = path.join(services.dir, 'docs');
  const pdf = writeFile(docs, 'Board.pdf', await makePdf([{ lines: ['Cover page.'] }, { lines: LINES }], 'Board'));
  await ingestAll(services, [pdf]);
  const answer = writeFile(docs, 'answer.json', nativeAnswer([{ marker: '1', claim: 'Refunds take thirty days.', quote: QUOTE, source: { file: 'Board.pdf' }, locator: { page: 2 } }]));
  const imported = await callHandler<AnswerDetail>(services, 'answers.import', readAnswerFile(answer));
  return { services, sourceId: services.sources.list()[0]!.id, answerId: imported.answer.id };
}

/** Runs `use` over a fresh workspace, closed afterwards whatever happens. */
async function withWorkspace(use: (w: { services: TestServices; sourceId: number; answerId: number }) => Promise<void>): Promise<void> {
  const w = await workspace();
  try {
    await use(w);
  } finally {
    w.services.close();
  }
}

/** The cited page (2): its segment, the geometry stored for its text, and its items' starts. */
function citedPage(services: TestServices, sourceId: number): { seg: SegmentRow; packed: Float64Array; starts: number[] } {
  const seg = services.sources.pageSegment(sourceId, 2)!;
  const packed = services.sources.pageTextItems(sourceId, 2, seg.text)!;
  return { seg, packed, starts: JSON.parse(seg.item_starts!) as number[] };
}

/** The citation's excerpt in a fresh JSON export, drawn anew (the workspace's excerpt cache emptied first). */
async function excerpt(services: TestServices, answerId: number): Promise<ReportImageExcerpt> {
  fs.rmSync(excerptCacheDir(services.workspaceDir), { recursive: true, force: true });
  const target = path.join(services.dir, 'report.json');
  await callHandler(services, 'answers.export', { id: answerId, format: 'json', path: target });
  const c = reportFromJson(fs.readFileSync(target, 'utf8')).citations[0];
  const x = c?.excerpt;
  if (!x || !('image' in x)) throw new Error(`no image excerpt: ${JSON.stringify(c?.notes)}`);
  return x;
}

const storedRows = (services: TestServices) => services.db.prepare('SELECT source_id, page FROM page_text_items ORDER BY page').all();

describe('excerpts from stored text-item geometry', () => {
  it('stores every text page’s geometry at ingestion, joining into exactly the stored text', () =>
    withWorkspace(async ({ services, sourceId }) => {
      const segments = services.sources.segments(sourceId);
      expect(segments.map((s) => s.page)).toEqual([1, 2]);
      for (const seg of segments) {
        const packed = services.sources.pageTextItems(sourceId, seg.page!, seg.text);
        if (!packed) throw new Error(`no geometry stored for page ${seg.page}`);
        const items = unpackTextItems(packed, seg.text);
        expect(items?.map((i) => i.at)).toEqual(JSON.parse(seg.item_starts ?? '[]'));
        // A line's items sit on the page, left to right, top down.
        expect(items?.every(({ item }) => item.width > 0 && item.transform[4]! >= 0 && item.transform[5]! > 0 && item.transform[5]! < 792)).toBe(true);
        // Geometry is used only with the text it was joined into.
        expect(services.sources.pageTextItems(sourceId, seg.page!, seg.text.replace(/^./, 'X'))).toBeNull();
      }
    }));

  it('boxes the quote from the stored geometry', () =>
    withWorkspace(async ({ services, sourceId, answerId }) => {
      const before = await excerpt(services, answerId);
      expect(before.boxes).toHaveLength(1);
      // Halve the stored width of the quote's item (its line): the box, made from it, halves too.
      const { seg, packed, starts } = citedPage(services, sourceId);
      const quoteAt = seg.text.indexOf(QUOTE);
      const item = starts.findLastIndex((at) => at <= quoteAt);
      packed[item * ITEM_FIELDS + 8] = packed[item * ITEM_FIELDS + 8]! / 2;
      services.db.prepare('DELETE FROM page_text_items WHERE source_id = ? AND page = 2').run(sourceId);
      services.sources.keepPageTextItems(sourceId, 2, seg.text, packed);

      const after = await excerpt(services, answerId);
      expect(after.boxes).toHaveLength(1);
      expect(after.boxes[0]!.width).toBeCloseTo(before.boxes[0]!.width / 2, 0);
      expect(after.boxes[0]!.y).toBe(before.boxes[0]!.y);
    }));

  it('reads a page ingested before geometry was stored, gives the same excerpt, and keeps its geometry', () =>
    withWorkspace(async ({ services, sourceId, answerId }) => {
      const fromStored = await excerpt(services, answerId);
      services.db.prepare('DELETE FROM page_text_items').run();
      const read = await excerpt(services, answerId);
      expect(read).toEqual(fromStored);
      // The cited page's geometry is kept again, equal to what ingestion stored; the uncited page is left alone.
      expect(storedRows(services)).toEqual([{ source_id: sourceId, page: 2 }]);
      const { seg, packed, starts } = citedPage(services, sourceId);
      expect(unpackTextItems(packed, seg.text)?.length).toBe(starts.length);
    }));
});
