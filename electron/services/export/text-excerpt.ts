/**
 * The evidence excerpt of a quote in a DOCX, HTML, text or Markdown source (issue 9): no image, the
 * block (paragraph) or the lines holding the quote as stored text, with the quote's exact characters
 * marked. A quote over a block break gets its first block's part.
 */
import type { MatchPlace } from '../../../shared/contract/answer-schemas.ts';
import type { ReportTextExcerpt } from '../../../shared/report/schema.ts';
import type { SegmentRow } from '../store/sources-store.ts';

/** Lines of context shown above and below a line-unit quote. */
const CONTEXT_LINES = 1;
/** Longest stretch of context kept on either side, in characters (a very long paragraph is cut). */
const MAX_CONTEXT_CHARS = 600;

const cutBefore = (t: string) => (t.length > MAX_CONTEXT_CHARS ? `…${t.slice(t.length - MAX_CONTEXT_CHARS)}` : t);
const cutAfter = (t: string) => (t.length > MAX_CONTEXT_CHARS ? `${t.slice(0, MAX_CONTEXT_CHARS)}…` : t);

/** Each source's lines by number, made once for all the citations of one export that quote it. */
const linesBySegments = new WeakMap<readonly SegmentRow[], Map<number, string>>();
function linesOf(segments: readonly SegmentRow[]): Map<number, string> {
  let lines = linesBySegments.get(segments);
  if (!lines) {
    lines = new Map<number, string>();
    for (const s of segments) if (s.line_start !== null) s.text.split('\n').forEach((line, i) => lines!.set((s.line_start ?? 1) + i, line));
    linesBySegments.set(segments, lines);
  }
  return lines;
}

/** Null when the stored units the place names are not there. */
export function textExcerpt(place: MatchPlace, segments: readonly SegmentRow[]): ReportTextExcerpt | null {
  if (place.unit === 'block') {
    const block = segments.find((s) => s.paragraph === place.at);
    if (!block) return null;
    const end = place.endAt === place.at ? place.end : (place.firstEnd ?? block.text.length);
    if (end > block.text.length || place.start > end) return null;
    return {
      text: { before: cutBefore(block.text.slice(0, place.start)), quote: block.text.slice(place.start, end), after: cutAfter(block.text.slice(end)) },
      caption: `Paragraph ${place.at}${place.endAt !== place.at ? ` (the quote runs on into paragraph ${place.endAt})` : ''}, the quote marked`,
    };
  }
  if (place.unit === 'line') {
    const lines = linesOf(segments);
    const first = lines.get(place.at);
    const last = lines.get(place.endAt);
    if (first === undefined || last === undefined) return null;
    const range = (a: number, b: number) => {
      const out: string[] = [];
      for (let n = a; n <= b; n++) {
        const l = lines.get(n);
        if (l !== undefined) out.push(l);
      }
      return out;
    };
    const above = range(place.at - CONTEXT_LINES, place.at - 1);
    const below = range(place.endAt + 1, place.endAt + CONTEXT_LINES);
    const quote = place.at === place.endAt ? first.slice(place.start, place.end) : [first.slice(place.start), ...range(place.at + 1, place.endAt - 1), last.slice(0, place.end)].join('\n');
    const before = [...above, first.slice(0, place.start)].join('\n');
    const after = [(place.at === place.endAt ? first : last).slice(place.end), ...below].join('\n');
    return {
      text: { before: cutBefore(before), quote, after: cutAfter(after) },
      caption: place.at === place.endAt ? `Line ${place.at} with the lines around it, the quote marked` : `Lines ${place.at}–${place.endAt} with the lines around them, the quote marked`,
    };
  }
  return null;
}
