/**
 * One entry point from a report model to the text of an export file, for the export service and
 * the command line (`--format md|html|json|csv|bib`). PDF is the HTML printed by Chromium, done by
 * the service, not here.
 */
import { renderHtml } from '../../../shared/report/html.ts';
import { reportToJson } from '../../../shared/report/json.ts';
import { renderMarkdown } from '../../../shared/report/markdown.ts';
import type { Report } from '../../../shared/report/schema.ts';
import { renderBibliography, type BibliographyStyle } from './bibliography.ts';
import { renderCsv } from './report-csv.ts';

export const TEXT_REPORT_FORMATS = ['md', 'html', 'json', 'csv', 'bib'] as const;
export type TextReportFormat = (typeof TEXT_REPORT_FORMATS)[number];

export interface RenderedReport {
  content: string;
  /** The file name extension, without the dot. */
  extension: string;
  mimeType: string;
}

/** The export file's text; `bibStyle` chooses the bibliography (BibTeX unless told). */
export async function renderReport(report: Report, format: TextReportFormat, bibStyle: BibliographyStyle = 'bibtex'): Promise<RenderedReport> {
  switch (format) {
    case 'md':
      return { content: renderMarkdown(report), extension: 'md', mimeType: 'text/markdown; charset=utf-8' };
    case 'html':
      return { content: renderHtml(report), extension: 'html', mimeType: 'text/html; charset=utf-8' };
    case 'json':
      return { content: reportToJson(report), extension: 'json', mimeType: 'application/json' };
    case 'csv':
      return { content: renderCsv(report), extension: 'csv', mimeType: 'text/csv; charset=utf-8; header=present' };
    case 'bib':
      return bibStyle === 'bibtex'
        ? { content: await renderBibliography(report, 'bibtex'), extension: 'bib', mimeType: 'application/x-bibtex; charset=utf-8' }
        : { content: await renderBibliography(report, bibStyle, 'text'), extension: 'txt', mimeType: 'text/plain; charset=utf-8' };
  }
}
