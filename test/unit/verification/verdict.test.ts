import { describe, expect, it } from 'vitest';
import {
  alignedNumberChanges,
  CLAIM_VERDICTS,
  claimVerdict,
  extractDates,
  extractNumbers,
  keyTerms,
  stem,
} from '../../../shared/verification/index.ts';

describe('extraction', () => {
  it('reads integers, decimals, percentages, thousands separators, currency, scales and written numbers', () => {
    const ns = extractNumbers('Staff get 14 days, 2.5 hours, 12% or 7.5 per cent, $1,250 and €3m; five trainees, not one of them.');
    expect(ns.map((n) => n.value)).toEqual([14, 2.5, 12, 7.5, 1250, 3_000_000, 5]);
    expect(ns.find((n) => n.value === 12)?.percent).toBe(true);
    expect(ns.find((n) => n.value === 7.5)?.percent).toBe(true);
    expect(ns.find((n) => n.value === 1250)?.currency).toBe('$');
    expect(ns.find((n) => n.value === 14)?.unit).toContain(stem('day'));
    expect(ns.find((n) => n.value === 5)?.unit).toEqual([stem('trainees')]);
    expect(extractNumbers('1,234,567.89 units')[0]?.value).toBeCloseTo(1234567.89);
    expect(extractNumbers('version v2 and A4 paper')).toEqual([]);
  });

  it('takes the previous content word as the unit when nothing follows', () => {
    expect(extractNumbers('The notice period is 30.')[0]?.unit).toEqual(['period']);
  });

  it('reads ISO, day-month-year, month-day-year, month-year and bare-year dates, and keeps them out of numbers', () => {
    const ds = extractDates('From 2024-03-12, or 12 March 2024, or March 12, 2024, or 1st of Sept. 2023, in June 2022, since 1999.');
    expect(ds.map((d) => d.key)).toEqual(['2024-03-12', '2024-03-12', '2024-03-12', '2023-09-01', '2022-06', '1999']);
    expect(extractNumbers('Effective 12 March 2024 staff get 25 days.').map((n) => n.value)).toEqual([25]);
    expect(extractDates('2024-13-45 and 31 Smarch 2020').map((d) => d.key)).toEqual(['2020']);
  });

  it('stems inflections together and drops stopwords from key terms', () => {
    expect(stem('days')).toBe(stem('day'));
    expect(stem('policies')).toBe(stem('policy'));
    expect(stem('voting')).toBe(stem('vote'));
    expect(stem('entitled')).toBe(stem('entitlement'.slice(0, 7)));
    expect(stem('leave')).not.toBe(stem('leaf'));
    expect(keyTerms('The Employees are entitled to 25 days of annual leave.')).toEqual(['employe', 'entitl', 'dai', 'annual', 'leav']);
  });
});

