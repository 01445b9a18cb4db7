// Quotes as people and AI systems write them: elided, running over a page break past its running
// head and foot, in Han and kana without the PDF's line breaks; and quotes that change a number,
// which must never be matched.
import { describe, expect, it } from 'vitest';
import {
  candidateTerms,
  cjkNeedles,
  effectiveLength,
  findQuote,
  numberMismatch,
  prepareSegments,
  splitElisions,
  type QuoteMatch,
  type Segment,
} from '../../../shared/anchoring/index.ts';
import { cleanSpan, int, makeCorpus, rng, type Page } from './corpus.ts';

const MEETING =
  'The board met on Tuesday. Members approved the annual budget after a long debate about travel\n' +
  'costs. The chair thanked the finance team for its report. Next year the committee will review\n' +
  'the policy again, as the statutes require.';
const meeting: Segment[] = [{ id: 'm', page: 1, text: MEETING }];

function slice(m: QuoteMatch | null, seg: Segment): string {
  return m ? seg.text.slice(m.start, m.end) : '';
}

describe('elided quotes', () => {
  it('splits a quote at every way of writing an ellipsis, never at its ends', () => {
    for (const mark of [' … ', '...', ' ... ', ' [...] ', ' […] ', ' (...) ', ' . . . ']) {
      expect(splitElisions(`Members approved the budget${mark}for its report`)).toEqual(['Members approved the budget', 'for its report']);
    }
    expect(splitElisions('… only one part …')).toEqual(['only one part']);
    expect(splitElisions('a … b … c')).toEqual(['a', 'b', 'c']);
  });

  it('anchors the parts in order and spans from the first part to the last', () => {
    const quote = 'Members approved the annual budget … thanked the finance team for its report';
    const m = findQuote(quote, meeting);
    expect(m).not.toBeNull();
    expect(m?.score).toBe(1);
    expect(m?.method).toBe('normalised');
    expect(slice(m, meeting[0] as Segment)).toBe('Members approved the annual budget after a long debate about travel\ncosts. The chair thanked the finance team for its report');
    expect(m?.gaps).toEqual([{ kind: 'elision', text: 'after a long debate about travel\ncosts. The chair' }]);
    // Three parts, two gaps, any ellipsis style.
    const three = findQuote('The board met [...] the annual budget ... review the policy again', meeting);
    expect(three?.gaps?.length).toBe(2);
    expect(slice(three, meeting[0] as Segment)).toMatch(/^The board met .* review\nthe policy again$/s);
  });

  it('never matches parts out of order, far apart, or with a part missing', () => {
    expect(findQuote('thanked the finance team for its report … Members approved the annual budget', meeting)).toBeNull();
    expect(findQuote('Members approved the annual budget … the shareholders rejected every proposal', meeting)).toBeNull();
    const filler = 'Unrelated words fill this page for a long while without saying anything. '.repeat(30);
    const far: Segment[] = [{ id: 'f', text: `Members approved the annual budget. ${filler} The chair thanked the finance team.` }];
    const quote = 'Members approved the annual budget … The chair thanked the finance team';
    expect(findQuote(quote, far)).toBeNull();
    // The bound is an option: a caller may allow more.
    expect(findQuote(quote, far, { elisionMaxGap: 5000 })?.gaps?.[0]?.text.length).toBeGreaterThan(2000);
  });

  it('scores an elided quote by its weakest part, and finds a verbatim ellipsis of the source whole', () => {
    const m = findQuote('Members aproved the annual budget after a long debate … the committee will review the policy', meeting);
    expect(m?.method).toBe('fuzzy');
    expect(m?.score).toBeLessThan(1);
    expect(m?.score).toBeGreaterThanOrEqual(0.9);
    const source: Segment[] = [{ id: 's', text: '“Media literacy” is the ability . . . to understand, analyze, and deconstruct media images.' }];
    const whole = findQuote('is the ability . . . to understand, analyze', source);
    expect(whole?.gaps).toBeUndefined();
    expect(whole?.method).toBe('exact');
    expect(findQuote('is the ability … to understand, analyze', source)?.gaps).toBeUndefined();
  });

  it('places parts on either side of a page break, and finds elided quotes in a generated corpus', () => {
    const pages: Segment[] = [
      { id: 1, page: 1, text: 'Opening words. The committee agreed that travel must be booked early' },
      { id: 2, page: 2, text: 'and that receipts are kept for six years. Other business followed.' },
    ];
    const m = findQuote('The committee agreed … receipts are kept for six years', pages);
    expect(m).toMatchObject({ segmentId: 1, endSegmentId: 2, score: 1 });
    const corpus = makeCorpus(515, 40, 2500);
    const prepared = prepareSegments(corpus.pages);
    const r = rng(77);
    for (let n = 0; n < 40; n++) {
      const page = corpus.pages[int(r, 0, corpus.pages.length - 1)] as Page;
      const i = int(r, 0, page.words.length - 31);
      const head = cleanSpan(page, i, i + int(r, 5, 10));
      const tail = cleanSpan(page, i + 20, i + int(r, 24, 30));
      const found = findQuote(`${head.quote} … ${tail.quote}`, prepared, n % 2 ? { hint: { pages: [page.page] } } : {});
      expect(found?.segmentId).toBe(page.id);
      expect(found?.score).toBe(1);
      expect(found?.start).toBe(head.start);
      expect(found?.end).toBe(tail.end);
    }
  });
});

