/**
 * Drawing only the band of a page (band-filter.ts) gives the very pixels that drawing the whole
 * page gives in that band, while leaving out the text, images and painted paths that lie above and
 * below it. A real PDF (text lines, two images and a chart's worth of rules and boxes, some in the
 * band, some above and below it, one crossing it) drawn by pdf.js.
 */
import { createRequire } from 'node:module';
import { PDFDocument, StandardFonts, rgb } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { bandFilter } from '../../../electron/services/export/band-filter.ts';
import { DOCUMENT_OPTIONS, loadPdfjs } from '../../../electron/services/ingest/pdfjs.ts';

const require = createRequire(import.meta.url);
interface Canvas {
  getContext(kind: '2d'): { fillStyle: string; fillRect(x: number, y: number, w: number, h: number): void; getImageData(x: number, y: number, w: number, h: number): { data: Uint8ClampedArray } };
  encode(format: 'png'): Promise<Buffer>;
}
const { createCanvas } = require('@napi-rs/canvas') as { createCanvas(w: number, h: number): Canvas };

async function pagePdf(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const swatch = createCanvas(40, 20);
  const ctx = swatch.getContext('2d');
  ctx.fillStyle = '#c03020';
  ctx.fillRect(0, 0, 40, 20);
  const png = await doc.embedPng(await swatch.encode('png'));
  const page = doc.addPage([612, 792]);
  for (let i = 0; i < 36; i++) page.drawText(`Line ${i + 1}: the committee records its decision on item ${i * 7 + 3}.`, { x: 72, y: 740 - i * 18, size: i % 9 === 0 ? 20 : 11, font });
  page.drawImage(png, { x: 400, y: 700, width: 80, height: 40 }); // above the band
  page.drawImage(png, { x: 420, y: 480, width: 80, height: 40 }); // in it
  // Rules and boxes: a thick rule just above the band (its stroke reaches in), filled and stroked boxes off it and in it, a line across it.
  for (let i = 0; i < 12; i++) page.drawRectangle({ x: 80 + i * 40, y: 90 + (i % 3) * 20, width: 30, height: 15, color: rgb(0.2, 0.3, 0.8), borderColor: rgb(0, 0, 0), borderWidth: 1 });
  for (let i = 0; i < 12; i++) page.drawLine({ start: { x: 72, y: 760 - i * 4 }, end: { x: 540, y: 760 - i * 4 }, thickness: 0.5, color: rgb(0.5, 0.5, 0.5) });
  page.drawRectangle({ x: 300, y: 470, width: 60, height: 30, color: rgb(0.9, 0.8, 0.1) });
  page.drawLine({ start: { x: 560, y: 300 }, end: { x: 560, y: 700 }, thickness: 2, color: rgb(0, 0.5, 0) });
  return doc.save();
}

describe('bandFilter', () => {
  it('draws the same pixels in the band as the whole page does, leaving out text, images and painted paths off it', async () => {
    const pdfjs = await loadPdfjs();
    const task = pdfjs.getDocument({ data: await pagePdf(), ...DOCUMENT_OPTIONS, verbosity: pdfjs.VerbosityLevel.ERRORS });
    try {
      const page = await (await task.promise).getPage(1);
      const viewport = page.getViewport({ scale: 800 / 612 });
      // Rows that cut through lines of text at both edges.
      const top = 376;
      const height = 158;
      const draw = async (filtered: boolean) => {
        const canvas = createCanvas(800, height);
        const band = bandFilter(pdfjs.OPS, height, 2 * 20 * viewport.scale);
        let skipped = 0;
        let skippedPaths = 0;
        const filter = (i: number) => {
          const keep = band.filter(i);
          if (!keep) skipped++;
          if (!keep && fnArray()[i] === pdfjs.OPS.constructPath) skippedPaths++;
          return keep;
        };
        const rendering = page.render({ canvas: canvas as never, viewport, transform: [1, 0, 0, 1, 0, -top], background: 'white', ...(filtered ? { operationsFilter: filter } : {}) });
        const fnArray = () => (rendering as unknown as { _internalRenderTask: { operatorList: { fnArray: number[] } } })._internalRenderTask.operatorList.fnArray;
        band.attach(rendering);
        await rendering.promise;
        return { pixels: canvas.getContext('2d').getImageData(0, 0, 800, height).data, skipped, skippedPaths };
      };
      const whole = await draw(false);
      const banded = await draw(true);
      expect(banded.skipped).toBeGreaterThan(20);
      // The boxes below the band and the rules above it (not the thick line across it).
      expect(banded.skippedPaths).toBeGreaterThanOrEqual(24);
      // Not blank: the band holds ink (text and the red image).
      expect(whole.pixels.some((v, i) => i % 4 !== 3 && v < 128)).toBe(true);
      expect(Buffer.from(banded.pixels).equals(Buffer.from(whole.pixels))).toBe(true);
    } finally {
      await task.destroy();
    }
  });
});
