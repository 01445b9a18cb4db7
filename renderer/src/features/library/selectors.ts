import type { IngestResult, SkippedEntry, SourceSummary } from '../../../../shared/contract/schemas.ts';
import type { IngestProgress, IngestWalk } from '../../../../shared/contract/events.ts';
import { skippedSentence } from '../../../../shared/domain/skipped.ts';
import { countWords } from '../../../../shared/text/count-words.ts';

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}

export function ingestSummary(result: IngestResult): string {
  const added = result.files.filter((f) => f.ok && f.outcome === 'added').length;
  const dup = result.files.filter((f) => f.ok && f.outcome === 'duplicate').length;
  const versions = result.files.filter((f) => f.ok && f.outcome === 'new_version').length;
  const failed = result.files.filter((f) => !f.ok).length;
  const parts = [`${added} added`];
  if (versions) parts.push(`${versions} new versions`);
  if (dup) parts.push(`${dup} already present`);
  if (failed) parts.push(`${failed} failed`);
  if (result.skipped.length) parts.push(`${result.skipped.length} skipped`);
  const summary = parts.join(', ');
  return result.cancelled ? `Cancelled: ${summary}; the files not reached were not ingested.` : summary;
}

/** What the library's Length column shows: pages for PDFs, blocks for DOCX and HTML; text is located by line, not counted in segments. */
export function sourceExtent(s: Pick<SourceSummary, 'kind' | 'pageCount' | 'segmentCount'>): { label: string; title: string } {
  if (s.kind === 'pdf') {
    const pages = s.pageCount ?? s.segmentCount;
    return { label: `${pages} pp.`, title: `${pages} ${pages === 1 ? 'page' : 'pages'}` };
  }
  if (s.kind === 'pptx') {
    const slides = s.pageCount ?? 0;
    return { label: `${slides} slides`, title: `${slides} ${slides === 1 ? 'slide' : 'slides'}, ${s.segmentCount} text blocks (titles, text boxes, table cells, notes)` };
  }
  if (s.kind === 'xlsx') {
    return { label: `${s.segmentCount} cells`, title: `${s.segmentCount} filled ${s.segmentCount === 1 ? 'cell' : 'cells'}, each cited by sheet and address` };
  }
  if (s.kind === 'docx' || s.kind === 'html') {
    return { label: `${s.segmentCount} ¶`, title: `${s.segmentCount} ${s.segmentCount === 1 ? 'block' : 'blocks'} (paragraphs, list items, table cells)` };
  }
  return { label: '—', title: 'Text: cited by line' };
}

/** Skipped entries as sentences, the first `limit` of them, and how many more there are. */
export function skippedLines(skipped: readonly SkippedEntry[], limit = 20): { lines: { key: string; text: string; title: string }[]; more: number } {
  const lines = skipped.slice(0, limit).map((k) => ({
    key: `${k.reason}:${k.path}`,
    text: skippedSentence(k),
    // The path (and where a link leads) and the code, for whoever needs them.
    title: `${k.path}${k.target !== undefined ? ` → ${k.target}` : ''} [${k.reason}]`,
  }));
  return { lines, more: Math.max(0, skipped.length - limit) };
}

/** The progress line: the walk while it has found nothing yet, else the file being ingested. */
export function progressLine(progress: IngestProgress | null, walk: Pick<IngestWalk, 'entries' | 'files' | 'done'> | null): string | null {
  const n = countWords;
  const looking = walk && !walk.done ? `Looking through folders: ${n(walk.entries)} ${walk.entries === 1 ? 'entry' : 'entries'} so far` : null;
  if (!progress) return looking;
  const of = progress.walking && walk && !walk.done ? `${n(Math.max(progress.fileCount, walk.files))} found so far` : n(progress.fileCount);
  const page = progress.page !== undefined && progress.pageCount ? ` page ${n(progress.page)} of ${n(progress.pageCount)}` : '';
  // A scan's page takes seconds to read: say what the wait is for.
  const phase = progress.ocr ? 'reading a scanned page (OCR),' : progress.phase;
  return `File ${n(progress.fileIndex + 1)} of ${of}: ${phase}${page}`;
}
