/** A stored segment as the anchoring engine sees it, with what locators and notes need. */
import type { Segment } from '../../../shared/anchoring/index.ts';
import type { SegmentRow } from '../store/sources-store.ts';

export interface AnchorSegment extends Segment {
  id: number;
  text: string;
  page: number | null;
  ordinal: number;
  pageLabel: string | null;
  paragraph: number | null;
  lineStart: number | null;
  sourceId: number;
  /** The text was recognised by OCR (a scanned page), with this mean word confidence. */
  ocrConfidence?: number | null;
}

export function toAnchorSegment(row: SegmentRow): AnchorSegment {
  return {
    id: row.id,
    text: row.text,
    page: row.page,
    ordinal: row.ordinal,
    pageLabel: row.page_label,
    paragraph: row.paragraph,
    lineStart: row.line_start,
    sourceId: row.source_id,
    ...(row.ocr_method != null ? { ocrConfidence: row.ocr_confidence ?? null } : {}),
  };
}

/** The line of `offset` in a text segment (its first line when the segment carries no lines). */
export function lineOf(seg: { lineStart: number | null; text: string }, offset: number): number {
  let n = seg.lineStart ?? 1;
  for (let i = 0; i < offset && i < seg.text.length; i++) if (seg.text.charCodeAt(i) === 10) n++;
  return n;
}
