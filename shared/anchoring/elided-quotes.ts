/**
 * Quotes in parts, with text left out between them ("…", "[...]") or replaced by the quoter's
 * words in brackets: the parts are anchored in order, each close to the previous one; the score
 * is the weakest part's.
 */
import search from 'approx-string-match';
import { DEFAULT_MAX_ERROR_RATE } from './match-types.ts';
import { budgetFor, effectiveLength } from './fuzzy-budget.ts';
import { numberMismatch } from './number-check.ts';
import { type Candidate, lowerBound, type PartHit, partsCandidate, type SearchContext } from './candidates.ts';
import { wholeCandidates } from './whole-quote.ts';
import { normaliseWithMap } from './normalise.ts';
import type { QuotePart } from './quote-parts.ts';

/**
 * `np` inside joined[from, to), not across a hard break (a gap between non-neighbouring
 * segments): searching forward from `from`, the first occurrence; backward from `to`, the last.
 */
function findInWindow(ctx: SearchContext, np: string, from: number, to: number, forward: boolean): PartHit | null {
  const { p, options } = ctx;
  const J = p.joined.length;
  let lo = Math.max(0, from);
  let hi = Math.min(J, to);
  if (forward) {
    const bi = lowerBound(p.hardBreaks, lo);
    if (bi < p.hardBreaks.length) hi = Math.min(hi, p.hardBreaks[bi] ?? hi);
  } else {
    const bi = lowerBound(p.hardBreaks, hi) - 1;
    if (bi >= 0) lo = Math.max(lo, (p.hardBreaks[bi] ?? -1) + 1);
  }
  if (hi <= lo) return null;
  const w = p.joined.slice(lo, hi);
  const at = forward ? w.indexOf(np) : w.lastIndexOf(np);
  if (at >= 0) return { a: lo + at, b: lo + at + np.length, errors: 0, score: 1, fuzzy: false, mismatch: null };
  if (options.fuzzy === false || effectiveLength(np) < (options.minFuzzyLength ?? 20)) return null;
  const k = budgetFor(np, options.maxErrorRate ?? DEFAULT_MAX_ERROR_RATE);
  let best: { start: number; end: number; errors: number } | null = null;
  for (const f of search(w, np, k)) {
    if (!best || f.errors < best.errors || (f.errors === best.errors && (forward ? f.start < best.start : f.start > best.start))) best = f;
  }
  if (!best) return null;
  const score = 1 - best.errors / np.length;
  if (score < ctx.minScore) return null;
  const a = lo + best.start;
  const b = lo + best.end;
  return { a, b, errors: best.errors, score, fuzzy: true, mismatch: numberMismatch(np, p.joined.slice(a, b)) };
}

const MAX_PIVOTS = 200;

/**
 * A quote in parts (between its ellipses and bracketed stand-ins): its most telling part is
 * anchored like a whole quote, then the others in order, each at most its gap's length after (or
 * before) its neighbour. Parts never match out of order or far apart; the score is the weakest
 * part's.
 */
export function elidedCandidates(ctx: SearchContext, quoteParts: readonly QuotePart[]): Candidate[] {
  const parts = quoteParts
    .map((x) => ({ raw: x.text, n: normaliseWithMap(x.text).text, spaced: normaliseWithMap(x.text, { letterSpaced: false }).text, gap: x.gap }))
    .filter((x) => x.n.length > 0);
  if (parts.length < 2) return [];
  const gapAfter = (i: number): number => parts[i + 1]?.gap?.max ?? 0;
  const rate = ctx.options.maxErrorRate ?? DEFAULT_MAX_ERROR_RATE;
  // A part that types lone letters letter-spaced ("A B C D Grid") may meet them as words of their
  // own (table cells): its letters apart, too.
  const spellings = (x: { n: string; spaced: string } | undefined): string[] => (!x ? [] : x.spaced === x.n ? [x.n] : [x.n, x.spaced]);
  let pivot = 0;
  parts.forEach((x, i) => {
    if (effectiveLength(x.n) > effectiveLength((parts[pivot] as { n: string }).n)) pivot = i;
  });
  const pv = parts[pivot] as { raw: string; n: string };
  let occurrences = wholeCandidates(ctx, pv.raw, pv.n);
  if (occurrences.length > MAX_PIVOTS) {
    occurrences = occurrences
      .sort((x, y) => Number(ctx.hinted.has(y.startSeg)) - Number(ctx.hinted.has(x.startSeg)) || y.score - x.score)
      .slice(0, MAX_PIVOTS);
  }
  const out: Candidate[] = [];
  for (const occ of occurrences) {
    const hits: PartHit[] = [];
    hits[pivot] = { a: occ.jStart, b: occ.jEnd, errors: occ.errors, score: occ.score, fuzzy: occ.method === 'fuzzy', mismatch: occ.mismatch ?? null };
    let ok = true;
    let cur = occ.jEnd;
    for (let i = pivot + 1; ok && i < parts.length; i++) {
      const h = spellings(parts[i]).reduce<PartHit | null>((hit, n) => hit ?? findInWindow(ctx, n, cur, cur + gapAfter(i - 1) + n.length + budgetFor(n, rate) + 1, true), null);
      if (!h) ok = false;
      else {
        hits[i] = h;
        cur = h.b;
      }
    }
    cur = occ.jStart;
    for (let i = pivot - 1; ok && i >= 0; i--) {
      const h = spellings(parts[i]).reduce<PartHit | null>((hit, n) => hit ?? findInWindow(ctx, n, cur - gapAfter(i) - n.length - budgetFor(n, rate) - 1, cur, false), null);
      if (!h) ok = false;
      else {
        hits[i] = h;
        cur = h.a;
      }
    }
    if (!ok) continue;
    const c = partsCandidate(ctx.p, hits, parts.slice(1).map((x) => ({ kind: x.gap?.kind ?? 'elision', mark: x.gap?.mark ?? '…' })));
    if (c) out.push(c);
  }
  return out;
}
