import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { findQuote, isClusterAligned, normalise, normaliseWithMap, originalRange, type Segment } from '../../../shared/anchoring/index.ts';
import { withLigatures } from './corpus.ts';

describe('normaliseWithMap', () => {
  it('applies NFKC, ligatures, quotes, dashes, invisible chars, whitespace, case and trim', () => {
    expect(normalise('  The \uFB01rst \uFB02oor \uFB00 \uFB03 \uFB04  ')).toBe('the first floor ff ffi ffl');
    expect(normalise('\u201CQuoted\u201D \u2018single\u2019 \u00ABfr\u00BB')).toBe('"quoted" \'single\' "fr"');
    expect(normalise('1\u20102\u20113\u20124\u20135\u20146\u20157\u22128')).toBe('1-2-3-4-5-6-7-8');
    expect(normalise('a \u2013 b \u2014 c -- d')).toBe('a - b - c - d');
    expect(normalise('in\u00ADvis\u200Bi\u200Cb\u200Dle\uFEFF \u200E\u200F\u202A\u202B\u202C\u202D\u202E\u2066\u2067\u2068\u2069x')).toBe('invisible x');
    expect(normalise('a \t\n\r\n b\u00A0\u2003c\u3000\u2009d')).toBe('a b c d');
    expect(normalise('\uFF21\uFF22\uFF23 \u2460 x\u00B2')).toBe('abc 1 x2');
    expect(normalise('e\u0301t\u00E9')).toBe('\u00E9t\u00E9');
    expect(normalise('\uFEF5\uFE8D')).toBe('\u0644\u0622\u0627');
  });

  it('drops hyphens inside words, so hyphenated, joined and reflowed spellings read alike', () => {
    // Line-end hyphenation, a compound broken at its hyphen, the word typed whole or as pasted.
    for (const s of ['exam-\nple', 'exam-  \r\n   ple', 'exam\u2010\nple', 'exam\u00AD\nple', 'exam-ple', 'exam- ple', 'example']) {
      expect(normalise(s)).toBe('example');
    }
    expect(normalise('Smith-\nJones')).toBe(normalise('Smith-Jones'));
    expect(normalise('well\u2013known')).toBe('wellknown');
    expect(normalise('a--b')).toBe(normalise('a\u2014b'));
    // Not inside a word: two line breaks, a digit before, a space before, a soft hyphen before a space.
    expect(normalise('exam-\n\nple')).toBe('exam- ple');
    expect(normalise('12-\nmonths')).toBe('12- months');
    expect(normalise('word -\nnext')).toBe('word - next');
    expect(normalise('ple\u00AD text')).toBe('ple text');
    expect(normalise('-append x-1 T-3')).toBe('-append x-1 t-3');
  });

  it('drops spaces next to Han and kana, reads spaced dots as an ellipsis and Persian digits as ASCII', () => {
    expect(normalise('否则出\n错，但')).toBe(normalise('否则出错，但'));
    expect(normalise('LATEX 表格列格式')).toBe(normalise('LATEX表格列格式'));
    expect(normalise('Joel の専門')).toBe('joelの専門');
    // Hangul is written with spaces: they stay.
    expect(normalise('한국어 문서')).toBe('한국어 문서');
    expect(normalise('val . . . )')).toBe(normalise('val … )'));
    expect(normalise('صفحه ۲۶ و ٣')).toBe('صفحه 26 و 3');
  });

  it('keeps the map exact when one char becomes several and several are removed', () => {
    const src = 'A\uFB03x \u0130y  exam-\nple\u00AD.';
    const n = normaliseWithMap(src);
    expect(n.text).toBe('a\uFB03x'.normalize('NFKC').toLowerCase() + ' ' + '\u0130'.toLowerCase() + 'y example.');
    expect(n.map.length).toBe(n.text.length + 1);
    expect(n.ends.length).toBe(n.text.length);
    expect(n.map[n.text.length]).toBe(src.length);
    // "ffi" all come from the one ligature.
    expect([n.map[1], n.map[2], n.map[3]]).toEqual([1, 1, 1]);
    expect([n.ends[1], n.ends[2], n.ends[3]]).toEqual([2, 2, 2]);
    // "İ" lowercases to two chars, both from the one original char.
    const iAt = n.text.indexOf('i\u0307');
    expect(n.map[iAt]).toBe(src.indexOf('\u0130'));
    expect(n.map[iAt + 1]).toBe(src.indexOf('\u0130'));
    // "example" maps back over the hyphen and the break, and stops before the soft hyphen.
    const a = n.text.indexOf('example');
    const r = originalRange(n, a, a + 7);
    expect(src.slice(r.start, r.end)).toBe('exam-\nple');
    // A match that starts inside the ligature widens to the whole ligature.
    const f = originalRange(n, 2, 4);
    expect(src.slice(f.start, f.end)).toBe('\uFB03');
  });

  it('is monotone and stays inside the original', () => {
    const n = normaliseWithMap('  \u201Cx\u201D  \uFB01 e\u0301 \u{1D400}\u{1F600} ok  ');
    for (let i = 0; i < n.text.length; i++) {
      expect(n.map[i]).toBeLessThan(n.ends[i] ?? 0);
      if (i > 0) expect(n.map[i]).toBeGreaterThanOrEqual(n.map[i - 1] ?? 0);
    }
    expect(n.text).toBe('"x" fi \u00E9 a\u{1F600} ok');
  });

  it('reads letter-spaced words as words, a wider gap as their boundary, and the map points at the letters', () => {
    const src = 'Notes\nF I N A N C I A L   S T A T E M E N T S  O F  T H E  G R O U P\nS u m m a r y: text';
    const n = normaliseWithMap(src);
    expect(n.text).toBe('notes financial statements of the group summary: text');
    const at = n.text.indexOf('financial statements');
    const r = originalRange(n, at, at + 'financial statements'.length);
    expect(src.slice(r.start, r.end)).toBe('F I N A N C I A L   S T A T E M E N T S');
    // A quote typed letter-spaced reads the same as one typed plainly.
    expect(normalise('A N N U A L  R E P O R T')).toBe(normalise('Annual Report'));
  });

  it('leaves single letters of ordinary prose alone: two in a row, list labels, initials, ligatures, digits', () => {
    expect(normalise('I think a b is fine')).toBe('i think a b is fine');
    expect(normalise('options (a) (b) (c) and a. b. c. or J. R. R. Tolkien')).toBe('options (a) (b) (c) and a. b. c. or j. r. r. tolkien');
    expect(normalise('\uFB00 \uFB03 \uFB04')).toBe('ff ffi ffl');
    expect(normalise('rows 1 2 3 4 and e\u0301 t e')).toBe('rows 1 2 3 4 and \u00E9 t e');
    // Two lone letters join only beside a letter-spaced word, across a wide gap on the same line.
    expect(normalise('O F  T H E\nO F')).toBe('of the o f');
  });

  it('handles the empty string and whitespace-only text', () => {
    expect(normaliseWithMap('')).toMatchObject({ text: '' });
    expect(Array.from(normaliseWithMap('').map)).toEqual([0]);
    const ws = normaliseWithMap(' \n\u00A0 ');
    expect(ws.text).toBe('');
    expect(Array.from(ws.map)).toEqual([4]);
  });
});

