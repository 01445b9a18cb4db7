import { describe, expect, it } from 'vitest';
import { sourceExtent } from '../../../renderer/src/features/library/selectors.ts';

describe('library Length column', () => {
  it('counts pages for PDFs and blocks for DOCX and HTML, and no segment count for text', () => {
    expect(sourceExtent({ kind: 'pdf', pageCount: 1, segmentCount: 1 })).toEqual({ label: '1 pp.', title: '1 page' });
    expect(sourceExtent({ kind: 'pdf', pageCount: 240, segmentCount: 240 }).label).toBe('240 pp.');
    expect(sourceExtent({ kind: 'docx', pageCount: null, segmentCount: 23 })).toMatchObject({ label: '23 ¶' });
    expect(sourceExtent({ kind: 'html', pageCount: null, segmentCount: 1 }).title).toMatch(/^1 block /);
    for (const kind of ['text', 'markdown'] as const) {
      expect(sourceExtent({ kind, pageCount: null, segmentCount: 1645 }).label).toBe('—');
    }
  });
});
