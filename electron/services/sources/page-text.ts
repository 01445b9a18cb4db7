/**
 * A source's row and one page's stored text, read through the store interface of the engine in
 * use (issue 13): the local desk and a shared workspace's answer `sources.get` and
 * `sources.pageText` with the same words and codes.
 */
import type { HandlerOutput } from '../../../shared/contract/contract.ts';
import { AppError } from '../../../shared/contract/errors.ts';
import { findInPages } from '../../../shared/search/find-in-pages.ts';
import type { SourceRow, SourcesArea } from '../store/evidence-store.ts';

/** The source, or SOURCE_NOT_FOUND naming the id. */
export async function storedSourceRow(sources: Pick<SourcesArea, 'get'>, id: number): Promise<SourceRow> {
  const row = await sources.get(id);
  if (!row) throw new AppError('SOURCE_NOT_FOUND', `There is no source with id ${id} in this workspace.`);
  return row;
}

/** A PDF page's text with its item offsets and OCR words; SEGMENT_NOT_FOUND for a page the source lacks. */
export async function pageTextOf(sources: Pick<SourcesArea, 'get' | 'pageSegment'>, id: number, page: number): Promise<HandlerOutput<'sources.pageText'>> {
  const [row, seg] = await Promise.all([storedSourceRow(sources, id), sources.pageSegment(id, page)]);
  if (!seg) {
    throw new AppError('SEGMENT_NOT_FOUND', `${row.file_name} has no page ${page}${row.page_count ? ` (it has ${row.page_count})` : ''}.`);
  }
  return {
    sourceId: id,
    page,
    pageLabel: seg.page_label,
    text: seg.text,
    itemStarts: seg.item_starts ? (JSON.parse(seg.item_starts) as number[]) : [],
    noTextLayer: seg.no_text_layer === 1,
    ocr: seg.ocr_method === null ? null : { method: seg.ocr_method, confidence: seg.ocr_confidence, boxes: seg.ocr_boxes ? (JSON.parse(seg.ocr_boxes) as [number, number, number, number][]) : [] },
  };
}

/**
 * The viewer's find over a source's stored pages, through the store interface (the shared desk):
 * the same pages in the same order as the local desk's `pageTexts`, so the same hits.
 */
export async function findInSourceOf(sources: Pick<SourcesArea, 'get' | 'segments'>, id: number, query: string, limit: number): Promise<HandlerOutput<'sources.find'>> {
  const [, segments] = await Promise.all([storedSourceRow(sources, id), sources.segments(id)]);
  const pages = segments.flatMap((s) => (s.page === null ? [] : [{ page: s.page, label: s.page_label, text: s.text }]));
  return findInPages(pages, query, limit);
}
