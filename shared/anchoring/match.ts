/**
 * Quote anchoring (DESIGN.md §5): exact, then normalised (through the offset map), then fuzzy
 * (bit-parallel Myers via approx-string-match). A quote may run across consecutive segments
 * (a page break, with the running head and foot between its parts), and may leave text out
 * with an ellipsis ("…", "...", "[...]"): its parts are then anchored in order, close together.
 * A fuzzy match whose numbers differ from the quote's is a misquote, never a match. Pure: no DOM,
 * no Node.
 */
import search from 'approx-string-match';
import { isCjkCode, isClusterAligned, normaliseWithMap, type NormalisedText } from './normalise.ts';
import { editDistance, surrounding, CONTEXT_CHARS } from './context.ts';

/** Below this score a fuzzy hit is never returned (the bottom of `partial`). */
export const MIN_MATCH_SCORE = 0.75;
/** At or above this score a quote counts as found (`verified` / `verified_elsewhere`). */
export const VERIFIED_MATCH_SCORE = 0.9;
/** Default share of edits allowed by the fuzzy stage (DESIGN.md §5: ~10–15%). */
export const DEFAULT_MAX_ERROR_RATE = 0.15;

export type SegmentId = number | string;

/** A stored segment in document order: a PDF page, a DOCX block, a run of lines. */
export interface Segment {
  id: SegmentId;
  text: string;
  page?: number | null;
  /** Position of the segment in its source; tells whether two segments of a narrowed list are neighbours. */
  ordinal?: number | null;
}

/** The claimed location, searched first and preferred between equally good occurrences. */
export interface QuoteHint {
  segmentIds?: readonly SegmentId[];
  pages?: readonly number[];
}

export type MatchMethod = 'exact' | 'normalised' | 'fuzzy';

export interface QuoteMatch<S extends Segment = Segment> {
  segmentId: SegmentId;
  /** Offset of the first matched char in `segment.text`. */
  start: number;
  /** End (exclusive) in `segment.text`; for a match that runs on, the end of its part in this segment. */
  end: number;
  /** Set only when the match runs on into a later segment: where it ends. */
  endSegmentId?: SegmentId;
  /** Start of the match's part in the end segment (usually 0). */
  endStart?: number;
  /** End (exclusive) of the match in `endSegment.text`. */
  endOffset?: number;
  score: number;
  method: MatchMethod;
  /** The original matched text (parts in different segments joined with "\n"). */
  text: string;
  /** Edits counted on normalised text (0 for exact and normalised matches). */
  errors: number;
  page?: number;
  endPage?: number;
  /** Up to 32 chars of original text before and after, for re-anchoring in a new version. */
  prefix: string;
  suffix: string;
  segment: S;
  endSegment?: S;
  /** Text of the source left out between the quote's parts (its elisions, page furniture). */
  gaps?: MatchGap[];
  /**
   * Set only with `reportMisquotes`: the closest text differs from the quote in a number, so the
   * quote is not in the source as written. Never a found quote, whatever its score.
   */
  numberMismatch?: NumberMismatch;
}

export interface MatchGap {
  /** An ellipsis of the quote, or a running head / foot / page number between two pages. */
  kind: 'elision' | 'page-furniture';
  /** The original text left out (parts in different segments joined with "\n"). */
  text: string;
}

export interface NumberMismatch {
  /** Numbers of the quote that the source text does not have. */
  quote: string[];
  /** Numbers of the source text that the quote does not have. */
  source: string[];
}

