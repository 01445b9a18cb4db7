/** Choosing between a quote's candidates: found beats weak, the hint, prefix/suffix, then literalness. */
import type { MatchMethod, QuoteHint, Segment } from './match-types.ts';
import type { PreparedSegments } from './prepared-segments.ts';
import { lowerBound, type Candidate } from './candidates.ts';
import { similarity } from './context.ts';

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

/** The hint's `near` range as a range of the joined haystack; null when it names no searched segment. */
export function nearRange(p: PreparedSegments<Segment>, hint: QuoteHint | null | undefined): { ja: number; jb: number } | null {
  const near = hint?.near;
  if (!near) return null;
  const i = p.segments.findIndex((s) => String(s.id) === String(near.segmentId));
  const base = i >= 0 ? (p.starts[i] ?? -1) : -1;
  const norm = p.norms[i];
  if (base < 0 || !norm) return null;
  const at = (offset: number): number => base + lowerBound(norm.map, offset, norm.text.length);
  return { ja: at(near.start), jb: at(Math.max(near.start, near.end)) };
}

const METHOD_RANK: Record<MatchMethod, number> = { exact: 0, normalised: 1, fuzzy: 2 };
const SCORE_TIE = 0.02;

/**
 * Chooses between candidates: a found (≥ verifiedScore) occurrence beats a weaker one; then the
 * hinted location; then scores within SCORE_TIE count as equal and prefix/suffix decide; then the
 * one nearest the hint's `near` range; then the more literal method; then whole-character
 * boundaries; then document order.
 */
export function choose(
  p: PreparedSegments<Segment>,
  cands: Candidate[],
  hinted: Set<number>,
  prefixN: string,
  suffixN: string,
  verifiedScore: number,
  near: { ja: number; jb: number } | null = null,
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
  if (group.length > 1 && near) {
    const distance = (c: Candidate): number => Math.max(0, near.ja - c.jEnd, c.jStart - near.jb);
    const closest = Math.min(...group.map(distance));
    group = group.filter((c) => distance(c) === closest);
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
