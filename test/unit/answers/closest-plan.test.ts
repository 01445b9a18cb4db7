import { describe, expect, it } from 'vitest';
import type { CitationDetail, CitationResultData } from '../../../shared/contract/answer-schemas.ts';
import { closestPlan, judgeText, methodLabel, openPlan } from '../../../renderer/src/features/answers/selectors.ts';

const notFound: CitationResultData = {
  runId: 1,
  status: 'not_found',
  verdict: 'not_found',
  score: 0,
  confidence: 0.9,
  sourceId: 7,
  segmentId: null,
  start: null,
  endSegmentId: null,
  end: null,
  page: null,
  pageLabel: null,
  method: null,
  matchedText: null,
  quote: 'Unused leave is carried over.',
  prefix: null,
  suffix: null,
  notes: [],
  place: null,
};

function citation(result: CitationResultData, claimedLocator: CitationDetail['claimedLocator'] = { page: 2 }): CitationDetail {
  return {
    id: 1,
    ordinal: 0,
    marker: '1',
    claim: 'Unused leave carries over.',
    quote: 'Unused leave is carried over.',
    context: null,
    source: { id: 7, fileName: 'HR_Policy.pdf', sha256: 'a'.repeat(64), title: null },
    unknownSource: null,
    claimedLocator,
    method: null,
    confidence: null,
    createdAt: '2026-01-01T00:00:00.000Z',
    result,
    review: null,
    history: [],
  };
}

describe('the closest passage of a quote not found', () => {
  const closest = { sourceId: 7, segmentId: 3, page: 3, pageLabel: 'iii', place: { unit: 'page' as const, at: 3, endAt: 3, start: 40, end: 94 }, score: 0.8, text: 'Unused leave lapses on 31 March of the following year.' };

  it('opens its page with the passage marked as closest, and says it is no match', () => {
    const plan = closestPlan(citation({ ...notFound, closest }), 'pdf');
    expect(plan?.request).toEqual({ viewer: 'pdf', sourceId: 7, page: 3, highlight: { page: 3, start: 40, end: 94 }, closest: true });
    expect(plan?.message).toBe('Closest passage, not a match: the quote is not in HR_Policy.pdf; the text that comes nearest (80%) is outlined at p. iii (3).');
  });

  it('opens a text source at its line with the exact range', () => {
    const line = { ...closest, page: null, pageLabel: null, place: { unit: 'line' as const, at: 6, endAt: 6, start: 0, end: 20 } };
    expect(closestPlan(citation({ ...notFound, closest: line }), 'text')?.request).toEqual({ viewer: 'flow', sourceId: 7, kind: 'text', target: { at: 6, range: { start: 0, end: 20 } }, closest: true });
  });

  it('is not offered without a recorded passage', () => {
    expect(closestPlan(citation(notFound), 'pdf')).toBeNull();
  });
});

describe('a claimed page is read by its printed label, as the verifier reads it', () => {
  it('shows the page printed with the claimed number, and says which page of the file it is', () => {
    const plan = openPlan(citation(notFound, { page: 12 }), 'pdf', (label) => (label === '12' ? 14 : null));
    expect(plan.request).toMatchObject({ viewer: 'pdf', page: 14, highlight: null });
    expect(plan.message).toBe('The quote was not found in HR_Policy.pdf. Showing the page printed “12” (p. 14 of the file); nothing is highlighted.');
  });

  it('keeps the page number where no page carries that label', () => {
    expect(openPlan(citation(notFound, { page: 2 }), 'pdf', () => null).request).toMatchObject({ page: 2 });
  });
});

describe('words of the card', () => {
  it('names the match method in words, its code kept for the tooltip', () => {
    const labels = ['exact', 'normalised', 'fuzzy'].map((m) => methodLabel(m as 'exact'));
    expect(labels.map((l) => l.text)).toEqual(['Exact match', 'Same words, other spacing or case', 'A few characters differ']);
    expect(labels.map((l) => l.code)).toEqual(['exact', 'normalised', 'fuzzy']);
  });

  it('gives the judge’s verdict and reason, or why it has none', () => {
    expect(judgeText({ model: 'm', outcome: 'answered', verdict: 'contradicted', reason: 'Opposite.' })).toMatchObject({ label: { text: 'contradicted' }, text: 'Opposite.' });
    expect(judgeText({ model: 'm', outcome: 'timeout', verdict: null, reason: null })).toEqual({ label: null, text: "The model judge did not answer in time; the rules' verdict stands." });
  });
});
