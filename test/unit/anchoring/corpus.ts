/**
 * A seeded pseudo-prose corpus for anchoring tests. Pages are "typeset" the way extracted PDF text
 * looks (ligatures, line-end hyphenation, curly quotes, dashes, soft hyphens, zero-width chars,
 * odd whitespace) while the clean words are kept with the original range each one occupies, so a
 * test knows exactly where any clean quote must land.
 */

import { rng, type Rng } from '../../support/random.ts';
export { rng, type Rng } from '../../support/random.ts';

export const int = (r: Rng, lo: number, hi: number): number => lo + Math.floor(r() * (hi - lo + 1));
export function pick<T>(r: Rng, xs: readonly T[]): T {
  return xs[Math.floor(r() * xs.length)] as T;
}

const FUNCTION_WORDS = 'the of and to in a is that for on with as by at from or be this which are an it not will may'.split(' ');
const ONSETS = ['b', 'c', 'd', 'f', 'g', 'l', 'm', 'n', 'p', 'r', 's', 't', 'v', 'fi', 'fl', 'ff', 'st', 'tr', 'pr', 'gr', 'ch', 'sh', 'ffi'];
const NUCLEI = ['a', 'e', 'i', 'o', 'u', 'ea', 'ai', 'io', 'ou'];
const CODAS = ['', '', 'n', 'r', 's', 't', 'l', 'm', 'nd', 'ct', 'st', 'ff', 'ng'];

/** A vocabulary of distinct pseudo-words built from syllables (with plenty of fi/fl/ff for ligatures). */
export function vocabulary(seed: number, size: number): string[] {
  const r = rng(seed);
  const words = new Set<string>();
  while (words.size < size) {
    const syll = int(r, 1, 4);
    let w = '';
    for (let i = 0; i < syll; i++) w += pick(r, ONSETS) + pick(r, NUCLEI) + pick(r, CODAS);
    if (w.length >= 3 && w.length <= 14 && !FUNCTION_WORDS.includes(w)) words.add(w);
  }
  return [...words];
}

export interface Word {
  clean: string;
  /** Range of this word in the page's original (typeset) text. */
  start: number;
  end: number;
}

export interface Page {
  id: number;
  page: number;
  text: string;
  words: Word[];
}

const LIGATURES: [string, string][] = [
  ['ffi', '\uFB03'],
  ['ffl', '\uFB04'],
  ['ff', '\uFB00'],
  ['fi', '\uFB01'],
  ['fl', '\uFB02'],
];

/** The word as a typesetter sets it: ff, fi, fl, ffi, ffl as single ligature characters. */
export function withLigatures(word: string): string {
  let out = word;
  for (const [from, to] of LIGATURES) out = out.split(from).join(to);
  return out;
}

function typesetWord(r: Rng, w: string): string {
  let out = w;
  if (r() < 0.6) out = withLigatures(out);
  if (r() < 0.03 && out.length > 3) {
    const at = int(r, 1, out.length - 1);
    out = out.slice(0, at) + pick(r, ['\u00AD', '\u200B', '\u200D']) + out.slice(at);
  }
  return out;
}

/** A clean sentence as token list: words, an occasional quoted word, dash and number phrase. */
function sentence(r: Rng, vocab: readonly string[]): string[] {
  const n = int(r, 8, 20);
  const toks: string[] = [];
  for (let i = 0; i < n; i++) {
    const w = r() < 0.35 ? pick(r, FUNCTION_WORDS) : pick(r, vocab);
    toks.push(w);
    if (r() < 0.03) toks.push('-');
  }
  if (r() < 0.3) toks.splice(int(r, 1, toks.length - 1), 0, String(int(r, 2, 400)));
  if (r() < 0.15) {
    const i = int(r, 0, toks.length - 1);
    toks[i] = `"${toks[i]}"`;
  }
  toks[0] = (toks[0] ?? 'x').charAt(0).toUpperCase() + (toks[0] ?? 'x').slice(1);
  toks[toks.length - 1] += '.';
  return toks;
}

