// Quotes as lawyers and scholars edit them: a letter's case in brackets ("[t]he"), their own
// words in brackets standing in for the source's ("[the Company] shall"), "[sic]", and notes such
// as "(emphasis added)". The marks are set aside; the rest must still be the source's text, in
// order and close together.
import { describe, expect, it } from 'vitest';
import { findQuote, planQuote, type QuoteMatch, type Segment } from '../../../shared/anchoring/index.ts';

const CHARTER =
  'The Board shall approve the annual budget before the end of March each year. It shall also\n' +
  'review the risk register at every second meeting. Acme Holdings Limited (the "Company") shall\n' +
  'indemnify each director against claims made in good faith. Directors recieve a fee set by the\n' +
  'remuneration committee. The secretary keeps the minutes for 6 years.';
const charter: Segment[] = [{ id: 'c', page: 1, text: CHARTER }];

function slice(m: QuoteMatch | null): string {
  return m ? CHARTER.slice(m.start, m.end) : '';
}

describe('planQuote', () => {
  it('keeps a quote without marks whole', () => {
    const plan = planQuote('The Board shall approve the annual budget');
    expect(plan).toEqual({ whole: 'The Board shall approve the annual budget', parts: [{ text: 'The Board shall approve the annual budget' }], marks: [] });
  });

  it('sets aside notes and [sic], unbrackets letters, and splits at stand-ins and ellipses', () => {
    const plan = planQuote('[T]he Board recieve[s] [sic] a fee … [the Company] shall indemnify[] each director (emphasis added)');
    expect(plan.whole).toBe('The Board recieves  a fee … the Company shall indemnify each director');
    expect(plan.parts.map((p) => p.text)).toEqual(['The Board recieves  a fee', 'shall indemnify each director']);
    expect(plan.parts[1]?.gap).toEqual({ kind: 'elision', max: 1200 + 12 + Math.ceil(1.5 * 'the Company'.length), mark: '… [the Company]' });
    expect(plan.marks).toEqual(['[sic]', '(emphasis added)', '[T]', '[s]', '[]', '[the Company]']);
  });

  it('knows the usual editorial notes, in round or square brackets', () => {
    for (const note of ['(emphasis added)', '[emphasis added]', '(emphasis in original)', '(emphases mine)', '(citations omitted)', '(internal quotation marks omitted)', '(internal citations and quotation marks omitted)', '(footnote omitted)', '[italics added]', '(sic)', '[sic!]']) {
      expect(planQuote(`members may vote by proxy ${note}`)).toMatchObject({ whole: 'members may vote by proxy', marks: [note] });
    }
    // Ordinary parentheses are the source's text.
    expect(planQuote('the Company (as defined above) shall pay').marks).toEqual([]);
  });
});

describe('findQuote with editorial marks', () => {
  it('reads "[t]he" as "the"', () => {
    const m = findQuote('[t]he Board shall approve the annual budget before the end of March', charter);
    expect(slice(m)).toBe('The Board shall approve the annual budget before the end of March');
    expect(m?.score).toBe(1);
    expect(m?.editorialMarks).toEqual(['[t]']);
  });

  it('lets bracketed words stand in for the source\'s, and reports what they replace', () => {
    const m = findQuote('The annual budget is approved each year. [The Board] shall also review the risk register', [{ id: 'x', text: 'The annual budget is approved each year. It shall also review the risk register.' }]);
    expect(m?.score).toBe(1);
    expect(m?.gaps).toEqual([{ kind: 'alteration', text: 'It', mark: '[The Board]' }]);
    const company = findQuote('[the Company] shall indemnify each director against claims made in good faith', charter);
    expect(slice(company)).toBe('shall\nindemnify each director against claims made in good faith');
    expect(company?.editorialMarks).toEqual(['[the Company]']);
    const name = findQuote('Each director is indemnified by [the Company] against claims made in good faith', [{ id: 'y', text: 'Each director is indemnified by the Supplier against claims made in good faith.' }]);
    expect(name?.gaps?.[0]).toMatchObject({ kind: 'alteration', text: 'the Supplier' });
    // A stand-in names what the source says in other words; it never hides a whole phrase.
    expect(findQuote('Each director is indemnified by [the Company] against claims made in good faith', [{ id: 'y', text: 'Each director is indemnified by Acme Holdings Limited, its parent and its subsidiaries, against claims made in good faith.' }])).toBeNull();
    // Punctuation glued to the brackets is the quoter's: "[the Company]'s" for the source's "its".
    const possessive = findQuote("The Board reviews [the Company]'s obligations every year", [{ id: 'z', text: 'The Board reviews its obligations every year.' }]);
    expect(possessive?.gaps?.[0]).toMatchObject({ kind: 'alteration', text: 'it' });
  });

  it('sets [sic] and editorial notes aside', () => {
    const m = findQuote('Directors recieve [sic] a fee (emphasis added)', charter);
    expect(slice(m)).toBe('Directors recieve a fee');
    expect(m?.score).toBe(1);
    expect(m?.editorialMarks).toEqual(['[sic]', '(emphasis added)']);
    const omitted = findQuote('Directors recieve [sic] a fee set by the remuneration committee (internal quotation marks omitted)', charter);
    expect(slice(omitted)).toBe('Directors recieve a fee set by the\nremuneration committee');
  });

  it('never lets a stand-in bridge text far apart, out of order, or a part the source lacks', () => {
    // Both parts are in the charter, 250 characters apart: no stand-in covers that much.
    expect(findQuote('The Board shall approve the annual budget [the Company] keeps the minutes for 6 years', charter)).toBeNull();
    expect(findQuote('shall also review the risk register [it] The Board shall approve the annual budget', charter)).toBeNull();
    expect(findQuote('The Board shall approve [the plan] and dissolve the committee at once', charter)).toBeNull();
  });

  it('still checks the numbers of the parts', () => {
    const m = findQuote('[The secretary] keeps the minutes for 9 years', charter, { reportMisquotes: true });
    expect(m?.numberMismatch).toEqual({ quote: ['9'], source: ['6'] });
    expect(findQuote('[The secretary] keeps the minutes for 9 years', charter)).toBeNull();
  });

  it('takes a bracketed quote found verbatim as it is', () => {
    const code: Segment[] = [{ id: 'r', text: 'Use x[i] to index the vector, and x[[i]] for a list element.' }];
    const m = findQuote('Use x[i] to index the vector', code);
    expect(m).toMatchObject({ method: 'exact', score: 1, start: 0 });
    expect(m?.editorialMarks).toBeUndefined();
  });
});
