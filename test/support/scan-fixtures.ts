/**
 * Scans made in the test: text pages (makePdf) rendered to images by pdf.js on @napi-rs/canvas (the
 * standard fonts come with pdf.js, so no system font is needed), then wrapped, one JPEG per page,
 * in a PDF with no text at all, as a scanner would write it.
 */
import { createRequire } from 'node:module';
import { PDFDocument } from 'pdf-lib';
import { loadPdfjs, PDFJS_ASSETS } from '../../electron/services/ingest/pdfjs.ts';
import { makePdf, type PageSpec } from './pdf-fixtures.ts';

const require = createRequire(import.meta.url);

interface Canvas {
  width: number;
  height: number;
  encode(format: 'jpeg' | 'png', quality?: number): Promise<Buffer>;
}

export interface PageImage {
  /** JPEG or PNG bytes. */
  bytes: Buffer;
  width: number;
  height: number;
}

/** Each page of a PDF as an image at `dpi` (as displayed, rotation applied). */
export async function renderPages(pdf: Uint8Array, dpi: number, format: 'jpeg' | 'png' = 'jpeg'): Promise<PageImage[]> {
  const pdfjs = await loadPdfjs();
  const task = pdfjs.getDocument({ data: new Uint8Array(pdf), standardFontDataUrl: PDFJS_ASSETS.standardFontDataUrl, cMapUrl: PDFJS_ASSETS.cMapUrl, cMapPacked: true, verbosity: 0 });
  const doc = await task.promise;
  const { createCanvas } = require('@napi-rs/canvas') as { createCanvas(w: number, h: number): Canvas };
  const out: PageImage[] = [];
  try {
    for (let n = 1; n <= doc.numPages; n++) {
      const page = await doc.getPage(n);
      const viewport = page.getViewport({ scale: dpi / 72 });
      const canvas = createCanvas(Math.round(viewport.width), Math.round(viewport.height));
      await page.render({ canvas: canvas as unknown as HTMLCanvasElement, viewport, background: 'white' }).promise;
      out.push({ bytes: await canvas.encode(format, 90), width: canvas.width, height: canvas.height });
    }
  } finally {
    await task.destroy();
  }
  return out;
}

/** A PDF of page images only: no fonts, no text layer. */
export async function imagesToPdf(images: PageImage[], dpi: number): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  for (const image of images) {
    const isPng = image.bytes[0] === 0x89;
    const embedded = isPng ? await doc.embedPng(image.bytes) : await doc.embedJpg(image.bytes);
    const width = (image.width * 72) / dpi;
    const height = (image.height * 72) / dpi;
    doc.addPage([width, height]).drawImage(embedded, { x: 0, y: 0, width, height });
  }
  return doc.save({ useObjectStreams: false });
}

/** The pages' text drawn (Helvetica 12 pt), rendered at `dpi` and wrapped as a scan. */
export async function makeScannedPdf(pages: PageSpec[], dpi = 300): Promise<Uint8Array> {
  return imagesToPdf(await renderPages(await makePdf(pages), dpi), dpi);
}

/** A mixed document: text pages as they are and the chosen pages (1-based) replaced by their scans. */
export async function makeMixedPdf(pages: PageSpec[], scanned: number[], dpi = 300): Promise<Uint8Array> {
  const textPdf = await makePdf(pages);
  const images = await renderPages(textPdf, dpi);
  const scans = await PDFDocument.load(await imagesToPdf(images, dpi));
  const text = await PDFDocument.load(textPdf);
  const out = await PDFDocument.create();
  for (let i = 0; i < pages.length; i++) {
    const [copied] = scanned.includes(i + 1) ? await out.copyPages(scans, [i]) : await out.copyPages(text, [i]);
    if (copied) out.addPage(copied);
  }
  return out.save({ useObjectStreams: false });
}
