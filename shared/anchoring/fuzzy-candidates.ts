/** Fuzzy occurrences of a quote: windows verified with bit-parallel Myers (approx-string-match). */
import search from 'approx-string-match';
import type { Segment } from './match-types.ts';
import type { PreparedSegments } from './prepared-segments.ts';
import { numberMismatch } from './number-check.ts';
import { type Candidate, candidateFromJoined, lowerBound } from './candidates.ts';
import type { Window } from './fuzzy-windows.ts';

interface Hit {
  start: number;
  end: number;
  errors: number;
}

/**
 * Verifies windows with Myers. Separately, each window keeps its own best occurrence (the hinted
 * page must not lose to a better one elsewhere). Batched, the windows are searched in one call,
 * joined by runs of k + 1 NULs that no match can cross (NUL never survives normalisation): one
 * pattern set-up instead of hundreds, and only the overall best occurrences come back.
 */
export function fuzzyCandidates(
  p: PreparedSegments<Segment>,
  windows: Window[],
  nq: string,
  k: number,
  minScore: number,
  batch: boolean,
): Candidate[] {
  const m = nq.length;
  const usable = windows.filter((w) => w.to - w.from >= m - k);
  const hits: Hit[] = [];
  if (!batch) {
    for (const w of usable) {
      for (const f of search(p.joined.slice(w.from, w.to), nq, k)) hits.push({ start: w.from + f.start, end: w.from + f.end, errors: f.errors });
    }
  } else if (usable.length > 0) {
    const sep = '\u0000'.repeat(k + 1);
    const offsets = new Int32Array(usable.length);
    const parts: string[] = [];
    let pos = 0;
    usable.forEach((w, i) => {
      if (i > 0) {
        parts.push(sep);
        pos += sep.length;
      }
      offsets[i] = pos;
      parts.push(p.joined.slice(w.from, w.to));
      pos += w.to - w.from;
    });
    for (const f of search(parts.join(''), nq, k)) {
      const wi = lowerBound(offsets, f.start + 1) - 1;
      const w = usable[wi];
      if (!w) continue;
      const base = offsets[wi] ?? 0;
      // A match may lean on a few separator chars at its edges; clip it to its window.
      const start = w.from + Math.max(0, f.start - base);
      const end = Math.min(w.to, w.from + (f.end - base));
      if (end > start) hits.push({ start, end, errors: f.errors });
    }
  }
  // Myers reports every end position at the minimum error count, so one occurrence yields a run
  // of overlapping hits. Keep, per run, the fewest errors, then the length closest to the quote's.
  hits.sort((a, b) => a.start - b.start || a.end - b.end);
  const out: Candidate[] = [];
  let best: Hit | null = null;
  let runEnd = -1;
  const flush = (): void => {
    if (!best) return;
    const score = 1 - best.errors / m;
    if (score >= minScore) {
      const c = candidateFromJoined(p, best.start, best.end, 'fuzzy', best.errors, score);
      if (c) {
        const mismatch = numberMismatch(nq, p.joined.slice(c.jStart, c.jEnd));
        if (mismatch) c.mismatch = mismatch;
        out.push(c);
      }
    }
    best = null;
  };
  for (const h of hits) {
    if (best && h.start < runEnd) {
      const b: Hit = best;
      if (h.errors < b.errors || (h.errors === b.errors && Math.abs(h.end - h.start - m) < Math.abs(b.end - b.start - m))) best = h;
      runEnd = Math.max(runEnd, h.end);
    } else {
      flush();
      best = h;
      runEnd = h.end;
    }
  }
  flush();
  return out;
}
