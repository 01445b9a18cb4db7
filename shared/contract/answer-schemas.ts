/** Contract schemas of the answers handlers: import, list, get, verify, ask, review, re-anchor. */
import { z } from 'zod';
import { ClaimedLocator } from '../imports/model.ts';
import {
  CitationStatusSchema,
  ClaimVerdictSchema,
  MatchMethodSchema,
  VerificationResult,
  VerificationRiskFlag,
  VerificationSummary,
} from '../verification/result-schema.ts';
import { JudgeOpinion } from '../verification/judge.ts';
import { Sha256, SourceId, TableCellLocator } from './schemas.ts';
import { DECISIONS, TRAIL_DECISIONS } from '../review/trail.ts';

export const AnswerId = z.number().int().positive();
export const CitationId = z.number().int().positive();

// In a module of its own, zod-free, for the page's first screen (issue 16).
import { MAX_ANSWER_CHARS } from './answer-limits.ts';
export { MAX_ANSWER_CHARS };

/**
 * An answer file as its text, never as a path: no caller, the renderer least of all, asks the
 * services to read a file (DESIGN.md §8); the CLI reads it and sends the text. The format is
 * detected from the content; the name only labels the answer (and names it in errors).
 */
export const AnswerFile = z.object({
  content: z.string().max(MAX_ANSWER_CHARS),
  /** Ask the model judge too (it needs a model endpoint); without it, the workspace setting decides. */
  judge: z.boolean().optional(),
  fileName: z
    .string()
    .min(1)
    .max(500)
    .refine((name) => !/[/\\]/.test(name), 'a file name, not a path'),
  /** The caller's name for the verification (import): its progress events carry it, answers.cancelVerify stops it. */
  jobId: z.string().min(1).max(100).optional(),
}).strict();
export type AnswerFile = z.infer<typeof AnswerFile>;

export const ReviewDecision = z.enum(DECISIONS);
export type ReviewDecision = z.infer<typeof ReviewDecision>;
/** What a row of the review trail stores: a decision, or 'cleared' (none in force). */
export const TrailDecision = z.enum(TRAIL_DECISIONS);
export type TrailDecision = z.infer<typeof TrailDecision>;
/** A reviewer's name as recorded on each decision and shown on reports. */
export const ReviewerName = z.string().trim().min(1).max(200);

/** One row of the review trail (append-only: a change of mind, a clear, an undo are new rows). */
export const ReviewData = z.object({
  id: z.number().int().positive(),
  citationId: CitationId,
  decision: TrailDecision,
  note: z.string().nullable(),
  supersedesId: z.number().int().positive().nullable(),
  createdAt: z.string(),
  /** Null on rows from before names were recorded, or when none was given. */
  reviewer: z.string().nullable(),
  /** On an undo row: the row it took back. */
  undoesId: z.number().int().positive().nullable(),
});
export type ReviewData = z.infer<typeof ReviewData>;

/**
 * Where a placed quote lies, as the viewers locate: by page (PDF), block (DOCX and HTML, from 0,
 * as locator.paragraph) or line (text and Markdown, from 1). `start` counts from the start of
 * `at`, `end` from the start of `endAt` (the same unit when the quote does not run on).
 */
export const MatchPlace = z.object({
  unit: z.enum(['page', 'block', 'line']),
  /** A quote inside one DOCX or HTML table cell: the cell, named by its headers where there are any. */
  cell: TableCellLocator.optional(),
  /** PowerPoint and Excel blocks (issue 14): the slide (and whether in its notes), or the sheet and A1 address. */
  slide: z.number().int().positive().optional(),
  notes: z.boolean().optional(),
  sheet: z.string().optional(),
  address: z.string().optional(),
  at: z.number().int().nonnegative(),
  endAt: z.number().int().nonnegative(),
  start: z.number().int().nonnegative(),
  end: z.number().int().nonnegative(),
  /**
   * Page and block units, a quote that runs on: the end of its part in `at` and the start of its
   * part in `endAt`, since text between them (a running footer, the next page's head) may be no
   * part of it. Absent for results stored before they were kept: `at` runs to its end, `endAt` from 0.
   */
  firstEnd: z.number().int().nonnegative().optional(),
  lastStart: z.number().int().nonnegative().optional(),
});
export type MatchPlace = z.infer<typeof MatchPlace>;

/** The passage of a source closest to a quote not found there, located as a match would be. */
export const ClosestPassageData = z.object({
  sourceId: SourceId,
  segmentId: z.number().int().positive(),
  page: z.number().int().positive().nullable(),
  pageLabel: z.string().nullable(),
  place: MatchPlace.nullable(),
  score: z.number().min(0).max(1),
  text: z.string(),
});
export type ClosestPassageData = z.infer<typeof ClosestPassageData>;

