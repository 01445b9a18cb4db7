import { describe, expect, it } from 'vitest';
import { progressLine, skippedLines, sourceExtent } from '../../../renderer/src/features/library/selectors.ts';

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

  it('counts slides for PowerPoint and filled cells for Excel', () => {
    expect(sourceExtent({ kind: 'pptx', pageCount: 3, segmentCount: 16 })).toEqual({ label: '3 slides', title: '3 slides, 16 text blocks (titles, text boxes, table cells, notes)' });
    expect(sourceExtent({ kind: 'xlsx', pageCount: null, segmentCount: 17 }).label).toBe('17 cells');
  });
});

describe('ingest progress line and skipped sentences', () => {
  const progress = { type: 'ingest.progress' as const, batchId: 'b', fileIndex: 2, fileCount: 7, path: '/d/a.pdf', phase: 'extracting' as const, page: 1200, pageCount: 2415 };
  it('says the walk is still going, and counts files found so far until it ends', () => {
    expect(progressLine(null, { entries: 1234, files: 0, done: false })).toBe('Looking through folders: 1,234 entries so far');
    expect(progressLine({ ...progress, walking: true }, { entries: 5000, files: 9, done: false })).toBe('File 3 of 9 found so far: extracting page 1,200 of 2,415');
    expect(progressLine(progress, { entries: 5000, files: 7, done: true })).toBe('File 3 of 7: extracting page 1,200 of 2,415');
    expect(progressLine(null, null)).toBeNull();
  });
  it('says when a scanned page is being read by OCR (seconds a page)', () => {
    expect(progressLine({ ...progress, page: 3, pageCount: 10, ocr: true }, null)).toBe('File 3 of 7: reading a scanned page (OCR), page 3 of 10');
  });
  it('lists skipped entries as sentences with the path, target and code in the tooltip, then how many more', () => {
    const skipped = [
      { path: '/d/evil.txt', reason: 'link_outside' as const, entryType: 'file' as const, target: '/etc/passwd' },
      { path: '/d/pipe', reason: 'special_file' as const, entryType: 'fifo' as const },
      { path: '/d/.git', reason: 'hidden' as const },
    ];
    const { lines, more } = skippedLines(skipped, 2);
    expect(lines.map((l) => [l.text, l.title])).toEqual([
      ['Skipped evil.txt: it links to a file outside the folder you chose.', '/d/evil.txt → /etc/passwd [link_outside]'],
      ['Skipped pipe: it is a named pipe (FIFO), not a regular file, so it was not opened.', '/d/pipe [special_file]'],
    ]);
    expect(more).toBe(1);
  });
});
