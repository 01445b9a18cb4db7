import { describe, expect, it } from 'vitest';
import {
  CITATION_STATUSES,
  citationStatus,
  hintFromLocator,
  isAtClaimedLocation,
  type CitationStatus,
} from '../../../shared/verification/index.ts';

const at = (score: number, page = 3, extra: Partial<{ segmentId: number; endSegmentId: number; endPage: number }> = {}) => ({
  score,
  segmentId: extra.segmentId ?? page * 10,
  page,
  ...extra,
});

describe('citationStatus', () => {
  it('exports the DESIGN.md §5 statuses in order', () => {
    expect(CITATION_STATUSES).toEqual(['verified', 'verified_elsewhere', 'partial', 'not_found', 'source_unknown', 'no_quote']);
    const s: CitationStatus = 'partial';
    expect(CITATION_STATUSES).toContain(s);
  });

  it('decides by score and claimed location', () => {
    const q = 'a quote';
    const claimed = { pages: [3] };
    expect(citationStatus({ quote: q, sourceKnown: true, match: at(1), claimed })).toBe('verified');
    expect(citationStatus({ quote: q, sourceKnown: true, match: at(0.9), claimed })).toBe('verified');
    expect(citationStatus({ quote: q, sourceKnown: true, match: at(1 - 3 / 30), claimed })).toBe('verified');
    expect(citationStatus({ quote: q, sourceKnown: true, match: at(0.95, 7), claimed })).toBe('verified_elsewhere');
    expect(citationStatus({ quote: q, sourceKnown: true, match: at(0.89, 3), claimed })).toBe('partial');
    expect(citationStatus({ quote: q, sourceKnown: true, match: at(0.75, 7), claimed })).toBe('partial');
    expect(citationStatus({ quote: q, sourceKnown: true, match: at(0.74), claimed })).toBe('not_found');
    expect(citationStatus({ quote: q, sourceKnown: true, match: null, claimed })).toBe('not_found');
  });

  it('counts any found location as verified when none was claimed', () => {
    for (const claimed of [undefined, null, {}, { pages: [] }, { segmentIds: [] }]) {
      expect(citationStatus({ quote: 'q', sourceKnown: true, match: at(0.97, 12), claimed })).toBe('verified');
    }
  });

  it('matches claims by segment id (number or string) and by either end of a page-spanning match', () => {
    expect(isAtClaimedLocation(at(1, 3), { segmentIds: ['30'] })).toBe(true);
    expect(isAtClaimedLocation(at(1, 3), { segmentIds: [31] })).toBe(false);
    expect(isAtClaimedLocation(at(1, 3, { endSegmentId: 40, endPage: 4 }), { pages: [4] })).toBe(true);
    expect(isAtClaimedLocation(at(1, 3, { endSegmentId: 40, endPage: 4 }), { segmentIds: [40] })).toBe(true);
    expect(citationStatus({ quote: 'q', sourceKnown: true, match: at(1, 3, { endSegmentId: 40, endPage: 4 }), claimed: { pages: [4] } })).toBe('verified');
  });

  it('reports unknown sources and missing quotes before anything else', () => {
    expect(citationStatus({ quote: 'q', sourceKnown: false, match: null })).toBe('source_unknown');
    expect(citationStatus({ quote: null, sourceKnown: false, match: null })).toBe('source_unknown');
    expect(citationStatus({ quote: '', sourceKnown: true, match: null })).toBe('no_quote');
    expect(citationStatus({ quote: '   ', sourceKnown: true, match: null })).toBe('no_quote');
    expect(citationStatus({ sourceKnown: true, match: null })).toBe('no_quote');
  });

  it('turns a locator page range into a claimed location', () => {
    expect(hintFromLocator({ page: 4 })).toEqual({ pages: [4] });
    expect(hintFromLocator({ page: 4, pageEnd: 6 })).toEqual({ pages: [4, 5, 6] });
    expect(hintFromLocator({ page: 4, pageEnd: 2 })).toEqual({ pages: [4] });
    expect(hintFromLocator({})).toBeNull();
    expect(hintFromLocator(null)).toBeNull();
    expect(hintFromLocator({ page: 1, pageEnd: 1e9 })?.pages?.length).toBe(1000);
  });
});
