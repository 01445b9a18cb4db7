import { z } from 'zod';
import { CITATION_STATUSES } from '../verification/status.ts';
import { CLAIM_VERDICTS } from '../verification/verdict.ts';
import { RESULT_RISK_FLAG_CODES } from '../verification/result-schema.ts';
import { AnswerData, CitationDetail, RunData } from './answer-schemas.ts';
import { keysetPage, PageCursor, PageLimit } from './list-schemas.ts';
import type { PackedMarks } from './packed-marks.ts';

/**
 * The citation cards as pages (issue 16): an answer of 5,000 citations is opened by its header, its
 * text and its markers, and its cards are asked for a page at a time, filtered and counted in SQL,
 * in answer order, after a keyset cursor.
 */

/** Which cards are shown: all, not yet reviewed, problems, one status, one verdict, or one risk flag's citations. */
export const CARD_FILTERS = [
  'all',
  'unreviewed',
  'problems',
  ...CITATION_STATUSES.map((s) => `status:${s}` as const),
  ...CLAIM_VERDICTS.map((v) => `verdict:${v}` as const),
  ...RESULT_RISK_FLAG_CODES.map((f) => `flag:${f}` as const),
] as const;
export const CardFilter = z.enum(CARD_FILTERS);
export type CardFilter = z.infer<typeof CardFilter>;

// In a module of its own, zod-free, for the page's first screen (issue 16).
export { PROBLEM_STATUSES, PROBLEM_VERDICTS } from './card-problems.ts';

/** How many citations each filter shows, computed in SQL (a filter showing none is left out). */
export const CardCounts = z.record(z.string(), z.number().int().nonnegative());
export type CardCounts = z.infer<typeof CardCounts>;

/** A marker of the answer text: enough to draw it, step to it and filter by it, not the card. */
export const CitationMark = z.object({
  id: z.number().int().positive(),
  marker: z.string(),
  status: z.enum(CITATION_STATUSES).nullable(),
  verdict: z.enum(CLAIM_VERDICTS).nullable(),
  /** Where a quote found elsewhere is, in its document's unit (for the status's words). */
  unit: z.enum(['page', 'block', 'line']).nullable(),
  /** The decision in force, if any. */
  decision: z.enum(['accepted', 'rejected', 'flagged']).nullable(),
});
export type CitationMark = z.infer<typeof CitationMark>;

/** An answer as opened: header, text, markers and counts, without the cards or the verification document. */
export const AnswerOpen = z.object({
  answer: AnswerData,
  run: RunData.nullable(),
  runCount: z.number().int().nonnegative(),
  /** Every current citation, in answer order. */
  marks: z.array(CitationMark),
  counts: CardCounts,
});
export type AnswerOpen = z.infer<typeof AnswerOpen>;

export const CardPageInput = z.object({
  id: z.number().int().positive(),
  filter: CardFilter.default('all'),
  limit: PageLimit.default(50),
  /** The cursor of the last card already held; the page starts after it. */
  after: PageCursor.optional(),
});
export type CardPageInput = z.input<typeof CardPageInput>;

export const CardPage = keysetPage({ citation: CitationDetail });
export type CardPage = z.infer<typeof CardPage>;

export const CardListSummary = z.object({
  /** Cards the filter shows. */
  total: z.number().int().nonnegative(),
  pageSize: z.number().int().positive(),
  /** The cursor before each page (`pageStarts[0]` is null, the list's start). */
  pageStarts: z.array(PageCursor.nullable()),
  /** The ids the filter shows, in answer order (what j/k step through). */
  ids: z.array(z.number().int().positive()),
});
export type CardListSummary = z.infer<typeof CardListSummary>;

/**
 * What the first screen of an answer needs, in one call (issue 16): its header, text and counts, its
 * markers packed, and its card list under a filter (shape and first page). Three calls ran one
 * after another in the host, and the page drew nothing until the last was back.
 */
/** An answer's markers packed for the wire (packed-marks.ts packs and unpacks them). */
export const PackedMarksSchema = z.object({
  ids: z.array(z.number().int().positive()),
  markers: z.array(z.string()),
  codes: z.string(),
}) satisfies z.ZodType<PackedMarks>;

export const AnswerOpening = AnswerOpen.omit({ marks: true }).extend({
  marks: PackedMarksSchema,
  list: CardListSummary,
  first: CardPage,
});
export type AnswerOpening = z.infer<typeof AnswerOpening>;

export const cardsContract = {
  /** An answer opened for the desk: header, text, counts, packed markers, and its first page of cards under a filter. */
  'answers.open': {
    input: z.object({ id: z.number().int().positive(), filter: CardFilter.default('all'), pageSize: PageLimit.default(50) }),
    output: AnswerOpening,
  },
  /** An answer opened: header, text, markers and counts (the cards come by answers.cards). */
  'answers.get': { input: z.object({ id: z.number().int().positive() }), output: AnswerOpen },
  /** One page of an answer's citation cards, filtered, in answer order, after a keyset cursor. */
  'answers.cards': { input: CardPageInput, output: CardPage },
  /** The shape of a filtered card list: its length, the cursor before each page and its ids. */
  'answers.cardsSummary': {
    input: z.object({ id: z.number().int().positive(), filter: CardFilter.default('all'), pageSize: PageLimit.default(50) }),
    output: CardListSummary,
  },
} as const;
