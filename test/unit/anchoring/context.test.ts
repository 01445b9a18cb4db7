import { describe, expect, it } from 'vitest';
import { editDistance, surrounding, wordDiff } from '../../../shared/anchoring/index.ts';

describe('surrounding', () => {
  it('returns up to n chars either side, 32 by default', () => {
    const text = 'a'.repeat(50) + 'QUOTE' + 'b'.repeat(50);
    expect(surrounding(text, 50, 55)).toEqual({ prefix: 'a'.repeat(32), suffix: 'b'.repeat(32) });
    expect(surrounding(text, 50, 55, 4)).toEqual({ prefix: 'aaaa', suffix: 'bbbb' });
    expect(surrounding('xQUOTEy', 1, 6)).toEqual({ prefix: 'x', suffix: 'y' });
    expect(surrounding('QUOTE', 0, 5)).toEqual({ prefix: '', suffix: '' });
  });

  it('clamps offsets and never splits a surrogate pair', () => {
    expect(surrounding('abc', -5, 99)).toEqual({ prefix: '', suffix: '' });
    const text = '\u{1F600}xyQUOTE';
    expect(surrounding(text, 4, 9, 3)).toEqual({ prefix: 'xy', suffix: '' });
  });
});

describe('wordDiff', () => {
  it('diffs by words and ignores case, ligatures and quote styles', () => {
    expect(wordDiff('The \u201Cﬁnal\u201D rule applies', 'the "final" rule applies')).toEqual([{ op: 'equal', text: 'the "final" rule applies' }]);
    expect(wordDiff('staff get 15 days of leave', 'staff get 14 days of annual leave')).toEqual([
      { op: 'equal', text: 'staff get' },
      { op: 'delete', text: '15' },
      { op: 'insert', text: '14' },
      { op: 'equal', text: 'days of' },
      { op: 'insert', text: 'annual' },
      { op: 'equal', text: 'leave' },
    ]);
  });

  it('handles empty sides and reconstructs both texts', () => {
    expect(wordDiff('', '')).toEqual([]);
    expect(wordDiff('a b', '')).toEqual([{ op: 'delete', text: 'a b' }]);
    expect(wordDiff('', 'a b')).toEqual([{ op: 'insert', text: 'a b' }]);
    const a = 'one two three four five six';
    const b = 'zero two three five six seven';
    const parts = wordDiff(a, b);
    const side = (ops: string[]): string => parts.filter((p) => ops.includes(p.op)).map((p) => p.text).join(' ');
    expect(side(['equal', 'delete'])).toBe(a);
    expect(side(['equal', 'insert'])).toBe(b);
  });
});

describe('editDistance', () => {
  it('counts insertions, deletions and substitutions', () => {
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('', 'abc')).toBe(3);
    expect(editDistance('same', 'same')).toBe(0);
  });
});
