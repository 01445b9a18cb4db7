/** Where the parts of a match that runs on into a later segment end and start. */
import type { QuoteMatch } from '../../../shared/anchoring/index.ts';
import type { MatchParts } from './match-place.ts';

/**
 * The end of a run-on match's part in its first segment and the start of its part in the last.
 * A quote over a page break may leave out the running foot, head or page number between them
 * (a page-furniture gap): anchoring reports that gap's text, and its parts' bounds at the segments'
 * edges, so the furniture is found again at the foot of the first segment and the head of the last
 * (the gap's text is whole lines there, joined with "\n") and left out of both parts.
 */
export function runOnParts(m: QuoteMatch): MatchParts | null {
  if (!m.endSegment || m.endOffset === undefined) return null;
  const parts = { firstEnd: m.end, lastStart: m.endStart ?? 0 };
  const gap = m.gaps?.find((g) => g.kind === 'page-furniture')?.text ?? '';
  if (gap === '') return parts;
  const foot = m.segment.text.slice(m.start, m.end).trimEnd();
  const head = m.endSegment.text.slice(parts.lastStart, m.endOffset);
  const headStart = parts.lastStart + head.length - head.trimStart().length;
  // Each split of the gap's text at a line break (or at neither end) into the foot's lines and the head's.
  for (let k = -1; k <= gap.length; k++) {
    if (k >= 0 && k < gap.length && gap[k] !== '\n') continue;
    const inFoot = gap.slice(0, Math.max(k, 0));
    const inHead = gap.slice(Math.min(k + 1, gap.length));
    if (!foot.endsWith(inFoot) || !head.trimStart().startsWith(inHead)) continue;
    const firstEnd = m.start + foot.slice(0, foot.length - inFoot.length).trimEnd().length;
    const rest = m.endSegment.text.slice(headStart + inHead.length, m.endOffset);
    const lastStart = m.endOffset - rest.trimStart().length;
    if (firstEnd > m.start && lastStart < m.endOffset) return { firstEnd, lastStart };
  }
  return parts;
}
