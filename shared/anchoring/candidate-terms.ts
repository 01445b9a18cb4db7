/**
 * Terms and substrings of a quote for the caller's narrowing of candidate segments: FTS terms for
 * spaced scripts, substring needles for Han and kana.
 */
import { isCjkCode, normaliseWithMap } from './normalise.ts';

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

export const WORD_RE = /[\p{L}\p{N}]+/gu;

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

const LIGATURES: readonly [RegExp, string][] = [[/ffi/g, '\uFB03'], [/ffl/g, '\uFB04'], [/ff/g, '\uFB00'], [/fi/g, '\uFB01'], [/fl/g, '\uFB02']];

/**
 * A term as a typeset PDF's text may spell it: with ligature characters for ff, fi, fl, ffi, ffl
 * ("oﬃce"). Storage keeps the extractor's text, and FTS5's tokenizer does not expand them.
 */
export function ligatureSpellings(term: string): string[] {
  let lig = term;
  for (const [re, ch] of LIGATURES) lig = lig.replace(re, ch);
  return lig === term ? [term] : [term, lig];
}

/**
 * A term as a letter-spaced heading spells it ("f i n a n c i a l"): FTS5 indexes each tracked
 * letter as a token of its own, so only a phrase of the letters finds it. Null for terms with
 * digits (digits are never read as letter-spaced, see normalise.ts).
 */
export function letterSpacedSpelling(term: string): string | null {
  return /^\p{L}{3,}$/u.test(term) ? [...term].join(' ') : null;
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
