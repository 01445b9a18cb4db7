/**
 * The verification result format, `evidence-desk/verification@1` (DESIGN.md §6): what
 * `evidesk verify --json` prints and other tools read. Strict objects: a field outside the format
 * is a bug here, not an extension.
 */
import { z } from 'zod';
import { CITATION_STATUSES } from './status.ts';
import { RISK_FLAG_CODES } from './summary.ts';
import { CLAIM_VERDICTS } from './verdict.ts';
import { JudgeOpinion } from './judge.ts';

export const VERIFICATION_FORMAT = 'evidence-desk/verification@1';

export const CitationStatusSchema = z.enum(CITATION_STATUSES);
export const ClaimVerdictSchema = z.enum(CLAIM_VERDICTS);
export const MatchMethodSchema = z.enum(['exact', 'normalised', 'fuzzy']);

/** Risk flags of the ledger, plus sentences of a model's answer that cite nothing. */
export const RESULT_RISK_FLAG_CODES = [...RISK_FLAG_CODES, 'uncited_sentence'] as const;
export type ResultRiskFlagCode = (typeof RESULT_RISK_FLAG_CODES)[number];

const Unit = z.number().min(0).max(1);
const Count = z.number().int().nonnegative();

/**
 * Where the quote was found. `start`/`end` are offsets in the segment (page, block, run of lines)
 * where the match starts; a match that runs on to the next page ends at that segment's end and
 * says so in the citation's notes; `text` is the whole matched text.
 */
export const VerificationMatch = z.strictObject({
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  file: z.string(),
  page: z.number().int().positive().optional(),
  paragraph: z.number().int().nonnegative().optional(),
  line: z.number().int().positive().optional(),
  start: z.number().int().nonnegative(),
  end: z.number().int().nonnegative(),
  method: MatchMethodSchema,
  text: z.string(),
});
export type VerificationMatch = z.infer<typeof VerificationMatch>;

/** A quote not found: the passage of its source that came closest (never a match), and how close (0..1). */
export const VerificationClosest = VerificationMatch.omit({ method: true }).extend({ score: Unit });
export type VerificationClosest = z.infer<typeof VerificationClosest>;

export const VerificationCitation = z.strictObject({
  marker: z.string(),
  status: CitationStatusSchema,
  verdict: ClaimVerdictSchema,
  score: Unit,
  match: VerificationMatch.nullable(),
  notes: z.array(z.string()),
  /** The model judge's opinion, when it was asked (its verdict is its own; `verdict` is the combined one). */
  judge: JudgeOpinion.optional(),
  closest: VerificationClosest.optional(),
  /** How firmly the checks back the verdict, and why (codes for tools, notes in plain words); absent for stored runs. */
  confidence: Unit.optional(),
  reasons: z.array(z.strictObject({ code: z.string(), note: z.string() })).optional(),
});
export type VerificationCitation = z.infer<typeof VerificationCitation>;

export const VerificationSummary = z.strictObject({
  total: Count,
  byStatus: z.strictObject(Object.fromEntries(CITATION_STATUSES.map((s) => [s, Count])) as Record<(typeof CITATION_STATUSES)[number], typeof Count>),
  byVerdict: z.strictObject(Object.fromEntries(CLAIM_VERDICTS.map((v) => [v, Count])) as Record<(typeof CLAIM_VERDICTS)[number], typeof Count>),
  coverage: Unit,
  unsupportedRate: Unit,
});
export type VerificationSummary = z.infer<typeof VerificationSummary>;

export const VerificationRiskFlag = z.strictObject({
  code: z.enum(RESULT_RISK_FLAG_CODES),
  message: z.string(),
  markers: z.array(z.string()),
});
export type VerificationRiskFlag = z.infer<typeof VerificationRiskFlag>;

export const VerificationResult = z.strictObject({
  format: z.literal(VERIFICATION_FORMAT),
  verifiedAt: z.iso.datetime(),
  answer: z.strictObject({ question: z.string().nullable() }),
  citations: z.array(VerificationCitation),
  summary: VerificationSummary,
  riskFlags: z.array(VerificationRiskFlag),
  /**
   * The workspace's audit-chain head when the document was printed (`evidesk verify --json`):
   * entries, last hash, time. Whoever keeps it can later prove the record has not changed since.
   */
  auditHead: z
    .strictObject({ count: z.number().int().nonnegative(), hash: z.string().regex(/^[0-9a-f]{64}$/), at: z.iso.datetime(), publicKey: z.string().optional() })
    .optional(),
});
export type VerificationResult = z.infer<typeof VerificationResult>;