/** One citation's anchoring result in a run: enough for the viewer to highlight it. */
export const CitationResultData = z.object({
  runId: z.number().int().positive(),
  status: CitationStatusSchema,
  verdict: ClaimVerdictSchema,
  score: z.number().min(0).max(1),
  confidence: z.number().min(0).max(1),
  sourceId: SourceId.nullable(),
  segmentId: z.number().int().positive().nullable(),
  start: z.number().int().nonnegative().nullable(),
  endSegmentId: z.number().int().positive().nullable(),
  end: z.number().int().nonnegative().nullable(),
  page: z.number().int().positive().nullable(),
  pageLabel: z.string().nullable(),
  method: MatchMethodSchema.nullable(),
  matchedText: z.string().nullable(),
  quote: z.string().nullable(),
  prefix: z.string().nullable(),
  suffix: z.string().nullable(),
  notes: z.array(z.string()),
  /** Null when the quote was not placed. */
  place: MatchPlace.nullable(),
  /** The model judge's opinion on the claim, when it was asked. */
  judge: JudgeOpinion.nullable().optional(),
  /** A quote not found: where its source comes closest (shown as such, never as a match). */
  closest: ClosestPassageData.nullable().optional(),
});
export type CitationResultData = z.infer<typeof CitationResultData>;

export const StoredClaimedLocator = ClaimedLocator.extend({
  /** TextQuoteSelector context given by the citing tool. */
  quotePrefix: z.string().optional(),
  quoteSuffix: z.string().optional(),
});
export type StoredClaimedLocator = z.infer<typeof StoredClaimedLocator>;

export const CitationDetail = z.object({
  id: CitationId,
  ordinal: z.number().int().nonnegative(),
  marker: z.string(),
  claim: z.string(),
  quote: z.string().nullable(),
  context: z.string().nullable(),
  /** `removed`: the source was removed from the library (hidden, still in the record). */
  source: z.object({ id: SourceId, fileName: z.string(), sha256: Sha256, title: z.string().nullable(), removed: z.boolean().optional() }).nullable(),
  /** The citation's own words for a source no workspace source matched. */
  unknownSource: z.string().nullable(),
  claimedLocator: StoredClaimedLocator,
  method: z.string().nullable(),
  confidence: z.string().nullable(),
  createdAt: z.string(),
  result: CitationResultData.nullable(),
  /** The decision in force: the newest trail row, null when there is none or it cleared the decision. */
  review: ReviewData.nullable(),
  /** Every row of the review trail, oldest first. */
  history: z.array(ReviewData),
});
export type CitationDetail = z.infer<typeof CitationDetail>;

/**
 * A run verified in batches (issue 16): how many citations it set out to verify, how many it has
 * stored, and whether it is running, complete, cancelled, or was interrupted (the app stopped).
 * Its summary covers the citations stored; the others keep their earlier results, if any.
 */
export const RunProgress = z.object({
  planned: z.number().int().nonnegative(),
  done: z.number().int().nonnegative(),
  state: z.enum(['running', 'complete', 'cancelled', 'interrupted']),
});

export const RunData = z.object({
  id: z.number().int().positive(),
  verifier: z.string(),
  createdAt: z.string(),
  summary: VerificationSummary,
  riskFlags: z.array(VerificationRiskFlag),
  /** Only for a run verified in batches. */
  progress: RunProgress.optional(),
});
export type RunData = z.infer<typeof RunData>;

export const AnswerData = z.object({
  id: AnswerId,
  format: z.string(),
  origin: z.string(),
  question: z.string().nullable(),
  answerText: z.string(),
  createdAt: z.string(),
  /** The name the analyst gave it (issue 12), when renamed. */
  name: z.string().nullable().optional(),
});

export const AnswerDetail = z.object({
  answer: AnswerData,
  citations: z.array(CitationDetail),
  /** The latest verification run (null only for an answer never verified). */
  run: RunData.nullable(),
  runCount: z.number().int().nonnegative(),
  verification: VerificationResult.nullable(),
});
export type AnswerDetail = z.infer<typeof AnswerDetail>;

/**
 * What answers.importSummary replies (issue 16): the stored answer without its text, how many
 * citations it has and its run; the citations themselves are read back page by page.
 */
export const AnswerImported = z.object({
  answer: AnswerData.omit({ answerText: true }),
  citationCount: z.number().int().nonnegative(),
  run: RunData.nullable(),
});
export type AnswerImported = z.infer<typeof AnswerImported>;

export const AnswerSummaryData = z.object({
  id: AnswerId,
  format: z.string(),
  origin: z.string(),
  question: z.string().nullable(),
  createdAt: z.string(),
  /** The name the analyst gave it (issue 12), when renamed. */
  name: z.string().nullable().optional(),
  citationCount: z.number().int().nonnegative(),
  /** Citations with a decision in force (review progress). */
  reviewedCount: z.number().int().nonnegative(),
  latestRun: z
    .object({ id: z.number().int().positive(), createdAt: z.string(), summary: VerificationSummary, riskFlags: z.array(VerificationRiskFlag) })
    .nullable(),
});
export type AnswerSummaryData = z.infer<typeof AnswerSummaryData>;

