/**
 * Segments normalised once and joined into one haystack (with a cache of normalisations), so that
 * a single indexOf or Myers pass covers every segment and every page break.
 */
import type { PrepareOptions, Segment } from './match-types.ts';
import { type NormalisedText, normaliseWithMap } from './normalise.ts';

/**
 * Segments with their normalised text, joined into one haystack so a single indexOf or Myers
 * pass covers every segment and every page break. Reuse it across the citations of one source.
 */
export interface PreparedSegments<S extends Segment = Segment> {
  readonly kind: 'prepared-segments';
  readonly segments: readonly S[];
  readonly norms: readonly NormalisedText[];
  /** Normalised texts of non-empty segments joined by " " (neighbours) or "\n" (a gap). */
  readonly joined: string;
  /** Indexes (into `segments`) of the segments present in `joined`, in order. */
  readonly included: Int32Array;
  /** Start of each included segment's normalised text in `joined`. */
  readonly includedStarts: Int32Array;
  /** Start in `joined` per segment index, -1 when the segment normalises to nothing. */
  readonly starts: Int32Array;
  /** Positions of "\n" separators: no match may cross them. */
  readonly hardBreaks: Int32Array;
}

// Normalised text per segment object, re-used while the object and its text stay the same; and
// per text content, bounded, for callers that load fresh segment objects for every citation
// (hashing a page's text once is far cheaper than normalising it again).
const normByObject = new WeakMap<object, { text: string; norm: NormalisedText }>();
const normByText = new Map<string, NormalisedText>();
let normByTextChars = 0;
const NORM_CACHE_MAX_CHARS = 2_000_000;

function normFor(seg: Segment): NormalisedText {
  const hit = normByObject.get(seg);
  if (hit && hit.text === seg.text) return hit.norm;
  let norm = normByText.get(seg.text);
  if (norm) {
    // Refresh its place in the LRU order.
    normByText.delete(seg.text);
    normByText.set(seg.text, norm);
  } else {
    norm = normaliseWithMap(seg.text);
    if (seg.text.length <= NORM_CACHE_MAX_CHARS / 4) {
      normByText.set(seg.text, norm);
      normByTextChars += seg.text.length;
      for (const [text] of normByText) {
        if (normByTextChars <= NORM_CACHE_MAX_CHARS) break;
        normByText.delete(text);
        normByTextChars -= text.length;
      }
    }
  }
  normByObject.set(seg, { text: seg.text, norm });
  return norm;
}

/** Drops cached normalisations held by text (memory pressure, tests). */
export function clearNormalisationCache(): void {
  normByText.clear();
  normByTextChars = 0;
}

/** Neighbours by page (same or next page), else by ordinal, else by list order. */
export function defaultIsAdjacent(a: Segment, b: Segment): boolean {
  if (typeof a.page === 'number' && typeof b.page === 'number') {
    const d = b.page - a.page;
    return d === 0 || d === 1;
  }
  if (typeof a.ordinal === 'number' && typeof b.ordinal === 'number') return b.ordinal - a.ordinal === 1;
  return true;
}

export function prepareSegments<S extends Segment>(segments: readonly S[], options: PrepareOptions = {}): PreparedSegments<S> {
  const isAdjacent = options.isAdjacent ?? defaultIsAdjacent;
  const norms = segments.map((s) => normFor(s));
  const starts = new Int32Array(segments.length).fill(-1);
  const included: number[] = [];
  const includedStarts: number[] = [];
  const hardBreaks: number[] = [];
  const parts: string[] = [];
  let pos = 0;
  let chainAdjacent = true; // every link since the last included segment was adjacent
  for (let i = 0; i < segments.length; i++) {
    const seg = segments[i] as S;
    if (i > 0 && !isAdjacent(segments[i - 1] as S, seg)) chainAdjacent = false;
    const norm = norms[i] as NormalisedText;
    if (norm.text.length === 0) continue; // a blank page keeps the chain across it
    if (included.length > 0) {
      if (!chainAdjacent) hardBreaks.push(pos);
      parts.push(chainAdjacent ? ' ' : '\n');
      pos += 1;
    }
    starts[i] = pos;
    included.push(i);
    includedStarts.push(pos);
    parts.push(norm.text);
    pos += norm.text.length;
    chainAdjacent = true;
  }
  return {
    kind: 'prepared-segments',
    segments,
    norms,
    joined: parts.join(''),
    included: Int32Array.from(included),
    includedStarts: Int32Array.from(includedStarts),
    starts,
    hardBreaks: Int32Array.from(hardBreaks),
  };
}

export function isPrepared<S extends Segment>(x: readonly S[] | PreparedSegments<S>): x is PreparedSegments<S> {
  return !Array.isArray(x) && (x as PreparedSegments<S>).kind === 'prepared-segments';
}