export interface FindQuoteOptions {
  hint?: QuoteHint | null;
  /** Text expected before / after the quote (TextQuoteSelector); chooses between occurrences. */
  prefix?: string | null;
  suffix?: string | null;
  /** Lowest fuzzy score returned (default 0.75; never lower). */
  minScore?: number;
  /** Score that counts as found; used to prefer a found occurrence at the hint (default 0.90). */
  verifiedScore?: number;
  /** Fuzzy edit budget as a share of the normalised quote length (default 0.15). */
  maxErrorRate?: number;
  /** Normalised quotes shorter than this are never fuzzy-matched: short strings match noise. */
  minFuzzyLength?: number;
  fuzzy?: boolean;
  /** Segments whose joined normalised text is at most this long are scanned whole. */
  fullScanMaxChars?: number;
  /** Whether `b` directly follows `a` in the document (a quote may run across them). */
  isAdjacent?: (a: Segment, b: Segment) => boolean;
  /** Longest stretch of source text (normalised chars) an ellipsis of the quote may stand for. */
  elisionMaxGap?: number;
  /**
   * Return the closest misquote (a fuzzy match whose numbers differ from the quote's) with
   * `numberMismatch` set when nothing better exists, instead of null.
   */
  reportMisquotes?: boolean;
}

export interface PrepareOptions {
  isAdjacent?: (a: Segment, b: Segment) => boolean;
}

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

function isPrepared<S extends Segment>(x: readonly S[] | PreparedSegments<S>): x is PreparedSegments<S> {
  return !Array.isArray(x) && (x as PreparedSegments<S>).kind === 'prepared-segments';
}

// ---------------------------------------------------------------------------------------------
// Candidate terms for the caller's FTS narrowing

export const STOPWORDS: ReadonlySet<string> = new Set(
  (
    'a about above after again against all also am an and any are as at be because been before being below ' +
    'between both but by can could did do does doing down during each either etc few for from further had has ' +
    'have having he her here hers herself him himself his how however i if in into is it its itself just least ' +
    'may me might more most must my myself neither no nor not now of off on once only or other otherwise our ours ' +
    'ourselves out over own per same shall she should so some such than that the their theirs them themselves then ' +
    'there these they this those through thus to too under until up upon us very via was we were what when where ' +
    'whether which while who whom whose why will with within without would yet you your yours yourself yourselves'
  ).split(' '),
);

const WORD_RE = /[\p{L}\p{N}]+/gu;

/** Words of normalised text with Han and kana runs split off: those are no FTS terms (see cjkNeedles). */
function latinWords(norm: string): { w: string; index: number }[] {
  const out: { w: string; index: number }[] = [];
  for (const m of norm.matchAll(WORD_RE)) {
    const word = m[0];
    let start = -1;
    for (let i = 0; i <= word.length; i++) {
      const cjk = i < word.length && isCjkCode(word.charCodeAt(i));
      if (i < word.length && !cjk) {
        if (start < 0) start = i;
      } else if (start >= 0) {
        out.push({ w: word.slice(start, i), index: m.index + start });
        start = -1;
      }
    }
  }
  return out;
}

/**
 * The longest distinct content words of a quote (a cheap proxy for rarest), numbers first, for an
 * FTS query that narrows candidate segments. Use them with OR: a typo can spoil any one of them.
 * Han and kana are left out: FTS5's unicode61 tokenizer indexes a whole unspaced run as one token,
 * which a quote that starts or ends mid-run never reproduces.
 */
export function candidateTerms(quote: string, max = 8): string[] {
  const norm = normaliseWithMap(quote).text;
  const seen = new Set<string>();
  const terms: { w: string; pos: number; digit: boolean }[] = [];
  for (const { w, index } of latinWords(norm)) {
    const digit = /\p{N}/u.test(w);
    if (seen.has(w) || STOPWORDS.has(w)) continue;
    if (digit ? w.length < 2 : w.length < 3) continue;
    seen.add(w);
    terms.push({ w, pos: index, digit });
  }
  terms.sort((x, y) => Number(y.digit) - Number(x.digit) || y.w.length - x.w.length || x.pos - y.pos);
  return terms.slice(0, max).map((t) => t.w);
}

const CJK_RUN_RE = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]{3,}/gu;

/**
 * Substrings of the quote's Han / kana text, as typed, spread over it: a substring search for any
 * of them (several, since a line break in the source may split one) narrows the candidates where
 * FTS cannot. Empty when the quote has no such run of 3 or more characters.
 */