// ---------------------------------------------------------------------------------------------
// Property: whatever noise typesetting adds, a clean quote of whole words is found in the
// normalised text, and the offset map sends it to an original span that normalises to the quote.

const LETTERS = ['a', 'b', 'e', 'f', 'i', 'l', 'o', 'n', 't', 's', 'é', 'ø', '1', '7'];

const wordArb = fc.array(fc.constantFrom(...LETTERS), { minLength: 1, maxLength: 9 }).map((cs) => cs.join(''));
const tokenArb = fc.oneof(
  { weight: 8, arbitrary: wordArb },
  { weight: 1, arbitrary: wordArb.map((w) => `"${w}"`) },
  { weight: 1, arbitrary: wordArb.map((w) => `'${w}'`) },
  { weight: 1, arbitrary: fc.constant('-') },
);

interface WordNoise {
  ligature: boolean;
  upper: boolean;
  decomposed: boolean;
  fullwidth: boolean;
  invisible: number; // 0 none, else inserted at a position
  invisibleChar: string;
  curly: boolean;
  dash: string;
  hyphenateAt: number; // 0 none
  tracked: number; // 0: letter-spaced, as a tracked heading ("F I N A N C I A L")
}
const noiseArb: fc.Arbitrary<WordNoise> = fc.record({
  ligature: fc.boolean(),
  upper: fc.boolean(),
  decomposed: fc.boolean(),
  fullwidth: fc.boolean(),
  invisible: fc.nat({ max: 8 }),
  invisibleChar: fc.constantFrom('\u00AD', '\u200B', '\u200C', '\u200D', '\uFEFF', '\u200E', '\u202A', '\u2066'),
  curly: fc.boolean(),
  dash: fc.constantFrom('\u2010', '\u2011', '\u2012', '\u2013', '\u2014', '\u2015', '\u2212', '-'),
  hyphenateAt: fc.nat({ max: 8 }),
  tracked: fc.nat({ max: 5 }),
});
const gapArb = fc.constantFrom(' ', '  ', '\n', ' \n ', '\t', '\u00A0', '\u2003', '\u3000', '\r\n', ' \u200B ');

/** A word of three or more letters drawn letter-spaced; its neighbours then sit a wide gap away. */
const isTracked = (tok: string, nz: WordNoise): boolean => nz.tracked === 0 && /^\p{L}{3,}$/u.test(tok);

