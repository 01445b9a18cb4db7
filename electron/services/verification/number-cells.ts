/**
 * Table and spreadsheet cells compared as numbers (issue 14): a quote that is only a figure ("1200",
 * "$1,200", "1,200.00") is the cell whose shown text states the same number ("1,200"), though the
 * characters differ. Whole cells only: a figure inside running text is left to the text matchers.
 */
import type { QuoteMatch } from '../../../shared/anchoring/index.ts';
import { sameNumber, statedNumber } from '../../../shared/domain/sheet-cells.ts';
import type { SegmentRow } from '../store/sources-store.ts';
import { toAnchorSegment, type AnchorSegment } from './anchor-segment.ts';

/** Whether a quote is a figure and nothing else, so worth comparing with cells as a number. */
export const isFigure = (quote: string): boolean => statedNumber(quote) !== null;

/** The cell stating the quote's number, a claimed one first; null when none does. */
export function numberCellMatch(quote: string, cells: readonly SegmentRow[], claimedIds: readonly (number | string)[]): QuoteMatch<AnchorSegment> | null {
  const claimed = new Set(claimedIds.map(String));
  const hits = cells.filter((c) => sameNumber(quote, c.text.trim()));
  const cell = hits.find((c) => claimed.has(String(c.id))) ?? hits[0];
  if (!cell) return null;
  const start = cell.text.length - cell.text.trimStart().length;
  const end = cell.text.trimEnd().length;
  return {
    segmentId: cell.id,
    start,
    end,
    // The same figure written another way: a normalised match, as for "1,200" against "1 200".
    score: 1,
    method: 'normalised',
    text: cell.text.slice(start, end),
    errors: 0,
    ...(cell.page !== null ? { page: cell.page } : {}),
    prefix: '',
    suffix: '',
    segment: toAnchorSegment(cell),
  };
}