/** Builds pages from clean token lists, typesetting each into PDF-like text. */
export function typesetPages(r: Rng, pagesTokens: string[][], firstId = 1): Page[] {
  return pagesTokens.map((tokens, pi) => {
    let text = '';
    let line = 0;
    const words: Word[] = [];
    tokens.forEach((tok, ti) => {
      if (ti > 0) {
        // Separator: mostly a space; a line break near 75 columns; sometimes odd whitespace.
        if (line > 75) {
          // Line-end hyphenation of the next word when it splits cleanly (lowercase after the break).
          const m = /^([a-z]{3,})([a-z]{3,})/.exec(tok);
          if (m && r() < 0.5) {
            const cut = int(r, 3, tok.length - 3);
            if (/[a-z]/.test(tok.charAt(cut)) && /[a-z]/.test(tok.charAt(cut - 1))) {
              const start = text.length + 1;
              const head = typesetWord(r, tok.slice(0, cut));
              const tail = typesetWord(r, tok.slice(cut));
              const hyphen = r() < 0.8 ? '-' : '\u2010';
              text += ' ' + head + hyphen + (r() < 0.3 ? ' ' : '') + '\n' + tail;
              words.push({ clean: tok, start, end: text.length });
              line = tail.length;
              return;
            }
          }
          text += r() < 0.2 ? ' \n' : '\n';
          line = 0;
        } else {
          const x = r();
          text += x < 0.9 ? ' ' : x < 0.94 ? '  ' : x < 0.97 ? '\u00A0' : '\u2009';
        }
      }
      let typeset: string;
      if (tok === '-') typeset = pick(r, ['\u2013', '\u2014', '-', '\u2212']);
      else if (/^"[^"]+"\.?$/.test(tok)) {
        const close = tok.lastIndexOf('"');
        typeset = '\u201C' + typesetWord(r, tok.slice(1, close)) + '\u201D' + tok.slice(close + 1);
      }
      else typeset = typesetWord(r, tok);
      const start = text.length;
      text += typeset;
      words.push({ clean: tok, start, end: text.length });
      line += typeset.length + 1;
    });
    return { id: firstId + pi, page: pi + 1, text, words };
  });
}

export interface Corpus {
  vocab: string[];
  pages: Page[];
}

/** ~`pages` pages of ~`chars` characters each. `inserts` puts given token lists on given pages. */
export function makeCorpus(seed: number, pages: number, chars = 2500, inserts: Map<number, string[][]> = new Map()): Corpus {
  const vocab = vocabulary(seed, 1500);
  const r = rng(seed + 1);
  const pagesTokens: string[][] = [];
  for (let p = 0; p < pages; p++) {
    const toks: string[] = [];
    let len = 0;
    const extra = [...(inserts.get(p + 1) ?? [])];
    while (len < chars) {
      const s = extra.length > 0 && r() < 0.4 ? (extra.shift() as string[]) : sentence(r, vocab);
      toks.push(...s);
      len += s.join(' ').length + 1;
    }
    for (const s of extra) toks.push(...s);
    pagesTokens.push(toks);
  }
  return { vocab, pages: typesetPages(r, pagesTokens) };
}

/** The clean quote for words [i, j] of a page, and the original range it must map to. */
export function cleanSpan(page: Page, i: number, j: number): { quote: string; start: number; end: number } {
  const ws = page.words.slice(i, j + 1);
  return {
    quote: ws.map((w) => w.clean).join(' '),
    start: ws[0]?.start ?? 0,
    end: ws[ws.length - 1]?.end ?? 0,
  };
}

/**
 * Applies `count` random single-character edits away from the ends. Digits are never edited: a
 * changed number is a misquote, not a typo, and is never matched.
 */
export function typos(r: Rng, s: string, count: number): string {
  let out = s;
  const letters = 'abcdefghijklmnopqrstuvwxyz';
  for (let k = 0; k < count; k++) {
    let at = int(r, 2, Math.max(2, out.length - 3));
    for (let tries = 0; tries < 20 && /\d/.test(out.charAt(at)); tries++) at = int(r, 2, Math.max(2, out.length - 3));
    if (/\d/.test(out.charAt(at))) continue;
    const op = r();
    if (op < 0.5) out = out.slice(0, at) + pick(r, [...letters]) + out.slice(at + 1);
    else if (op < 0.75) out = out.slice(0, at) + pick(r, [...letters]) + out.slice(at);
    else out = out.slice(0, at) + out.slice(at + 1);
  }
  return out;
}

/** Surface noise an answer's quote may carry: whitespace runs, case, curly quotes. */
export function surfaceNoise(r: Rng, s: string): string {
  return s
    .split(' ')
    .map((w) => {
      let x = w;
      if (r() < 0.15) x = x.toUpperCase();
      if (x.startsWith('"') && r() < 0.5) x = '\u201C' + x.slice(1);
      return x;
    })
    .join(r() < 0.5 ? ' ' : '  ')
    .replace(/ {2}/g, () => (r() < 0.5 ? '\n' : '  '));
}
