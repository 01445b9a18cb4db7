/**
 * The report as CSV: one row per citation in the report, RFC 4180 (CRLF records, fields quoted
 * when they hold a comma, quote or line break), UTF-8 with a byte order mark so spreadsheet apps
 * read the encoding right. Written by csv-stringify, not by hand.
 *
 * A text cell a spreadsheet would run as a formula (starting with = + - @, a tab or a carriage
 * return: "CSV injection") gets a leading apostrophe, which spreadsheets hide and show the text
 * as written. The JSON export is the lossless one; `unguardCsvCell` undoes the guard.
 */
import { stringify } from 'csv-stringify/sync';
import { readingOrder } from '../../../shared/report/reading-order.ts';
import type { Report, ReportCitation } from '../../../shared/report/schema.ts';
import { claimedWords } from '../../../shared/report/words.ts';
import { linksOf } from '../../../shared/report/report-links.ts';

export const CSV_COLUMNS = [
  'footnote',
  'citation',
  'marker',
  'claim',
  'quote',
  'source_id',
  'source_title',
  'source_file',
  'source_sha256',
  'unknown_source',
  'status',
  'verdict',
  'score',
  'unit',
  'page',
  'page_label',
  'end_page',
  'block',
  'end_block',
  'line',
  'end_line',
  'start',
  'end',
  'match_method',
  'matched_text',
  'claimed_location',
  'context',
  'notes',
  'decision',
  'decision_note',
  'decided_at',
  'reviewer',
  'decision_history',
  // Issue 17: the citation link, and the original file's link or why there is none.
  'link',
  'file_link',
] as const;
export type CsvColumn = (typeof CSV_COLUMNS)[number];

const FORMULA_START = /^[=+\-@\t\r]/;

/** A text cell as a spreadsheet will show it, never run it. */
export function guardCsvCell(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}

/** The text a guarded cell stands for. */
export function unguardCsvCell(cell: string): string {
  return cell.startsWith("'") && FORMULA_START.test(cell.slice(1)) ? cell.slice(1) : cell;
}

function row(n: number, c: ReportCitation, report: Report): Record<CsvColumn, string | number> {
  const s = c.source ? report.sources.find((x) => x.id === c.source) : undefined;
  const m = c.match;
  const r = c.review;
  const links = linksOf(c, s);
  const text = (v: string | null | undefined): string => guardCsvCell(v ?? '');
  const num = (v: number | null | undefined): number | string => (v === null || v === undefined ? '' : v);
  return {
    footnote: n,
    citation: c.id,
    marker: text(c.marker),
    claim: text(c.claim),
    quote: text(c.quote),
    source_id: c.source ?? '',
    source_title: text(s?.title),
    source_file: text(s?.fileName),
    source_sha256: s?.sha256 ?? '',
    unknown_source: text(c.unknownSource),
    status: c.status,
    verdict: c.verdict,
    score: c.score,
    unit: m?.unit ?? '',
    page: num(m?.page),
    page_label: text(m?.pageLabel),
    end_page: num(m?.endPage),
    block: num(m?.block),
    end_block: num(m?.endBlock),
    line: num(m?.line),
    end_line: num(m?.endLine),
    start: num(m?.start),
    end: num(m?.end),
    match_method: m?.method ?? '',
    matched_text: text(m?.text),
    claimed_location: text(claimedWords(c)),
    context: text(c.context),
    notes: text(c.notes.join('\n')),
    decision: r.decision,
    decision_note: text(r.note),
    decided_at: r.at ?? '',
    reviewer: text(r.reviewer),
    // One line per row of the trail, oldest first: "time decision by reviewer: note".
    decision_history: text(r.history.map((e) => `${e.at} ${e.decision}${e.reviewer ? ` by ${e.reviewer}` : ''}${e.note ? `: ${e.note}` : ''}`).join('\n')),
    link: text(links.desk),
    file_link: text(links.file ? (links.file.href ?? links.file.words) : ''),
  };
}

/** The CSV text, starting with the UTF-8 byte order mark (U+FEFF); rows in footnote order. */
export function renderCsv(report: Report): string {
  const order = readingOrder(report);
  return stringify(
    order.notes.map((c, i) => row(i + 1, c, report)),
    { header: true, columns: [...CSV_COLUMNS], bom: true, record_delimiter: 'windows', quoted_match: /^\s|\s$/, cast: { number: (v) => String(v) } },
  );
}
