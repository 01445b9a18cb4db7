import { describe, expect, it } from 'vitest';
import {
  candidateTerms,
  findQuote,
  letterSpacedSpelling,
  normalise,
  prepareSegments,
  type QuoteMatch,
  type Segment,
} from '../../../shared/anchoring/index.ts';
import { cleanSpan, int, makeCorpus, pick, rng, surfaceNoise, typos, type Page } from './corpus.ts';

const BOILERPLATE = 'Requests for carried over leave must be approved in writing by the line manager before the end of March.';
const boilerTokens = BOILERPLATE.split(' ');
// The same sentence on pages 4, 11 and 20, each time after a different lead-in.
const inserts = new Map<number, string[][]>([
  [4, [['Alpha', 'section', 'opens', 'here.', ...boilerTokens]]],
  [11, [['Bravo', 'clause', 'starts', 'now.', ...boilerTokens]]],
  [20, [['Charlie', 'paragraph', 'follows', 'below.', ...boilerTokens]]],
]);
const corpus = makeCorpus(20240312, 30, 2500, inserts);
const pages = corpus.pages;
const prepared = prepareSegments(pages);

function randomSpan(r: () => number, minWords = 8, maxWords = 40): { page: Page; i: number; j: number } {
  const page = pick(r, pages);
  const len = int(r, minWords, maxWords);
  const i = int(r, 0, page.words.length - len - 1);
  return { page, i, j: i + len - 1 };
}

function expectAt(m: QuoteMatch | null, page: Page, start: number, end: number, slack = 0): void {
  expect(m).not.toBeNull();
  if (!m) return;
  expect(m.segmentId).toBe(page.id);
  expect(m.endSegmentId).toBeUndefined();
  expect(Math.abs(m.start - start)).toBeLessThanOrEqual(slack);
  expect(Math.abs(m.end - end)).toBeLessThanOrEqual(slack);
}

