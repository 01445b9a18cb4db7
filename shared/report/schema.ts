/**
 * The report model, `evidence-desk/report@1` (DESIGN.md §11): what every export format is rendered
 * from, so Markdown, HTML, PDF, JSON, CSV and the bibliography never disagree. Built from stored
 * rows by the export service (see build.ts), carried whole in the JSON export, and hashed (see
 * content-hash.ts) so `evidesk report check` can prove later that it is unchanged. Strict objects:
 * a field outside the format is a bug here, not an extension.
 */
import { z } from 'zod';
import { Sha256, SourceKind } from '../contract/schemas.ts';
import { ClaimedLocator } from '../imports/model.ts';
import { CitationStatusSchema, ClaimVerdictSchema, MatchMethodSchema } from '../verification/result-schema.ts';
import { JudgeOpinion } from '../verification/judge.ts';

export const REPORT_FORMAT = 'evidence-desk/report@1';

const Count = z.number().int().nonnegative();
const Unit = z.number().min(0).max(1);
const Offset = z.number().int().nonnegative();
/** A report's own names for its sources, in order of first use in the answer: S1, S2, … */
export const ReportSourceRef = z.string().regex(/^S[1-9]\d*$/);
/** A report's own names for its citations, in the answer's citation order: C1, C2, … */
export const ReportCitationRef = z.string().regex(/^C[1-9]\d*$/);

export const REVIEW_DECISIONS = ['accepted', 'rejected', 'flagged'] as const;
/** The decision in force: one of the three, or none (never reviewed, or the last decision was cleared). */
export const CurrentDecision = z.enum([...REVIEW_DECISIONS, 'none']);
export type CurrentDecision = z.infer<typeof CurrentDecision>;
/** One row of the review trail: a decision, or the clearing of one (undo is a new row too). */
export const TrailDecision = z.enum([...REVIEW_DECISIONS, 'cleared']);
export type TrailDecision = z.infer<typeof TrailDecision>;

export const ReviewEvent = z.strictObject({
  decision: TrailDecision,
  /** Null when the reviewer wrote none, or when the report leaves notes out. */
  note: z.string().nullable(),
  at: z.iso.datetime({ offset: true }),
  reviewer: z.string().nullable(),
});
export type ReviewEvent = z.infer<typeof ReviewEvent>;

export const ReportReview = z.strictObject({
  decision: CurrentDecision,
  note: z.string().nullable(),
  /** When and by whom the decision in force was made; null with no decision rows at all. */
  at: z.iso.datetime({ offset: true }).nullable(),
  reviewer: z.string().nullable(),
  /** Every decision row, oldest first (the last one is the decision in force). */
  history: z.array(ReviewEvent),
});
export type ReportReview = z.infer<typeof ReportReview>;

/**
 * Where the quote was found. `unit` says how the source is divided (PDF pages, DOCX/HTML blocks
 * from 0, text lines from 1); `start` counts from the start of the first page/block/line, `end`
 * from the start of the last (`endPage`/`endBlock`/`endLine`, equal to the first when the quote
 * does not run on), as the stored match place does. `text` is what the source says there.
 */
export const ReportMatch = z.strictObject({
  sha256: Sha256,
  unit: z.enum(['page', 'block', 'line']),
  page: z.number().int().positive().nullable(),
  pageLabel: z.string().nullable(),
  endPage: z.number().int().positive().nullable(),
  block: z.number().int().nonnegative().nullable(),
  endBlock: z.number().int().nonnegative().nullable(),
  line: z.number().int().positive().nullable(),
  endLine: z.number().int().positive().nullable(),
  start: Offset,
  end: Offset,
  /**
   * A quote that runs on (page and block units): where its part in the first page/block ends and
   * where its part in the last starts, since text between them (a running footer, the next page's
   * head) may be no part of it. Null when the quote does not run on or the result did not keep them.
   */
  firstEnd: Offset.nullable(),
  lastStart: Offset.nullable(),
  method: MatchMethodSchema,
  text: z.string(),
});
export type ReportMatch = z.infer<typeof ReportMatch>;

