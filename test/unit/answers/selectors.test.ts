import { describe, expect, it } from 'vitest';
import type { CitationDetail, CitationResultData } from '../../../shared/contract/answer-schemas.ts';
import { answerTextParts, claimedText, foundText, openPlan, statusLabel, stepCitation, verdictCounts } from '../../../renderer/src/features/answers/selectors.ts';

const SHA = 'a'.repeat(64);

function result(over: Partial<CitationResultData>): CitationResultData {
  return {
    runId: 1,
    status: 'verified',
    verdict: 'supported',
    score: 1,
    confidence: 0.9,
    sourceId: 7,
    segmentId: 1,
    start: 0,
    endSegmentId: null,
    end: 10,
    page: null,
    pageLabel: null,
    method: 'exact',
    matchedText: 'x',
    quote: 'x',
    prefix: null,
    suffix: null,
    notes: [],
    place: null,
    ...over,
  };
}

function citation(over: Partial<CitationDetail>): CitationDetail {
  return {
    id: 1,
    ordinal: 0,
    marker: '1',
    claim: 'A claim.',
    quote: 'a quote',
    context: null,
    source: { id: 7, fileName: 'HR_Policy.pdf', sha256: SHA, title: null },
    unknownSource: null,
    claimedLocator: {},
    method: 'direct_quote',
    confidence: null,
    createdAt: '2026-01-01T00:00:00.000Z',
    result: result({}),
    review: null,
    history: [],
    ...over,
  };
}

describe('the answer text split at its markers', () => {
  it('picks out groups and single markers, each occurrence taking the next citation with its label', () => {
    const cs = [
      { id: 10, marker: '1' },
      { id: 11, marker: '2' },
      { id: 12, marker: '1' },
    ];
    expect(answerTextParts('A [1]. B [1, 2]. C [^x].', cs)).toEqual([
      { text: 'A ' },
      { markers: [{ label: '1', citationId: 10 }] },
      { text: '. B ' },
      { markers: [{ label: '1', citationId: 12 }, { label: '2', citationId: 11 }] },
      { text: '. C ' },
      { markers: [{ label: 'x', citationId: null }] },
      { text: '.' },
    ]);
  });

  it('points a marker used more often than it has citations at its first citation', () => {
    expect(answerTextParts('[S1] and [S1]', [{ id: 3, marker: 'S1' }])).toEqual([
      { markers: [{ label: 'S1', citationId: 3 }] },
      { text: ' and ' },
      { markers: [{ label: 'S1', citationId: 3 }] },
    ]);
  });
});

describe('places as people read them', () => {
  it('reads claimed locators', () => {
    expect(claimedText({ page: 12 })).toBe('p. 12');
    expect(claimedText({ page: 12, pageEnd: 13 })).toBe('pp. 12–13');
    expect(claimedText({ pageLabel: 'iv' })).toBe('p. iv');
    expect(claimedText({ paragraph: 4, section: 'Leave policy' })).toBe('¶ 4 · §Leave policy');
    expect(claimedText({ line: 10, lineEnd: 12 })).toBe('lines 10–12');
    expect(claimedText({})).toBe('');
  });

  it('reads found places', () => {
    expect(foundText({ unit: 'page', at: 3, endAt: 3, start: 0, end: 5 }, 'iii')).toBe('p. iii (3)');
    expect(foundText({ unit: 'page', at: 3, endAt: 4, start: 0, end: 5 }, null)).toBe('pp. 3–4');
    expect(foundText({ unit: 'block', at: 20, endAt: 21, start: 0, end: 5 }, null)).toBe('¶ 20–21');
    expect(foundText({ unit: 'line', at: 6, endAt: 6, start: 0, end: 5 }, null)).toBe('line 6');
  });
});

