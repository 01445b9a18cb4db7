/**
 * Character classes of normalisation (normalise.ts): which code points are invisible, spaces,
 * line breaks, dashes, quotes, combining marks, letters, CJK or non-ASCII digits.
 */


// Characters that carry no visible text: soft hyphen, zero-width space/joiners, BOM, word joiner,
// bidi marks, embeddings, overrides and isolates. C0 controls other than whitespace go too:
// extractors sometimes leave them in and nobody can type them in a quote. So do list bullets
// (a quote leaves them out, or types "-" for them) and the replacement character an extractor
// writes for a glyph it cannot map.
export function isRemovable(cp: number): boolean {
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

export function isSpace(cp: number): boolean {
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

export function isLineBreak(cp: number): boolean {
  return cp === 0x0a || cp === 0x0d || cp === 0x0b || cp === 0x0c || cp === 0x85 || cp === 0x2028 || cp === 0x2029;
}

export function isDash(cp: number): boolean {
  return (cp >= 0x2010 && cp <= 0x2015) || cp === 0x2212 || cp === 0x2e3a || cp === 0x2e3b || cp === 0xfe58 || cp === 0xfe63 || cp === 0xff0d;
}

export function quoteReplacement(cp: number): number {
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

export function isCombining(cp: number): boolean {
  if (cp < 0x0300) return false;
  if (cp <= 0x036f) return true;
  return COMBINING.test(String.fromCodePoint(cp));
}

export function isLetterCode(code: number): boolean {
  if (code < 0x80) return (code >= 0x61 && code <= 0x7a) || (code >= 0x41 && code <= 0x5a);
  return LETTER.test(String.fromCharCode(code));
}

/** The same for a whole code point (a letter outside the BMP). */
export function isLetterCodePoint(cp: number): boolean {
  return LETTER.test(String.fromCodePoint(cp));
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
export function digitReplacement(cp: number): number {
  if (cp >= 0x0660 && cp <= 0x0669) return 0x30 + cp - 0x0660;
  if (cp >= 0x06f0 && cp <= 0x06f9) return 0x30 + cp - 0x06f0;
  return -1;
}

/** A combining mark at `j`. */
export function isCombiningAt(text: string, j: number): boolean {
  const cp = text.codePointAt(j);
  return cp !== undefined && isCombining(cp);
}
