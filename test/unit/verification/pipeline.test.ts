import { describe, expect, it } from 'vitest';
import { findQuote, prepareSegments, wordDiff } from '../../../shared/anchoring/index.ts';
import { citationStatus, claimVerdict, hintFromLocator, summariseLedger, type LedgerItem } from '../../../shared/verification/index.ts';
import { makeCorpus } from '../anchoring/corpus.ts';

// Anchoring, status and verdict together, as the verification service runs them per citation.
const LEAVE = 'Full-time employees are entitled to 14 days of paid annual leave per calendar year.';
const NOTICE = 'Contractors must give 30 days of written notice before the end of an assignment.';
const corpus = makeCorpus(777, 24, 2500, new Map([[6, [LEAVE.split(' ')]], [17, [NOTICE.split(' ')]]]));
const source = prepareSegments(corpus.pages);

interface Citation {
  marker: string;
  claim: string;
  quote: string | null;
  page?: number;
}

function verify(c: Citation): LedgerItem & { score: number | null; text: string | null; misquoted: string | null } {
  const claimed = hintFromLocator(c.page === undefined ? null : { page: c.page });
  const found = c.quote ? findQuote(c.quote, source, { hint: claimed, reportMisquotes: true }) : null;
  // A misquote (the quote but for a number) is no match: the status says not_found, the verdict
  // compares the claim with what the source says there.
  const match = found && !found.numberMismatch ? found : null;
  const misquote = found?.numberMismatch ? found : null;
  const status = citationStatus({ quote: c.quote, sourceKnown: true, match, claimed });
  const at = match ?? misquote;
  const page = at ? corpus.pages.find((p) => p.id === at.segmentId) : undefined;
  const context = at && page ? page.text.slice(Math.max(0, at.start - 200), at.end + 200) : null;
  const v = claimVerdict({ claim: c.claim, status, score: match?.score ?? null, matchText: match?.text ?? null, quote: c.quote, context, misquotedText: misquote?.text ?? null });
  return { marker: c.marker, claim: c.claim, status, verdict: v.verdict, confidence: v.confidence, score: match?.score ?? null, text: match?.text ?? null, misquoted: misquote?.text ?? null };
}

describe('verification pipeline on the generated corpus', () => {
  it('supports a claim that matches its quote, at the cited page', () => {
    const r = verify({ marker: '1', claim: 'Full-time employees get 14 days of paid annual leave each year.', quote: LEAVE, page: 6 });
    expect(r.status).toBe('verified');
    expect(r.verdict).toBe('supported');
  });

  it('contradicts a claim whose number differs from its correct quote', () => {
    const r = verify({ marker: '2', claim: 'Full-time employees get 15 days of paid annual leave.', quote: LEAVE, page: 6 });
    expect(r.status).toBe('verified');
    expect(r.verdict).toBe('contradicted');
  });

  it('never verifies a quote altered to carry the wrong number, and contradicts its claim', () => {
    const r = verify({ marker: '3', claim: 'Contractors must give 45 days of written notice.', quote: NOTICE.replace('30', '45'), page: 17 });
    expect(r.status).toBe('not_found');
    expect(r.text).toBeNull();
    expect(r.misquoted).toContain('30 days');
    expect(r.verdict).toBe('contradicted');
    const diff = wordDiff(NOTICE.replace('30', '45'), r.misquoted ?? '');
    expect(diff.filter((d) => d.op !== 'equal')).toEqual([
      { op: 'delete', text: '45' },
      { op: 'insert', text: '30' },
    ]);
  });

  it('reports a quote found on another page as verified_elsewhere and one that is nowhere as not_found', () => {
    expect(verify({ marker: '4', claim: 'Contractors give 30 days of written notice.', quote: NOTICE, page: 3 }).status).toBe('verified_elsewhere');
    const missing = verify({
      marker: '5',
      claim: 'Employees may work remotely three days a week.',
      quote: 'Employees may work remotely for up to three days in every working week.',
      page: 6,
    });
    expect(missing.status).toBe('not_found');
    expect(missing.verdict).toBe('not_found');
  });

  it('summarises the ledger', () => {
    const ledger = [
      verify({ marker: '1', claim: 'Full-time employees get 14 days of paid annual leave each year.', quote: LEAVE, page: 6 }),
      verify({ marker: '2', claim: 'Full-time employees get 15 days of paid annual leave.', quote: LEAVE, page: 6 }),
      verify({ marker: '3', claim: 'Training is funded.', quote: null }),
    ];
    const { summary, riskFlags } = summariseLedger(ledger);
    expect(summary.total).toBe(3);
    expect(summary.byVerdict).toEqual({ supported: 1, weak: 1, contradicted: 1, not_found: 0 });
    expect(riskFlags.map((f) => f.code)).toEqual(['contradiction', 'low_confidence']);
  });
});
