import type { IngestResult, SourceSummary } from '../../../../shared/contract/schemas.ts';

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
  if (s.kind === 'docx' || s.kind === 'html') {
    return { label: `${s.segmentCount} ¶`, title: `${s.segmentCount} ${s.segmentCount === 1 ? 'block' : 'blocks'} (paragraphs, list items, table cells)` };
  }
  return { label: '—', title: 'Text: cited by line' };
}