const Placement = z.object({
  sourceId: SourceId,
  sha256: Sha256,
  fileName: z.string(),
  page: z.number().int().positive().nullable(),
  pageLabel: z.string().nullable(),
  segmentId: z.number().int().positive().nullable(),
  start: z.number().int().nonnegative().nullable(),
  end: z.number().int().nonnegative().nullable(),
});

export const ReanchorResult = z.object({
  citationId: CitationId,
  from: Placement.nullable(),
  to: Placement.extend({ status: CitationStatusSchema, score: z.number().min(0).max(1), method: MatchMethodSchema }).nullable(),
  found: z.boolean(),
  moved: z.boolean(),
  message: z.string(),
});
export type ReanchorResult = z.infer<typeof ReanchorResult>;

export const AuditBreakKind = z.enum(['edited', 'removed', 'inserted', 'reordered', 'truncated', 'rewritten_tail', 'head_changed', 'head_missing', 'unanchored']);
export type AuditBreakKind = z.infer<typeof AuditBreakKind>;

/** The chain check: `rows` counts audit entries; `brokenAt` names the first break (id: its audit entry, 0 when none). */
export const AuditCheckData = z.object({
  ok: z.boolean(),
  rows: z.number().int().nonnegative(),
  head: z.string(),
  brokenAt: z
    .object({
      id: z.number().int(),
      /** A sentence for people: what broke and where. */
      reason: z.string(),
      kind: AuditBreakKind.optional(),
      seq: z.number().int().optional(),
      table: z.string().optional(),
      rowId: z.number().int().optional(),
    })
    .optional(),
  /** Evidence rows the chain covers. */
  evidenceRows: z.number().int().nonnegative().optional(),
  /** The head file beside the database, as read. */
  headFile: z
    .object({
      state: z.enum(['ok', 'missing', 'changed']),
      count: z.number().int().nonnegative().optional(),
      hash: z.string().optional(),
      at: z.string().optional(),
      reason: z.string().optional(),
      /** The workspace key that signed it (base64 Ed25519 public key). */
      publicKey: z.string().optional(),
    })
    .optional(),
});
export type AuditCheckData = z.infer<typeof AuditCheckData>;

/** The answers part of the contract; contract.ts spreads it into the table. */
export const answersContract = {
  'answers.import': { input: AnswerFile, output: AnswerDetail },
  /** As answers.import, replying with a summary only (large answers: read the citations back by page). */
  'answers.importSummary': { input: AnswerFile, output: AnswerImported },
  /** Verifies an answer file without storing anything (evidesk verify without --save). */
  'answers.check': { input: AnswerFile, output: VerificationResult },
  'answers.list': { input: z.object({}), output: z.array(AnswerSummaryData) },
  /** The answer with every citation's card and its verification document (the command line, exports); the app opens it by answers.get and answers.cards. */
  'answers.detail': { input: z.object({ id: AnswerId }), output: AnswerDetail },
  'answers.verify': { input: z.object({ id: AnswerId, jobId: z.string().min(1).max(100).optional() }), output: AnswerDetail },
  /** Stops a verification in batches (answers.import / answers.verify given this jobId) after its current batch; false when none runs. */
  'answers.cancelVerify': { input: z.object({ jobId: z.string().min(1).max(100) }), output: z.object({ cancelled: z.boolean() }) },
  'answers.ask': {
    input: z.object({ question: z.string().trim().min(1).max(2000), useModel: z.boolean().optional() }),
    output: AnswerDetail,
  },
  /** Appends a decision (or 'cleared') to a citation's trail; returns the new row. */
  'answers.review': {
    input: z.object({ citationId: CitationId, decision: TrailDecision, note: z.string().max(10_000).optional(), reviewer: ReviewerName.optional() }),
    output: ReviewData,
  },
  /** Appends a row restoring the decision in force before the last one; returns the new row. */
  'answers.undoReview': { input: z.object({ citationId: CitationId, reviewer: ReviewerName.optional() }), output: ReviewData },
  /** The reviewer name recorded on decisions (and offered for reports), remembered per workspace. */
  'answers.reviewer': { input: z.object({}), output: z.object({ name: z.string().nullable() }) },
  'answers.setReviewer': { input: z.object({ name: ReviewerName.nullable() }), output: z.object({ name: z.string().nullable() }) },
  /** Finds a citation's quote again in another version of its source (default: the newest). */
  'answers.reanchor': { input: z.object({ citationId: CitationId, sourceId: SourceId.optional() }), output: ReanchorResult },
  'audit.verify': { input: z.object({}), output: AuditCheckData },
} as const;
