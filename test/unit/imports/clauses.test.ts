import { describe, expect, it } from 'vitest';
import { parseAnswer } from '../../../shared/imports/index.ts';
import { markerClauses } from '../../../shared/imports/clauses.ts';

const claims = (s: string): string[] => markerClauses(s).map((c) => c.claim);

describe('the clause of each marker', () => {
  it('gives each marker of a sentence the clause it closes, with the subject the clauses share', () => {
    expect(claims('Developers are volunteers [1] and elect a Project Leader every year [2].')).toEqual([
      'Developers are volunteers.',
      'Developers elect a Project Leader every year.',
    ]);
    expect(claims('The Constitution was adopted in 1998 [1] and amended in 2007 [2].')).toEqual(['The Constitution was adopted in 1998.', 'The Constitution was amended in 2007.']);
    expect(claims('The committee meets monthly [1], publishes its minutes [2] and reports to the board each year [3].')).toEqual([
      'The committee meets monthly.',
      'The committee publishes its minutes.',
      'The committee reports to the board each year.',
    ]);
  });

  it('keeps a clause with its own subject as it is, connective aside', () => {
    expect(claims('Full-time staff get 25 days of annual leave [1] but contractors receive no paid leave [2].')).toEqual([
      'Full-time staff get 25 days of annual leave.',
      'Contractors receive no paid leave.',
    ]);
  });

  it('gives the whole sentence to one marker, to adjacent markers, and where a clause is a fragment', () => {
    expect(claims('Employees receive 14 days of leave [1].')).toEqual(['Employees receive 14 days of leave.']);
    expect(claims('Employees receive 14 days of leave [1][2].')).toEqual(['Employees receive 14 days of leave.', 'Employees receive 14 days of leave.']);
    expect(claims('The Debian Project [1] has about 1,000 developers [2].')).toEqual(['The Debian Project has about 1,000 developers.', 'The Debian Project has about 1,000 developers.']);
  });
});

describe('clauses in every import format', () => {
  const sentence = 'Developers are volunteers [1] and the archive holds over 33,000 packages [2].';
  const expected = ['Developers are volunteers.', 'The archive holds over 33,000 packages.'];

  it('Markdown', () => {
    const md = `${sentence}\n\n[1]: "Developers are volunteers" — constitution.txt\n[2]: "over 33,000 packages" — history.txt\n`;
    expect(parseAnswer(md, 'a.md').citations.map((c) => c.claim)).toEqual(expected);
  });

  it('native JSON whose citations leave the claim to the answer text', () => {
    const json = JSON.stringify({
      format: 'evidence-desk/answer@1',
      answer: sentence,
      citations: [
        { marker: '1', quote: 'Developers are volunteers', source: { file: 'constitution.txt' } },
        { marker: '2', quote: 'over 33,000 packages', source: { file: 'history.txt' } },
      ],
    });
    expect(parseAnswer(json, 'a.json').citations.map((c) => c.claim)).toEqual(expected);
  });
});
