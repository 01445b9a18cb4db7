/** A chosen candidate as the caller's QuoteMatch: original text, context, gaps. */
import type { MatchGap, QuoteMatch, Segment } from './match-types.ts';
import type { PreparedSegments } from './prepared-segments.ts';
import { type Candidate, candidateFromJoined } from './candidates.ts';
import { CONTEXT_CHARS, surrounding } from './context.ts';

/** The original text of a candidate's range; parts in different segments joined with "\n". */
function candidateText(segments: readonly Segment[], starts: Int32Array | null, c: Candidate): string {
  const seg = segments[c.startSeg] as Segment;
  let text = seg.text.slice(c.start, c.firstEnd);
  if (c.endSeg !== c.startSeg) {
    for (let i = c.startSeg + 1; i < c.endSeg; i++) {
      if ((starts?.[i] ?? -1) >= 0) text += '\n' + (segments[i] as Segment).text;
    }
    text += '\n' + (segments[c.endSeg] as Segment).text.slice(c.endStart, c.end);
  }
  return text;
}

export function toMatch<S extends Segment>(segments: readonly S[], starts: Int32Array | null, c: Candidate, p: PreparedSegments<Segment> | null = null): QuoteMatch<S> {
  const seg = segments[c.startSeg] as S;
  const endSeg = segments[c.endSeg] as S;
  const spans = c.endSeg !== c.startSeg;
  const text = candidateText(segments, starts, c);
  const before = surrounding(seg.text, c.start, c.firstEnd, CONTEXT_CHARS);
  const after = surrounding(endSeg.text, spans ? c.endStart : c.start, c.end, CONTEXT_CHARS);
  const result: QuoteMatch<S> = {
    segmentId: seg.id,
    start: c.start,
    end: c.firstEnd,
    score: c.score,
    method: c.method,
    text,
    errors: c.errors,
    prefix: before.prefix,
    suffix: after.suffix,
    segment: seg,
  };
  if (typeof seg.page === 'number') result.page = seg.page;
  if (spans) {
    result.endSegmentId = endSeg.id;
    result.endStart = c.endStart;
    result.endOffset = c.end;
    result.endSegment = endSeg;
    if (typeof endSeg.page === 'number') result.endPage = endSeg.page;
  }
  if (c.gaps && p) {
    const gaps: MatchGap[] = [];
    for (const g of c.gaps) {
      const gc = candidateFromJoined(p, g.ja, g.jb, c.method, 0, 1);
      let text = gc ? candidateText(segments, starts, gc) : '';
      // A line-end hyphen before the furniture belongs to the word the quote joins.
      if (g.kind === 'page-furniture') text = text.replace(/^[-\u00AD\u2010][^\S\n]*(?:\n|$)/, '');
      gaps.push(g.mark ? { kind: g.kind, text, mark: g.mark } : { kind: g.kind, text });
    }
    result.gaps = gaps;
  }
  if (c.mismatch) result.numberMismatch = c.mismatch;
  return result;
}