describe('quotes running over a page break with page furniture between', () => {
  const foot = 'regulations. The new building will open in the spring and the old\nsite will close at the end of the';
  const pages = (a: string, b: string): Segment[] => [
    { id: 1, page: 11, text: a },
    { id: 2, page: 12, text: b },
  ];

  it('skips a running foot and head with page numbers, and says what it skipped', () => {
    const segs = pages(`${foot}\n11   Annual Report 2024`, 'Annual Report 2024   12\nChapter 3\nsame year. Staff will be consulted.');
    const m = findQuote('the old site will close at the end of the same year. Staff will be consulted', segs);
    expect(m).toMatchObject({ segmentId: 1, endSegmentId: 2, score: 1, page: 11, endPage: 12 });
    expect(m?.gaps?.[0]?.kind).toBe('page-furniture');
    expect(m?.gaps?.[0]?.text).toContain('Annual Report 2024');
    expect(m?.text.startsWith('the old\nsite')).toBe(true);
  });

  it('joins a word hyphenated over the page break, with or without furniture', () => {
    const quote = 'the old site will close at the end of the remuneration period';
    const bare = pages(`${foot} remu-`, 'neration period. Staff will be consulted.');
    expect(findQuote(quote, bare)).toMatchObject({ segmentId: 1, endSegmentId: 2, score: 1 });
    const furnished = pages(`${foot} remu-\n- 11 -`, 'ANNUAL REPORT 12\nneration period. Staff will be consulted.');
    expect(findQuote(quote, furnished)).toMatchObject({ segmentId: 1, endSegmentId: 2, score: 1 });
  });

  it('does not skip body text: long lines, or short ones without a page number, are no furniture', () => {
    const body = 'except for the archive, which stays open for researchers until further notice';
    const longLine = pages(`${foot}\n${body}`, 'same year. Staff will be consulted.');
    const q = 'the old site will close at the end of the same year. Staff will be consulted';
    expect(findQuote(q, longLine)?.score ?? 0).toBeLessThan(0.9);
    const unnumbered = pages(`${foot}\nexcept the archive.\nAnd the library.`, 'same year. Staff will be consulted.');
    expect(findQuote(q, unnumbered)?.score ?? 0).toBeLessThan(0.9);
    // Pages that are not neighbours are never joined.
    const apart: Segment[] = [
      { id: 1, page: 11, text: `${foot}\n11` },
      { id: 2, page: 14, text: '14\nsame year. Staff will be consulted.' },
    ];
    expect(findQuote(q, apart)?.score ?? 0).toBeLessThan(0.9);
  });
});

