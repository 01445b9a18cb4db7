/**
 * Quotes over letter-spaced text whose word gaps the extractor lost: pdfjs keeps one space for
 * the wide gap of "F I N A N C I A L   S T A T E M E N T S", so normalisation (which drops the
 * tracking, see normalise.ts) reads "financialstatements". The quote, read without its spaces,
 * matches there when each of its spaces falls on a space of the source or between two letters of
 * a letter-spaced run, and each space of the source on one of its own: ordinary text keeps its
 * word gaps, so "the rapist" never matches "therapist".
 */
import { type Candidate, candidateFromJoined, MAX_OCCURRENCES, type SearchContext } from './candidates.ts';
import { isCjkCode, isLetterCode, type NormalisedText, normaliseWithMap } from './normalise.ts';
import type { PreparedSegments } from './prepared-segments.ts';

interface SpacelessView {
  /** `joined` without its spaces. */
  flat: string;
  /** Position in `joined` of each char of `flat`. */
  pos: Int32Array;
}

/** tracked[j] = 1: joined chars j and j + 1 are letters of one letter-spaced word; null: none. */
const trackings = new WeakMap<object, Uint8Array | null>();
const views = new WeakMap<object, SpacelessView>();

const LONE_LETTER_RE = / \p{L} /u;

const isTrackedLetter = (code: number): boolean => isLetterCode(code) && !isCjkCode(code);

/**
 * Whether normalised chars t and t + 1 are letters of one letter-spaced word: a single original
 * space between them was dropped (only the letter-spaced rule of normalise.ts drops one there).
 */
function isTrackingGap(n: NormalisedText, original: string, t: number): boolean {
  const gap = n.ends[t] ?? 0;
  return (
    n.map[t + 1] === gap + 1 &&
    original.charCodeAt(gap) === 0x20 &&
    isTrackedLetter(n.text.charCodeAt(t)) &&
    isTrackedLetter(n.text.charCodeAt(t + 1))
  );
}

function trackingOf(p: PreparedSegments): Uint8Array | null {
  const cached = trackings.get(p);
  if (cached !== undefined) return cached;
  let tracked: Uint8Array | null = null;
  for (let k = 0; k < p.included.length; k++) {
    const idx = p.included[k] ?? 0;
    const start = p.includedStarts[k] ?? 0;
    const norm = p.norms[idx];
    const original = p.segments[idx]?.text ?? '';
    if (!norm) continue;
    for (let t = 0; t + 1 < norm.text.length; t++) {
      if (!isTrackingGap(norm, original, t)) continue;
      tracked ??= new Uint8Array(p.joined.length);
      tracked[start + t] = 1;
    }
  }
  trackings.set(p, tracked);
  return tracked;
}

function spacelessView(p: PreparedSegments): SpacelessView {
  const cached = views.get(p);
  if (cached) return cached;
  const { joined } = p;
  const pos = new Int32Array(joined.length);
  let n = 0;
  for (let j = 0; j < joined.length; j++) if (joined.charCodeAt(j) !== 0x20) pos[n++] = j;
  const view: SpacelessView = { flat: joined.replaceAll(' ', ''), pos: pos.slice(0, n) };
  views.set(p, view);
  return view;
}

/**
 * Normalised (score 1) occurrences of quote `q` (normalised `nq`) that differ from the source only
 * in the gaps of letter-spaced words: the source's ("S u m m a r y o f A c c o u n t s") or the
 * quote's ("A B C Merging" against table cells "A", "B", "C").
 */
export function letterSpacedCandidates(ctx: SearchContext, q: string, nq: string): Candidate[] {
  // Only a quote with a lone letter between spaces can have typed one letter-spaced.
  const qn = LONE_LETTER_RE.test(q) ? normaliseWithMap(q) : null;
  const quoteTracked = new Set<number>();
  const quoteSpaces = new Set<number>();
  let qs = '';
  for (let i = 0; i < nq.length; i++) {
    if (nq.charCodeAt(i) === 0x20) quoteSpaces.add(qs.length);
    else {
      if (qn?.text === nq && i > 0 && isTrackingGap(qn, q, i - 1)) quoteTracked.add(qs.length);
      qs += nq.charAt(i);
    }
  }
  const p = ctx.p as PreparedSegments;
  // Without tracking on either side this would only repeat the normalised search.
  const tracked = quoteSpaces.size > 0 ? trackingOf(p) : null;
  if (!tracked && quoteTracked.size === 0) return [];
  const view = spacelessView(p);
  const out: Candidate[] = [];
  let seen = 0;
  for (let f0 = view.flat.indexOf(qs); f0 >= 0 && seen < MAX_OCCURRENCES; f0 = view.flat.indexOf(qs, f0 + 1), seen++) {
    let ok = true;
    let overRun = false;
    for (let f = 1; f < qs.length && ok; f++) {
      const a = view.pos[f0 + f - 1] ?? 0;
      const b = view.pos[f0 + f] ?? 0;
      const sourceSpace = b > a + 1;
      const quoteSpace = quoteSpaces.has(f);
      if (sourceSpace === quoteSpace) continue;
      if ((quoteSpace && tracked?.[a] === 1) || (sourceSpace && quoteTracked.has(f))) overRun = true;
      else ok = false;
    }
    if (!ok || !overRun) continue;
    const c = candidateFromJoined(ctx.p, view.pos[f0] ?? 0, (view.pos[f0 + qs.length - 1] ?? 0) + 1, 'normalised', 0, 1);
    if (c) out.push(c);
  }
  return out;
}
