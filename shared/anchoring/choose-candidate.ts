/** Choosing between a quote's candidates: found beats weak, the hint, prefix/suffix, then literalness. */
import type { MatchMethod, QuoteHint, Segment } from './match-types.ts';
import type { PreparedSegments } from './prepared-segments.ts';
import type { Candidate } from './candidates.ts';
import { editDistance } from './context.ts';

export function hintedIndexes(segments: readonly Segment[], hint: QuoteHint | null | undefined): Set<number> {
  const set = new Set<number>();
  if (!hint) return set;
  const ids = new Set((hint.segmentIds ?? []).map((x) => String(x)));
  const pages = new Set(hint.pages ?? []);
  segments.forEach((s, i) => {
    if (ids.has(String(s.id)) || (typeof s.page === 'number' && pages.has(s.page))) set.add(i);
  });
  return set;
}

function similarity(expected: string, actual: string): number {
  if (expected.length === 0) return 0;
  return 1 - Math.min(1, editDistance(expected, actual) / expected.length);
}

const METHOD_RANK: Record<MatchMethod, number> = { exact: 0, normalised: 1, fuzzy: 2 };
const SCORE_TIE = 0.02;

/**
 * Chooses between candidates: a found (≥ verifiedScore) occurrence beats a weaker one; then the
 * hinted location; then scores within SCORE_TIE count as equal and prefix/suffix decide; then the
 * more literal method; then whole-character boundaries; then document order.
 */
export function choose(
  p: PreparedSegments<Segment>,
  cands: Candidate[],
  hinted: Set<number>,
  prefixN: string,
  suffixN: string,
  verifiedScore: number,
): Candidate | null {
  if (cands.length === 0) return null;
  let group = cands.filter((c) => c.score >= verifiedScore - 1e-9);
  if (group.length === 0) group = cands;
  const atHint = group.filter((c) => hinted.has(c.startSeg) || hinted.has(c.endSeg));
  if (atHint.length > 0) group = atHint;
  const top = Math.max(...group.map((c) => c.score));
  group = group.filter((c) => c.score >= top - SCORE_TIE);
  if (group.length > 1 && (prefixN || suffixN)) {
    const ctx = group.map((c) => {
      let s = 0;
      if (prefixN) s += similarity(prefixN, p.joined.slice(Math.max(0, c.jStart - prefixN.length - 1), c.jStart).trimEnd().slice(-prefixN.length));
      if (suffixN) s += similarity(suffixN, p.joined.slice(c.jEnd, c.jEnd + suffixN.length + 1).trimStart().slice(0, suffixN.length));
      return s;
    });
    const best = Math.max(...ctx);
    group = group.filter((_, i) => (ctx[i] ?? 0) >= best - 1e-9);
  }
  group.sort(
    (a, b) =>
      METHOD_RANK[a.method] - METHOD_RANK[b.method] ||
      Number(b.aligned) - Number(a.aligned) ||
      b.score - a.score ||
      a.startSeg - b.startSeg ||
      a.start - b.start,
  );
  return group[0] ?? null;
}
