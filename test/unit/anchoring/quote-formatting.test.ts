// What citing tools put around a quote (quotation marks, Markdown emphasis and code, list markers,
// other end punctuation) and what sources put around their text (bullets, ligature glyphs their
// text layer cannot name): neither may keep a quote from being found, nor let a changed one in.
import { describe, expect, it } from 'vitest';
import { findQuote, normalise, searchableQuote, type Segment } from '../../../shared/anchoring/index.ts';

describe('searchableQuote', () => {
  it('takes off quotation marks, Markdown emphasis and code marks, and ellipses at the ends', () => {
    for (const q of ['“Members may vote”', '"Members may vote"', '*Members may vote*', '**Members may vote**', '_Members may vote_', '__Members may vote__', '`Members may vote`', '```Members may vote```', '…Members may vote...', '**“…Members may vote…”**', '“Members may vote”.', '`Members may vote`;']) {
      expect(searchableQuote(q)).toBe('Members may vote');
    }
  });

  it('takes off list markers and block-quote marks at the start of each line', () => {
    for (const marker of ['(a) ', 'b. ', 'iii. ', '(iv) ', '• ', '- ', '* ', '+ ', '> ', '> - ']) {
      expect(searchableQuote(`${marker}Employees receive 14 days of leave`)).toBe('Employees receive 14 days of leave');
    }
    expect(searchableQuote('a) Employees receive 14 days.\nb) Unused leave lapses.')).toBe('Employees receive 14 days.\nUnused leave lapses.');
    // A numbered marker is a number: findQuote checks it against the source's numbering.
    expect(searchableQuote('2. Employees receive 14 days')).toBe('2. Employees receive 14 days');
  });

  it('leaves numbers and words that only look like markers', () => {
    for (const q of ['1.5 million people voted', '2023. The year of the vote', 'e.g. members may vote', '-5 degrees at night', 'No. 5 is the rule']) expect(searchableQuote(q)).toBe(q);
  });
});

describe('list numbers of the quote', () => {
  const list: Segment[] = [{ id: 'n', text: 'Rules\n9. Members vote by show of hands.\n10. They may vote by proxy when absent.\nNotes follow.' }];

  it('are set aside where the source numbers the text the same way or not at all', () => {
    const m = findQuote('10. They may vote by proxy when absent.', list);
    expect(m).toMatchObject({ score: 1, method: 'exact' });
    const none: Segment[] = [{ id: 'u', text: 'They may vote by proxy when absent.' }];
    expect(findQuote('1. They may vote by proxy when absent.', none)).toMatchObject({ score: 1, editorialMarks: ['1.'] });
  });

  it('but a number the source gives otherwise is a misquote', () => {
    expect(findQuote('11. They may vote by proxy when absent.', list)).toBeNull();
    expect(findQuote('11. They may vote by proxy when absent.', list, { reportMisquotes: true })?.numberMismatch).toEqual({ quote: ['11'], source: ['10'] });
  });
});

describe('list bullets in the source', () => {
  it('are no text: a quote across two list items matches without them', () => {
    expect(normalise('year.\n• Unused leave')).toBe('year. unused leave');
    expect(normalise('a \u25E6 b \u25AA c \uF0B7 d \u2023 e')).toBe('a b c d e');
    const list: Segment[] = [{ id: 'l', text: 'Leave\n• Employees receive 14 days per year.\n• Unused leave lapses in March.' }];
    const m = findQuote('receive 14 days per year. Unused leave', list);
    expect(m).toMatchObject({ score: 1, method: 'normalised' });
    expect(m?.text).toBe('receive 14 days per year.\n• Unused leave');
  });
});

describe('end punctuation', () => {
  const text: Segment[] = [{ id: 't', text: 'The vote was close; the motion carried by 12% of the members, (as the minutes record).' }];

  it('is the quoter\'s: a short phrase with other punctuation at its ends is found whole', () => {
    for (const q of ['the motion carried.', '(the motion carried;', 'the vote was close!', 'as the minutes record:']) {
      const m = findQuote(q, text);
      expect(m?.score, q).toBe(1);
    }
    expect(findQuote('the motion carried.', text)?.text).toBe('the motion carried');
  });

  it('counts at the claimed page even where another page has the phrase with the quoter\'s punctuation', () => {
    const pages: Segment[] = [
      { id: 'a', page: 1, text: 'Under the Copyright Act, owners may sue.' },
      { id: 'b', page: 2, text: 'So says the Copyright Act.' },
    ];
    expect(findQuote('Copyright Act.', pages, { hint: { pages: [1] } })).toMatchObject({ segmentId: 'a', score: 1 });
    expect(findQuote('Copyright Act.', pages)).toMatchObject({ segmentId: 'b', method: 'exact' });
  });

  it('but a sign that carries meaning is no punctuation', () => {
    expect(findQuote('carried by 12$', text)).toBeNull();
    expect(findQuote('minutes record%', text)).toBeNull();
  });
});

