import { isCombining, isLetterCode } from './char-classes.ts';

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
export function letterSpacedJoins(text: string): Uint8Array | null {
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
