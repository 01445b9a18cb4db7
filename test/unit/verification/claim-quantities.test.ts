/**
 * Quantities however written (number words, spans, dozens, shares), bounds on numbers, and words
 * that name the same direction of change: each rule on sentences of its own (not the development
 * set's), with what it must leave supported and what it must not.
 */
import { describe, expect, it } from 'vitest';
import { wordNetLexicon } from '../../../electron/services/verification/wordnet-lexicon.ts';
import { judgeClaim } from '../../../shared/verification/index.ts';
import { quantitiesAsFigures } from '../../../shared/verification/claims/number-words.ts';
import { shareAgainstWhole } from '../../../shared/verification/claims/shares.ts';

const lexicon = wordNetLexicon();
const judge = (claim: string, quote: string): ReturnType<typeof judgeClaim> => judgeClaim(claim, quote, quote, lexicon);

describe('amounts written in words', () => {
  it('gives tens, spans, dozens, multiples and shares as figures', () => {
    expect(quantitiesAsFigures('over the past three decades')).toBe('over the past 30 years');
    expect(quantitiesAsFigures('for forty-two days')).toBe('for 42 days');
    expect(quantitiesAsFigures('Ninety staff')).toBe('90 staff');
    expect(quantitiesAsFigures('during the last decade')).toBe('during the last 10 years');
    expect(quantitiesAsFigures('a century ago')).toBe('100 years ago');
    expect(quantitiesAsFigures('a dozen eggs, two dozen rolls, half a dozen pies')).toBe('12 eggs, 24 rolls, 6 pies');
    expect(quantitiesAsFigures('two hundred seats')).toBe('200 seats');
    expect(quantitiesAsFigures('prices rose twice as fast')).toBe('prices rose 2 times as fast');
    expect(quantitiesAsFigures('half of the members')).toBe('50% of the members');
  });
  it('leaves words that state no amount as written', () => {
    for (const t of ['no one came', 'one of them', 'in the 19th century', 'at half-time', 'dozens of people', 'hundreds of files', 'for decades']) {
      expect(quantitiesAsFigures(t)).toBe(t);
    }
  });
  it('supports a claim that writes the span another way', () => {
    expect(judge('Membership has grown over the last twenty years.', 'Membership has grown over the past two decades').verdict).toBe('supported');
    expect(judge('The firm employs a dozen engineers.', 'The firm employs 12 engineers').verdict).toBe('supported');
  });
  it('still contradicts a span that differs', () => {
    const v = judge('Membership has grown over the last thirty years.', 'Membership has grown over the past two decades');
    expect(v.verdict).toBe('contradicted');
    expect(v.reasons.join(' ')).toMatch(/30 years/);
  });
});

describe('a share against the whole', () => {
  it('finds a share where the source gives the whole, and the whole where it gives a share', () => {
    expect(shareAgainstWhole('They repaid 50% of the loan.', 'They repaid the full loan.')).toHaveLength(1);
    expect(shareAgainstWhole('They repaid the entire loan.', 'They repaid 40 percent of the loan.')).toHaveLength(1);
  });
  it('finds nothing when the share is of something else, or is all of it', () => {
    expect(shareAgainstWhole('They repaid 50% of the loan.', 'They paid the full fee.')).toEqual([]);
    expect(shareAgainstWhole('They repaid 100% of the loan.', 'They repaid the full loan.')).toEqual([]);
  });
  it('contradicts "half of" for "the full"', () => {
    const v = judge('The insurer covers half of the repair costs.', 'The insurer covers the full repair costs');
    expect(v.verdict).toBe('contradicted');
  });
  it('supports "half of" for "50%"', () => {
    expect(judge('Half of the members voted for the motion.', '50% of the members voted for the motion').verdict).toBe('supported');
  });
});

describe('words of one direction of change', () => {
  it('reads two words under one side of an opposition as saying the same', () => {
    expect(lexicon.covers('fallen', 'declined')).toBe(true);
    expect(lexicon.covers('last', 'past')).toBe(true);
  });
  it('does not join the two sides, nor two words under a broad heading', () => {
    expect(lexicon.covers('rose', 'fell')).toBe(false);
    expect(lexicon.covers('fell', 'rose')).toBe(false);
    expect(lexicon.covers('increased', 'declined')).toBe(false);
  });
  it('supports a paraphrase that says the direction in other words, and contradicts the opposite', () => {
    expect(judge('Water use has fallen over the last ten years.', 'Water use has declined over the past decade').verdict).toBe('supported');
    expect(judge('Water use has risen over the last ten years.', 'Water use has declined over the past decade').verdict).toBe('contradicted');
  });
});
