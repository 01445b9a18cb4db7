/**
 * A candidate is one place a quote could be, as a range of the joined haystack mapped back to
 * segments and original offsets; the helpers here build and combine them.
 */
import type { FindQuoteOptions, MatchGap, MatchMethod, NumberMismatch, Segment } from './match-types.ts';
import type { PreparedSegments } from './prepared-segments.ts';
import { isClusterAligned, type NormalisedText } from './normalise.ts';

export interface Candidate {
  startSeg: number;
  start: number;
  endSeg: number;
  endStart: number;
  end: number;
  /** End of the match's part in the start segment. */
  firstEnd: number;
  /** Range in `joined`, for context comparison. */
  jStart: number;
  jEnd: number;
  score: number;
  errors: number;
  method: MatchMethod;
  /** False when a boundary falls inside one original char's expansion (e.g. a ligature). */
  aligned: boolean;
  /** Ranges of `joined` inside [jStart, jEnd) that the quote leaves out. */
  gaps?: { ja: number; jb: number; kind: MatchGap['kind']; mark?: string }[];
  /** The candidate's numbers differ from the quote's: a misquote, not a match. */
  mismatch?: NumberMismatch;
}

export const MAX_OCCURRENCES = 2000;

/** First index in the (non-decreasing) array whose value is >= x. */
export function lowerBound(arr: Int32Array, x: number, hi: number = arr.length): number {
  let lo = 0;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((arr[mid] ?? 0) < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Index into `segments` of the segment whose normalised text covers joined position `pos`, else -1. */
function segmentAt(p: PreparedSegments<Segment>, pos: number): number {
  const k = lowerBound(p.includedStarts, pos + 1) - 1;
  if (k < 0) return -1;
  const idx = p.included[k] ?? -1;
  const start = p.includedStarts[k] ?? 0;
  const len = p.norms[idx]?.text.length ?? 0;
  return pos < start + len ? idx : -1;
}

/** Builds a candidate from a range of `joined`, trimming separators and spaces at its edges. */
export function candidateFromJoined(
  p: PreparedSegments<Segment>,
  a: number,
  b: number,
  method: MatchMethod,
  errors: number,
  score: number,
): Candidate | null {
  const j = p.joined;
  while (a < b && (j.charCodeAt(a) === 0x20 || segmentAt(p, a) < 0)) a++;
  while (b > a && (j.charCodeAt(b - 1) === 0x20 || segmentAt(p, b - 1) < 0)) b--;
  if (b <= a) return null;
  const si = segmentAt(p, a);
  const ei = segmentAt(p, b - 1);
  const sn = p.norms[si] as NormalisedText;
  const en = p.norms[ei] as NormalisedText;
  const sStart = p.starts[si] ?? 0;
  const eStart = p.starts[ei] ?? 0;
  const start = sn.map[a - sStart] ?? 0;
  const end = en.ends[b - 1 - eStart] ?? 0;
  const firstEnd = si === ei ? end : (sn.ends[sn.text.length - 1] ?? 0);
  const endStart = si === ei ? start : (en.map[0] ?? 0);
  const aligned = isClusterAligned(sn, a - sStart, sn.text.length) && isClusterAligned(en, 0, b - eStart);
  return { startSeg: si, start, endSeg: ei, endStart, end, firstEnd, jStart: a, jEnd: b, score, errors, method, aligned };
}

export interface SearchContext {
  p: PreparedSegments<Segment>;
  hinted: Set<number>;
  minScore: number;
  options: FindQuoteOptions;
}

export const keyOf = (c: Candidate): string => `${c.startSeg}:${c.start}:${c.endSeg}:${c.end}`;

export interface PartHit {
  a: number;
  b: number;
  errors: number;
  score: number;
  fuzzy: boolean;
  mismatch: NumberMismatch | null;
}

/** What lies between two parts of a quote: its kind, and for an alteration the quote's bracketed words. */
export interface PartGap {
  kind: MatchGap['kind'];
  mark?: string;
}

/**
 * A candidate from parts found in order, spanning the first part's start to the last one's end;
 * `gaps[i]` says what lies between hits i and i + 1.
 */
export function partsCandidate(p: PreparedSegments<Segment>, hits: PartHit[], gaps: readonly PartGap[]): Candidate | null {
  const first = hits[0];
  const last = hits[hits.length - 1];
  if (!first || !last) return null;
  const score = Math.min(...hits.map((h) => h.score));
  const errors = hits.reduce((n, h) => n + h.errors, 0);
  const c = candidateFromJoined(p, first.a, last.b, hits.some((h) => h.fuzzy) ? 'fuzzy' : 'normalised', errors, score);
  if (!c) return null;
  c.gaps = [];
  for (let i = 1; i < hits.length; i++) {
    const gap = gaps[i - 1] ?? { kind: 'elision' };
    c.gaps.push({ ja: (hits[i - 1] as PartHit).b, jb: (hits[i] as PartHit).a, kind: gap.kind, ...(gap.kind === 'alteration' && gap.mark ? { mark: gap.mark } : {}) });
  }
  const mismatches = hits.flatMap((h) => (h.mismatch ? [h.mismatch] : []));
  if (mismatches.length > 0) c.mismatch = { quote: mismatches.flatMap((m) => m.quote), source: mismatches.flatMap((m) => m.source) };
  return c;
}
