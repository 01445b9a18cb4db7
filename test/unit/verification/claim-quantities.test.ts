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
import { readBounds, unmetBounds } from '../../../shared/verification/claims/bounds.ts';

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

describe('bounds on numbers', () => {
  const kinds = (t: string): string[] => readBounds(t).map((b) => `${b.kind} ${b.value}${b.unit ? ` ${b.unit}` : ''}`);
  it('reads each way of writing a bound', () => {
    expect(kinds('Doses must not exceed 4 grams.')).toEqual(['max 4 gram']);
    expect(kinds("The dose doesn't exceed 4 grams.")).toEqual(['max 4 gram']);
    expect(kinds('take no more than 4 grams, at most 3 doses, up to 2 refills')).toEqual(['max 4 gram', 'max 3 dose', 'max 2 refil']);
    expect(kinds('at least 14 days, no fewer than 3 members, a minimum of 2 weeks')).toEqual(['min 14 dai', 'min 3 member', 'min 2 week']);
    expect(kinds('more than 40 staff, over 65, above 2%, exceeds 10 km')).toEqual(['gt 40 staff', 'gt 65', 'gt 2', 'gt 10 km']);
    expect(kinds('less than 5 hours, under 16, below 3 metres')).toEqual(['lt 5 hour', 'lt 16', 'lt 3 metr']);
    expect(kinds('25 days or more; 5 members or fewer')).toEqual(['min 25 dai', 'max 5 member']);
  });
  it('reads no bound in plain amounts or in words that only look like cues', () => {
    expect(kinds('within 30 days of 12 March, 40 staff, over the past 30 years')).toEqual([]);
  });
  it('supports a claim that states the source\'s bound in other words', () => {
    expect(judge('Visitors should not exceed 3 nights in the hut.', 'Visitors should stay no more than 3 nights in the hut').verdict).toBe('supported');
    expect(judge('Applicants must have at least 5 years of experience.', 'Applicants must have no fewer than 5 years of experience').verdict).toBe('supported');
    expect(judge('The offer is open to adults older than 65.', 'The offer is open to adults over 65').verdict).toBe('supported');
    expect(judge('The hut takes at most 12 guests.', 'The hut takes no more than 12 guests').verdict).toBe('supported');
  });
  it('contradicts a bound that is exceeded, and bounds that run opposite ways', () => {
    expect(unmetBounds('Shifts may not exceed 5 hours.', 'Shifts last 7 hours.')).toHaveLength(1);
    const exceeded = judge('Shifts may not exceed 5 hours.', 'Shifts last 7 hours');
    expect(exceeded.verdict).toBe('contradicted');
    expect(exceeded.findings.map((f) => f.code)).toContain('bound');
    const opposite = judge('Notice of at most 4 weeks is required.', 'Notice of at least 4 weeks is required');
    expect(opposite.verdict).toBe('contradicted');
    expect(opposite.reasons[0]).toMatch(/at most 4 weeks.*at least 4 weeks/);
    expect(judge('The dose must not exceed 4 grams.', 'The dose must be more than 4 grams').verdict).toBe('contradicted');
  });
  it('does not call a different bound supported, nor one the source meets only in part', () => {
    expect(judge('The hut takes at most 12 guests.', 'The hut takes at most 20 guests').verdict).not.toBe('supported');
    expect(judge('Applicants need more than 5 years of experience.', 'Applicants need at least 5 years of experience').verdict).not.toBe('supported');
  });
  it('keeps a negation that follows a bound ("under 16 cannot buy")', () => {
    expect(judge('Customers under 16 can buy fireworks.', 'Customers under 16 cannot buy fireworks').verdict).toBe('contradicted');
  });
});