describe('misquoted numbers', () => {
  const policy: Segment[] = [{ id: 1, page: 4, text: 'Travel expenses are reimbursed within 30 days of a complete claim, in line with section 4.2.1.' }];

  it('never matches a quote whose number differs from the source, however close the rest', () => {
    const quote = 'Travel expenses are reimbursed within 45 days of a complete claim';
    expect(findQuote(quote, policy)).toBeNull();
    const reported = findQuote(quote, policy, { reportMisquotes: true });
    expect(reported?.numberMismatch).toEqual({ quote: ['45'], source: ['30'] });
    expect(reported?.text).toContain('30 days');
    expect(findQuote('reimbursed within 30 days of a complete claim, in line with section 4.2.7', policy)).toBeNull();
    // Typos in words are still typos.
    expect(findQuote('Travel expences are reimbursd within 30 days of a complete claim', policy)?.numberMismatch).toBeUndefined();
    expect(findQuote('Travel expences are reimbursd within 30 days of a complete claim', policy)?.score).toBeGreaterThanOrEqual(0.9);
  });

  it('compares numbers, tolerating extra ones in the source (footnote marks, page numbers)', () => {
    expect(numberMismatch('within 30 days', 'within 30 days')).toBeNull();
    expect(numberMismatch('the ability to understand', 'the ability 10 to understand')).toBeNull();
    expect(numberMismatch('3:1 majority', '3:3 majority')).toEqual({ quote: ['1'], source: ['3'] });
    expect(numberMismatch('led it until 1996', 'led it until 1997')).toEqual({ quote: ['1996'], source: ['1997'] });
    expect(numberMismatch('no numbers', 'has 12 numbers')).toBeNull();
    expect(numberMismatch('holds 1,000 shares', 'holds 1000 shares')).toBeNull();
    expect(numberMismatch('rate 3,5 %', 'rate 3,6 %')).toEqual({ quote: ['5'], source: ['6'] });
  });
});

describe('Han and kana', () => {
  const zh: Segment[] = [
    { id: 1, page: 30, text: '表格中每行的单元格数目不能多于列格式里 l/c/r/p 的总数（可以少于这个总数），否则出\n错。@ 格式可在单元格前后插入任意的文本，但同时它也消除了单元格前后额外添加的间\n距。' },
  ];

  it('finds a quote typed without the line breaks the PDF put inside words', () => {
    const m = findQuote('否则出错。@ 格式可在单元格前后插入任意的文本', zh);
    expect(m?.score).toBe(1);
    expect(m?.text).toBe('否则出\n错。@ 格式可在单元格前后插入任意的文本');
    expect(findQuote('消除了单元格前后额外添加的间距', zh)?.score).toBe(1);
  });

  it('fuzzy-matches a short quote with one wrong character, as a Latin quote of similar weight', () => {
    expect(effectiveLength('格式可在单元格前后插入')).toBe(33);
    const m = findQuote('格式可在单元格后前插入任意的文本', zh);
    expect(m?.method).toBe('fuzzy');
    expect(m?.score).toBeGreaterThanOrEqual(0.75);
    expect(findQuote('格式可在单元格前后插入任意的文本', zh)?.score).toBe(1);
  });

  it('leaves Han and kana out of FTS terms and offers substrings to search instead', () => {
    expect(candidateTerms('中定制安装； 1Linux 发行版的软件')).toEqual(['1linux']);
    expect(candidateTerms('偉大な業績を記憶に留めるために')).toEqual([]);
    expect(cjkNeedles('偉大な業績を記憶に留めるために')).toEqual(['偉大な', '業績を', '記憶に', '留める', 'ために']);
    expect(cjkNeedles('no han here')).toEqual([]);
    expect(cjkNeedles('表格中每行的单元格数目不能多于列格式里表格中每行的单元格数目不能多于', 4).length).toBe(4);
  });
});