describe('ligature glyphs the PDF text lost', () => {
  // A PDF whose font draws "fi", "ff", "ffi" as one glyph with no Unicode name: the letters vanish
  // (or leave a space) from the extracted text.
  const page: Segment[] = [{ id: 'p', page: 4, text: 'The nancial statements were audited by an independent rm. Their e ect on the o ce was small.' }];

  it('finds a quote typed with the letters, each lost glyph costing one edit', () => {
    const m = findQuote('independent firm', page);
    expect(m?.text).toBe('independent rm');
    expect(m?.score).toBeCloseTo(1 - 1 / 'independent firm'.length, 6);
    expect(findQuote('The financial statements were audited', page)?.text).toBe('The nancial statements were audited');
    expect(findQuote('their effect on the office', page)?.text).toBe('Their e ect on the o ce');
  });

  it('never below the lowest score a match may have', () => {
    expect(findQuote('ffi ffl ffi ffl fi', [{ id: 'x', text: 'a b  c  d  e' }])).toBeNull();
  });

  it('never where the source has other letters there', () => {
    expect(findQuote('independent farm', page)).toBeNull();
    expect(findQuote('the official statements', page)).toBeNull();
  });
});

describe('a near range chooses between repeated occurrences', () => {
  const seg: Segment = { id: 's', text: 'Annual leave is counted in days.\nAnnual leave is pro-rated for part-time staff.\nSick leave is separate.' };
  const second = seg.text.indexOf('\n') + 1;

  it('picks the occurrence in or nearest the range, and claims nothing', () => {
    expect(findQuote('annual leave', [seg])?.start).toBe(0);
    expect(findQuote('annual leave', [seg], { hint: { near: { segmentId: 's', start: second, end: second + 40 } } })?.start).toBe(second);
    expect(findQuote('annual leave', [seg], { hint: { near: { segmentId: 's', start: seg.text.length - 5, end: seg.text.length } } })?.start).toBe(second);
    // A range in a segment not searched changes nothing.
    expect(findQuote('annual leave', [seg], { hint: { near: { segmentId: 'other', start: 0, end: 1 } } })?.start).toBe(0);
  });

  it('outranks a verbatim occurrence elsewhere when the one in range breaks across lines', () => {
    const wrapped: Segment = { id: 'w', text: 'The Project Leader decides.\nIn line two the Project\nLeader may delegate.' };
    const at = wrapped.text.indexOf('In line two');
    const m = findQuote('the Project Leader', [wrapped], { hint: { near: { segmentId: 'w', start: at, end: at + 30 } } });
    expect(m?.start).toBe(wrapped.text.indexOf('the Project\nLeader'));
  });

  it('comes after the text around the quote, which says more', () => {
    const m = findQuote('annual leave', [seg], { hint: { near: { segmentId: 's', start: second, end: second + 10 } }, suffix: ' is counted in days' });
    expect(m?.start).toBe(0);
  });
});

describe('footnote marks glued to the source text', () => {
  const text: Segment[] = [{ id: 'f', text: 'Leave is granted under the policy.12 The rule dates from 2019.3 It applies to 14 staff.' }];

  it('never make a quote without them a misquote, nor one with its own numbers', () => {
    for (const q of ['under the policy. The rule dates from 2019. It applies to 14 staff.', 'The rule dates from 2019.', 'It applies to 14 staff.']) {
      const m = findQuote(q, text, { reportMisquotes: true });
      expect(m?.numberMismatch, q).toBeUndefined();
      expect(m?.score, q).toBeGreaterThanOrEqual(0.9);
    }
    // A changed number is still one.
    expect(findQuote('The rule dates from 2018. It applies to 14 staff.', text, { reportMisquotes: true })?.numberMismatch?.quote).toEqual(['2018']);
  });
});
