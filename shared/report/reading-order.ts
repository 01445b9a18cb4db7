/**
 * The order a reader meets the citations in, shared by the renderers: the answer text cut at its
 * marker groups, each included citation numbered 1, 2, … at its first appearance (a citation the
 * text never points at is numbered after those it does), so footnotes are contiguous and complete.
 */
import type { Report, ReportCitation } from './schema.ts';

export type AnswerPiece =
  | { kind: 'text'; text: string }
  /** One label of a marker group: its footnote number, or null when the report has no citation for it. */
  | { kind: 'marker'; label: string; note: number | null };

export interface ReadingOrder {
  pieces: AnswerPiece[];
  /** Included citations in footnote order; footnote n is notes[n - 1]. */
  notes: ReportCitation[];
  /** Footnote numbers of the citations no marker in the text points at. */
  unmarked: number[];
  numberOf: Map<string, number>;
}

export function readingOrder(report: Pick<Report, 'answer' | 'citations'>): ReadingOrder {
  const byId = new Map(report.citations.map((c) => [c.id, c]));
  const numberOf = new Map<string, number>();
  const notes: ReportCitation[] = [];
  const number = (id: string): number => {
    const known = numberOf.get(id);
    if (known !== undefined) return known;
    const c = byId.get(id);
    if (!c) throw new Error(`report: marker points at ${id}, which the report lacks`);
    notes.push(c);
    numberOf.set(id, notes.length);
    return notes.length;
  };
  const pieces: AnswerPiece[] = [];
  const text = report.answer.text;
  let at = 0;
  report.answer.markers.forEach((m, group) => {
    if (m.start < at || m.end > text.length || m.end < m.start) throw new Error(`report: marker ${group + 1} lies outside the answer text`);
    if (m.start > at) pieces.push({ kind: 'text', text: text.slice(at, m.start) });
    m.labels.forEach((label, i) => {
      const ref = m.citations[i] ?? null;
      pieces.push({ kind: 'marker', label, note: ref === null ? null : number(ref) });
    });
    at = m.end;
  });
  if (at < text.length) pieces.push({ kind: 'text', text: text.slice(at) });
  const unmarked: number[] = [];
  for (const c of report.citations) if (!numberOf.has(c.id)) unmarked.push(number(c.id));
  return { pieces, notes, unmarked, numberOf };
}