export function cjkNeedles(quote: string, max = 6, size = 3): string[] {
  const pieces: string[] = [];
  for (const m of quote.normalize('NFKC').matchAll(CJK_RUN_RE)) {
    const run = m[0];
    for (let at = 0; at + size <= run.length; at += size) pieces.push(run.slice(at, at + size));
  }
  if (pieces.length <= max) return [...new Set(pieces)];
  const out = new Set<string>();
  for (let i = 0; i < max; i++) out.add(pieces[Math.floor((i * (pieces.length - 1)) / (max - 1))] as string);
  return [...out];
}

/**
 * Length of a normalised quote for deciding what fuzzy matching may do with it: a Han or kana
 * character says about as much as a short Latin word, so it counts three.
 */
export function effectiveLength(nq: string): number {
  let n = nq.length;
  for (let i = 0; i < nq.length; i++) if (isCjkCode(nq.charCodeAt(i))) n += 2;
  return n;
}

// An ellipsis standing for left-out text: "…", "...", ". . .", "[...]", "[…]", "(...)", "(…)".
const ELISION_RE = /\s*(?:\[\s*(?:…|(?:\.\s?){2}\.)\s*\]|\(\s*(?:…|(?:\.\s?){2}\.)\s*\)|(?:\.\s?){2}\.|…)\s*/gu;

/** The parts of a quote between its ellipses (none at its ends), or the quote alone. */
export function splitElisions(quote: string): string[] {
  return quote
    .split(ELISION_RE)
    .map((p) => p.trim())
    .filter((p) => /[\p{L}\p{N}]/u.test(p));
}

// ---------------------------------------------------------------------------------------------
// Matching

interface Candidate {
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
  gaps?: { ja: number; jb: number; kind: MatchGap['kind'] }[];
  /** The candidate's numbers differ from the quote's: a misquote, not a match. */
  mismatch?: NumberMismatch;
}

const MAX_OCCURRENCES = 2000;

// Thousands separators are formatting, not digits: "1,000" and "1000" are one number.
const NUMBER_RE = /\p{Nd}+(?:,\p{Nd}{3}(?!\p{Nd}))*/gu;

function numbersIn(text: string): string[] {
  return (text.match(NUMBER_RE) ?? []).map((n) => n.replace(/,/g, ''));
}

/**
 * Numbers of the (normalised) quote that the (normalised) source text lacks, and the source's
 * numbers the quote lacks; null when every number of the quote is there. A changed figure, year
 * or section number is not a typo: "45 days" is not a quote of "30 days". Extra numbers in the
 * source (footnote marks, page numbers) are tolerated.
 */
export function numberMismatch(nq: string, found: string): NumberMismatch | null {
  const wanted = numbersIn(nq);
  if (wanted.length === 0) return null;
  const have = new Map<string, number>();
  for (const n of numbersIn(found)) have.set(n, (have.get(n) ?? 0) + 1);
  const missing: string[] = [];
  for (const n of wanted) {
    const left = have.get(n) ?? 0;
    if (left > 0) have.set(n, left - 1);
    else missing.push(n);
  }
  if (missing.length === 0) return null;
  const extra: string[] = [];
  for (const [n, count] of have) for (let i = 0; i < count; i++) extra.push(n);
  return { quote: missing, source: extra };
}

