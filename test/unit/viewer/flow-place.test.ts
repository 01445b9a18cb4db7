import { describe, expect, it } from 'vitest';
import type { StoredSegment } from '../../../shared/contract/content-schemas.ts';
import { differingLines, findAll, parseGoTo, piecesMatch, placeInBlocks, placeInLines } from '../../../renderer/src/features/viewer/flow-place.ts';

const blocks = new Map([
  [0, 'Leave policy'],
  [1, 'Employees accrue 14 days of annual leave.'],
  [2, 'Unused days lapse on 31 March.'],
]);

const lines = ['Audit report', '', 'The committee approved', 'a budget of 1.2 million.', '', 'Closing line.'];
const segments: StoredSegment[] = [
  { paragraph: null, line: 1, lineEnd: 1, headingPath: [], text: 'Audit report' },
  { paragraph: null, line: 3, lineEnd: 4, headingPath: [], text: 'The committee approved\na budget of 1.2 million.' },
  { paragraph: null, line: 6, lineEnd: 6, headingPath: [], text: 'Closing line.' },
];

describe('placing a target in blocks', () => {
  it('highlights [start, end) of one block, or runs on into the next', () => {
    expect(placeInBlocks({ at: 1, range: { start: 17, end: 40 } }, blocks, new Set())).toEqual({ ok: true, units: [1], ranges: [{ unit: 1, from: 17, to: 40 }] });
    expect(placeInBlocks({ at: 1, endAt: 2, range: { start: 27, end: 11 } }, blocks, new Set())).toEqual({
      ok: true,
      units: [1, 2],
      ranges: [
        { unit: 1, from: 27, to: 41 },
        { unit: 2, from: 0, to: 11 },
      ],
    });
    expect(placeInBlocks({ at: 2 }, blocks, new Set())).toEqual({ ok: true, units: [2], ranges: [] });
  });

  it('refuses, saying why, rather than highlight anything but the stored characters', () => {
    expect(placeInBlocks({ at: 7, range: { start: 0, end: 3 } }, blocks, new Set())).toMatchObject({ ok: false, units: [], reason: 'this document has no ¶ 7' });
    expect(placeInBlocks({ at: 1, range: { start: 10, end: 99 } }, blocks, new Set())).toMatchObject({ ok: false, units: [1] });
    expect(placeInBlocks({ at: 1, range: { start: 0, end: 5 } }, blocks, new Set([1]))).toMatchObject({ ok: false, reason: '¶ 1 as shown differs from its stored text' });
  });
});

describe('placing a target in lines', () => {
  it('follows a segment offset from its first line onto the next line', () => {
    // "approved\na budget": offsets 14–32 of the segment that starts at line 3.
    expect(placeInLines({ at: 3, range: { start: 14, end: 33 } }, lines, segments, new Set())).toEqual({
      ok: true,
      units: [3, 4],
      ranges: [
        { unit: 3, from: 14, to: 22 },
        { unit: 4, from: 0, to: 10 },
      ],
    });
    expect(placeInLines({ at: 4, endAt: 6, range: { start: 2, end: 7 } }, lines, segments, new Set())).toMatchObject({
      ok: true,
      units: [4, 5, 6],
      ranges: [
        { unit: 4, from: 2, to: 24 },
        { unit: 6, from: 0, to: 7 },
      ],
    });
  });

  it('keeps a locator inside its segment and the file, and off lines that differ from the store', () => {
    expect(placeInLines({ at: 1, range: { start: 0, end: 20 } }, lines, segments, new Set())).toMatchObject({ ok: false, units: [1] });
    expect(placeInLines({ at: 9 }, lines, segments, new Set())).toMatchObject({ ok: false, reason: 'this file has no line 9 (it has 6)' });
    expect(placeInLines({ at: 3, range: { start: 0, end: 30 } }, lines, segments, new Set([4]))).toMatchObject({ ok: false, reason: 'line 4 as shown differs from its stored text' });
  });

  it('finds the lines whose stored segment is not what is shown', () => {
    expect(differingLines(lines, segments).size).toBe(0);
    const edited = [...lines];
    edited[3] = 'a budget of 2.1 million.';
    expect([...differingLines(edited, segments)]).toEqual([3, 4]);
  });
});

describe('pieces of a DOCX block', () => {
  it('match when they tile the stored text, with only spaces and newlines between them', () => {
    const text = 'Employees accrue 14 days\nof leave';
    expect(piecesMatch([{ at: 0, s: 'Employees accrue' }, { at: 16, s: ' 14 days' }, { at: 25, s: 'of leave' }], text)).toBe(true);
    expect(piecesMatch([{ at: 0, s: 'Employees accrue' }, { at: 25, s: 'of leave' }], text)).toBe(false);
    expect(piecesMatch([{ at: 0, s: 'Employees accrue' }, { at: 16, s: ' 15 days' }, { at: 25, s: 'of leave' }], text)).toBe(false);
    expect(piecesMatch([], text)).toBe(false);
  });
});

describe('find', () => {
  const units = [...blocks].map(([unit, text]) => ({ unit, text }));
  it('ignores case, and lets a space match any white space, even between blocks', () => {
    expect(findAll(units, 'ANNUAL leave')).toEqual([{ at: 1, range: { start: 28, end: 40 } }]);
    expect(findAll(units, 'annual leave. Unused days')).toEqual([{ at: 1, endAt: 2, range: { start: 28, end: 11 } }]);
    expect(findAll([{ unit: 4, text: '14\u00a0days' }], '14 days')).toEqual([{ at: 4, range: { start: 0, end: 7 } }]);
    expect(findAll(units, 'a.b*')).toEqual([]);
    expect(findAll(units, '   ')).toEqual([]);
  });
});

describe('go to', () => {
  it('reads a block or line number, or a range of them', () => {
    expect(parseGoTo('12')).toEqual({ from: 12, to: 12 });
    expect(parseGoTo('¶ 4–6')).toEqual({ from: 4, to: 6 });
    expect(parseGoTo('lines 120-130')).toEqual({ from: 120, to: 130 });
    expect(parseGoTo('line 7')).toEqual({ from: 7, to: 7 });
    expect(parseGoTo('9 to 3')).toBeNull();
    expect(parseGoTo('page 3')).toBeNull();
  });
});