describe('claimVerdict', () => {
  const quote = 'Full-time employees are entitled to 14 days of paid annual leave per calendar year.';

  it('exports the ledger vocabulary', () => {
    expect(CLAIM_VERDICTS).toEqual(['supported', 'weak', 'contradicted', 'not_found']);
  });

  it('supports a claim whose numbers and key terms are in the verified quote', () => {
    const v = claimVerdict({ claim: 'Full-time employees receive 14 days of paid annual leave each year.', status: 'verified', quote, score: 1 });
    expect(v.verdict).toBe('supported');
    expect(v.confidence).toBeGreaterThan(0.7);
    expect(v.reasons.join(' ')).toMatch(/key terms found/);
  });

  it('contradicts a claim that states a different number for the same thing', () => {
    const v = claimVerdict({ claim: 'Employees are entitled to 15 days of paid annual leave.', status: 'verified', quote, score: 1 });
    expect(v.verdict).toBe('contradicted');
    expect(v.reasons[0]).toBe('the claim says "15 days", the source says "14 days"');
    const pct = claimVerdict({ claim: 'Bonuses are capped at 20% of base salary.', status: 'verified', quote: 'Bonuses are capped at 15% of base salary.' });
    expect(pct.verdict).toBe('contradicted');
    const written = claimVerdict({ claim: 'Staff may carry over ten days.', status: 'verified_elsewhere', quote: 'Staff may carry over five days into the next year.' });
    expect(written.verdict).toBe('contradicted');
  });

  it('does not call a number for a different thing a contradiction', () => {
    const v = claimVerdict({ claim: 'Employees are entitled to 15 training hours.', status: 'verified', quote });
    expect(v.verdict).toBe('weak');
    expect(v.reasons.join(' ')).toMatch(/not in the evidence: 15/);
  });

  it('uses the context around the quote as evidence', () => {
    const v = claimVerdict({
      claim: 'Since 1 January 2024, employees get 14 days of annual leave.',
      status: 'verified',
      quote,
      context: 'This policy is effective 1 January 2024.',
    });
    expect(v.verdict).toBe('supported');
    const missingDate = claimVerdict({ claim: 'Since 1 January 2025, employees get 14 days of annual leave.', status: 'verified', quote });
    expect(missingDate.verdict).toBe('weak');
  });

  it('is weak on partial matches and on low key-term overlap', () => {
    expect(claimVerdict({ claim: 'Employees are entitled to 14 days of paid annual leave.', status: 'partial', quote, matchText: quote, score: 0.86 }).verdict).toBe('weak');
    const low = claimVerdict({ claim: 'The pension scheme matches contributions generously.', status: 'verified', quote });
    expect(low.verdict).toBe('weak');
    expect(low.reasons.join(' ')).toMatch(/low key-term overlap/);
  });

  it('reads a partial match against what the source says, so a changed number there contradicts', () => {
    const v = claimVerdict({ claim: 'Employees get 15 days of annual leave.', status: 'partial', quote: 'employees get 15 days of annual leave', matchText: 'Employees get 14 days of annual leave', score: 0.95 });
    expect(v.verdict).toBe('contradicted');
  });

  it('contradicts a claim that negates what the quote says of the same thing', () => {
    const v = claimVerdict({ claim: 'Contractors are not entitled to paid annual leave.', status: 'verified', quote: 'Contractors are entitled to paid annual leave.' });
    expect(v.verdict).toBe('contradicted');
    expect(v.findings[0]?.code).toBe('polarity');
    expect(v.reasons.join(' ')).toMatch(/denies what the source affirms/);
  });

  it('maps not_found and source_unknown to not_found', () => {
    expect(claimVerdict({ claim: 'x y z', status: 'not_found', quote }).verdict).toBe('not_found');
    expect(claimVerdict({ claim: 'x y z', status: 'source_unknown', quote }).verdict).toBe('not_found');
  });

  it('judges a quote-less citation weak unless context is supplied', () => {
    const bare = claimVerdict({ claim: 'Employees get 14 days of annual leave.', status: 'no_quote' });
    expect(bare.verdict).toBe('weak');
    expect(bare.confidence).toBeLessThan(0.3);
    const withContext = claimVerdict({ claim: 'Employees get 14 days of annual leave.', status: 'no_quote', context: quote });
    expect(withContext.verdict).toBe('supported');
    expect(withContext.confidence).toBeLessThan(claimVerdict({ claim: 'Employees get 14 days of annual leave.', status: 'verified', quote }).confidence);
  });

  it('keeps confidence within 0..1 and is deterministic', () => {
    const input = { claim: 'Employees get 14 days of annual leave.', status: 'verified' as const, quote, score: 1.7 };
    const a = claimVerdict(input);
    expect(a).toEqual(claimVerdict(input));
    expect(a.confidence).toBeLessThanOrEqual(1);
    expect(a.confidence).toBeGreaterThanOrEqual(0);
  });
});

describe('numbers changed in a claim that follows its evidence word for word', () => {
  it('finds the changed figure between shared words: counts, years, section numbers, ratios', () => {
    expect(alignedNumberChanges('Travel is reimbursed within 45 days of a claim.', 'Travel is reimbursed within 30 days of a claim.')).toEqual([{ claim: '45', source: '30' }]);
    expect(alignedNumberChanges('took place in Bordeaux in July 2024', 'took place in Bordeaux in July 2000')).toEqual([{ claim: '2024', source: '2000' }]);
    expect(alignedNumberChanges('to the project under §11.2.1, it', 'to the project under §4.2.1, it')).toHaveLength(1);
    expect(alignedNumberChanges('this requires a 3:3 majority', 'this requires a 3:1 majority')).toHaveLength(1);
    // Han text has no spaces: characters are the words.
    expect(alignedNumberChanges('彼の生涯の戦いでした。2003 年の', '彼の生涯の戦いでした。1997 年の')).toEqual([{ claim: '2003', source: '1997' }]);
  });

  it('leaves alone the same figure written differently, and loose paraphrases', () => {
    expect(alignedNumberChanges('the fund holds 1,000 shares today', 'the fund holds 1000 shares today')).toEqual([]);
    // A right-to-left line as extracted ("۳ .۱") and the same figure tidied ("۳.۱").
    expect(alignedNumberChanges('ارائه شده در جدول ۳.۱ در صفحه', 'ارائه شده در جدول ۳ .۱ در صفحه')).toEqual([]);
    expect(alignedNumberChanges('In 2004 the policy changed to 14 days', 'The policy (2004) sets 14 days of leave for staff')).toEqual([]);
    expect(alignedNumberChanges('Staff rarely travel', 'Travel is reimbursed within 30 days')).toEqual([]);
  });

  it('contradicts a claim that changes a number of its verified quote, whatever the unit', () => {
    const quote = 'When the Technical Committee proposes a general resolution to the project under §4.2.1, it';
    const v = claimVerdict({ claim: quote.replace('4.2.1', '11.2.1'), status: 'verified', score: 1, matchText: quote, quote });
    expect(v.verdict).toBe('contradicted');
    expect(v.reasons.join(' ')).toMatch(/11\.2\.1.*4\.2\.1/);
    expect(claimVerdict({ claim: quote, status: 'verified', score: 1, matchText: quote, quote }).verdict).toBe('supported');
  });

  it('contradicts a claim repeating a misquoted number, and otherwise keeps not_found', () => {
    const source = 'Travel expenses are reimbursed within 30 days of a complete claim.';
    const misquoted = claimVerdict({ claim: 'Travel expenses are reimbursed within 45 days.', status: 'not_found', misquotedText: source });
    expect(misquoted.verdict).toBe('contradicted');
    expect(misquoted.reasons[0]).toMatch(/misquotes a number/);
    expect(misquoted.reasons.join(' ')).toMatch(/45 days.*30 days/);
    expect(claimVerdict({ claim: 'Travel is fast.', status: 'not_found', misquotedText: source }).verdict).toBe('not_found');
    expect(claimVerdict({ claim: 'Travel expenses are reimbursed within 45 days.', status: 'not_found' }).verdict).toBe('not_found');
  });
});

