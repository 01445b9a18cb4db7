/**
 * What anchoring takes and gives (DESIGN.md §5): segments, the claimed-location hint, options,
 * the match with its gaps and number mismatch, and the score thresholds that decide a status.
 */

/** Below this score a fuzzy hit is never returned (the bottom of `partial`). */
export const MIN_MATCH_SCORE = 0.75;
/** At or above this score a quote counts as found (`verified` / `verified_elsewhere`). */
export const VERIFIED_MATCH_SCORE = 0.9;
/** Default share of edits allowed by the fuzzy stage (DESIGN.md §5: ~10–15%). */
export const DEFAULT_MAX_ERROR_RATE = 0.15;

export type SegmentId = number | string;

/** A stored segment in document order: a PDF page, a DOCX block, a run of lines. */
export interface Segment {
  id: SegmentId;
  text: string;
  page?: number | null;
  /** Position of the segment in its source; tells whether two segments of a narrowed list are neighbours. */
  ordinal?: number | null;
}

/** The claimed location, searched first and preferred between equally good occurrences. */
export interface QuoteHint {
  segmentIds?: readonly SegmentId[];
  pages?: readonly number[];
  /**
   * Where in a segment the quote is said to be (a claimed line, a character offset): among
   * equally good occurrences the nearest wins. Chooses only; never claims a location.
   */
  near?: { segmentId: SegmentId; start: number; end: number };
}

export type MatchMethod = 'exact' | 'normalised' | 'fuzzy';

export interface QuoteMatch<S extends Segment = Segment> {
  segmentId: SegmentId;
  /** Offset of the first matched char in `segment.text`. */
  start: number;
  /** End (exclusive) in `segment.text`; for a match that runs on, the end of its part in this segment. */
  end: number;
  /** Set only when the match runs on into a later segment: where it ends. */
  endSegmentId?: SegmentId;
  /** Start of the match's part in the end segment (usually 0). */
  endStart?: number;
  /** End (exclusive) of the match in `endSegment.text`. */
  endOffset?: number;
  score: number;
  method: MatchMethod;
  /** The original matched text (parts in different segments joined with "\n"). */
  text: string;
  /** Edits counted on normalised text (0 for exact and normalised matches). */
  errors: number;
  page?: number;
  endPage?: number;
  /** Up to 32 chars of original text before and after, for re-anchoring in a new version. */
  prefix: string;
  suffix: string;
  segment: S;
  endSegment?: S;
  /** Text of the source left out between the quote's parts (its elisions, page furniture). */
  gaps?: MatchGap[];
  /**
   * Set only with `reportMisquotes`: the closest text differs from the quote in a number, so the
   * quote is not in the source as written. Never a found quote, whatever its score.
   */
  numberMismatch?: NumberMismatch;
  /**
   * Marks of the quote that are no text of the source and were set aside to place it: "[sic]",
   * notes such as "(emphasis added)", bracketed letters and words ("[t]", "[the Company]").
   */
  editorialMarks?: string[];
}

export interface MatchGap {
  /**
   * An ellipsis of the quote, the quoter's words in brackets standing in for the source's
   * (`alteration`), or a running head / foot / page number between two pages.
   */
  kind: 'elision' | 'alteration' | 'page-furniture';
  /** The original text left out (parts in different segments joined with "\n"). */
  text: string;
  /** For an alteration: the quote's bracketed words ("[the Company]"). */
  mark?: string;
}

export interface NumberMismatch {
  /** Numbers of the quote that the source text does not have. */
  quote: string[];
  /** Numbers of the source text that the quote does not have. */
  source: string[];
}

export interface FindQuoteOptions {
  hint?: QuoteHint | null;
  /** Text expected before / after the quote (TextQuoteSelector); chooses between occurrences. */
  prefix?: string | null;
  suffix?: string | null;
  /** Lowest fuzzy score returned (default 0.75; never lower). */
  minScore?: number;
  /** Score that counts as found; used to prefer a found occurrence at the hint (default 0.90). */
  verifiedScore?: number;
  /** Fuzzy edit budget as a share of the normalised quote length (default 0.15). */
  maxErrorRate?: number;
  /** Normalised quotes shorter than this are never fuzzy-matched: short strings match noise. */
  minFuzzyLength?: number;
  fuzzy?: boolean;
  /** Segments whose joined normalised text is at most this long are scanned whole. */
  fullScanMaxChars?: number;
  /** Whether `b` directly follows `a` in the document (a quote may run across them). */
  isAdjacent?: (a: Segment, b: Segment) => boolean;
  /** Longest stretch of source text (normalised chars) an ellipsis of the quote may stand for. */
  elisionMaxGap?: number;
  /**
   * Return the closest misquote (a fuzzy match whose numbers differ from the quote's) with
   * `numberMismatch` set when nothing better exists, instead of null.
   */
  reportMisquotes?: boolean;
}

export interface PrepareOptions {
  isAdjacent?: (a: Segment, b: Segment) => boolean;
}
