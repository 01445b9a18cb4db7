import { describe, expect, it } from 'vitest';
import { ocrPageText, type OcrWord } from '../../../shared/ocr/ocr-text.ts';
import { ocrItems } from '../../../renderer/src/features/viewer/highlight.ts';

const w = (text: string, x0: number, y0: number, confidence = 95): OcrWord => ({ text, confidence, bbox: { x0, y0, x1: x0 + 10 * text.length, y1: y0 + 20 } });

describe('OCR words as page text', () => {
  it('joins words by spaces, lines by newlines, paragraphs by a blank line; one item and one box (fractions of the image) per word', () => {
    const page = ocrPageText(
      [
        [[w('Annual', 100, 50), w('leave', 170, 50)], [w('is', 100, 80), w('14', 130, 80), w('days.', 160, 80)]],
        [[w('Signed:', 100, 200, 80)]],
      ],
      1000,
      2000,
    );
    expect(page.text).toBe('Annual leave\nis 14 days.\n\nSigned:\n\n');
    expect(page.itemStarts).toEqual([0, 7, 13, 16, 19, 26]);
    expect(page.boxes[0]).toEqual([0.1, 0.025, 0.16, 0.035]);
    expect(page.wordCount).toBe(6);
    // Weighted by characters: 20 characters at 95, 7 at 80.
    expect(page.confidence).toBeCloseTo((20 * 95 + 7 * 80) / 27, 1);
  });

  it('drops specks (no letter or digit, low confidence) but keeps any word with letters, however unsure', () => {
    const page = ocrPageText([[[w('|', 10, 10, 20), w('Total', 30, 10, 31), w('~', 90, 10, 12), w('—', 120, 10, 90)]]], 1000, 1000);
    expect(page.text).toBe('Total —\n\n');
    expect(page.itemStarts).toEqual([0, 6]);
    expect(ocrPageText([[[w('|', 10, 10, 20)]]], 100, 100)).toMatchObject({ text: '', wordCount: 0, confidence: null });
  });

  it('the viewer takes the stored words back as items with their boxes, and refuses boxes that do not match the items', () => {
    const page = ocrPageText([[[w('Annual', 100, 50), w('leave', 170, 50)]]], 1000, 2000);
    const stored = { sourceId: 1, page: 1, pageLabel: null, text: page.text, itemStarts: page.itemStarts, noTextLayer: true, ocr: { method: 'm', confidence: 95, boxes: page.boxes } };
    expect(ocrItems(stored)?.map((i) => [i.str, i.start])).toEqual([
      ['Annual', 0],
      ['leave', 7],
    ]);
    expect(ocrItems({ ...stored, ocr: { ...stored.ocr, boxes: page.boxes.slice(1) } })).toBeNull();
    expect(ocrItems({ ...stored, ocr: null })).toBeNull();
  });
});
