import type { SourceSort, SortDirection } from '../../../../shared/contract/list-schemas.ts';
import type { SourceKind } from '../../../../shared/contract/schemas.ts';

const KIND_NAMES: Record<SourceKind, string> = { pdf: 'PDF', docx: 'Word (DOCX)', text: 'Text', markdown: 'Markdown', html: 'Web page (HTML)', pptx: 'PowerPoint (PPTX)', xlsx: 'Excel (XLSX)' };

export function kindName(kind: SourceKind): string {
  return KIND_NAMES[kind];
}

/** The library's sorts in words, each a key and a direction. */
export const SORT_CHOICES: readonly { value: string; label: string; sort: SourceSort; dir: SortDirection }[] = [
  { value: 'added-desc', label: 'Newest first', sort: 'added', dir: 'desc' },
  { value: 'added-asc', label: 'Oldest first', sort: 'added', dir: 'asc' },
  { value: 'name-asc', label: 'Name A–Z', sort: 'name', dir: 'asc' },
  { value: 'name-desc', label: 'Name Z–A', sort: 'name', dir: 'desc' },
  { value: 'size-desc', label: 'Largest first', sort: 'size', dir: 'desc' },
  { value: 'size-asc', label: 'Smallest first', sort: 'size', dir: 'asc' },
  { value: 'kind-asc', label: 'By kind', sort: 'kind', dir: 'asc' },
];

export function sortChoiceOf(q: { sort: SourceSort; dir: SortDirection }): string {
  return `${q.sort}-${q.dir}`;
}

/** Where a key moves the active row of a list of `total` rows (null: not a moving key). */
export function moveIndex(key: string, current: number, total: number, pageRows: number): number | null {
  if (total === 0) return null;
  const last = total - 1;
  const to =
    key === 'ArrowDown' || key === 'j' ? current + 1
    : key === 'ArrowUp' || key === 'k' ? current - 1
    : key === 'PageDown' ? current + pageRows
    : key === 'PageUp' ? current - pageRows
    : key === 'Home' ? 0
    : key === 'End' ? last
    : null;
  return to === null ? null : Math.max(0, Math.min(last, to));
}
