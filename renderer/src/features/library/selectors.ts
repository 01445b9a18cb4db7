import type { IngestResult } from '../../../../shared/contract/schemas.ts';

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
