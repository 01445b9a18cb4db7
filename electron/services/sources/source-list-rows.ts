/**
 * The library's pages and counts over rows already read (issue 13): a shared workspace's desk
 * reads its sources through the store interface (SourcesArea.list) and pages them here, with the
 * same filter, sorts and keyset cursors the local SQL paging has. A cursor is the last row's id:
 * sources are never deleted, so the row it names is always there to continue after.
 */
import type { z } from 'zod';
import type { HandlerOutput } from '../../../shared/contract/contract.ts';
import { AppError } from '../../../shared/contract/errors.ts';
import type { SourceFilter, SourceListSummaryInput, SourcePageInput, SourceSort, SortDirection } from '../../../shared/contract/list-schemas.ts';
import type { Health, SourceSummary } from '../../../shared/contract/schemas.ts';
import type { SourceRow } from '../store/evidence-store.ts';

type Order = { sort: SourceSort; dir: SortDirection };

const KEY: Record<SourceSort, (r: SourceRow) => string | number> = {
  added: (r) => r.added_at,
  name: (r) => r.file_name.toLowerCase(),
  size: (r) => r.byte_size,
  kind: (r) => r.kind,
};

function matches(r: SourceRow, filter: SourceFilter): boolean {
  const hay = `${r.file_name}\n${r.title ?? ''}`.toLowerCase();
  const words = (filter.text ?? '').toLowerCase().split(/\s+/).filter(Boolean);
  if (!words.every((w) => hay.includes(w))) return false;
  if (filter.kind !== undefined && r.kind !== filter.kind) return false;
  if (filter.restricted !== undefined && (r.restricted === 1) !== filter.restricted) return false;
  return true;
}

/** The filtered rows in the list's order (ties broken by id, in the same direction). */
function ordered(rows: readonly SourceRow[], filter: SourceFilter, order: Order): SourceRow[] {
  const key = KEY[order.sort];
  const sign = order.dir === 'asc' ? 1 : -1;
  return rows
    .filter((r) => matches(r, filter))
    .sort((a, b) => {
      const ka = key(a);
      const kb = key(b);
      return sign * (ka < kb ? -1 : ka > kb ? 1 : a.id - b.id);
    });
}

function startAfter(list: readonly SourceRow[], after: string | undefined): number {
  if (after === undefined) return 0;
  const id = Number(after);
  if (!Number.isInteger(id) || id <= 0) throw new AppError('INVALID_INPUT', 'The page cursor is not one this list gave.', { field: 'after' });
  // A row the filter no longer shows: the list starts again from the top rather than skipping rows.
  return list.findIndex((r) => r.id === id) + 1;
}

export function sourcePageOf(rows: readonly SourceRow[], input: z.output<typeof SourcePageInput>, summarize: (r: SourceRow) => SourceSummary): HandlerOutput<'sources.page'> {
  const list = ordered(rows, input.filter, input);
  const from = startAfter(list, input.after);
  const page = list.slice(from, from + input.limit);
  const last = page[page.length - 1];
  return {
    rows: page.map((r) => ({ source: summarize(r), cursor: String(r.id) })),
    next: last && from + input.limit < list.length ? String(last.id) : null,
  };
}

export function sourceListSummaryOf(
  rows: readonly SourceRow[],
  input: z.output<typeof SourceListSummaryInput>,
  healthOf: (id: number) => Health,
): HandlerOutput<'sources.listSummary'> {
  const list = ordered(rows, input.filter, input);
  const kinds = new Map<SourceRow['kind'], number>();
  const health = { ok: 0, modified: 0, missing: 0, unchecked: 0 };
  const attention: { id: number; health: 'missing' | 'modified' }[] = [];
  for (const r of rows) {
    kinds.set(r.kind, (kinds.get(r.kind) ?? 0) + 1);
    const h = healthOf(r.id);
    health[h] += 1;
    if (h === 'missing' || h === 'modified') attention.push({ id: r.id, health: h });
  }
  const pageStarts: (string | null)[] = [null];
  for (let i = input.pageSize; i < list.length; i += input.pageSize) pageStarts.push(String(list[i - 1]?.id));
  return {
    total: list.length,
    all: rows.length,
    kinds: [...kinds].map(([kind, count]) => ({ kind, count })),
    restricted: rows.filter((r) => r.restricted === 1).length,
    health,
    attention: attention.sort((a, b) => a.id - b.id),
    pageSize: input.pageSize,
    pageStarts,
  };
}
