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

/** Convenience for callers that only need the string. */
export function normalise(text: string): string {
  return normaliseWithMap(text).text;
}

// Characters that carry no visible text: soft hyphen, zero-width space/joiners, BOM, word joiner,
// bidi marks, embeddings, overrides and isolates. C0 controls other than whitespace go too:
// extractors sometimes leave them in and nobody can type them in a quote. So do list bullets
// (a quote leaves them out, or types "-" for them) and the replacement character an extractor
// writes for a glyph it cannot map.
function isRemovable(cp: number): boolean {
  return (
    cp === 0xad ||
    isBullet(cp) ||
    cp === 0xfffd ||
    (cp >= 0x200b && cp <= 0x200f) ||
    (cp >= 0x202a && cp <= 0x202e) ||
    (cp >= 0x2066 && cp <= 0x2069) ||
    cp === 0x2060 ||
    cp === 0xfeff ||
    cp < 0x09 ||
    (cp > 0x0d && cp < 0x20) ||
    cp === 0x7f
  );
}

/** Bullets: •, ‣, ⁃, ∙, ▪, ●, ◦, and the private-use bullets of the Symbol and Wingdings fonts. */
function isBullet(cp: number): boolean {
  return (
    cp === 0x2022 || cp === 0x2023 || cp === 0x2043 || cp === 0x2219 || cp === 0x25aa || cp === 0x25cf || cp === 0x25e6 ||
    cp === 0xf0b7 || cp === 0xf0a7 || cp === 0xf0a8 || cp === 0xf0d8 || cp === 0xf076 || cp === 0xf0fc
  );
}

function isSpace(cp: number): boolean {
  return (
    cp === 0x20 ||
    (cp >= 0x09 && cp <= 0x0d) ||
    cp === 0x85 ||
    cp === 0xa0 ||
    cp === 0x1680 ||
    (cp >= 0x2000 && cp <= 0x200a) ||
    cp === 0x2028 ||
    cp === 0x2029 ||
    cp === 0x202f ||
    cp === 0x205f ||
    cp === 0x3000
  );
}

function isLineBreak(cp: number): boolean {
  return cp === 0x0a || cp === 0x0d || cp === 0x0b || cp === 0x0c || cp === 0x85 || cp === 0x2028 || cp === 0x2029;
}

function isDash(cp: number): boolean {
  return (cp >= 0x2010 && cp <= 0x2015) || cp === 0x2212 || cp === 0x2e3a || cp === 0x2e3b || cp === 0xfe58 || cp === 0xfe63 || cp === 0xff0d;
}

function quoteReplacement(cp: number): number {
  switch (cp) {
    case 0x2018: case 0x2019: case 0x201a: case 0x201b: case 0x2039: case 0x203a: case 0x02bc:
      return 0x27; // '
    case 0x201c: case 0x201d: case 0x201e: case 0x201f: case 0x00ab: case 0x00bb:
      return 0x22; // "
    default:
      return -1;
  }
}

const COMBINING = /\p{M}/u;
const LETTER = /\p{L}/u;

function isCombining(cp: number): boolean {
  if (cp < 0x0300) return false;
  if (cp <= 0x036f) return true;
  return COMBINING.test(String.fromCodePoint(cp));
}

export function isLetterCode(code: number): boolean {
  if (code < 0x80) return (code >= 0x61 && code <= 0x7a) || (code >= 0x41 && code <= 0x5a);
  return LETTER.test(String.fromCharCode(code));
}

/**
 * Han, kana and CJK punctuation: scripts written without spaces between words, so a space next to
 * one of them (a PDF line break inside a sentence, optional spacing around Latin words) says nothing
 * and is dropped on both sides of a comparison. Hangul uses spaces and is not included.
 */
export function isCjkCode(code: number): boolean {
  return (
    (code >= 0x2e80 && code <= 0x2fdf) ||
    (code >= 0x3001 && code <= 0x303f) ||
    (code >= 0x3040 && code <= 0x31ff) ||
    (code >= 0x3400 && code <= 0x4dbf) ||
    (code >= 0x4e00 && code <= 0x9fff) ||
    (code >= 0xf900 && code <= 0xfaff) ||
    (code >= 0xfe30 && code <= 0xfe4f) ||
    (code >= 0xff61 && code <= 0xff9f)
  );
}

