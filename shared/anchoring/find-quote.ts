/**
 * Quote anchoring (DESIGN.md §5): exact, then normalised (through the offset map), then fuzzy
 * (bit-parallel Myers via approx-string-match). A quote may run across consecutive segments
 * (a page break, with the running head and foot between its parts), and may leave text out
 * with an ellipsis ("…", "...", "[...]"): its parts are then anchored in order, close together.
 * A fuzzy match whose numbers differ from the quote's is a misquote, never a match. Pure: no DOM,
 * no Node.
 */
import { type FindQuoteOptions, MIN_MATCH_SCORE, type QuoteMatch, type Segment, VERIFIED_MATCH_SCORE } from './match-types.ts';
import { isPrepared, type PreparedSegments, prepareSegments } from './prepared-segments.ts';
import { elidedCandidates, splitElisions } from './elided-quotes.ts';
import type { Candidate, SearchContext } from './candidates.ts';
import { rawExact } from './literal-candidates.ts';
import { choose, hintedIndexes } from './choose-candidate.ts';
import { toMatch } from './match-result.ts';
import { wholeCandidates } from './whole-quote.ts';
import { pageBreakCandidates } from './page-break-joins.ts';
import { normaliseWithMap } from './normalise.ts';
import { CONTEXT_CHARS } from './context.ts';

/**
 * Finds `quote` in `segments` (in document order; any subset, e.g. FTS candidates, works) and
 * returns where it is, or null when it cannot be placed with a score ≥ minScore. Pass the result
 * of `prepareSegments()` to reuse normalisation across many quotes.
 *
 * Whole quote first (exact, normalised, fuzzy); when that is not found exactly, the quote in
 * parts: at its ellipses, or across a page break with furniture between. A candidate whose
 * numbers differ from the quote's is never returned as a match (see `reportMisquotes`).
 */
export function findQuote<S extends Segment>(
  quote: string,
  segments: readonly S[] | PreparedSegments<S>,
  options: FindQuoteOptions = {},
): QuoteMatch<S> | null {
  const q = quote.trim();
  if (q.length === 0) return null;
  const minScore = Math.max(MIN_MATCH_SCORE, options.minScore ?? MIN_MATCH_SCORE);
  const verifiedScore = options.verifiedScore ?? VERIFIED_MATCH_SCORE;
  const list: readonly S[] = isPrepared(segments) ? segments.segments : segments;
  const hinted = hintedIndexes(list, options.hint);

  if (!isPrepared(segments)) {
    // Shortcut: a verbatim occurrence the normalised pass could not outrank (hinted, or no hint;
    // unique where prefix/suffix would otherwise have to choose) needs no normalisation at all.
    const raw = rawExact(list, q, hinted);
    if (raw && (!(options.prefix || options.suffix) || raw.unique)) return toMatch(list, null, raw.candidate);
  }

  const prepared = isPrepared(segments)
    ? segments
    : prepareSegments(segments, options.isAdjacent ? { isAdjacent: options.isAdjacent } : {});
  const p = prepared as unknown as PreparedSegments<Segment>;
  const prefixN = options.prefix ? normaliseWithMap(options.prefix).text.slice(-CONTEXT_CHARS) : '';
  const suffixN = options.suffix ? normaliseWithMap(options.suffix).text.slice(0, CONTEXT_CHARS) : '';
  const ctx: SearchContext = { p, hinted, minScore, options };
  const best = (cands: Candidate[]): Candidate | null => choose(p, cands, hinted, prefixN, suffixN, verifiedScore);

  const nq = normaliseWithMap(q).text;
  const all = wholeCandidates(ctx, q, nq);
  let chosen = best(all.filter((c) => !c.mismatch));
  // Not found exactly: the parts may be (a page break's furniture or hyphen costs edits as a whole).
  if (!chosen || chosen.score < 1 - 1e-9) {
    const parts = splitElisions(q);
    const more = parts.length >= 2 ? elidedCandidates(ctx, parts) : pageBreakCandidates(ctx, nq);
    if (more.length > 0) {
      all.push(...more);
      chosen = best(all.filter((c) => !c.mismatch));
    }
  }
  if (options.reportMisquotes) {
    // A misquote closer to the quote than an unverified placement explains the quote better.
    const misquote = best(all.filter((c) => c.mismatch));
    if (misquote && (!chosen || (chosen.score < verifiedScore - 1e-9 && misquote.score > chosen.score))) chosen = misquote;
  }
  return chosen ? toMatch(prepared.segments, prepared.starts, chosen, p) : null;
}
