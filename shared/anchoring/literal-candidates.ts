/** Exact (verbatim) and normalised occurrences of a quote: every one scores 1. */
import type { Segment } from './match-types.ts';
import type { PreparedSegments } from './prepared-segments.ts';
import { type Candidate, candidateFromJoined, lowerBound, MAX_OCCURRENCES } from './candidates.ts';
import type { NormalisedText } from './normalise.ts';

export function exactCandidates(p: PreparedSegments<Segment>, q: string): Candidate[] {
  const out: Candidate[] = [];
  for (let i = 0; i < p.segments.length && out.length < MAX_OCCURRENCES; i++) {
    const text = (p.segments[i] as Segment).text;
    const norm = p.norms[i] as NormalisedText;
    const base = p.starts[i] ?? -1;
    for (let at = text.indexOf(q); at >= 0 && out.length < MAX_OCCURRENCES; at = text.indexOf(q, at + 1)) {
      const end = at + q.length;
      // Position in joined: first normalised char at or after the original offsets.
      const ja = lowerBound(norm.map, at, norm.text.length);
      const jb = lowerBound(norm.map, end, norm.text.length);
      const jStart = base < 0 ? 0 : base + ja;
      const jEnd = base < 0 ? 0 : base + jb;
      out.push({ startSeg: i, start: at, endSeg: i, endStart: at, end, firstEnd: end, jStart, jEnd, score: 1, errors: 0, method: 'exact', aligned: true });
    }
  }
  return out;
}

export function normalisedCandidates(p: PreparedSegments<Segment>, nq: string, q: string): Candidate[] {
  const out: Candidate[] = [];
  const j = p.joined;
  for (let at = j.indexOf(nq); at >= 0 && out.length < MAX_OCCURRENCES; at = j.indexOf(nq, at + 1)) {
    const c = candidateFromJoined(p, at, at + nq.length, 'normalised', 0, 1);
    if (!c) continue;
    if (c.startSeg === c.endSeg && (p.segments[c.startSeg] as Segment).text.slice(c.start, c.end) === q) c.method = 'exact';
    out.push(c);
  }
  return out;
}

/**
 * The first verbatim occurrence among the hinted segments (all segments when nothing is hinted),
 * and whether it is the only one there; null when there is none.
 */
export function rawExact(segments: readonly Segment[], q: string, hinted: Set<number>): { candidate: Candidate; unique: boolean } | null {
  let first: Candidate | null = null;
  for (let i = 0; i < segments.length; i++) {
    if (hinted.size > 0 && !hinted.has(i)) continue;
    const text = (segments[i] as Segment).text;
    const at = text.indexOf(q);
    if (at < 0) continue;
    if (first) return { candidate: first, unique: false };
    const end = at + q.length;
    first = { startSeg: i, start: at, endSeg: i, endStart: at, end, firstEnd: end, jStart: 0, jEnd: 0, score: 1, errors: 0, method: 'exact', aligned: true };
    if (text.indexOf(q, at + 1) >= 0) return { candidate: first, unique: false };
  }
  return first ? { candidate: first, unique: true } : null;
}