/** Arabic-Indic and Persian digits read as ASCII digits: a typed "26" is the source's "۲۶". */
function digitReplacement(cp: number): number {
  if (cp >= 0x0660 && cp <= 0x0669) return 0x30 + cp - 0x0660;
  if (cp >= 0x06f0 && cp <= 0x06f9) return 0x30 + cp - 0x06f0;
  return -1;
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
  return LETTER.test(String.fromCodePoint(cp)) ? j : -1;
}

/** A letter or digit at `i`, or a combining mark (part of the letter before it). */
function isWordCodeAt(text: string, i: number): boolean {
  if (i < 0 || i >= text.length) return false;
  const c = text.charCodeAt(i);
  if ((c >= 0x30 && c <= 0x39) || isLetterCode(c)) return true;
  return c >= 0x80 && (/\p{N}/u.test(text.charAt(i)) || isCombining(c));
}

/**
 * A letter standing alone at `i`: no letter, digit or mark on either side. Ligature characters
 * ("ﬀ", "ﬃ") stand for several letters: never one letter of a letter-spaced word.
 */
function isLoneLetterAt(text: string, i: number): boolean {
  if (i >= text.length) return false;
  const c = text.charCodeAt(i);
  return isLetterCode(c) && !(c >= 0xfb00 && c <= 0xfb4f) && !isWordCodeAt(text, i - 1) && !isWordCodeAt(text, i + 1);
}

/** Shortest chain of lone letters, one space apart, read as one letter-spaced word. */
const LETTER_SPACED_MIN = 3;

/**
 * Letter-spaced text (tracked headings and small caps: "F I N A N C I A L  S T A T E M E N T S",
 * "S u m m a r y"): marks the single spaces that only separate the letters of one word, so that
 * normalisation drops them and the map points at the letters themselves. The rule: a chain of at
 * least three lone letters, each one plain space from the next, is one word; a wider gap (two or
 * more spaces) between such chains is the word boundary, and a short chain ("O F") joins up too
 * when a wide gap ties it to a qualifying one on the same line. Prose rarely has three
 * single-letter words in a row ("I", "a", "(a) (b)" do not chain: punctuation is no lone letter),
 * and a quote is normalised by the same rule, so one copied from such prose still matches.
 * Null when the text has none (the common case).
 */
function letterSpacedJoins(text: string): Uint8Array | null {
  const n = text.length;
  // Cheap test first ("X Y Z": a lone letter between two spaces, lone letters either side).
  let any = false;
  for (let i = text.indexOf(' '); i >= 0 && !any; i = text.indexOf(' ', i + 1)) {
    any = text.charCodeAt(i + 2) === 0x20 && isLoneLetterAt(text, i + 1) && isLoneLetterAt(text, i - 1) && isLoneLetterAt(text, i + 3);
  }
  if (!any) return null;
  // Chains of lone letters one space apart: [first letter, last letter, letters].
  const chains: [number, number, number][] = [];
  for (let i = 0; i < n; i++) {
    if (!isLoneLetterAt(text, i)) continue;
    const first = i;
    let last = first;
    let count = 1;
    while (text.charCodeAt(last + 1) === 0x20 && isLoneLetterAt(text, last + 2)) {
      last += 2;
      count++;
    }
    chains.push([first, last, count]);
    i = last;
  }
  if (!chains.some((c) => c[2] >= LETTER_SPACED_MIN)) return null;
  // Only spaces (no line break) between two chains: the wide gap of one letter-spaced line.
  const wideGap = (a: [number, number, number], b: [number, number, number]): boolean =>
    /^ {2,4}$/u.test(text.slice(a[1] + 1, b[0]));
  const joins = new Uint8Array(n);
  chains.forEach((c, k) => {
    if (c[2] < 2) return;
    const prev = chains[k - 1];
    const next = chains[k + 1];
    const spaced =
      c[2] >= LETTER_SPACED_MIN ||
      (prev !== undefined && prev[2] >= LETTER_SPACED_MIN && wideGap(prev, c)) ||
      (next !== undefined && next[2] >= LETTER_SPACED_MIN && wideGap(c, next));
    if (spaced) for (let s = c[0] + 1; s < c[1]; s += 2) joins[s] = 1;
  });
  return joins;
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
  const b = new Builder(n + 16);
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

function isCombiningAt(text: string, j: number): boolean {
  const cp = text.codePointAt(j);
  return cp !== undefined && isCombining(cp);
}