/** First index in the (non-decreasing) array whose value is >= x. */
function lowerBound(arr: Int32Array, x: number, hi: number = arr.length): number {
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
function candidateFromJoined(
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

function exactCandidates(p: PreparedSegments<Segment>, q: string): Candidate[] {
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

function normalisedCandidates(p: PreparedSegments<Segment>, nq: string, q: string): Candidate[] {
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

interface Window {
  from: number;
  to: number;
}

interface Anchor {
  word: string;
  /** Offsets of the word in the normalised quote. */
  offsets: number[];
  hits: number[];
}

const MAX_HITS_PER_ANCHOR = 300;

/** Words of the normalised quote to look for exactly; each hit implies where the quote would sit. */
function pickAnchors(nq: string, k: number): Anchor[] {
  const byWord = new Map<string, number[]>();
  const add = (w: string, at: number): void => {
    const offs = byWord.get(w);
    if (offs) offs.push(at);
    else byWord.set(w, [at]);
  };
  for (const m of nq.matchAll(WORD_RE)) {
    const w = m[0];
    if (effectiveLength(w) === w.length) {
      add(w, m.index);
      continue;
    }
    // Unspaced Han / kana: three-character pieces stand in for words.
    for (let at = 0; at < w.length; at += 3) add(w.slice(at, at + 3), m.index + at);
  }
  let words = [...byWord.keys()].filter((w) => effectiveLength(w) >= 4 && !STOPWORDS.has(w));
  if (words.length < 3) words = [...byWord.keys()].filter((w) => effectiveLength(w) >= 3);
  words.sort((a, b) => effectiveLength(b) - effectiveLength(a));
  const maxAnchors = Math.max(6, Math.min(12, Math.ceil(nq.length / 12)));
  const anchors: Anchor[] = words.slice(0, maxAnchors).map((w) => ({ word: w, offsets: byWord.get(w) ?? [], hits: [] }));
  if (anchors.length < 3) {
    // Few words (numbers, symbols, CJK runs): fall back to fixed-length pieces of the quote.
    const len = Math.max(4, Math.floor(nq.length / (k + 1)));
    for (let at = 0; at + len <= nq.length && anchors.length < maxAnchors; at += len) {
      anchors.push({ word: nq.slice(at, at + len), offsets: [at], hits: [] });
    }
  }
  return anchors;
}

/** Windows of `joined` worth verifying with Myers: around hinted segments and anchor clusters. */
interface FuzzyPlan {
  /** Around the hinted segments; verified on their own so their best occurrence always surfaces. */
  hinted: Window[];
  /** The whole haystack when small, else clusters backed by several anchors. */
  main: Window[];
  /** Clusters backed by one anchor: verified (batched) only when nothing else matched. */
  weak: Window[];
}

function fuzzyWindows(p: PreparedSegments<Segment>, nq: string, k: number, hinted: Set<number>, fullScanMaxChars: number): FuzzyPlan {
  const m = nq.length;
  const J = p.joined.length;
  const hintWindows: Window[] = [];
  for (const i of hinted) {
    const s = p.starts[i] ?? -1;
    if (s < 0) continue;
    const len = p.norms[i]?.text.length ?? 0;
    hintWindows.push({ from: s - m - k, to: s + len + m + k });
  }
  if (J <= fullScanMaxChars) return { hinted: hintWindows, main: [{ from: 0, to: J }], weak: [] };

  const anchors = pickAnchors(nq, k);
  for (const a of anchors) {
    for (let at = p.joined.indexOf(a.word); at >= 0; at = p.joined.indexOf(a.word, at + 1)) {
      a.hits.push(at);
      if (a.hits.length > MAX_HITS_PER_ANCHOR) break;
    }
  }
  // Frequent words say little about where the quote sits; keep the rare ones.
  const useful = anchors.filter((a) => a.hits.length > 0 && a.hits.length <= MAX_HITS_PER_ANCHOR);
  if (useful.length === 0 && anchors.every((a) => a.hits.length === 0)) return { hinted: hintWindows, main: [], weak: [] };
  if (useful.length < 2 && anchors.some((a) => a.hits.length > MAX_HITS_PER_ANCHOR)) {
    // Nothing selective to go on: a full Myers pass is still only O(n·k/32).
    return { hinted: hintWindows, main: [{ from: 0, to: J }], weak: [] };
  }

  // Each hit votes for a diagonal (where the quote would start); cluster nearby diagonals.
  const votes: { d: number; a: number }[] = [];
  useful.forEach((a, ai) => {
    for (const h of a.hits) for (const o of a.offsets) votes.push({ d: h - o, a: ai });
  });
  votes.sort((x, y) => x.d - y.d);
  const strong: Window[] = [];
  const weak: Window[] = [];
  const gap = Math.max(k, 8);
  const pad = k + 16;
  const minVotes = useful.length >= 4 ? 2 : 1;
  let i = 0;
  while (i < votes.length) {
    const first = votes[i] as { d: number; a: number };
    const seen = new Set<number>([first.a]);
    let last = first.d;
    let j = i + 1;
    while (j < votes.length && (votes[j] as { d: number }).d - last <= gap) {
      const v = votes[j] as { d: number; a: number };
      seen.add(v.a);
      last = v.d;
      j++;
    }
    const w = { from: first.d - pad, to: last + m + pad };
    (seen.size >= minVotes ? strong : weak).push(w);
    i = j;
  }
  return { hinted: hintWindows, main: strong, weak };
}

/** Sorts, clips, merges, and splits windows at hard breaks (no match crosses a gap). */
function tidyWindows(p: PreparedSegments<Segment>, ws: Window[]): Window[] {
  const J = p.joined.length;
  const clipped = ws
    .map((w) => ({ from: Math.max(0, w.from), to: Math.min(J, w.to) }))
    .filter((w) => w.to > w.from)
    .sort((a, b) => a.from - b.from);
  const merged: Window[] = [];
  for (const w of clipped) {
    const last = merged[merged.length - 1];
    if (last && w.from <= last.to) last.to = Math.max(last.to, w.to);
    else merged.push({ ...w });
  }
  if (p.hardBreaks.length === 0) return merged;
  const out: Window[] = [];
  for (const w of merged) {
    let from = w.from;
    for (let bi = lowerBound(p.hardBreaks, from); bi < p.hardBreaks.length; bi++) {
      const br = p.hardBreaks[bi] ?? 0;
      if (br >= w.to) break;
      if (br > from) out.push({ from, to: br });
      from = br + 1;
    }
    if (w.to > from) out.push({ from, to: w.to });
  }
  return out;
}

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
function fuzzyCandidates(
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

function hintedIndexes(segments: readonly Segment[], hint: QuoteHint | null | undefined): Set<number> {
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
function choose(
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

/** The original text of a candidate's range; parts in different segments joined with "\n". */
function candidateText(segments: readonly Segment[], starts: Int32Array | null, c: Candidate): string {
  const seg = segments[c.startSeg] as Segment;
  let text = seg.text.slice(c.start, c.firstEnd);
  if (c.endSeg !== c.startSeg) {
    for (let i = c.startSeg + 1; i < c.endSeg; i++) {
      if ((starts?.[i] ?? -1) >= 0) text += '\n' + (segments[i] as Segment).text;
    }
    text += '\n' + (segments[c.endSeg] as Segment).text.slice(c.endStart, c.end);
  }
  return text;
}

function toMatch<S extends Segment>(segments: readonly S[], starts: Int32Array | null, c: Candidate, p: PreparedSegments<Segment> | null = null): QuoteMatch<S> {
  const seg = segments[c.startSeg] as S;
  const endSeg = segments[c.endSeg] as S;
  const spans = c.endSeg !== c.startSeg;
  const text = candidateText(segments, starts, c);
  const before = surrounding(seg.text, c.start, c.firstEnd, CONTEXT_CHARS);
  const after = surrounding(endSeg.text, spans ? c.endStart : c.start, c.end, CONTEXT_CHARS);
  const result: QuoteMatch<S> = {
    segmentId: seg.id,
    start: c.start,
    end: c.firstEnd,
    score: c.score,
    method: c.method,
    text,
    errors: c.errors,
    prefix: before.prefix,
    suffix: after.suffix,
    segment: seg,
  };
  if (typeof seg.page === 'number') result.page = seg.page;
  if (spans) {
    result.endSegmentId = endSeg.id;
    result.endStart = c.endStart;
    result.endOffset = c.end;
    result.endSegment = endSeg;
    if (typeof endSeg.page === 'number') result.endPage = endSeg.page;
  }
  if (c.gaps && p) {
    const gaps: MatchGap[] = [];
    for (const g of c.gaps) {
      const gc = candidateFromJoined(p, g.ja, g.jb, c.method, 0, 1);
      let text = gc ? candidateText(segments, starts, gc) : '';
      // A line-end hyphen before the furniture belongs to the word the quote joins.
      if (g.kind === 'page-furniture') text = text.replace(/^[-\u00AD\u2010][^\S\n]*(?:\n|$)/, '');
      gaps.push({ kind: g.kind, text });
    }
    result.gaps = gaps;
  }
  if (c.mismatch) result.numberMismatch = c.mismatch;
  return result;
}

/**
 * Edits allowed for a normalised quote of length m: the full rate from 60 chars up, ramping down
 * to 5% at 20 chars, because a short quote with many edits matches unrelated text (a 25-char
 * quote with 4 edits "finds" any sentence sharing one long word).
 */
export function fuzzyErrorBudget(m: number, maxErrorRate: number = DEFAULT_MAX_ERROR_RATE): number {
  if (m >= 60) return Math.min(m - 1, Math.ceil(maxErrorRate * m));
  const low = Math.min(0.05, maxErrorRate);
  const rate = low + (maxErrorRate - low) * Math.max(0, (m - 20) / 40);
  return Math.max(1, Math.floor(rate * m));
}

/** The edit budget of a normalised quote: by its effective length, never above the rate per char. */
function budgetFor(nq: string, maxErrorRate: number): number {
  const eff = effectiveLength(nq);
  if (eff === nq.length) return fuzzyErrorBudget(nq.length, maxErrorRate);
  return Math.min(fuzzyErrorBudget(eff, maxErrorRate), Math.max(1, Math.floor(nq.length * maxErrorRate)));
}

/**
 * The first verbatim occurrence among the hinted segments (all segments when nothing is hinted),
 * and whether it is the only one there; null when there is none.
 */
function rawExact(segments: readonly Segment[], q: string, hinted: Set<number>): { candidate: Candidate; unique: boolean } | null {
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

interface SearchContext {
  p: PreparedSegments<Segment>;
  hinted: Set<number>;
  minScore: number;
  options: FindQuoteOptions;
}

const keyOf = (c: Candidate): string => `${c.startSeg}:${c.start}:${c.endSeg}:${c.end}`;

/**
 * Every place `q` (normalised `nq`) could be: its exact and normalised occurrences (all scoring
 * 1, so the hint can choose), else its fuzzy ones, misquotes among them flagged.
 */
function wholeCandidates(ctx: SearchContext, q: string, nq: string): Candidate[] {
  const { p, options } = ctx;
  const pooled = new Map<string, Candidate>();
  for (const c of exactCandidates(p, q)) pooled.set(keyOf(c), c);
  if (nq.length > 0) {
    for (const c of normalisedCandidates(p, nq, q)) if (!pooled.has(keyOf(c))) pooled.set(keyOf(c), c);
  }
  if (pooled.size > 0) return [...pooled.values()];
  if (options.fuzzy === false || effectiveLength(nq) < (options.minFuzzyLength ?? 20)) return [];
  const k = budgetFor(nq, options.maxErrorRate ?? DEFAULT_MAX_ERROR_RATE);
  const plan = fuzzyWindows(p, nq, k, ctx.hinted, options.fullScanMaxChars ?? 20_000);
  const found = new Map<string, Candidate>();
  const add = (cs: Candidate[]): void => {
    for (const c of cs) if (!found.has(keyOf(c))) found.set(keyOf(c), c);
  };
  for (const w of tidyWindows(p, plan.hinted)) add(fuzzyCandidates(p, [w], nq, k, ctx.minScore, false));
  add(fuzzyCandidates(p, tidyWindows(p, plan.main), nq, k, ctx.minScore, false));
  if (found.size === 0 && plan.weak.length > 0) add(fuzzyCandidates(p, tidyWindows(p, plan.weak), nq, k, ctx.minScore, true));
  return [...found.values()];
}

interface PartHit {
  a: number;
  b: number;
  errors: number;
  score: number;
  fuzzy: boolean;
  mismatch: NumberMismatch | null;
}

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

/** A candidate from parts found in order, spanning the first part's start to the last one's end. */
function partsCandidate(p: PreparedSegments<Segment>, hits: PartHit[], kind: MatchGap['kind']): Candidate | null {
  const first = hits[0];
  const last = hits[hits.length - 1];
  if (!first || !last) return null;
  const score = Math.min(...hits.map((h) => h.score));
  const errors = hits.reduce((n, h) => n + h.errors, 0);
  const c = candidateFromJoined(p, first.a, last.b, hits.some((h) => h.fuzzy) ? 'fuzzy' : 'normalised', errors, score);
  if (!c) return null;
  c.gaps = [];
  for (let i = 1; i < hits.length; i++) c.gaps.push({ ja: (hits[i - 1] as PartHit).b, jb: (hits[i] as PartHit).a, kind });
  const mismatches = hits.flatMap((h) => (h.mismatch ? [h.mismatch] : []));
  if (mismatches.length > 0) c.mismatch = { quote: mismatches.flatMap((m) => m.quote), source: mismatches.flatMap((m) => m.source) };
  return c;
}

/** Longest stretch of source text an ellipsis may stand for, in normalised chars (~200 words). */
export const ELISION_MAX_GAP = 1200;
const MAX_PIVOTS = 200;

/**
 * A quote with ellipses: its most telling part is anchored like a whole quote, then the others in
 * order, each at most `elisionMaxGap` after (or before) its neighbour. Parts never match out of
 * order or far apart; the score is the weakest part's.
 */
function elidedCandidates(ctx: SearchContext, rawParts: string[]): Candidate[] {
  const parts = rawParts.map((raw) => ({ raw, n: normaliseWithMap(raw).text })).filter((x) => x.n.length > 0);
  if (parts.length < 2) return [];
  const maxGap = ctx.options.elisionMaxGap ?? ELISION_MAX_GAP;
  const rate = ctx.options.maxErrorRate ?? DEFAULT_MAX_ERROR_RATE;
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
      const n = (parts[i] as { n: string }).n;
      const h = findInWindow(ctx, n, cur, cur + maxGap + n.length + budgetFor(n, rate) + 1, true);
      if (!h) ok = false;
      else {
        hits[i] = h;
        cur = h.b;
      }
    }
    cur = occ.jStart;
    for (let i = pivot - 1; ok && i >= 0; i--) {
      const n = (parts[i] as { n: string }).n;
      const h = findInWindow(ctx, n, cur - maxGap - n.length - budgetFor(n, rate) - 1, cur, false);
      if (!h) ok = false;
      else {
        hits[i] = h;
        cur = h.a;
      }
    }
    if (!ok) continue;
    const c = partsCandidate(ctx.p, hits, 'elision');
    if (c) out.push(c);
  }
  return out;
}

/** Furniture may take up to this many lines at the foot of a page and at the head of the next. */
const FURNITURE_LINES = 3;
const FURNITURE_LINE_CHARS = 70;
const FURNITURE_ZONE = FURNITURE_LINES * (FURNITURE_LINE_CHARS + 1);

function furnitureLines(text: string): string[] | null {
  const lines = text.split('\n').map((l) => l.trim()).filter((l) => l.length > 0);
  if (lines.length > FURNITURE_LINES || lines.some((l) => l.length > FURNITURE_LINE_CHARS)) return null;
  return lines;
}

/**
 * Whether what lies between a quote's head (ending at `endA` in page A) and its tail (starting at
 * `startB` in page B) is page furniture: whole short lines at the foot of A and the head of B,
 * numbered (a page number, a running head with one), or nothing but a line-end hyphen. Body text
 * left out silently is no page break: the quote would misrepresent the source.
 */
function isFurnitureGap(a: Segment, endA: number, b: Segment, startB: number): boolean {
  const rest = a.text.slice(endA).replace(/^[-\u00AD\u2010]/, '');
  const before = b.text.slice(0, startB);
  if (!/^[^\S\n]*(?:\n|$)/.test(rest) || !/(?:^|\n)[^\S\n]*$/.test(before)) return false;
  const foot = furnitureLines(rest);
  const head = furnitureLines(before);
  if (!foot || !head) return false;
  const skipped = [...foot, ...head];
  if (skipped.length === 0) return true;
  return skipped.some((l) => /\p{N}/u.test(l) || /(?:^|\s)[ivxlcdm]{1,7}(?:\s|$)/i.test(l));
}

/**
 * A quote that runs from the foot of one page onto the next with page furniture (running head and
 * foot, page number) between its two parts. Exact and normalised parts only; each at least a few
 * characters. The split is the longest head the foot of the page holds.
 */
function pageBreakCandidates(ctx: SearchContext, nq: string): Candidate[] {
  const { p } = ctx;
  const m = nq.length;
  const MIN_PART = 4;
  if (m < 2 * MIN_PART + 8) return [];
  const first = nq.slice(0, MIN_PART);
  const last = nq.slice(m - MIN_PART);
  const out: Candidate[] = [];
  for (let k = 0; k + 1 < p.included.length; k++) {
    const ia = p.included[k] ?? 0;
    const ib = p.included[k + 1] ?? 0;
    const sa = p.includedStarts[k] ?? 0;
    const sb = p.includedStarts[k + 1] ?? 0;
    if (p.joined.charCodeAt(sb - 1) !== 0x20) continue; // not neighbours
    const na = p.norms[ia] as NormalisedText;
    const nb = p.norms[ib] as NormalisedText;
    const ea = sa + na.text.length;
    const zoneA = Math.max(sa, ea - FURNITURE_ZONE - m);
    const zoneB = Math.min(sb + nb.text.length, sb + FURNITURE_ZONE + m);
    const tailA = p.joined.slice(zoneA, ea);
    const headB = p.joined.slice(sb, zoneB);
    if (!tailA.includes(first) || !headB.includes(last)) continue;
    // Longest prefix of the quote anywhere in the foot zone (monotone: binary search).
    let lo = MIN_PART;
    let hi = m - MIN_PART;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if (tailA.includes(nq.slice(0, mid))) lo = mid;
      else hi = mid - 1;
    }
    // The longest head may run into the furniture by chance: also try the word breaks before it.
    const splits = [lo];
    for (let s = lo - 1; s > MIN_PART && splits.length < 4; s--) if (nq.charCodeAt(s) === 0x20) splits.push(s);
    for (const s of splits) {
      const headText = nq.slice(0, s).trimEnd();
      const tailText = nq.slice(s).trimStart();
      if (headText.length < MIN_PART || tailText.length < MIN_PART) continue;
      const hAt = tailA.lastIndexOf(headText);
      const tAt = headB.indexOf(tailText);
      if (hAt < 0 || tAt < 0) continue;
      const ha = zoneA + hAt;
      const hb = ha + headText.length;
      const ta = sb + tAt;
      const tb = ta + tailText.length;
      const endA = na.ends[hb - 1 - sa] ?? 0;
      const startB = nb.map[ta - sb] ?? 0;
      if (!isFurnitureGap(p.segments[ia] as Segment, endA, p.segments[ib] as Segment, startB)) continue;
      const hit = (a: number, b: number): PartHit => ({ a, b, errors: 0, score: 1, fuzzy: false, mismatch: null });
      const c = partsCandidate(p, [hit(ha, hb), hit(ta, tb)], 'page-furniture');
      if (c) out.push(c);
      break;
    }
  }
  return out;
}

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
