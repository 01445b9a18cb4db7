/**
 * Paraphrase rules of the claim checks, against the real WordNet data, on sentences of their own
 * (not the development set's): verbs of state that share a synonym, a right given and a plan
 * worded differently, an adverb the source does not say. Each with the case it must leave
 * supported and the one it must not.
 */
import { describe, expect, it } from 'vitest';
import { wordNetLexicon } from '../../../electron/services/verification/wordnet-lexicon.ts';
import { judgeClaim } from '../../../shared/verification/index.ts';

const lexicon = wordNetLexicon();
const judge = (claim: string, quote: string): ReturnType<typeof judgeClaim> => judgeClaim(claim, quote, quote, lexicon);

describe('verbs of state that share a synonym', () => {
  it('links "consists" and "made up", both "comprise"', () => {
    expect(lexicon.covers('consists', 'made up')).toBe(true);
    expect(judge('The panel consists of five judges and meets monthly.', 'The panel, made up of five judges, meets monthly').verdict).toBe('supported');
  });
  it('does not link verbs of change through a shared near-synonym, nor change the count', () => {
    expect(lexicon.covers('fell', 'reduced')).toBe(false);
    expect(judge('Prices fell after the council reduced its grant.', 'Prices rose after the council reduced its grant').verdict).toBe('contradicted');
    expect(judge('The panel consists of seven judges.', 'The panel, made up of five judges, meets monthly').verdict).toBe('contradicted');
  });
});

describe('an adverb the source does not say', () => {
  it('makes the claim weak when the quote says nothing of how, when or how much', () => {
    const v = judge('Invoices are archived permanently.', 'Invoices are archived for 10 years and then deleted');
    expect(v.verdict).toBe('weak');
    expect(v.reasons[0]).toMatch(/permanently/);
  });
  it('leaves a claim supported whose adverb rewords the quote\'s adverb or adjective', () => {
    expect(judge('Sales fell steeply in March.', 'Sales fell sharply in March').verdict).toBe('supported');
    const main = judge('The report blames the losses mainly on the storms.', 'The report names the storms as the main cause of the losses');
    expect(main.reasons.join(' ')).not.toMatch(/"mainly", which the source does not say/);
  });
});

describe('a right given, and a plan, in other words', () => {
  it('reads "granted" as what "entitled to" says', () => {
    expect(judge('Each year, 30 days of paid leave are granted to all nurses.', 'All nurses are entitled to 30 days of paid leave each year').verdict).toBe('supported');
  });
  it('reads "scheduled for" and "planned" as what "will" says', () => {
    expect(judge('The old portal is scheduled for shutdown in June 2027.', 'The old portal will be shut down in June 2027').verdict).toBe('supported');
  });
  it('does not read a denied plan as the plan, nor a right as an obligation', () => {
    expect(judge('The old portal is scheduled for shutdown in June 2027.', 'The old portal will not be shut down in June 2027').verdict).not.toBe('supported');
    expect(judge('All nurses must take 30 days of paid leave each year.', 'All nurses are granted 30 days of paid leave each year').verdict).not.toBe('supported');
  });
});

describe('a verb and the noun of its act', () => {
  it('reads "closure" for "closed" and "acquisition" for "acquired"', () => {
    expect(lexicon.covers('closure', 'closed')).toBe(true);
    expect(lexicon.covers('acquisition', 'acquired')).toBe(true);
    expect(judge('The closure of the branch took place in May 2024.', 'The branch was closed in May 2024').verdict).not.toBe('contradicted');
  });
  it('does not read the parties of a verb as its act', () => {
    expect(lexicon.covers('employer', 'employs')).toBe(false);
    expect(lexicon.covers('employee', 'employs')).toBe(false);
  });
});

describe('a negation carried by a prefix', () => {
  it('reads "were unrelated to" as "no link between"', () => {
    expect(judge('In the survey, rents were unrelated to income.', 'The survey found no link between rents and income').verdict).toBe('supported');
  });
  it('contradicts the unprefixed word', () => {
    expect(judge('The clause is unlawful.', 'The clause is lawful').verdict).toBe('contradicted');
  });
  it('leaves a prefixed modifier and a prefixed verb as they are', () => {
    expect(judge('Unused credits may not be carried over to the next year.', 'Unused credits may be carried over to the next year').verdict).toBe('contradicted');
    expect(judge('The rash disappeared within a week.', 'The rash disappeared within a week').verdict).toBe('supported');
  });
});

describe('a verb of removal agrees with a denial', () => {
  it('reads "no longer supported" as what "removes support" says', () => {
    expect(lexicon.privative('removes')).toBe(true);
    expect(lexicon.privative('discontinued')).toBe(true);
    expect(lexicon.privative('added')).toBe(false);
    expect(judge('Windows 7 is no longer supported as of release 9.', 'Release 9 removes support for Windows 7').verdict).toBe('supported');
  });
  it('does not agree with a denial of the removal itself, nor support an affirmation of what was removed', () => {
    expect(judge('The swelling never disappeared within a week.', 'The swelling usually disappeared within a week').verdict).toBe('contradicted');
    expect(judge('Release 9 still supports Windows 7.', 'Release 9 removes support for Windows 7').verdict).not.toBe('supported');
  });
});
