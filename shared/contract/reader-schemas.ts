/**
 * The PDF reader's find in the document (issue 12): searched over the source's stored page text,
 * whose offsets are the ones the viewer's text layer is checked against, so a hit is marked exactly.
 */
import { z } from 'zod';
import { SourceId } from './schemas.ts';

export const FindHit = z.object({
  page: z.number().int().positive(),
  pageLabel: z.string().nullable(),
  /** [start, end) in the page's stored text. */
  start: z.number().int().nonnegative(),
  end: z.number().int().nonnegative(),
  /** The hit with some words either side, on one line. */
  snippet: z.string(),
  /** [start, end) of the hit inside `snippet`. */
  snippetHit: z.tuple([z.number().int().nonnegative(), z.number().int().nonnegative()]),
});
export type FindHit = z.infer<typeof FindHit>;

export const FindResult = z.object({
  hits: z.array(FindHit),
  /** Every match in the document, counted up to the cap; more than `hits` when the list was cut. */
  total: z.number().int().nonnegative(),
  truncated: z.boolean(),
});
export type FindResult = z.infer<typeof FindResult>;

export const readerContract = {
  /** Case-insensitive find of a phrase in one source's pages (spaces match any run of white space). */
  'sources.find': {
    input: z.object({ id: SourceId, query: z.string().min(1).max(500), limit: z.number().int().min(1).max(10_000).default(2_000) }),
    output: FindResult,
  },
} as const;