describe('findQuote on a typeset corpus', () => {
  it('the corpus really carries typesetting noise', () => {
    const all = pages.map((p) => p.text).join('\n');
    for (const ch of ['\uFB01', '\uFB02', '\u201C', '\u2014', '\u00A0']) expect(all).toContain(ch);
    expect(all).toMatch(/[a-z\uFB00-\uFB04][-\u2010] ?\n[a-z\uFB00-\uFB04]/);
    expect(pages.every((p) => p.text.length >= 2400)).toBe(true);
  });

  it('finds verbatim quotes exactly', () => {
    const r = rng(1);
    for (let n = 0; n < 60; n++) {
      const page = pick(r, pages);
      const a = int(r, 0, page.text.length - 120);
      const quote = page.text.slice(a, a + int(r, 20, 110)).trim();
      if (quote.length < 10) continue;
      const m = findQuote(quote, prepared);
      expect(m?.method).toBe('exact');
      expect(m?.score).toBe(1);
      // The first occurrence in document order; verbatim, the text equals the quote.
      expect(m?.text).toBe(quote);
    }
  });

  it('finds clean quotes through ligatures, hyphenation, curly quotes, dashes, whitespace and case', () => {
    const r = rng(2);
    let normalised = 0;
    for (let n = 0; n < 150; n++) {
      const { page, i, j } = randomSpan(r);
      const span = cleanSpan(page, i, j);
      const quote = surfaceNoise(r, span.quote);
      const m = findQuote(quote, prepared, { hint: { pages: [page.page] } });
      expectAt(m, page, span.start, span.end);
      expect(m?.score).toBe(1);
      if (m?.method === 'normalised') normalised++;
      expect(normalise(m?.text ?? '')).toBe(normalise(quote));
    }
    expect(normalised).toBeGreaterThan(100);
  });

  it('finds quotes with ~3% and ~5% typos at the right page and offsets, score ≥ 0.90', () => {
    const r = rng(3);
    for (const rate of [0.03, 0.05]) {
      for (let n = 0; n < 60; n++) {
        const { page, i, j } = randomSpan(r, 10, 40);
        const span = cleanSpan(page, i, j);
        const quote = typos(r, surfaceNoise(r, span.quote), Math.max(1, Math.round(span.quote.length * rate)));
        // Without a hint half the time: the anchors must find the page on their own.
        const m = findQuote(quote, prepared, n % 2 === 0 ? { hint: { pages: [page.page] } } : {});
        expectAt(m, page, span.start, span.end, 4);
        expect(m?.method).toBe('fuzzy');
        expect(m?.score ?? 0).toBeGreaterThanOrEqual(0.9);
      }
    }
  });

  it('finds a quote across a page break: start on page k, end on page k+1', () => {
    const r = rng(4);
    for (let n = 0; n < 30; n++) {
      const k = int(r, 0, pages.length - 2);
      const a = pages[k] as Page;
      const b = pages[k + 1] as Page;
      const tailWords = int(r, 3, 12);
      const headWords = int(r, 3, 12);
      const first = cleanSpan(a, a.words.length - tailWords, a.words.length - 1);
      const second = cleanSpan(b, 0, headWords - 1);
      const quote = `${first.quote} ${second.quote}`;
      const withTypo = n % 3 === 2;
      const m = findQuote(withTypo ? typos(r, quote, 2) : quote, prepared, { hint: { pages: [a.page] } });
      expect(m).not.toBeNull();
      expect(m?.segmentId).toBe(a.id);
      expect(m?.endSegmentId).toBe(b.id);
      expect(m?.page).toBe(a.page);
      expect(m?.endPage).toBe(b.page);
      const slack = withTypo ? 3 : 0;
      expect(Math.abs((m?.start ?? -1) - first.start)).toBeLessThanOrEqual(slack);
      expect(m?.end).toBe(first.end);
      expect(m?.endStart).toBe(second.start);
      expect(Math.abs((m?.endOffset ?? -1) - second.end)).toBeLessThanOrEqual(slack);
      if (!withTypo) {
        expect(m?.method).toBe('normalised');
        expect(normalise(m?.text ?? '')).toBe(normalise(quote));
      }
    }
  });

  it('does not join pages that are not neighbours', () => {
    const a = pages[2] as Page;
    const c = pages[5] as Page;
    const quote = `${cleanSpan(a, a.words.length - 6, a.words.length - 1).quote} ${cleanSpan(c, 0, 5).quote}`;
    expect(findQuote(quote, [a, c])).toBeNull();
    // The same two texts as consecutive pages do join.
    expect(findQuote(quote, [a, { ...c, page: a.page + 1 }])?.endSegmentId).toBe(c.id);
  });

  it('resolves repeated occurrences by hint, then prefix/suffix, then document order', () => {
    const byPage = (n: number): Page => pages[n - 1] as Page;
    expect(findQuote(BOILERPLATE, prepared)?.segmentId).toBe(byPage(4).id);
    expect(findQuote(BOILERPLATE, prepared, { hint: { pages: [11] } })?.segmentId).toBe(byPage(11).id);
    expect(findQuote(BOILERPLATE, prepared, { hint: { segmentIds: [byPage(20).id] } })?.segmentId).toBe(byPage(20).id);
    expect(findQuote(BOILERPLATE, prepared, { prefix: 'Bravo clause starts now. ' })?.segmentId).toBe(byPage(11).id);
    expect(findQuote(BOILERPLATE, prepared, { prefix: 'charlie paragraph follows below.' })?.segmentId).toBe(byPage(20).id);
    // The hint outranks the context.
    expect(findQuote(BOILERPLATE, prepared, { hint: { pages: [4] }, prefix: 'Bravo clause starts now.' })?.segmentId).toBe(byPage(4).id);
    // Also for fuzzy matches.
    const typoed = BOILERPLATE.replace('approved', 'aproved').replace('manager', 'manger');
    const fz = findQuote(typoed, prepared, { prefix: 'Charlie paragraph follows below.' });
    expect(fz?.method).toBe('fuzzy');
    expect(fz?.segmentId).toBe(byPage(20).id);
    expect(findQuote(typoed, prepared, { hint: { pages: [11] } })?.segmentId).toBe(byPage(11).id);
    // The stored prefix/suffix of a match find the same occurrence again.
    const m11 = findQuote(BOILERPLATE, prepared, { hint: { pages: [11] } });
    expect(m11?.prefix.length).toBe(32);
    expect(findQuote(BOILERPLATE, prepared, { prefix: m11?.prefix ?? '', suffix: m11?.suffix ?? '' })?.segmentId).toBe(byPage(11).id);
  });

  it('keeps a weaker fuzzy occurrence on the hinted page in a small document', () => {
    const sentence = 'the committee reviews every grant application within thirty working days';
    const segs = [
      { id: 1, page: 1, text: `Intro. ${sentence.replace('grant', 'grand')} and more.` },
      { id: 2, page: 2, text: `Later. ${sentence.replace('committee', 'comittee').replace('within', 'witin')} again.` },
    ];
    const quote = sentence.replace('every', 'evry');
    expect(findQuote(quote, segs)?.segmentId).toBe(1);
    const hinted = findQuote(quote, segs, { hint: { pages: [2] } });
    expect(hinted?.segmentId).toBe(2);
    expect(hinted?.errors).toBe(3);
  });

  it('makes no false match at ≥ 0.75 for 200+ fabricated quotes', () => {
    const r = rng(5);
    const vocab = corpus.vocab;
    const fabricated: string[] = [];
    // Random word sequences from the same vocabulary.
    for (let n = 0; n < 120; n++) {
      const len = int(r, 6, 25);
      const words: string[] = [];
      for (let w = 0; w < len; w++) words.push(r() < 0.3 ? pick(r, ['the', 'of', 'and', 'to', 'in', 'is']) : pick(r, vocab));
      fabricated.push(words.join(' '));
    }
    // Real sentences with half their words swapped for words from elsewhere in the corpus.
    for (let n = 0; n < 120; n++) {
      const { page, i, j } = randomSpan(r, 10, 30);
      const words = page.words.slice(i, j + 1).map((w) => w.clean);
      const donor = pick(r, pages).words;
      const positions = words.map((_, k) => k).sort(() => r() - 0.5).slice(0, Math.ceil(words.length / 2));
      for (const p of positions) {
        let swap = pick(r, donor).clean;
        while (swap === words[p] || swap.length < 5) swap = pick(r, donor).clean;
        words[p] = swap;
      }
      fabricated.push(words.join(' '));
    }
    let falseMatches = 0;
    for (const q of fabricated) {
      const m = findQuote(q, prepared);
      if (m && m.score >= 0.75) falseMatches++;
    }
    expect(fabricated.length).toBeGreaterThanOrEqual(200);
    expect(falseMatches).toBe(0);
  });

  it('returns the same result for raw segments and prepared segments, and for a narrowed list', () => {
    const r = rng(6);
    for (let n = 0; n < 20; n++) {
      const { page, i, j } = randomSpan(r);
      const span = cleanSpan(page, i, j);
      const quote = typos(r, span.quote, 2);
      const a = findQuote(quote, prepared);
      const b = findQuote(quote, pages);
      const narrowed = pages.filter((p) => Math.abs(p.page - page.page) <= 1 || p.page % 7 === 0);
      const c = findQuote(quote, narrowed);
      for (const m of [a, b, c]) expectAt(m, page, span.start, span.end, 4);
    }
  });

  it('never returns a fuzzy result below 0.75 and honours a stricter minScore', () => {
    const page = pages[7] as Page;
    const span = cleanSpan(page, 10, 30);
    const quote = typos(rng(7), span.quote, Math.round(span.quote.length * 0.08));
    const m = findQuote(quote, prepared);
    expect(m?.score ?? 0).toBeGreaterThanOrEqual(0.75);
    expect(m?.score ?? 1).toBeLessThan(0.98);
    expect(findQuote(quote, prepared, { minScore: 0.99 })).toBeNull();
    expect(findQuote(quote, prepared, { minScore: 0.1 })?.score ?? 0).toBeGreaterThanOrEqual(0.75);
    expect(findQuote(quote, prepared, { fuzzy: false })).toBeNull();
  });

  it('handles empty quotes, empty segments and blank pages', () => {
    expect(findQuote('   ', prepared)).toBeNull();
    expect(findQuote('anything at all here', [])).toBeNull();
    const segs = [
      { id: 'a', text: 'The end of one page', page: 1 },
      { id: 'b', text: ' \n ', page: 2 },
      { id: 'c', text: 'continues on the next.', page: 3 },
    ];
    const m = findQuote('one page continues on', segs);
    expect(m?.segmentId).toBe('a');
    expect(m?.endSegmentId).toBe('c');
    expect(m?.text).toBe('one page\ncontinues on');
  });

  it('maps matches through clusters and removed characters to whole original characters', () => {
    const seg = { id: 1, text: 'The o\uFB03ce of \u201Cﬁnance\u201D \u2014 exam-\nple\u00AD text.' };
    const m = findQuote('office of "finance" - example text', [seg]);
    expect(m?.method).toBe('normalised');
    expect(m?.text).toBe('o\uFB03ce of \u201Cﬁnance\u201D \u2014 exam-\nple\u00AD text');
    const f = findQuote('fice', [seg]);
    // Starting inside a ligature widens to the whole ligature.
    expect(seg.text.slice(f?.start ?? 0, f?.end ?? 0)).toBe('\uFB03ce');
  });
});

