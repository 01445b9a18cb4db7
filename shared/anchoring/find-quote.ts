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
import { elidedCandidates } from './elided-quotes.ts';
import { ELISION_MAX_GAP, planQuote, type QuotePlan } from './quote-parts.ts';
import type { Candidate, SearchContext } from './candidates.ts';
import { rawExact } from './literal-candidates.ts';
import { choose, hintedIndexes, nearRange } from './choose-candidate.ts';
import { toMatch } from './match-result.ts';
import { wholeCandidates } from './whole-quote.ts';
import { pageBreakCandidates } from './page-break-joins.ts';
import { normaliseWithMap } from './normalise.ts';
import { contextAgreement, CONTEXT_CHARS } from './context.ts';

/**
 * Finds `quote` in `segments` (in document order; any subset, e.g. FTS candidates, works) and
 * returns where it is, or null when it cannot be placed with a score ≥ minScore. Pass the result
 * of `prepareSegments()` to reuse normalisation across many quotes.
 *
 * Whole quote first (exact, normalised, fuzzy); when that is not found exactly, the quote read
 * through its editorial marks ("[sic]", "(emphasis added)", bracketed words) and in parts: at its
 * ellipses and bracketed stand-ins, or across a page break with furniture between. A candidate whose
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
    // Shortcut: a verbatim occurrence the normalised pass could not outrank (hinted, or no hint)
    // needs no normalisation at all. Where prefix/suffix or a near range would have to choose, it
    // must be the only verbatim one, and sit where the prefix and suffix say and in the near
    // range (another occurrence, with a line break inside, may be the one they describe).
    const raw = rawExact(list, q, hinted);
    if (raw) {
      const near = options.hint?.near;
      const chooser = options.prefix || options.suffix || near;
      const match = !chooser || raw.unique ? toMatch(list, null, raw.candidate) : null;
      const inContext = !(options.prefix || options.suffix) || (match !== null && contextAgreement(match, options) >= 0.9);
      const inRange = !near || (match !== null && String(match.segmentId) === String(near.segmentId) && match.start < near.end + 1 && match.end > near.start - 1);
      if (match && inContext && inRange) return match;
    }
  }

  const prepared = isPrepared(segments)
    ? segments
    : prepareSegments(segments, options.isAdjacent ? { isAdjacent: options.isAdjacent } : {});
  const p = prepared as unknown as PreparedSegments<Segment>;
  const prefixN = options.prefix ? normaliseWithMap(options.prefix).text.slice(-CONTEXT_CHARS) : '';
  const suffixN = options.suffix ? normaliseWithMap(options.suffix).text.slice(0, CONTEXT_CHARS) : '';
  const ctx: SearchContext = { p, hinted, minScore, options };
  const near = nearRange(p, options.hint);
  const best = (cands: Candidate[]): Candidate | null => choose(p, cands, hinted, prefixN, suffixN, verifiedScore, near);

  const nq = normaliseWithMap(q).text;
  const all = wholeCandidates(ctx, q, nq);
  let chosen = best(all.filter((c) => !c.mismatch));
  // Not found exactly: the quote in parts (at its ellipses, or across a page break, whose
  // furniture or hyphen costs edits as a whole); and read through its editorial marks ("[sic]",
  // "(emphasis added)", bracketed words, a list number), when it has any.
  let edited: QuotePlan | null = null;
  const fromEdits = new Set<Candidate>();
  if (!chosen || chosen.score < 1 - 1e-9) {
    const maxGap = options.elisionMaxGap ?? ELISION_MAX_GAP;
    const elided = planQuote(q, maxGap, false).parts;
    const more = elided.length >= 2 ? elidedCandidates(ctx, elided) : pageBreakCandidates(ctx, nq);
    const plan = planQuote(q, maxGap);
    if (plan.marks.length > 0) {
      edited = plan;
      for (const c of editedCandidates(ctx, q, plan)) {
        fromEdits.add(c);
        more.push(c);
      }
    }
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
  if (!chosen) return null;
  const match = toMatch(prepared.segments, prepared.starts, chosen, p);
  if (edited && fromEdits.has(chosen)) match.editorialMarks = edited.marks;
  return match;
}

// A numbered list marker ending just before a match ("10. They obtain…").
const NUMBER_BEFORE_RE = /(\d{1,3})[.)] ?$/u;

/**
 * Candidates of the quote read through its editorial marks: without them, then part by part. A
 * list number set aside must not hide a changed one: where the source numbers the text
 * otherwise, the candidate is a misquote.
 */
function editedCandidates(ctx: SearchContext, q: string, plan: QuotePlan): Candidate[] {
  const out: Candidate[] = [];
  const normal = (t: string): string => normaliseWithMap(t).text;
  if (plan.whole !== q) out.push(...wholeCandidates(ctx, plan.whole, normal(plan.whole)));
  const [first] = plan.parts;
  if (plan.parts.length >= 2) out.push(...elidedCandidates(ctx, plan.parts));
  else if (first) {
    if (first.text !== plan.whole) out.push(...wholeCandidates(ctx, first.text, normal(first.text)));
    out.push(...pageBreakCandidates(ctx, normal(first.text)));
  }
  const wanted = plan.leadingNumber;
  if (wanted !== undefined) {
    for (const c of out) {
      const have = NUMBER_BEFORE_RE.exec(ctx.p.joined.slice(Math.max(0, c.jStart - 6), c.jStart))?.[1];
      if (have !== undefined && have !== wanted) c.mismatch = { quote: [wanted, ...(c.mismatch?.quote ?? [])], source: [have, ...(c.mismatch?.source ?? [])] };
    }
  }
  return out;
}
