import { describe, expect, it } from 'vitest';
import { findMarkers, splitSentences, stripMarkers } from '../../../shared/imports/sentences.ts';

describe('sentences and markers', () => {
  it('splits with exact offsets, keeping markers after the full stop with their sentence', () => {
    const text = 'Leave is 14 days (see p. 12).[1] Dr. Smith approves it, e.g. in March [2][3]. Amounts of 3.5 days round up.\n\nNew paragraph without stop';
    const s = splitSentences(text);
    expect(s.map((x) => x.text)).toEqual([
      'Leave is 14 days (see p. 12).[1]',
      'Dr. Smith approves it, e.g. in March [2][3].',
      'Amounts of 3.5 days round up.',
      'New paragraph without stop',
    ]);
    for (const x of s) expect(text.slice(x.start, x.end)).toBe(x.text);
  });

  it('ends a heading-like line at its line break, but not a wrapped line of running text', () => {
    const page = 'Section 3: Leave\nEmployees receive 14 days of annual leave per\ncalendar year. Requests go to the\nPortal team.';
    expect(splitSentences(page).map((x) => x.text)).toEqual([
      'Section 3: Leave',
      'Employees receive 14 days of annual leave per\ncalendar year.',
      'Requests go to the\nPortal team.',
    ]);
  });

  it('finds [1], [S2], [^3], [^note] and groups, but not links or definitions', () => {
    const text = 'A [1]. B [S2][^3]. C [4, 5]. D [^note]. See [the site](https://x.org) and [6](https://y.org).\n[7]: definition';
    expect(findMarkers(text).map((m) => m.label)).toEqual(['1', 'S2', '3', '4', '5', 'note']);
    expect(stripMarkers('Leave is 14 days [1] .')).toBe('Leave is 14 days.');
    // A figure as extracted from a right-to-left line keeps its shape: "3 .1" is not "3.1".
    expect(stripMarkers('در جدول ۳ .۱ در [1]')).toBe('در جدول ۳ .۱ در');
  });
});