/** A box on the excerpt image, in the image's pixels. */
export const ExcerptBox = z.strictObject({
  x: z.number().nonnegative(),
  y: z.number().nonnegative(),
  width: z.number().positive(),
  height: z.number().positive(),
});
export type ExcerptBox = z.infer<typeof ExcerptBox>;

/**
 * The evidence excerpt of a PDF quote: the region of the page around the quote, rendered as PNG,
 * with the quote's characters boxed.
 */
export const ReportImageExcerpt = z.strictObject({
  image: z.strictObject({
    dataUri: z.string().regex(/^data:image\/(?:png|webp|jpeg);base64,[A-Za-z0-9+/]+={0,2}$/, 'a base64 PNG, WebP or JPEG data: URI'),
    width: z.number().int().positive(),
    height: z.number().int().positive(),
  }),
  boxes: z.array(ExcerptBox),
  /** What the image shows, in words ("p. 12, lines around the quote"); its alt text. */
  caption: z.string(),
});
export type ReportImageExcerpt = z.infer<typeof ReportImageExcerpt>;

/**
 * The evidence excerpt of a DOCX, HTML, text or Markdown quote: the paragraph or lines holding it,
 * as text, with the quote marked (`quote` is exactly the matched characters, between `before` and `after`).
 */
export const ReportTextExcerpt = z.strictObject({
  text: z.strictObject({ before: z.string(), quote: z.string(), after: z.string() }),
  caption: z.string(),
});
export type ReportTextExcerpt = z.infer<typeof ReportTextExcerpt>;

export const ReportExcerpt = z.union([ReportImageExcerpt, ReportTextExcerpt]);
export type ReportExcerpt = z.infer<typeof ReportExcerpt>;

export const ReportCitation = z.strictObject({
  id: ReportCitationRef,
  /** The marker as the answer writes it ("1", "S2", "note"). */
  marker: z.string(),
  claim: z.string(),
  quote: z.string().nullable(),
  /** The report's source id; null when no workspace source matched (status `source_unknown`). */
  source: ReportSourceRef.nullable(),
  /** The citation's own words for a source the workspace lacks. */
  unknownSource: z.string().nullable(),
  /** Where the citation said the quote is. */
  claimed: ClaimedLocator,
  status: CitationStatusSchema,
  verdict: ClaimVerdictSchema,
  score: Unit,
  match: ReportMatch.nullable(),
  /** Source text around the quote (or the citation's own context for a quote-less one). */
  context: z.string().nullable(),
  /** Remarks of import and verification ("runs on to p. 13"). */
  notes: z.array(z.string()),
  review: ReportReview,
  excerpt: ReportExcerpt.nullable(),
  /** The model judge's opinion on the claim, when it was asked (its own; `verdict` is the combined one). */
  judge: JudgeOpinion.optional(),
  /**
   * The citation link (evidesk://open?…, shared/links) to the found quote; null when it was not
   * placed. The file link (file:///…, with #page=N for a PDF) to the original file; null when the
   * file is missing or its path unknown. Absent in reports made before links existed.
   */
  link: z.string().nullable().optional(),
  fileLink: z.string().nullable().optional(),
});
export type ReportCitation = z.infer<typeof ReportCitation>;

export const ReportSource = z.strictObject({
  id: ReportSourceRef,
  title: z.string().nullable(),
  fileName: z.string(),
  /** Where the file was at export; null when the workspace knows no path for it. */
  path: z.string().nullable(),
  sha256: Sha256,
  size: Count,
  kind: SourceKind,
  /** Health at export (a fresh check runs first): the file as recorded, changed, or gone. */
  health: z.enum(['ok', 'modified', 'missing', 'unchecked']),
  /** Whether the workspace holds a snapshot of the bytes (used when the file is missing or changed). */
  snapshot: z.boolean(),
  /** From the document's properties where present (PDF info, DOCX core properties). */
  authors: z.array(z.string()),
  /** "YYYY", "YYYY-MM" or "YYYY-MM-DD". */
  date: z.string().regex(/^\d{4}(?:-\d{2}(?:-\d{2})?)?$/).nullable(),
});
export type ReportSource = z.infer<typeof ReportSource>;

