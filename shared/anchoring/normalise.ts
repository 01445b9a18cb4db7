/**
 * Text normalisation for anchoring (DESIGN.md §4, §5): storage keeps the extractor's text
 * untouched, so every normalised character carries the original range it came from.
 *
 * Convention: for normalised char i, `map[i]` is the offset of the first original UTF-16 unit
 * of the original character (or cluster) that produced it and `ends[i]` is the offset just past
 * that character. `map[text.length] === original.length`. A normalised range [a, b) therefore
 * covers the original range [map[a], ends[b - 1]) — `originalRange()` does exactly that, so a
 * match never swallows the removed characters (soft hyphens, a line-end hyphen, a whitespace
 * run) that follow its last character.
 */

import {
  digitReplacement,
  isCjkCode,
  isCombining,
  isCombiningAt,
  isDash,
  isLetterCode,
  isLetterCodePoint,
  isLineBreak,
  isRemovable,
  isSpace,
  quoteReplacement,
} from './char-classes.ts';
import { letterSpacedJoins } from './letter-spaced-joins.ts';

export { isCjkCode, isLetterCode } from './char-classes.ts';

export interface NormalisedText {
  /** The normalised text. */
  text: string;
  /** Start offset in the original of each normalised char, plus `original.length` at the end. */
  map: Int32Array;
  /** End offset in the original (exclusive) of each normalised char. */
  ends: Int32Array;
}

/** Maps a normalised range [a, b) back to the original range it covers. */
export function originalRange(n: NormalisedText, a: number, b: number): { start: number; end: number } {
  if (b <= a) {
    const at = n.map[Math.min(Math.max(a, 0), n.text.length)] ?? 0;
    return { start: at, end: at };
  }
  return { start: n.map[a] ?? 0, end: n.ends[b - 1] ?? 0 };
}

/**
 * Whether the normalised range [a, b) starts and ends on whole original characters: a range that
 * starts or ends inside a ligature's expansion ("f" of "ﬀ") maps back to the whole ligature.
 */
export function isClusterAligned(n: NormalisedText, a: number, b: number): boolean {
  const startOk = a <= 0 || n.map[a - 1] !== n.map[a];
  const endOk = b >= n.text.length || n.map[b] !== n.map[b - 1];
  return startOk && endOk;
}

/**
 * normalise()'s answers, by text: a claim verdict normalises its claim and its evidence several
 * times over (numbers, dates, sentences, word diffs). Bounded by the characters held, forgotten
 * all at once when full; texts longer than a passage are not kept.
 */
const normalisedCache = new Map<string, string>();
let normalisedChars = 0;
const NORMALISED_CACHE_CHARS = 1_000_000;
const NORMALISED_TEXT_MAX = 20_000;

/** Convenience for callers that only need the string. */
export function normalise(text: string): string {
  const hit = normalisedCache.get(text);
  if (hit !== undefined) return hit;
  const out = normaliseWithMap(text).text;
  if (text.length <= NORMALISED_TEXT_MAX) {
    if (normalisedChars + text.length + out.length > NORMALISED_CACHE_CHARS) {
      normalisedCache.clear();
      normalisedChars = 0;
    }
    normalisedCache.set(text, out);
    normalisedChars += text.length + out.length;
  }
  return out;
}

/**
 * Per-cluster result cache: NFKC + quote/dash/space mapping + lowercase of one cluster. Non-Latin
 * documents repeat a few thousand distinct clusters, and String#normalize per char is the
 * expensive part of normalising them.
 */
const clusterCache = new Map<string, string>();
const CLUSTER_CACHE_MAX = 20_000;

function mapCluster(cluster: string): string {
  const cached = clusterCache.get(cluster);
  if (cached !== undefined) return cached;
  const nfkc = cluster.normalize('NFKC');
  let out = '';
  for (const ch of nfkc) {
    const cp = ch.codePointAt(0) ?? 0;
    if (isRemovable(cp)) continue;
    if (isSpace(cp)) { out += ' '; continue; }
    if (isDash(cp)) { out += '-'; continue; }
    const q = quoteReplacement(cp);
    if (q >= 0) { out += String.fromCharCode(q); continue; }
    const d = digitReplacement(cp);
    if (d >= 0) { out += String.fromCharCode(d); continue; }
    out += ch.toLowerCase();
  }
  if (clusterCache.size >= CLUSTER_CACHE_MAX) clusterCache.clear();
  clusterCache.set(cluster, out);
  return out;
}

