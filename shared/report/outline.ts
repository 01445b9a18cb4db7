/**
 * The report's outline (the PDF's bookmarks): its sections in order and, under "Citations", one
 * entry per citation, each naming the HTML element id it points at. The HTML report links to
 * every one of these ids (the contents line links the sections, the answer's markers and the
 * unmarked list link the citations), and a link target is what Chromium turns into a named
 * destination of the printed PDF; the export writes this outline onto those destinations
 * (pdf-outline.ts), which is much cheaper than Chromium's tagged-PDF outline.
 */
import { readingOrder } from './reading-order.ts';
import type { Report } from './schema.ts';

export interface OutlineEntry {
  title: string;
  /** The id of the element it points at (a named destination in the PDF); null: the top of the first page. */
  target: string | null;
  children: OutlineEntry[];
}

/** The report's sections, in the order the HTML shows them: element id and heading. */
export const REPORT_SECTIONS = [
  { id: 'h-answer', title: 'Answer' },
  { id: 'h-summary', title: 'Summary' },
  { id: 'h-unresolved', title: 'Unresolved citations' },
  { id: 'h-citations', title: 'Citations' },
  { id: 'h-sources', title: 'Sources' },
  { id: 'h-provenance', title: 'Provenance' },
] as const;

/** The heading of footnote `n` (the HTML's h3 text and its outline title). */
export const citationHeading = (n: number, marker: string): string => `${n}. Citation [${marker}]`;

/** The report's title heading (h1) over its sections, as Chromium's own outline of the report had it. */
export function reportOutline(report: Pick<Report, 'answer' | 'citations'>): OutlineEntry[] {
  const { notes } = readingOrder(report);
  const sections = REPORT_SECTIONS.map((s) => ({
    title: s.title,
    target: s.id,
    children: s.id === 'h-citations' ? notes.map((c, i) => ({ title: citationHeading(i + 1, c.marker), target: `note-${i + 1}`, children: [] })) : [],
  }));
  return [{ title: 'Verified report', target: null, children: sections }];
}