describe('where a citation opens', () => {
  it('opens a verified PDF quote on its page with its range highlighted', () => {
    const c = citation({ claimedLocator: { page: 3 }, result: result({ page: 3, place: { unit: 'page', at: 3, endAt: 3, start: 17, end: 77 } }) });
    expect(openPlan(c, 'pdf')).toEqual({
      request: { viewer: 'pdf', sourceId: 7, page: 3, highlight: { page: 3, start: 17, end: 77 } },
      highlights: true,
      message: 'Quote highlighted at p. 3.',
    });
  });

  it('highlights a quote that runs on to the next pages across them, opening its first page, and says where its parts are', () => {
    const c = citation({ result: result({ status: 'verified_elsewhere', place: { unit: 'page', at: 3, endAt: 4, start: 40, end: 12 } }), claimedLocator: { page: 9 } });
    const plan = openPlan(c, 'pdf');
    expect(plan.request).toEqual({ viewer: 'pdf', sourceId: 7, page: 3, highlight: { page: 3, start: 40, endPage: 4, end: 12 } });
    expect(plan.message).toBe('Found at pp. 3–4, not at the claimed p. 9: highlighted where it is. Shown from p. 3; its part on p. 4 is highlighted there too (next page ›).');
    const kept = openPlan(citation({ result: result({ place: { unit: 'page', at: 3, endAt: 4, start: 40, end: 12, firstEnd: 61, lastStart: 3 } }) }), 'pdf');
    expect(kept.request).toEqual({ viewer: 'pdf', sourceId: 7, page: 3, highlight: { page: 3, start: 40, endPage: 4, end: 12, firstEnd: 61, lastStart: 3 } });
    const three = openPlan(citation({ result: result({ place: { unit: 'page', at: 3, endAt: 5, start: 40, end: 12 } }) }), 'pdf');
    expect(three.request).toMatchObject({ page: 3, highlight: { page: 3, start: 40, endPage: 5, end: 12 } });
    expect(three.message).toBe('Quote highlighted at pp. 3–5. Shown from p. 3; its parts on pp. 4–5 are highlighted there too (next page ›).');
  });

  it('gives the flow viewers a target across blocks or lines', () => {
    const block = citation({ result: result({ place: { unit: 'block', at: 20, endAt: 21, start: 5, end: 9 } }) });
    expect(openPlan(block, 'docx').request).toEqual({ viewer: 'flow', sourceId: 7, kind: 'docx', target: { at: 20, endAt: 21, range: { start: 5, end: 9 } } });
    const line = citation({ result: result({ place: { unit: 'line', at: 6, endAt: 6, start: 0, end: 59 } }) });
    expect(openPlan(line, 'text').request).toEqual({ viewer: 'flow', sourceId: 7, kind: 'text', target: { at: 6, range: { start: 0, end: 59 } } });
  });

  it('never highlights a quote that was not placed: it opens the claimed place and says so', () => {
    // Even with a stored place, a not_found result highlights nothing.
    const c = citation({ claimedLocator: { page: 2 }, result: result({ status: 'not_found', verdict: 'not_found', score: 0.4, place: { unit: 'page', at: 4, endAt: 4, start: 0, end: 9 } }) });
    expect(openPlan(c, 'pdf')).toEqual({
      request: { viewer: 'pdf', sourceId: 7, page: 2, highlight: null },
      highlights: false,
      message: 'The quote was not found in HR_Policy.pdf. Showing the claimed p. 2; nothing is highlighted.',
    });
    const labelled = citation({ claimedLocator: { pageLabel: 'iv' }, result: result({ status: 'not_found', place: null }) });
    expect(openPlan(labelled, 'pdf', (l) => (l === 'iv' ? 6 : null)).request).toMatchObject({ page: 6, highlight: null });
    expect(openPlan(labelled, 'pdf').message).toBe('The quote was not found in HR_Policy.pdf. This PDF has no page labelled “iv”: showing p. 1; nothing is highlighted.');
    const paraphrase = citation({ quote: null, claimedLocator: { line: 4, lineEnd: 5 }, result: result({ status: 'no_quote', place: null }) });
    expect(openPlan(paraphrase, 'markdown')).toEqual({
      request: { viewer: 'flow', sourceId: 7, kind: 'markdown', target: { at: 4, endAt: 5 } },
      highlights: false,
      message: 'This citation gives no quote: judge it from the claim. Showing the claimed lines 4–5; nothing is highlighted.',
    });
  });

  it('opens nothing for a source the workspace does not have', () => {
    const c = citation({ source: null, unknownSource: 'Leave_Handbook.docx', result: result({ status: 'source_unknown', place: null }) });
    expect(openPlan(c, null)).toMatchObject({ request: null, highlights: false, message: expect.stringContaining('“Leave_Handbook.docx” is not a document of this workspace') });
  });
});

describe('moving between cards and counting verdicts', () => {
  it('steps and stops at the ends', () => {
    expect(stepCitation([4, 5, 6], null, 1)).toBe(4);
    expect(stepCitation([4, 5, 6], null, -1)).toBe(6);
    expect(stepCitation([4, 5, 6], 5, 1)).toBe(6);
    expect(stepCitation([4, 5, 6], 6, 1)).toBe(6);
    expect(stepCitation([4, 5, 6], 4, -1)).toBe(4);
    expect(stepCitation([], null, 1)).toBeNull();
  });

  it('lists verdicts in the ledger’s order, leaving out zeros', () => {
    const summary = {
      total: 4,
      byStatus: { verified: 3, verified_elsewhere: 0, partial: 0, not_found: 1, source_unknown: 0, no_quote: 0 },
      byVerdict: { supported: 2, weak: 0, contradicted: 1, not_found: 1 },
      coverage: 0.5,
      unsupportedRate: 0.5,
    };
    expect(verdictCounts(summary).map((v) => `${v.count} ${v.label.code}`)).toEqual(['2 supported', '1 contradicted', '1 not_found']);
    // In words on the screen.
    expect(verdictCounts(summary).map((v) => `${v.count} ${v.label.text}`)).toEqual(['2 Backs the claim', '1 Says otherwise', '1 No evidence found']);
  });

  it('says a quote found elsewhere in the unit of its document', () => {
    expect(['page', 'block', 'line'].map((u) => statusLabel('verified_elsewhere', u as 'page').text)).toEqual(['Found on another page', 'Found in another paragraph', 'Found on other lines']);
    expect(statusLabel('verified_elsewhere')).toMatchObject({ text: 'Found on another page', code: 'verified_elsewhere' });
    expect(statusLabel('not_found', 'page')).toMatchObject({ text: 'Not in the source', code: 'not_found' });
  });
});
