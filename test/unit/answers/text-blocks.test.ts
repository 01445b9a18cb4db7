import { describe, expect, it } from 'vitest';
import { answerTextParts, plainBlocks, textBlocks, type TextPart } from '../../../renderer/src/features/answers/selectors.ts';

describe('the answer text in blocks (issue 16)', () => {
  const marks = Array.from({ length: 7 }, (_, i) => ({ id: i + 10, marker: String(i + 1) }));
  const text = marks.map((m) => `Claim ${m.marker} [${m.marker}].`).join(' ') + ' The end.';
  const parts = answerTextParts(text, marks);

  it('cuts after every few marker groups, keeping every part once and in order', () => {
    const blocks = textBlocks(parts, 3);
    expect(blocks.map((b) => b.parts.filter((p) => 'markers' in p).length)).toEqual([3, 3, 1]);
    const markers = (ps: readonly TextPart[]) => ps.flatMap((p) => ('markers' in p ? [p.markers] : []));
    expect(markers(blocks.flatMap((b) => b.parts))).toEqual(markers(parts));
  });

  it('gives each block its plain words with the markers written as labels', () => {
    const blocks = textBlocks(parts, 3);
    expect(blocks.map((b) => b.plain).join('')).toBe(text);
    // A block ends after the space that follows its last group: the next starts its line with a word.
    expect(blocks[0]?.plain).toBe('Claim 1 [1]. Claim 2 [2]. Claim 3 [3]. ');
    expect(blocks[1]?.plain).toBe('Claim 4 [4]. Claim 5 [5]. Claim 6 [6]. ');
  });

  it('ends a block at the line break after its last group, when there is one', () => {
    const lined = 'One [1], still one [2].\nTwo [3].\n\nThree.';
    const blocks = textBlocks(answerTextParts(lined, marks), 1);
    expect(blocks.map((b) => b.plain)).toEqual(['One [1], ', 'still one [2].\n', 'Two [3].\n', '\nThree.']);
  });

  it('cuts a plain text into pieces of about a size, each ending after a space', () => {
    const blocks = plainBlocks(text, 20);
    expect(blocks.join('')).toBe(text);
    expect(blocks.slice(0, -1).every((b) => b.length >= 20 && /\s$/.test(b))).toBe(true);
    expect(plainBlocks('', 20)).toEqual([]);
    expect(plainBlocks('short', 20)).toEqual(['short']);
  });
});