/**
 * Hyphens inside words: at a hyphen, dash or soft hyphen at `i` that follows a letter, returns the
 * index of the letter that continues the word after "more dashes, then spaces with at most one line
 * break", or -1. The hyphen and the gap are dropped on both sides of a comparison, so line-end
 * hyphenation ("exam-\nple"), a compound broken at its hyphen ("well-\nknown"), the same word typed
 * whole ("well-known", "example") and a reflowed copy ("exam- ple") all read alike.
 */
function hyphenJoinResume(text: string, i: number, soft = false): number {
  let j = i + 1;
  const n = text.length;
  while (j < n) {
    const c = text.charCodeAt(j);
    if (c !== 0x2d && !isDash(c)) break;
    j++;
  }
  let breaks = 0;
  while (j < n) {
    const c = text.charCodeAt(j);
    if (isLineBreak(c)) {
      // CRLF counts as one break.
      if (c === 0x0d && text.charCodeAt(j + 1) === 0x0a) j++;
      if (++breaks > 1) return -1;
    } else if (!(isSpace(c) || isRemovable(c))) break;
    j++;
  }
  if (j >= n) return -1;
  // An invisible soft hyphen before a space is no join ("ple\u00AD text" is two words).
  if (soft && breaks === 0 && j > i + 1) return -1;
  const cp = text.codePointAt(j) ?? 0;
  if (cp < 0x80) return (cp >= 0x61 && cp <= 0x7a) || (cp >= 0x41 && cp <= 0x5a) ? j : -1;
  return isLetterCodePoint(cp) ? j : -1;
}


/** Growable output buffers; typed arrays keep 500k-char pages cheap. */
class Builder {
  codes: Uint16Array;
  map: Int32Array;
  ends: Int32Array;
  length = 0;
  constructor(capacity: number) {
    this.codes = new Uint16Array(capacity);
    this.map = new Int32Array(capacity + 1);
    this.ends = new Int32Array(capacity);
  }
  /** Starts again with room for `capacity` chars (what is past `length` is never read). */
  reset(capacity: number): this {
    this.length = 0;
    // Grown past twice the scratch limit (a text whose characters expand): let that go.
    if (this.codes.length < capacity || this.codes.length > 2 * SCRATCH_MAX) {
      this.codes = new Uint16Array(capacity);
      this.map = new Int32Array(capacity + 1);
      this.ends = new Int32Array(capacity);
    }
    return this;
  }
  push(code: number, start: number, end: number): void {
    if (this.length >= this.codes.length) this.grow();
    this.codes[this.length] = code;
    this.map[this.length] = start;
    this.ends[this.length] = end;
    this.length++;
  }
  private grow(): void {
    const cap = this.codes.length * 2 + 16;
    const codes = new Uint16Array(cap);
    codes.set(this.codes);
    const map = new Int32Array(cap + 1);
    map.set(this.map);
    const ends = new Int32Array(cap);
    ends.set(this.ends);
    this.codes = codes;
    this.map = map;
    this.ends = ends;
  }
  toText(): string {
    let s = '';
    const CHUNK = 8192;
    for (let i = 0; i < this.length; i += CHUNK) {
      const part = this.codes.subarray(i, Math.min(this.length, i + CHUNK));
      s += String.fromCharCode.apply(null, part as unknown as number[]);
    }
    return s;
  }
}

/** The one builder of texts up to this many chars: 64k chars, 640 kB held. */
const SCRATCH_MAX = 65_536;
const scratch = new Builder(1024);

/**
 * Normalises `text` for matching and records where every normalised char came from.
 * NFKC (per cluster: a code point plus its combining marks), curly quotes → straight, dashes →
 * "-" (a run of them → one), Arabic-Indic digits → ASCII, invisible characters removed, hyphens
 * inside words dropped (line-end hyphenation joined), the tracking inside letter-spaced words
 * dropped, whitespace runs → one space except next to Han or kana and between dots, lowercase,
 * trimmed.
 */