describe('numbers a claim writes another way, labels and ranks', () => {
  const quote = 'Revenue grew by 12% in 2023 to 5,000,000 euros, and headcount rose to twenty people on 1 March 2024.';
  const verdict = (claim: string): string => claimVerdict({ claim, status: 'verified', score: 1, matchText: quote, quote }).verdict;

  it('supports the same quantities written differently', () => {
    expect(alignedNumberChanges('Revenue grew by 12% in 2023 to 5 million euros', 'Revenue grew by 12% in 2023 to 5,000,000 euros')).toEqual([]);
    expect(alignedNumberChanges('Revenue grew by 12 per cent in 2023 to €5m', 'Revenue grew by 12% in 2023 to 5,000,000 euros')).toEqual([]);
    expect(alignedNumberChanges('rose to twenty people on March 1, 2024', 'rose to twenty people on 1 March 2024')).toEqual([]);
    for (const claim of [
      'Revenue grew 12% to 5 million euros in 2023.',
      'Revenue grew 12.0 per cent in 2023 to €5m.',
      'Revenue grew by 12 percent in 2023 to 5 million euros.',
      'Headcount rose to 20 people on March 1, 2024.',
    ]) expect(verdict(claim), claim).toBe('supported');
  });

  it('still contradicts a changed quantity, and only a replaced one', () => {
    expect(verdict('Revenue grew by 15% in 2023.')).toBe('contradicted');
    expect(verdict('Revenue rose 15 percent in 2023 to 5,000,000 euros.')).toBe('contradicted');
    expect(verdict('Headcount rose to 25 people.')).toBe('contradicted');
    expect(verdict('Revenue grew by 12% in 2023 to 6 million euros.')).toBe('contradicted');
    // A claim that leaves a figure of its quote out contradicts nothing.
    expect(alignedNumberChanges('Revenue grew by 12% in 2023.', 'Revenue grew by 12% in 2023 to 5,000,000 euros.')).toEqual([]);
  });

  it('reads numbers after Article, Section, §, page and the like as labels, never as counts', () => {
    const ns = extractNumbers('Under Article 5, § 3.2 and page 12, members need 7 votes in the 3rd round.');
    expect(ns.map((n) => [n.value, n.reference, n.ordinal])).toEqual([[5, true, false], [3.2, true, false], [12, true, false], [7, false, false], [3, false, true]]);
    const evidence = 'The quorum is 7 members.';
    const v = claimVerdict({ claim: 'Under Article 5 members need a quorum of 7 members.', status: 'verified', score: 1, matchText: evidence, quote: evidence });
    expect(v.verdict).not.toBe('contradicted');
    expect(v.reasons.join(' ')).toMatch(/not in the evidence: 5/);
    expect(claimVerdict({ claim: 'Members need 5 members present.', status: 'verified', score: 1, matchText: evidence, quote: evidence }).verdict).toBe('contradicted');
    // A rank is compared with ranks only.
    expect(claimVerdict({ claim: 'It was their 3rd year of operation.', status: 'verified', score: 1, matchText: 'They operated for 5 years.', quote: 'They operated for 5 years.' }).verdict).not.toBe('contradicted');
  });

  it('does not count number words as key terms', () => {
    expect(keyTerms('Costs were 3.2 million, five hundred per cent higher')).toEqual(['cost', 'higher']);
  });
});

describe('a claim repeating a misquoted number that counts nothing', () => {
  it('is contradicted by the number the source gives there (a list or section number)', () => {
    const v = claimVerdict({ claim: '11. They obtain the wood for their dams.', status: 'not_found', misquotedText: 'They obtain the wood for their dams', misquotedNumbers: { quote: ['11'], source: ['9'] } });
    expect(v.verdict).toBe('contradicted');
    expect(v.reasons.join(' ')).toMatch(/the claim says "11", the source says "9"/);
    expect(claimVerdict({ claim: 'They obtain the wood for their dams.', status: 'not_found', misquotedText: 'They obtain the wood for their dams', misquotedNumbers: { quote: ['11'], source: ['9'] } }).verdict).toBe('not_found');
  });
});