describe('letter-spaced text whose word gaps the extractor lost', () => {
  const pages: Segment[] = [
    { id: 1, page: 1, text: 'Contents\nF I N A N C I A L S T A T E M E N T S\nThe therapist said so.' },
    { id: 2, page: 2, text: 'S u m m a r y o f A c c o u n t s for the year' },
  ];

  it('places the plainly typed quote exactly on the letter-spaced characters', () => {
    expect(findQuote('Financial Statements', pages)).toMatchObject({ segmentId: 1, score: 1, method: 'normalised', text: 'F I N A N C I A L S T A T E M E N T S' });
    expect(findQuote('summary of accounts for the year', pages)).toMatchObject({ segmentId: 2, score: 1, text: 'S u m m a r y o f A c c o u n t s for the year' });
  });

  it('never reads ordinary text without its word gaps', () => {
    // "the rapist" is in the spaceless haystack ("therapist"), but not over a letter-spaced run.
    expect(findQuote('the rapist said so', pages)?.score ?? 0).toBeLessThan(1);
    // A space the quote lacks where the source has one is no match either.
    expect(findQuote('contentsfinancial statements', pages)?.score ?? 0).toBeLessThan(1);
    expect(findQuote('contents financial statements', pages)?.score).toBe(1);
  });

  it('reads a quote that types lone letters letter-spaced against letters that are words of their own', () => {
    // Column letters of a table, one cell each, quoted in a row: "A B C" reads "abc" in the quote.
    const cells: Segment[] = ['height 1', 'A', 'B', 'C', 'Merging, alignment', 'Some text, written small'].map((text, i) => ({ id: i, ordinal: i, text }));
    expect(findQuote('A B C Merging', cells)).toMatchObject({ segmentId: 1, score: 1, text: 'A\nB\nC\nMerging' });
    expect(findQuote('height 1 A B C Merging, […] Some text', cells)).toMatchObject({ segmentId: 0, score: 1 });
    // The letters in the shorter part of an elided quote, found near the longer one.
    expect(findQuote('A B C Merging...Some text, written small', cells)).toMatchObject({ segmentId: 1, score: 1 });
    expect(findQuote('ABC Merging', cells)).toBeNull();
  });

  it('gives full-text search the letters as a phrase', () => {
    expect(letterSpacedSpelling('financial')).toBe('f i n a n c i a l');
    expect(letterSpacedSpelling('2024')).toBeNull();
    expect(letterSpacedSpelling('of')).toBeNull();
  });
});

describe('candidateTerms', () => {
  it('returns distinct long content words, numbers first, without stopwords', () => {
    const terms = candidateTerms('Employees are entitled to 25 days of paid annual leave; the Leave is paid.');
    expect(terms[0]).toBe('25');
    expect(terms).toContain('employees');
    expect(terms).toContain('entitled');
    expect(terms).not.toContain('the');
    expect(terms).not.toContain('are');
    expect(new Set(terms).size).toBe(terms.length);
    expect(terms.indexOf('employees')).toBeLessThan(terms.indexOf('paid'));
    expect(candidateTerms('the ﬁnal word', 1)).toEqual(['final']);
  });

  it('narrows a corpus to candidate pages that still contain the quote', () => {
    const r = rng(8);
    for (let n = 0; n < 20; n++) {
      const { page, i, j } = randomSpan(r, 12, 30);
      const terms = candidateTerms(cleanSpan(page, i, j).quote);
      expect(terms.length).toBeGreaterThan(0);
      // An OR query over the terms (what the caller's FTS does) keeps the right page.
      const kept = pages.filter((p) => terms.some((t) => normalise(p.text).includes(t)));
      expect(kept.map((p) => p.id)).toContain(page.id);
    }
  });
});
