import { describe, expect, it } from 'vitest';
import { CITATION_STATUSES } from '../../../shared/verification/status.ts';
import { CLAIM_VERDICTS } from '../../../shared/verification/verdict.ts';
import { buildReport, reportMatch, reviewOf } from '../../../shared/report/build.ts';
import { checkContentHash } from '../../../shared/report/content-hash.ts';
import { REPORT_FORMAT, Report } from '../../../shared/report/schema.ts';
import { CITATIONS, SOURCES, fixtureReport, reportInput, sha256Hex } from './report-fixture.ts';

describe('buildReport', () => {
  const report = fixtureReport();
  const byMarker = (m: string) => report.citations.find((c) => c.marker === m);

  it('makes a valid, sealed evidence-desk/report@1 with every status, verdict and decision', () => {
    expect(Report.parse(report)).toEqual(report);
    expect(report.format).toBe(REPORT_FORMAT);
    expect(checkContentHash(report, sha256Hex).holds).toBe(true);
    expect(new Set(report.citations.map((c) => c.status))).toEqual(new Set(CITATION_STATUSES));
    expect(new Set(report.citations.map((c) => c.verdict))).toEqual(new Set(CLAIM_VERDICTS));
    expect(new Set(report.citations.map((c) => c.review.decision))).toEqual(new Set(['accepted', 'rejected', 'flagged', 'none']));
    expect(report.citations.map((c) => c.id)).toEqual(['C1', 'C2', 'C3', 'C4', 'C5', 'C6', 'C7', 'C8']);
  });

  it('names sources S1, S2… in order of first use and leaves uncited sources out', () => {
    // The text cites [1] (the PDF), then [3, 2]: [3] is the PDF again, [2] the DOCX; the text file comes with [6].
    expect(report.sources.map((s) => [s.id, s.fileName])).toEqual([
      ['S1', 'HR_Policy.pdf'],
      ['S2', 'handbook.docx'],
      ['S3', 'notes.txt'],
    ]);
    expect(byMarker('1')?.source).toBe('S1');
    expect(byMarker('2')?.source).toBe('S2');
    expect(byMarker('5')?.source).toBeNull();
    expect(byMarker('5')?.unknownSource).toBe('Annual Report 2019');
    expect(report.sources.find((s) => s.sha256 === SOURCES[3]?.sha256)).toBeUndefined();
  });

  it('ties each marker of the text to its citation, and a marker no citation has to none', () => {
    const m = report.answer.markers;
    expect(m.map((g) => g.labels)).toEqual([['1'], ['3', '2'], ['4'], ['5'], ['6'], ['7'], ['1'], ['12']]);
    expect(m.map((g) => g.citations)).toEqual([['C1'], ['C3', 'C2'], ['C4'], ['C5'], ['C6'], ['C7'], ['C1'], [null]]);
    for (const g of m) expect(report.answer.text.slice(g.start, g.end)).toMatch(/^\[.*\]$/);
  });

  it('takes the decision in force from the latest row of the trail, history oldest first', () => {
    const c1 = byMarker('1');
    expect(c1?.review).toMatchObject({ decision: 'accepted', reviewer: 'Ada Lovelace', note: 'Matches the table on p. xii', at: '2026-11-24T10:05:00.000Z' });
    expect(c1?.review.history.map((e) => e.decision)).toEqual(['flagged', 'accepted']);
    // A cleared decision is a row of its own: no decision in force, the trail kept.
    expect(byMarker('6')?.review).toMatchObject({ decision: 'none', note: null });
    expect(byMarker('6')?.review.history.map((e) => e.decision)).toEqual(['accepted', 'cleared']);
    expect(byMarker('4')?.review).toEqual({ decision: 'none', note: null, at: null, reviewer: null, history: [] });
  });

  it('summarises every citation and lists the unresolved ones with their reasons', () => {
    expect(report.summary.total).toBe(8);
    expect(report.summary.included).toBe(8);
    expect(report.summary.byDecision).toEqual({ accepted: 2, rejected: 2, flagged: 1, none: 3 });
    expect(Object.values(report.summary.byStatus).reduce((a, b) => a + b, 0)).toBe(8);
    expect(report.summary.unresolved.map((u) => [u.marker, u.reasons])).toEqual([
      ['3', ['flagged']],
      ['4', ['quote_not_found', 'claim_not_supported']],
    ]);
  });

  it('keeps only accepted citations when asked, still counting and listing the others', () => {
    const only = buildReport(reportInput({ citations: 'accepted' }), sha256Hex);
    expect(only.citations.map((c) => c.marker)).toEqual(['1', '5']);
    expect(only.summary.total).toBe(8);
    expect(only.summary.included).toBe(2);
    expect(only.summary.unresolved.map((u) => [u.marker, u.included])).toEqual([
      ['3', false],
      ['4', false],
    ]);
    // Source ids stay contiguous over what the report includes.
    expect(only.sources.map((s) => s.id)).toEqual(['S1']);
    expect(only.answer.markers[1]?.citations).toEqual([null, null]);
  });

  it('leaves reviewer notes and excerpts out when asked', () => {
    const bare = buildReport(reportInput({ notes: false, excerpts: false }), sha256Hex);
    for (const c of bare.citations) {
      expect(c.excerpt).toBeNull();
      expect(c.review.note).toBeNull();
      for (const e of c.review.history) expect(e.note).toBeNull();
    }
    const x = fixtureReport().citations[0]?.excerpt;
    expect(x && 'boxes' in x ? x.boxes : null).toHaveLength(2);
  });

  it('orders the trail by time, whatever the offsets the times are written with', () => {
    const r = reviewOf(
      [
        { decision: 'rejected', note: null, at: '2026-11-24T11:30:00+02:00', reviewer: 'B' }, // 09:30 UTC
        { decision: 'accepted', note: 'ok', at: '2026-11-24T10:00:00Z', reviewer: 'A' },
      ],
      true,
    );
    expect(r.history.map((e) => e.reviewer)).toEqual(['B', 'A']);
    expect(r).toMatchObject({ decision: 'accepted', reviewer: 'A', note: 'ok' });
  });

  it('turns a stored match place into the report match, unit by unit', () => {
    const found = { sha256: 'f'.repeat(64), pageLabel: 'iv', method: 'exact' as const, text: 'q' };
    expect(reportMatch({ unit: 'page', at: 4, endAt: 5, start: 10, end: 20, firstEnd: 300, lastStart: 2 }, found)).toMatchObject({
      unit: 'page', page: 4, pageLabel: 'iv', endPage: 5, block: null, line: null, start: 10, end: 20, firstEnd: 300, lastStart: 2,
    });
    expect(reportMatch({ unit: 'block', at: 3, endAt: 3, start: 0, end: 9 }, found)).toMatchObject({ page: null, pageLabel: null, block: 3, endBlock: 3, firstEnd: null, lastStart: null });
    expect(reportMatch({ unit: 'line', at: 10, endAt: 12, start: 4, end: 30 }, found)).toMatchObject({ line: 10, endLine: 12, page: null, block: null });
  });

  it('refuses a citation whose source was not given', () => {
    const input = reportInput();
    expect(() => buildReport({ ...input, sources: input.sources.filter((s) => s.id !== 12) }, sha256Hex)).toThrow(/source 12/);
    expect(CITATIONS.some((c) => c.sourceId === 12)).toBe(true);
  });
});