/** A place in the answer text where a marker group stands, and the citations it points at. */
export const AnswerMarker = z.strictObject({
  start: Offset,
  end: Offset,
  /** The labels as written in the group, in order ("1", "2" for "[1, 2]"). */
  labels: z.array(z.string()).min(1),
  /** Per label, the citation it points at; null when the report leaves it out (or none has it). */
  citations: z.array(ReportCitationRef.nullable()),
});
export type AnswerMarker = z.infer<typeof AnswerMarker>;

export const UNRESOLVED_REASONS = ['quote_not_found', 'source_unknown', 'partial_match', 'contradicted', 'claim_not_supported', 'flagged'] as const;
export const UnresolvedReason = z.enum(UNRESOLVED_REASONS);
export type UnresolvedReason = z.infer<typeof UnresolvedReason>;

/** A citation that still needs attention; listed even when the report leaves the citation out. */
export const UnresolvedItem = z.strictObject({
  citation: ReportCitationRef,
  marker: z.string(),
  claim: z.string(),
  status: CitationStatusSchema,
  verdict: ClaimVerdictSchema,
  decision: CurrentDecision,
  reasons: z.array(UnresolvedReason).min(1),
  /** Whether the citation itself is in the report (only-accepted reports leave the others out). */
  included: z.boolean(),
});
export type UnresolvedItem = z.infer<typeof UnresolvedItem>;

const countsOf = <T extends string>(keys: readonly T[]) =>
  z.strictObject(Object.fromEntries(keys.map((k) => [k, Count])) as Record<T, typeof Count>);

export const ReportSummary = z.strictObject({
  /** Every citation of the answer, whether the report includes it or not. */
  total: Count,
  included: Count,
  byStatus: countsOf(CitationStatusSchema.options),
  byVerdict: countsOf(ClaimVerdictSchema.options),
  byDecision: countsOf(CurrentDecision.options),
  /** Share of claims with at least one `supported` citation. */
  coverage: Unit,
  /** Share of claims whose best verdict is `not_found` or `contradicted`. */
  unsupportedRate: Unit,
  unresolved: z.array(UnresolvedItem),
});
export type ReportSummary = z.infer<typeof ReportSummary>;

export const ReportOptions = z.strictObject({
  citations: z.enum(['all', 'accepted']),
  excerpts: z.boolean(),
  notes: z.boolean(),
  reviewer: z.string().nullable(),
});
export type ReportOptions = z.infer<typeof ReportOptions>;

export const ReportProvenance = z.strictObject({
  workspaceId: z.string().min(1),
  runId: z.number().int().positive(),
  appVersion: z.string().min(1),
  exportedAt: z.iso.datetime({ offset: true }),
  /** The audit log's head hash at export; null for a workspace whose log has no rows yet. */
  auditHead: z.string().min(1).nullable(),
  options: ReportOptions,
});
export type ReportProvenance = z.infer<typeof ReportProvenance>;

export const ReportAnswer = z.strictObject({
  /** The answer's id in its workspace, and the file (or tool) it came from. */
  id: z.number().int().positive(),
  origin: z.string(),
  question: z.string().nullable(),
  text: z.string(),
  markers: z.array(AnswerMarker),
});
export type ReportAnswer = z.infer<typeof ReportAnswer>;

/** The report without its hash: what the hash is computed over. */
export const ReportBody = z.strictObject({
  format: z.literal(REPORT_FORMAT),
  answer: ReportAnswer,
  citations: z.array(ReportCitation),
  sources: z.array(ReportSource),
  summary: ReportSummary,
  provenance: ReportProvenance,
});
export type ReportBody = z.infer<typeof ReportBody>;

export const Report = ReportBody.extend({
  /** SHA-256 of the canonical encoding of everything else in the report (content-hash.ts). */
  contentHash: Sha256,
});
export type Report = z.infer<typeof Report>;
