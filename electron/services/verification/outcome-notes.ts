/** How a citation's outcome is explained: locators in words, where a match is, what it leaves out, a word diff. */
import { wordDiff, type QuoteMatch } from '../../../shared/anchoring/index.ts';
import type { ClaimedLocator } from '../../../shared/imports/model.ts';
import { OCR_NOTE_PREFIX } from '../../../shared/ocr/ocr-text.ts';
import { lineOf, type AnchorSegment } from './anchor-segment.ts';

function pageWord(m: { page?: number; endPage?: number }): string {
  if (m.page === undefined) return '';
  return m.endPage !== undefined && m.endPage !== m.page ? `pp. ${m.page}–${m.endPage}` : `p. ${m.page}`;
}

export function describeLocator(l: ClaimedLocator): string {
  const parts: string[] = [];
  if (l.page !== undefined) parts.push(l.pageEnd !== undefined && l.pageEnd !== l.page ? `pp. ${l.page}–${l.pageEnd}` : `p. ${l.page}`);
  else if (l.pageLabel !== undefined) parts.push(`p. ${l.pageLabel}`);
  if (l.paragraph !== undefined) parts.push(`¶ ${l.paragraph}`);
  if (l.line !== undefined) parts.push(l.lineEnd !== undefined && l.lineEnd !== l.line ? `lines ${l.line}–${l.lineEnd}` : `line ${l.line}`);
  if (l.section !== undefined) parts.push(`§ ${l.section}`);
  return parts.join(', ');
}

export function whereIs(m: QuoteMatch<AnchorSegment>): string {
  const seg = m.segment;
  if (m.page !== undefined) return pageWord(m);
  if (seg.lineStart !== null) return `line ${lineOf(seg, m.start)}`;
  if (seg.paragraph !== null) return `¶ ${seg.paragraph}`;
  return `passage ${seg.ordinal + 1}`;
}

const clip = (t: string, n: number): string => (t.length > n ? `${t.slice(0, n - 1)}…` : t);

/** What the quote leaves out or changes: its elisions and bracketed stand-ins, editorial marks, the page furniture it runs over. */
export function gapNotes(m: QuoteMatch<AnchorSegment>): string[] {
  const gaps = m.gaps ?? [];
  const out: string[] = [];
  const altered = gaps.filter((g) => g.kind === 'alteration');
  if (altered.length > 0) {
    const pairs = altered.map((g) => {
      const source = g.text.replace(/\s+/g, ' ').trim();
      return `${g.mark ?? '[…]'} for ${source ? `"${clip(source, 60)}"` : 'nothing (an insertion)'}`;
    });
    out.push(`the quote puts its own words in brackets where the source has other text: ${pairs.join('; ')}`);
  }
  const marks = (m.editorialMarks ?? []).filter((mark) => !altered.some((g) => g.mark?.includes(mark)));
  if (marks.length > 0) out.push(`editorial marks of the quote set aside (they are no text of the source): ${marks.map((x) => clip(x, 60)).join(', ')}`);
  const elided = gaps.filter((g) => g.kind === 'elision');
  if (elided.length > 0) {
    const sizes = elided.map((g) => g.text.replace(/\s+/g, ' ').trim().length);
    out.push(`the quote leaves out text in ${elided.length === 1 ? 'one place' : `${elided.length} places`} (${sizes.map((n) => `${n} characters`).join(', ')}); its parts were found in order`);
  }
  const skipped = gaps
    .filter((g) => g.kind === 'page-furniture')
    .map((g) => g.text.replace(/\s+/g, ' ').trim())
    .filter((t) => /[\p{L}\p{N}]/u.test(t));
  if (skipped.length > 0) out.push(`the quote runs over the page break; the running head / foot between its parts was skipped: "${skipped.join('" · "').slice(0, 160)}"`);
  return out;
}

export function diffNote(quote: string, found: string): string | null {
  const parts = wordDiff(quote, found).filter((p) => p.op !== 'equal');
  if (parts.length === 0) return null;
  const shown = parts.slice(0, 6).map((p) => `${p.op === 'delete' ? '−' : '+'}"${p.text.length > 60 ? `${p.text.slice(0, 57)}…` : p.text}"`);
  return `differences (quote → source): ${shown.join(' ')}${parts.length > 6 ? ' …' : ''}`;
}

/**
 * A match on a scanned page is a match on OCR text: a difference there may be the scan's misreading,
 * not the quoter's (DESIGN.md §11), and the analyst should look at the page image.
 */
export function ocrNote(m: QuoteMatch<AnchorSegment>): string | null {
  const parts = [m.segment, ...(m.endSegment ? [m.endSegment] : [])].filter((s) => s.ocrConfidence !== undefined);
  if (parts.length === 0) return null;
  const confidences = parts.map((s) => s.ocrConfidence).filter((c): c is number => typeof c === 'number');
  const confidence = confidences.length > 0 ? ` (recognition confidence ${Math.round(Math.min(...confidences))}%)` : '';
  const exact = m.method !== 'fuzzy' ? '' : '; differences may be misreadings of the scan rather than of the quote: check the highlighted page image';
  return `${OCR_NOTE_PREFIX} of a scanned page${confidence}${exact}`;
}
