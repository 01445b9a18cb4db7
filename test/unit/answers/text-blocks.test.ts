import { describe, expect, it } from 'vitest';
import { answerTextParts, textBlocks } from '../../../renderer/src/features/answers/selectors.ts';

describe('the answer text in blocks (issue 16)', () => {
  const marks = Array.from({ length: 7 }, (_, i) => ({ id: i + 10, marker: String(i + 1) }));
  const text = marks.map((m) => `Claim ${m.marker} [${m.marker}].`).join(' ') + ' The end.';
  const parts = answerTextParts(text, marks);

  it('cuts after every few marker groups, keeping every part once and in order', () => {
    const blocks = textBlocks(parts, 3);
    expect(blocks.map((b) => b.parts.filter((p) => 'markers' in p).length)).toEqual([3, 3, 1]);
    expect(blocks.flatMap((b) => b.parts)).toEqual(parts);
  });

  it('gives each block its plain words with the markers written as labels', () => {
    const blocks = textBlocks(parts, 3);
    expect(blocks.map((b) => b.plain).join('')).toBe(text);
    expect(blocks[0]?.plain).toBe('Claim 1 [1]. Claim 2 [2]. Claim 3 [3]');
  });
});
