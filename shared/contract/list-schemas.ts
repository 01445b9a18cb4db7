import { z } from 'zod';
import { SourceKind, SourceSummary } from './schemas.ts';

/**
 * The list contract (issue 16): a list call takes a filter, a sort and a keyset cursor, never an
 * offset, so a page costs the same at row 10 as at row 100,000 and rows inserted meanwhile neither
 * repeat nor push others out. A cursor is opaque to callers: the key of the last row they hold.
 */
export const PageCursor = z.string().min(1).max(2048);
export type PageCursor = z.infer<typeof PageCursor>;

export const SortDirection = z.enum(['asc', 'desc']);
export type SortDirection = z.infer<typeof SortDirection>;

/** How many rows a page may hold: enough to fill a tall window, small enough to stay cheap. */
export const MAX_PAGE_ROWS = 1000;
export const PageLimit = z.number().int().min(1).max(MAX_PAGE_ROWS);

/**
 * A page of a keyset list: its rows, each with the fields of `row` and its own cursor, and the
 * cursor to ask for the next page with (null when this page is the last).
 */
export function keysetPage<Row extends z.ZodRawShape>(row: Row) {
  return z.object({
    rows: z.array(z.object({ ...row, cursor: PageCursor })),
    next: PageCursor.nullable(),
  });
}

export const SourceSort = z.enum(['added', 'name', 'size', 'kind']);
export type SourceSort = z.infer<typeof SourceSort>;

/** What narrows the library: words of the file name or title, a kind, the restricted flag. */
export const SourceFilter = z.object({
  text: z.string().trim().max(500).optional(),
  kind: SourceKind.optional(),
  restricted: z.boolean().optional(),
});
export type SourceFilter = z.infer<typeof SourceFilter>;

export const SourceOrder = z.object({ sort: SourceSort.default('added'), dir: SortDirection.default('desc') });
export type SourceOrder = z.input<typeof SourceOrder>;

export const SourcePageInput = SourceOrder.extend({
  filter: SourceFilter.default({}),
  limit: PageLimit.default(100),
  /** The cursor of the last row already held; the page starts after it. */
  after: PageCursor.optional(),
});
export type SourcePageInput = z.input<typeof SourcePageInput>;

export const SourcePage = keysetPage({ source: SourceSummary });
export type SourcePage = z.infer<typeof SourcePage>;

export const SourceListSummaryInput = SourceOrder.extend({
  filter: SourceFilter.default({}),
  /** Rows per page of the skip index below. */
  pageSize: PageLimit.default(100),
});
export type SourceListSummaryInput = z.input<typeof SourceListSummaryInput>;

/**
 * The shape of a filtered, sorted library without its rows: counts computed in SQL, and the cursor
 * before each page (`pageStarts[0]` is null, the list's start), so a virtual list can fetch the page
 * under any scroll position by its key.
 */
export const SourceListSummary = z.object({
  /** Sources matching the filter. */
  total: z.number().int().nonnegative(),
  /** Sources in the workspace, whatever the filter. */
  all: z.number().int().nonnegative(),
  kinds: z.array(z.object({ kind: SourceKind, count: z.number().int().nonnegative() })),
  restricted: z.number().int().nonnegative(),
  health: z.object({ ok: z.number().int().nonnegative(), modified: z.number().int().nonnegative(), missing: z.number().int().nonnegative(), unchecked: z.number().int().nonnegative() }),
  /** Sources whose file is missing or changed, by the last check (what "Find missing files" looks for). */
  attention: z.array(z.object({ id: z.number().int().positive(), health: z.enum(['missing', 'modified']) })),
  pageSize: z.number().int().positive(),
  pageStarts: z.array(PageCursor.nullable()),
});
export type SourceListSummary = z.infer<typeof SourceListSummary>;

export const listContract = {
  /** One page of the library, filtered and sorted, after a keyset cursor. */
  'sources.page': { input: SourcePageInput, output: SourcePage },
  /** Counts and the skip index of a filtered, sorted library. */
  'sources.listSummary': { input: SourceListSummaryInput, output: SourceListSummary },
} as const;
