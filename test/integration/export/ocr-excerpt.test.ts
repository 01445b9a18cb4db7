/**
 * Issue 14, item 2: a quote on a scan is boxed in its report excerpt from the page's OCR word boxes
 * (pdf.js reads no text on a scan). The boxes here are given, not recognised, so the test is quick.
 */
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { renderPdfExcerpt } from '../../../electron/services/export/pdf-excerpt.ts';
import { makeScannedPdf } from '../../support/scan-fixtures.ts';

const require = createRequire(import.meta.url);

async function pixels(dataUri: string): Promise<{ width: number; data: Uint8ClampedArray }> {
  const napi = require('@napi-rs/canvas') as {
    loadImage(b: Buffer): Promise<{ width: number; height: number }>;
    createCanvas(w: number, h: number): { getContext(k: '2d'): { drawImage(i: unknown, x: number, y: number): void; getImageData(x: number, y: number, w: number, h: number): { data: Uint8ClampedArray } } };
  };
  const img = await napi.loadImage(Buffer.from(dataUri.split(',')[1] ?? '', 'base64'));
  const ctx = napi.createCanvas(img.width, img.height).getContext('2d');
  ctx.drawImage(img, 0, 0);
  return { width: img.width, data: ctx.getImageData(0, 0, img.width, img.height).data };
}

describe('excerpts of quotes on scanned pages', () => {
  it('boxes the quote from the OCR word boxes, over the ink of the scan; without boxes the excerpt is left out with a note', async () => {
    const bytes = await makeScannedPdf([{ lines: ['Scanned evidence line one, long enough to reach well past the boxes.', 'A second line.'] }], 150);
    // The first line's ink: from 72 pt in, baseline 720 pt up a 792 pt page, 12 pt type.
    const top = (792 - 720 - 10) / 792;
    const bottom = (792 - 720 + 3) / 792;
    const pageText = 'Scanned evidence\nA second line.\n';
    const ocr = { itemStarts: [0, 8, 17, 19, 26], boxes: [[72 / 612, top, 0.2, bottom], [0.2, top, 0.35, bottom], [0.12, 0.1, 0.14, 0.12], [0.15, 0.1, 0.2, 0.12], [0.21, 0.1, 0.25, 0.12]] as [number, number, number, number][] };
    const result = await renderPdfExcerpt({ bytes, page: 1, pageLabel: null, pageText, start: 8, end: 16, ocr });
    if (!('excerpt' in result)) throw new Error(result.note);
    const { excerpt } = result;
    if (!('image' in excerpt)) throw new Error('a PDF excerpt is an image');
    expect(excerpt.caption).toContain('quote boxed from the OCR text of this scan');
    expect(excerpt.boxes).toHaveLength(1);
    const box = excerpt.boxes[0] ?? { x: 0, y: 0, width: 0, height: 0 };
    expect(box.x).toBeCloseTo(0.2 * excerpt.image.width, 0);
    expect(box.x + box.width).toBeCloseTo(0.35 * excerpt.image.width, 0);
    // Under the box is the scan's ink (dark pixels), not blank paper.
    const img = await pixels(excerpt.image.dataUri);
    let dark = 0;
    for (let y = Math.round(box.y); y < box.y + box.height; y++) {
      for (let x = Math.round(box.x); x < box.x + box.width; x++) if ((img.data[(y * img.width + x) * 4] ?? 255) < 128) dark++;
    }
    expect(dark).toBeGreaterThan(50);

    const without = await renderPdfExcerpt({ bytes, page: 1, pageLabel: null, pageText, start: 8, end: 16 });
    expect('note' in without && without.note).toMatch(/differs from the stored text/);
  });
});
