import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { markQuote, placePreview } from '../../../renderer/src/features/links/preview-logic.ts';

const overlaps = (a: { left: number; top: number; width: number; height: number }, b: typeof a) => a.left < b.left + b.width && b.left < a.left + a.width && a.top < b.top + b.height && b.top < a.top + a.height;

describe('citation preview logic', () => {
  it('marks the quote words the found text has', () => {
    const pieces = markQuote('Overtime should be approved, in writing.', 'Overtime must be approved in writing by the line manager.');
    expect(pieces.filter((p) => p.matched === true).map((p) => p.text)).toEqual(['Overtime', 'be', 'approved,', 'in', 'writing.']);
    expect(pieces.filter((p) => p.matched === false).map((p) => p.text)).toEqual(['should']);
    expect(pieces.map((p) => p.text).join('')).toBe('Overtime should be approved, in writing.');
  });

  it('never covers the marker or the card being read when some place fits', () => {
    const viewport = { width: 1400, height: 900 };
    const size = { width: 360, height: 240 };
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 440 }), fc.integer({ min: 0, max: 880 }), fc.integer({ min: 0, max: 800 }), fc.integer({ min: 40, max: 300 }), (mx, my, cy, ch) => {
        const marker = { left: mx, top: my, width: 20, height: 18 };
        const card = { left: 10, top: cy, width: 470, height: ch };
        const at = placePreview(marker, card, size, viewport, 495);
        const box = { ...at, ...size };
        // The column beside the panel is always free of both, so the preview never needs to cover them.
        expect(overlaps(box, marker)).toBe(false);
        expect(overlaps(box, card)).toBe(false);
      }),
      { numRuns: 300 },
    );
  });
});