export function normaliseWithMap(text: string, options: { letterSpaced?: boolean } = {}): NormalisedText {
  const n = text.length;
  // `letterSpaced: false` keeps the gaps of letter-spaced words (a quote's part, matched where the
  // source has its letters apart).
  const spacedJoins = options.letterSpaced === false ? null : letterSpacedJoins(text);
  // Short texts (words, claims, passages) reuse one builder: its buffers never leave this function
  // (the result copies them), and allocating three typed arrays per call cost more than the work.
  const b = n + 16 <= SCRATCH_MAX ? scratch.reset(n + 16) : new Builder(n + 16);
  // A pending space is emitted lazily before the next visible char, which collapses runs and
  // trims both ends without a second pass.
  let pendingSpace = false;
  let spaceStart = 0;
  let spaceEnd = 0;
  let lastCode = -1;

  // `next` is the char about to be emitted: no space goes next to Han or kana (unspaced scripts),
  // nor between two dots (". . ." is "...").
  const emitSpaceIfPending = (next: number): void => {
    if (pendingSpace) {
      const drop = isCjkCode(next) || isCjkCode(lastCode) || (next === 0x2e && lastCode === 0x2e);
      if (b.length > 0 && !drop) b.push(0x20, spaceStart, spaceEnd);
      pendingSpace = false;
    }
  };
  const markSpace = (start: number, end: number): void => {
    if (!pendingSpace) {
      pendingSpace = true;
      spaceStart = start;
      spaceEnd = end;
    }
  };

  let i = 0;
  while (i < n) {
    const code = text.charCodeAt(i);
    const next = i + 1 < n ? text.charCodeAt(i + 1) : 0;
    // Fast path: ASCII not followed by a combining mark.
    if (code < 0x80 && !(next >= 0x0300 && isCombiningAt(text, i + 1))) {
      if (code === 0x20 || (code >= 0x09 && code <= 0x0d)) {
        // The tracking inside a letter-spaced word ("F I N A N C I A L") is no word gap.
        if (spacedJoins !== null && spacedJoins[i] === 1) { i++; continue; }
        markSpace(i, i + 1);
        i++;
        continue;
      }
      if (isRemovable(code)) { i++; continue; }
      if (code === 0x2d && !pendingSpace) {
        if (lastCode >= 0 && isLetterCode(lastCode)) {
          const resume = hyphenJoinResume(text, i);
          if (resume >= 0) { i = resume; continue; }
        }
        // A run of dashes is one dash ("--" typed for "—").
        if (lastCode === 0x2d) { i++; continue; }
      }
      emitSpaceIfPending(code);
      const lower = code >= 0x41 && code <= 0x5a ? code + 32 : code;
      b.push(lower, i, i + 1);
      lastCode = lower;
      i++;
      continue;
    }

    const cp = text.codePointAt(i) ?? code;
    const cpLen = cp > 0xffff ? 2 : 1;
    if (isRemovable(cp)) {
      if (cp === 0xad && !pendingSpace && lastCode >= 0 && isLetterCode(lastCode)) {
        const resume = hyphenJoinResume(text, i, true);
        if (resume >= 0) { i = resume; continue; }
      }
      i += cpLen;
      continue;
    }
    if (isSpace(cp)) {
      markSpace(i, i + cpLen);
      i += cpLen;
      continue;
    }
    if (isDash(cp) && !pendingSpace) {
      if (lastCode >= 0 && isLetterCode(lastCode)) {
        const resume = hyphenJoinResume(text, i);
        if (resume >= 0) { i = resume; continue; }
      }
      if (lastCode === 0x2d) { i += cpLen; continue; }
    }
    // Cluster = this code point plus any combining marks, so NFKC can compose "e\u0301" → "é".
    let j = i + cpLen;
    while (j < n) {
      const c2 = text.codePointAt(j) ?? 0;
      if (!isCombining(c2)) break;
      j += c2 > 0xffff ? 2 : 1;
    }
    // A combining mark cut off from its base by a removed invisible char ("e\u00AD\u0301"):
    // compose it onto the last emitted char, as NFKC would have without the invisible char.
    if (isCombining(cp) && !pendingSpace && b.length > 0) {
      const prev = String.fromCharCode(b.codes[b.length - 1] ?? 0);
      const composed = (prev + text.slice(i, j)).normalize('NFKC').toLowerCase();
      if (composed.length === 1) {
        b.codes[b.length - 1] = composed.charCodeAt(0);
        b.ends[b.length - 1] = j;
        lastCode = composed.charCodeAt(0);
        i = j;
        continue;
      }
    }
    const mapped = mapCluster(text.slice(i, j));
    for (let k = 0; k < mapped.length; k++) {
      const mc = mapped.charCodeAt(k);
      if (mc === 0x20) { markSpace(i, j); continue; }
      emitSpaceIfPending(mc);
      b.push(mc, i, j);
      lastCode = mc;
    }
    i = j;
  }
  b.map[b.length] = n;
  return { text: b.toText(), map: b.map.slice(0, b.length + 1), ends: b.ends.slice(0, b.length) };
}
