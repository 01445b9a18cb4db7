// Pure logic of the export dialog: the formats as analysts read them and what to say when done.
// No DOM here (test/unit/reports tests it).
import type { ExportProgress } from '../../../../shared/contract/events.ts';
import type { ExportFormat, ExportResult } from '../../../../shared/contract/export-schemas.ts';
import { countWords } from '../../../../shared/text/count-words.ts';

export type BibStyleName = 'apa' | 'harvard' | 'ieee' | 'bibtex';

export const FORMAT_CHOICES: readonly { format: ExportFormat; label: string; hint: string }[] = [
  { format: 'html', label: 'HTML', hint: 'A self-contained page to read or share; opens in any browser.' },
  { format: 'pdf', label: 'PDF', hint: 'The HTML report printed to PDF.' },
  { format: 'md', label: 'Markdown', hint: 'The answer with footnotes, for documents and wikis.' },
  { format: 'json', label: 'JSON', hint: 'Everything in the report, machine-readable; it can be checked against the workspace later.' },
  { format: 'csv', label: 'CSV', hint: 'One row per citation, for spreadsheets.' },
  { format: 'bib', label: 'Bibliography', hint: 'The cited sources, in the style chosen.' },
];

export const STYLE_CHOICES: readonly { style: BibStyleName; label: string }[] = [
  { style: 'bibtex', label: 'BibTeX' },
  { style: 'apa', label: 'APA' },
  { style: 'harvard', label: 'Harvard' },
  { style: 'ieee', label: 'IEEE' },
];

/** The file name of a path, whichever separator the platform uses. */
export function baseName(filePath: string): string {
  return filePath.split(/[\\/]/).pop() ?? filePath;
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** One sentence on what was written, then what the analyst should know about it. */
export function doneSummary(result: ExportResult): string {
  const { total, included, unresolved, missingSources } = result.summary;
  const parts = [`Saved ${baseName(result.path)} (${formatBytes(result.bytes)}) with ${included} of ${plural(total, 'citation')}.`];
  if (result.verifiedFirst) parts.push('The answer had not been verified, so it was verified first.');
  if (unresolved > 0) parts.push(`${plural(unresolved, 'citation')} still need${unresolved === 1 ? 's' : ''} a decision.`);
  if (missingSources > 0) parts.push(`${plural(missingSources, 'source')} ${missingSources === 1 ? 'was' : 'were'} missing; the report uses the workspace's snapshot.`);
  return parts.join(' ');
}

/** What a running export is doing, in a sentence, from its latest progress event. */
export function progressSentence(progress: ExportProgress | null, format: ExportFormat): string {
  switch (progress?.phase) {
    case 'verifying':
      return 'Verifying the answer first: it has no verification yet…';
    case 'checking':
      return 'Checking that the source files are unchanged…';
    case 'excerpts':
      return `Making the evidence excerpts: ${countWords(progress.done)} of ${countWords(progress.total)} citation${progress.total === 1 ? '' : 's'} done…`;
    case 'rendering':
      return 'Putting the report together…';
    case 'printing':
      return 'Printing the PDF from the HTML report…';
    case 'writing':
      return 'Saving the file…';
    default:
      return format === 'pdf' ? 'Starting the export. A PDF takes a little longer: it is printed from the HTML report…' : 'Starting the export…';
  }
}
