/**
 * Citation status (DESIGN.md §5): where the quote was placed relative to the claimed location.
 */
import { MIN_MATCH_SCORE, VERIFIED_MATCH_SCORE, type QuoteHint, type SegmentId } from '../anchoring/match-types.ts';

export const CITATION_STATUSES = [
  'verified',
  'verified_elsewhere',
  'partial',
  'not_found',
  'source_unknown',
  'no_quote',
] as const;
export type CitationStatus = (typeof CITATION_STATUSES)[number];

/** Score at or above which a quote counts as found. */
export const VERIFIED_SCORE = VERIFIED_MATCH_SCORE;
/** Lowest score of a `partial` match; below it the quote is `not_found`. */
export const PARTIAL_SCORE = MIN_MATCH_SCORE;

/** The parts of an anchoring result that decide the status (a `QuoteMatch` fits). */
export interface PlacedMatch {
  score: number;
  segmentId: SegmentId;
  endSegmentId?: SegmentId | undefined;
  page?: number | undefined;
  endPage?: number | undefined;
}

export interface CitationStatusInput {
  /** The citation's quote; empty or missing means a paraphrase or inference. */
  quote?: string | null;
  /** Whether a workspace source matches the citation's source reference. */
  sourceKnown: boolean;
  /** Best anchoring result in that source, or null. */
  match: PlacedMatch | null;
  /** The claimed location (segment ids and/or pages); null or empty when none was claimed. */
  claimed?: QuoteHint | null;
}

/** Turns a citation locator ({ page, pageEnd }) into a hint / claimed location. */
export function hintFromLocator(locator: { page?: number | null; pageEnd?: number | null } | null | undefined): QuoteHint | null {
  if (!locator || typeof locator.page !== 'number') return null;
  const last = typeof locator.pageEnd === 'number' && locator.pageEnd >= locator.page ? locator.pageEnd : locator.page;
  const pages: number[] = [];
  // A claimed range is bounded: a malformed locator must not allocate millions of pages.
  for (let p = locator.page; p <= last && pages.length < 1000; p++) pages.push(p);
  return { pages };
}

export function claimsLocation(claimed: QuoteHint | null | undefined): boolean {
  return !!claimed && ((claimed.segmentIds?.length ?? 0) > 0 || (claimed.pages?.length ?? 0) > 0);
}

/** Whether the match starts or ends in a claimed segment or on a claimed page. */
export function isAtClaimedLocation(match: PlacedMatch, claimed: QuoteHint | null | undefined): boolean {
  if (!claimsLocation(claimed)) return true;
  const ids = new Set((claimed?.segmentIds ?? []).map((x) => String(x)));
  const pages = new Set(claimed?.pages ?? []);
  if (ids.has(String(match.segmentId))) return true;
  if (match.endSegmentId !== undefined && ids.has(String(match.endSegmentId))) return true;
  if (typeof match.page === 'number' && pages.has(match.page)) return true;
  if (typeof match.endPage === 'number' && pages.has(match.endPage)) return true;
  return false;
}

export function citationStatus(input: CitationStatusInput): CitationStatus {
  // Without a known source nothing else can be judged, quote or not.
  if (!input.sourceKnown) return 'source_unknown';
  if (!input.quote || input.quote.trim().length === 0) return 'no_quote';
  const m = input.match;
  // A hair of tolerance so that 1 − 3/30 style scores land on the threshold they equal.
  if (!m || m.score < PARTIAL_SCORE - 1e-9) return 'not_found';
  if (m.score >= VERIFIED_SCORE - 1e-9) return isAtClaimedLocation(m, input.claimed) ? 'verified' : 'verified_elsewhere';
  return 'partial';
}
