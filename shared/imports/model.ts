/**
 * The one answer model every import format is parsed into (and the built-in answerers produce),
 * so that verification and storage never care where an answer came from.
 */
import { z } from 'zod';

export const CITATION_METHODS = ['direct_quote', 'paraphrase', 'inference', 'aggregation', 'negative'] as const;
export const CitationMethod = z.enum(CITATION_METHODS);
export type CitationMethod = z.infer<typeof CitationMethod>;

/** Formats recognised by content; the names appear in errors and in `answers.format`. */
export const IMPORT_FORMATS = [
  'evidence-desk/answer@1',
  'markdown',
  'anthropic-messages',
  'evidence-ledger',
  'w3c-web-annotation',
] as const;
export const ImportFormat = z.enum(IMPORT_FORMATS);
export type ImportFormat = z.infer<typeof ImportFormat>;

/** Answers made inside the app carry the answerer's name as their format. */
export const ANSWER_FORMATS = [...IMPORT_FORMATS, 'evidesk-offline', 'openai-compatible'] as const;
export const AnswerFormat = z.enum(ANSWER_FORMATS);
export type AnswerFormat = z.infer<typeof AnswerFormat>;

/** What the citing tool said about its source; resolved against the workspace by the verifier. */
export const SourceRef = z.object({
  sha256: z.string().regex(/^[0-9a-f]{64}$/).optional(),
  file: z.string().min(1).optional(),
  title: z.string().min(1).optional(),
  documentIndex: z.number().int().nonnegative().optional(),
});
export type SourceRef = z.infer<typeof SourceRef>;

/**
 * Where the citing tool says the quote is. Pages, lines and paragraphs as in DESIGN.md §6;
 * pageLabel is a page as printed on it ("iv", "T-3", "A-2") when the citation gives no number;
 * charStart/charEnd are offsets in the document as the citing tool saw it: our extraction need
 * not produce the same text, so they only choose between occurrences of the quote, never claim one.
 */
export const ClaimedLocator = z.object({
  page: z.number().int().positive().optional(),
  pageLabel: z.string().min(1).max(40).optional(),
  pageEnd: z.number().int().positive().optional(),
  paragraph: z.number().int().nonnegative().optional(),
  line: z.number().int().positive().optional(),
  lineEnd: z.number().int().positive().optional(),
  section: z.string().min(1).optional(),
  /** PowerPoint: the slide (1-based). Excel: the sheet's name and a cell's A1 address ("B3"). */
  slide: z.number().int().positive().optional(),
  sheet: z.string().min(1).max(200).optional(),
  cell: z.string().regex(/^\$?[A-Za-z]{1,3}\$?\d{1,7}$/, 'an A1 cell address such as "B3"').optional(),
  charStart: z.number().int().nonnegative().optional(),
  charEnd: z.number().int().nonnegative().optional(),
});
export type ClaimedLocator = z.infer<typeof ClaimedLocator>;

export const ImportedCitation = z.object({
  marker: z.string().min(1),
  claim: z.string(),
  quote: z.string().nullable(),
  context: z.string().nullable(),
  sourceRef: SourceRef,
  locator: ClaimedLocator,
  method: CitationMethod.optional(),
  confidence: z.string().optional(),
  /** Text expected right before / after the quote (W3C TextQuoteSelector): picks between repeats. */
  prefix: z.string().optional(),
  suffix: z.string().optional(),
  /** Remarks of the parser the analyst should see (e.g. "marker [3] has no definition"). */
  notes: z.array(z.string()).optional(),
});
export type ImportedCitation = z.infer<typeof ImportedCitation>;

export const ImportedAnswer = z.object({
  format: AnswerFormat,
  question: z.string().nullable(),
  answerText: z.string(),
  citations: z.array(ImportedCitation),
});
export type ImportedAnswer = z.infer<typeof ImportedAnswer>;

/** A parser's verdict on a file: not its format (try the next), or parsed, or its format but broken. */
export type ParseOutcome = { kind: 'not-mine' } | { kind: 'parsed'; answer: ImportedAnswer } | { kind: 'invalid'; message: string };

/** Drops undefined fields, so objects compare and serialise cleanly. */
export function compact<T extends Record<string, unknown>>(obj: T): T {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(obj)) if (v !== undefined) out[k] = v;
  return out as T;
}

/** The base name of a path or URL ("file:///a/b/HR%20Policy.pdf#page=3" → "HR Policy.pdf"). */
export function baseName(ref: string): string {
  let s = ref.trim();
  const hash = s.indexOf('#');
  if (hash >= 0) s = s.slice(0, hash);
  const q = s.indexOf('?');
  if (q >= 0 && /^[a-z][a-z0-9+.-]*:/i.test(s)) s = s.slice(0, q);
  const parts = s.split(/[\\/]/).filter((p) => p.length > 0);
  const last = parts[parts.length - 1] ?? s;
  try {
    return decodeURIComponent(last);
  } catch {
    return last;
  }
}

export function isPlainObject(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

// Pages, lines and offsets beyond 2^53 are no place in any document, and the contract's integers
// stop there: such a number is no locator (a fuzzed "page": 1e300 is dropped, not a ZodError).
export function positiveInt(x: unknown): number | undefined {
  const n = typeof x === 'string' && /^\d+$/.test(x.trim()) ? Number(x) : x;
  return typeof n === 'number' && Number.isSafeInteger(n) && n > 0 ? n : undefined;
}

/**
 * A page as a citation gives it: a number ("12", 12) is a page number; a printed page label
 * ("iv", "xxix", "T-3", "A-2", "B") is kept as a label. Anything else is no page.
 */
export function pageOrLabel(x: unknown): { page?: number; pageLabel?: string } {
  const page = positiveInt(x);
  if (page !== undefined) return { page };
  if (typeof x !== 'string') return {};
  const t = x.trim().replace(/^(?:pp?\.|pages?)\s*/i, '');
  return isPageLabel(t) ? { pageLabel: t } : {};
}

/** Roman numerals, "T-3" / "A-2" style labels, a lone capital letter. */
export function isPageLabel(t: string): boolean {
  return /^(?:[ivxlcdm]{1,8}|[IVXLCDM]{1,8}|[A-Za-z]{1,3}-?\d{1,5}|[A-Z])$/.test(t);
}

export function nonNegativeInt(x: unknown): number | undefined {
  const n = typeof x === 'string' && /^\d+$/.test(x.trim()) ? Number(x) : x;
  return typeof n === 'number' && Number.isSafeInteger(n) && n >= 0 ? n : undefined;
}

/** A file name from a path or URL, or nothing when the reference has none ("/", "#x", blanks). */
export function fileNameOf(ref: string): string | undefined {
  const name = baseName(ref).trim();
  return name.length > 0 ? name : undefined;
}

/**
 * A claimed character range as the contract holds it: an end before the start claims nothing
 * past the start, so only the start is kept.
 */
export function charRange(start: number | undefined, end: number | undefined): { charStart?: number; charEnd?: number } {
  if (start !== undefined && end !== undefined && end < start) return { charStart: start };
  return compact({ charStart: start, charEnd: end });
}

export function str(x: unknown): string | undefined {
  return typeof x === 'string' && x.trim().length > 0 ? x : undefined;
}

/** What parsing needs from its caller: shared/ has no crypto of its own. */
export interface ParseContext {
  /** SHA-256 (lowercase hex) of bytes, as ingestion computes it; without it, inline documents are known by title only. */
  digest?: (bytes: Uint8Array) => string;
}