function typeset(tok: string, nz: WordNoise): string {
  if (tok === '-') return nz.dash;
  if (isTracked(tok, nz)) return [...(nz.upper ? tok.toUpperCase() : tok)].join(' ');
  let w = tok;
  if (nz.curly) w = w.replace(/^"(.*)"$/u, '\u201C$1\u201D').replace(/^'(.*)'$/u, '\u2018$1\u2019');
  if (nz.upper) w = w.toUpperCase();
  if (nz.ligature) w = withLigatures(w);
  if (nz.decomposed) w = w.normalize('NFD');
  if (nz.fullwidth) w = w.replace(/[a-z]/u, (c) => String.fromCharCode(c.charCodeAt(0) - 0x61 + 0xff41));
  if (nz.invisible > 0 && nz.invisible < w.length) w = w.slice(0, nz.invisible) + nz.invisibleChar + w.slice(nz.invisible);
  // Line-end hyphenation inside the word, only where the next char is a plain lowercase letter.
  const h = nz.hyphenateAt;
  if (h > 0 && h < w.length && /\p{L}/u.test(w.charAt(h - 1)) && /[a-z]/u.test(w.charAt(h))) {
    w = w.slice(0, h) + '-\n' + w.slice(h);
  }
  return w;
}

const docArb = fc
  .array(fc.tuple(tokenArb, noiseArb, gapArb), { minLength: 2, maxLength: 40 })
  .chain((toks) =>
    fc.record({
      toks: fc.constant(toks),
      from: fc.nat({ max: toks.length - 1 }),
      len: fc.integer({ min: 1, max: toks.length }),
      quoteUpper: fc.boolean(),
      quoteGap: fc.constantFrom(' ', '  ', '\n', ' \u00A0'),
      lead: fc.constantFrom('', ' ', '\n  '),
    }),
  );

describe('normalisation offset map (property)', () => {
  it('maps every found quote back to an original span that normalises to the quote', () => {
    fc.assert(
      fc.property(docArb, ({ toks, from, len, quoteUpper, quoteGap, lead }) => {
        type Tok = (typeof toks)[number];
        const pageText = (part: Tok[]): string =>
          part
            .map(([tok, nz, gap], i) => {
              const prev = part[i - 1];
              const wide = gap === ' ' && (isTracked(tok, nz) || (prev !== undefined && isTracked(prev[0], prev[1])));
              return (i > 0 ? (wide ? '   ' : gap) : '') + typeset(tok, nz);
            })
            .join('');
        const original = lead + pageText(toks);
        const to = Math.min(toks.length, from + len);
        let quote = toks.slice(from, to).map(([t]) => t).join(quoteGap);
        if (quoteUpper) quote = quote.toUpperCase();
        const nq = normalise(quote);
        if (nq.length === 0) return;
        const n = normaliseWithMap(original);
        // Every occurrence on whole original characters maps back exactly; the quote's own words
        // are always one such occurrence (a boundary inside a ligature would widen to all of it).
        let aligned = 0;
        for (let at = n.text.indexOf(nq); at >= 0; at = n.text.indexOf(nq, at + 1)) {
          if (!isClusterAligned(n, at, at + nq.length)) continue;
          aligned++;
          const r = originalRange(n, at, at + nq.length);
          expect(normalise(original.slice(r.start, r.end))).toBe(nq);
        }
        expect(aligned).toBeGreaterThan(0);
        // And through findQuote, with the document split into two pages at a word gap.
        const split = 1 + (from % (toks.length - 1));
        const segs = [
          { id: 'p1', page: 1, text: lead + pageText(toks.slice(0, split)) },
          { id: 'p2', page: 2, text: pageText(toks.slice(split)) },
        ];
        const inputs: Segment[][] = [[{ id: 1, text: original }], segs];
        for (const input of inputs) {
          const m = findQuote(quote, input);
          expect(m).not.toBeNull();
          expect(m?.score).toBe(1);
          expect(normalise(m?.text ?? '')).toBe(nq);
        }
      }),
      { numRuns: 600, seed: 4242 },
    );
  });

  it('keeps map and ends monotone and inside the original for arbitrary unicode', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 60 }), fc.string({ maxLength: 30 }), (a, b) => {
        const src = a + b;
        const n = normaliseWithMap(src);
        expect(n.map.length).toBe(n.text.length + 1);
        expect(n.map[n.text.length]).toBe(src.length);
        for (let i = 0; i < n.text.length; i++) {
          const s = n.map[i] ?? -1;
          const e = n.ends[i] ?? -1;
          expect(s).toBeGreaterThanOrEqual(0);
          expect(e).toBeGreaterThan(s);
          expect(e).toBeLessThanOrEqual(src.length);
          if (i > 0) expect(s).toBeGreaterThanOrEqual(n.map[i - 1] ?? 0);
        }
        expect(n.text).toBe(n.text.trim());
        expect(n.text).not.toMatch(/\s\s|[\n\t\u00A0]/u);
      }),
      { numRuns: 500, seed: 99 },
    );
  });
});
