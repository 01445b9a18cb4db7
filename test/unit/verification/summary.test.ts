import { describe, expect, it } from 'vitest';
import { RISK_FLAG_CODES, riskFlags, summarise, summariseLedger, type LedgerItem } from '../../../shared/verification/index.ts';

const items: LedgerItem[] = [
  { marker: '1', claim: 'Leave is 14 days.', status: 'verified', verdict: 'supported', confidence: 0.9 },
  { marker: '2', claim: 'Leave is 14 days.', status: 'verified_elsewhere', verdict: 'contradicted', confidence: 0.8 },
  { marker: '3', claim: 'Notice is one month.', status: 'partial', verdict: 'weak', confidence: 0.4 },
  { marker: '4', claim: 'Pensions match 5%.', status: 'not_found', verdict: 'not_found', confidence: 0.9 },
  { marker: '5', claim: 'Bonus is capped.', status: 'source_unknown', verdict: 'not_found' },
  { marker: '6', claim: 'Remote work is allowed.', status: 'verified', verdict: 'supported', confidence: 0.3, sourceOutdated: true },
  { marker: '7', claim: 'Sick pay is 10 days.', status: 'verified', verdict: 'contradicted', confidence: 0.85 },
  { marker: '8', claim: 'Training is funded.', status: 'no_quote', verdict: 'weak', confidence: 0.2 },
];

describe('summarise', () => {
  it('counts statuses and verdicts per citation and coverage per claim', () => {
    const s = summarise(items);
    expect(s.total).toBe(8);
    expect(s.byStatus).toEqual({ verified: 3, verified_elsewhere: 1, partial: 1, not_found: 1, source_unknown: 1, no_quote: 1 });
    expect(s.byVerdict).toEqual({ supported: 2, weak: 2, contradicted: 2, not_found: 2 });
    // 7 claims: supported = leave (best of its two), remote; unsupported = pensions, bonus, sick pay.
    expect(s.coverage).toBeCloseTo(2 / 7);
    expect(s.unsupportedRate).toBeCloseTo(3 / 7);
  });

  it('handles an empty ledger without NaN', () => {
    const s = summarise([]);
    expect(s).toMatchObject({ total: 0, coverage: 0, unsupportedRate: 0 });
    expect(Object.values(s.byStatus).every((n) => n === 0)).toBe(true);
  });

  it('groups by claimKey when given', () => {
    const s = summarise([
      { marker: 'a', claimKey: 'c1', claim: 'one wording', status: 'verified', verdict: 'supported' },
      { marker: 'b', claimKey: 'c1', claim: 'other wording', status: 'not_found', verdict: 'not_found' },
    ]);
    expect(s.coverage).toBe(1);
    expect(s.unsupportedRate).toBe(0);
  });
});

describe('riskFlags', () => {
  it('raises each kind of flag with the markers concerned', () => {
    const flags = riskFlags(items);
    const by = Object.fromEntries(flags.map((f) => [f.code, f.markers]));
    expect(by['missing_evidence']).toEqual(['4', '5']);
    expect(by['contradiction']).toEqual(['2', '7']);
    expect(by['low_confidence']).toEqual(['3', '6', '8']);
    expect(by['conflicting_sources']).toEqual(['1', '2']);
    expect(by['outdated_source']).toEqual(['6']);
    expect(flags.map((f) => f.code)).toEqual([...RISK_FLAG_CODES]);
    for (const f of flags) expect(f.message.length).toBeGreaterThan(10);
  });

  it('flags a marker that cites two sources which disagree', () => {
    const flags = riskFlags([
      { marker: '9', claim: 'first wording', status: 'verified', verdict: 'supported', confidence: 0.9 },
      { marker: '9', claim: 'second wording', status: 'verified', verdict: 'contradicted', confidence: 0.9 },
    ]);
    expect(flags.find((f) => f.code === 'conflicting_sources')?.markers).toEqual(['9']);
  });

  it('raises nothing for a clean ledger and honours the confidence threshold', () => {
    const clean: LedgerItem[] = [{ marker: '1', status: 'verified', verdict: 'supported', confidence: 0.6 }];
    expect(riskFlags(clean)).toEqual([]);
    expect(riskFlags(clean, { lowConfidence: 0.7 }).map((f) => f.code)).toEqual(['low_confidence']);
    expect(summariseLedger(clean)).toEqual({ summary: summarise(clean), riskFlags: [] });
  });
});
