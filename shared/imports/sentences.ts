/**
 * Sentence splitting with exact offsets, and citation markers inside answer text. Used to find
 * a citation's claim (the sentence its marker sits in) and by the answerers, whose quotes must be
 * exact ranges of the source text.
 */

import { markerClauses } from './clauses.ts';

export interface Span {
  start: number;
  end: number;
  text: string;
}

// Words that end with a full stop but rarely end a sentence.
const ABBREVIATIONS = new Set(
  'e.g i.e etc mr mrs ms dr prof st vs cf inc ltd co no nos art sec fig figs p pp para ch vol ed eds approx al jr sr dept est u.s u.k'.split(' '),
);

/** A citation marker: [1], [S2], [^3], [^note], and groups like [1, 2] or [1][2]. */
export const MARKER_GROUP = /\[\^[\w-]+\](?!:)|\[(?:[A-Za-z]{0,3}\d+)(?:\s*[,;]\s*[A-Za-z]{0,3}\d+)*\](?![(:])/g;

/** The individual marker labels of a group: "[1, 2]" → ["1", "2"], "[^n]" → ["n"], "[S3]" → ["S3"]. */
export function markerLabels(group: string): string[] {
  const inner = group.slice(1, -1);
  if (inner.startsWith('^')) return [inner.slice(1)];
  return inner.split(/\s*[,;]\s*/).filter((s) => s.length > 0);
}

export interface MarkerHit {
  label: string;
  /** Range of the whole group in the text. */
  start: number;
  end: number;
}

export function findMarkers(text: string): MarkerHit[] {
  const out: MarkerHit[] = [];
  for (const m of text.matchAll(MARKER_GROUP)) {
    for (const label of markerLabels(m[0])) out.push({ label, start: m.index, end: m.index + m[0].length });
  }
  return out;
}

/** The text with its marker groups removed and the spacing around them tidied. */
export function stripMarkers(text: string): string {
  return text
    .replace(MARKER_GROUP, '')
    // "claim [1]." leaves "claim ."; a space before ".1" is part of a figure and stays.
    // (Only from the start of a run of spaces: retrying inside a long run costs its length squared.)
    .replace(/(?<![ \t])[ \t]+([.,;:!?])(?!\p{Nd})/gu, '$1')
    .replace(/\s+/g, ' ')
    .trim();
}

function isSpace(c: string | undefined): boolean {
  return c !== undefined && /\s/.test(c);
}

const MAX_ABBREVIATION = Math.max(...[...ABBREVIATIONS].map((a) => a.length));

/** Whether the "." at `i` ends an abbreviation or a number ("3.5", "p. 12", "e.g."). */
function isNonTerminalDot(text: string, i: number): boolean {
  const next = text[i + 1];
  if (next !== undefined && /\d/.test(next) && /\d/.test(text[i - 1] ?? '')) return true;
  // Abbreviations and initials are short: the look back stops after a few letters, or "a.a.a.…"
  // would rescan the whole run at every dot.
  let j = i;
  while (j > 0 && i - j <= MAX_ABBREVIATION && /[\p{L}.]/u.test(text[j - 1] ?? '')) j--;
  if (i - j > MAX_ABBREVIATION) return false;
  const word = text.slice(j, i).toLowerCase();
  if (ABBREVIATIONS.has(word)) return true;
  // A single capital letter and a dot is an initial ("J. Smith").
  if (/^\p{Lu}$/u.test(text.slice(j, i))) return true;
  return false;
}

const CONTINUES = /(?:^|\s)(?:the|a|an|of|and|or|to|by|in|for|with|on|at|from|as|that|is|are|was|were)$/i;

/**
 * Whether the line break at `i` ends a heading-like line ("Section 3: Leave"): a short line with
 * no closing punctuation, not ending in a word that continues a sentence, before a capital. A
 * wrapped line of running text rarely looks like that.
 */
function isHeadingBreak(text: string, i: number): boolean {
  const lineStart = text.lastIndexOf('\n', i - 1) + 1;
  const line = text.slice(lineStart, i).trim();
  if (line.length === 0 || line.length > 60 || /[.!?,;:\-–—(]$/.test(line) || CONTINUES.test(line)) return false;
  let k = i + 1;
  while (k < text.length && (text[k] === ' ' || text[k] === '\t')) k++;
  return /\p{Lu}/u.test(text[k] ?? '');
}

/**
 * Sentences of `text` with exact [start, end) offsets (trimmed of surrounding whitespace). A
 * sentence ends at . ! ? (plus closing quotes/brackets and any citation markers that follow),
 * before whitespace and a capital, digit-free opening; at a blank line; and at the end.
 */
export function splitSentences(text: string): Span[] {
  const out: Span[] = [];
  const push = (a: number, b: number): void => {
    while (a < b && isSpace(text[a])) a++;
    while (b > a && isSpace(text[b - 1])) b--;
    if (b > a) out.push({ start: a, end: b, text: text.slice(a, b) });
  };
  let start = 0;
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text[i];
    // A blank line (paragraph break) always ends a sentence.
    if (c === '\n') {
      let j = i + 1;
      while (j < n && (text[j] === ' ' || text[j] === '\t' || text[j] === '\r')) j++;
      if (text[j] === '\n' || isHeadingBreak(text, i)) {
        push(start, i);
        start = text[j] === '\n' ? j + 1 : i + 1;
        i = start;
        continue;
      }
    }
    if (c === '.' || c === '!' || c === '?' || c === '。' || c === '！' || c === '？') {
      if (c === '.' && isNonTerminalDot(text, i)) {
        i++;
        continue;
      }
      let j = i + 1;
      while (j < n && /[.!?"'”’)\]»]/.test(text[j] ?? '') && !(text[j] === '[')) j++;
      // Citation markers right after the full stop belong to this sentence.
      for (;;) {
        let k = j;
        while (k < n && (text[k] === ' ' || text[k] === '\t')) k++;
        MARKER_GROUP.lastIndex = 0;
        const rest = text.slice(k, k + 40);
        const m = /^(?:\[\^[\w-]+\]|\[(?:[A-Za-z]{0,3}\d+)(?:\s*[,;]\s*[A-Za-z]{0,3}\d+)*\])/.exec(rest);
        if (!m) break;
        j = k + m[0].length;
      }
      const after = text[j];
      if (j >= n || isSpace(after)) {
        let k = j;
        while (k < n && isSpace(text[k])) k++;
        const next = text[k];
        // CJK full stops need no space; Latin ones need a following capital, quote or end.
        if (k >= n || c === '。' || c === '！' || c === '？' || (next !== undefined && /[\p{Lu}\p{Lo}"“‘'(\[*_#-]/u.test(next))) {
          push(start, j);
          start = j;
          i = j;
          continue;
        }
      }
      i = j;
      continue;
    }
    i++;
  }
  push(start, n);
  return out;
}

/** The sentence of `text` that contains offset `at` (or the last one before it), by binary search. */
export function sentenceAt(sentences: readonly Span[], at: number): Span | undefined {
  let lo = 0;
  let hi = sentences.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((sentences[mid]?.start ?? 0) <= at) lo = mid + 1;
    else hi = mid;
  }
  return lo > 0 ? sentences[lo - 1] : undefined;
}

/**
 * The claim of a marker at `at`: in a sentence with several markers, the clause that marker closes
 * (see clauses.ts); else its sentence with markers removed. Each sentence is read once and its
 * claims shared by every marker in it: an answer with thousands of markers in one long "sentence"
 * must not cost markers × sentence length.
 */
export function claimFinder(sentences: readonly Span[]): (at: number) => string | undefined {
  const claims = new Map<Span, { whole: string; byMarker: Map<number, string> }>();
  return (at) => {
    const sentence = sentenceAt(sentences, at);
    if (!sentence) return undefined;
    let read = claims.get(sentence);
    if (read === undefined) {
      const byMarker = new Map<number, string>();
      for (const c of markerClauses(sentence.text)) byMarker.set(sentence.start + c.at, c.claim);
      read = { whole: stripMarkers(sentence.text), byMarker };
      claims.set(sentence, read);
    }
    return read.byMarker.get(at) ?? read.whole;
  };
}
