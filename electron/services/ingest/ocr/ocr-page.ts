/**
 * OCR of one PDF page without a text layer: pdf.js renders the page as displayed (its /Rotate
 * applied) at 300 dpi on @napi-rs/canvas, the grey pixels go to the child's OCR engine, and the
 * words come back as the page's text with one item per word and each word's box (shared/ocr).
 */
import { createRequire } from 'node:module';
import { AppError } from '../../../../shared/contract/errors.ts';
import { ocrPageText, type OcrPageText } from '../../../../shared/ocr/ocr-text.ts';
import { recognise, TESSERACT_JS_VERSION, type GreyImage } from './ocr-engine.ts';

const require = createRequire(import.meta.url);

/** Tesseract reads best at about 300 dpi. */
const OCR_DPI = 300;
/** A page bigger than A3 at 300 dpi is rendered smaller: memory stays bounded whatever its size. */
const MAX_PIXELS = 18_000_000;

export interface OcrOptions {
  /** Languages (tesseract codes) whose models are installed, e.g. ['eng'] or ['eng', 'deu']. */
  languages: readonly string[];
}

export interface OcrResult extends OcrPageText {
  /** e.g. `tesseract.js@7.0.0 eng+deu 300dpi`. */
  method: string;
}

interface RenderablePage {
  getViewport(params: { scale: number }): { width: number; height: number };
  render(params: object): { promise: Promise<void> };
}

interface NapiCanvas {
  width: number;
  height: number;
  getContext(kind: '2d'): { getImageData(x: number, y: number, w: number, h: number): { data: Uint8ClampedArray } };
}

export function ocrMethod(languages: readonly string[]): string {
  return `tesseract.js@${TESSERACT_JS_VERSION} ${languages.join('+')} ${OCR_DPI}dpi`;
}

/** The page as displayed, drawn on white at OCR resolution, as grey pixels. */
export async function renderGrey(page: RenderablePage, dpi = OCR_DPI): Promise<GreyImage> {
  const base = page.getViewport({ scale: 1 });
  let scale = dpi / 72;
  const pixels = base.width * base.height * scale * scale;
  if (pixels > MAX_PIXELS) scale *= Math.sqrt(MAX_PIXELS / pixels);
  const viewport = page.getViewport({ scale });
  const width = Math.max(1, Math.round(viewport.width));
  const height = Math.max(1, Math.round(viewport.height));
  const { createCanvas } = require('@napi-rs/canvas') as { createCanvas(w: number, h: number): NapiCanvas };
  const canvas = createCanvas(width, height);
  await page.render({ canvas, viewport, background: 'white' }).promise;
  const rgba = canvas.getContext('2d').getImageData(0, 0, width, height).data;
  const grey = new Uint8Array(width * height);
  for (let i = 0, j = 0; i < grey.length; i++, j += 4) {
    grey[i] = ((rgba[j] ?? 0) * 77 + (rgba[j + 1] ?? 0) * 150 + (rgba[j + 2] ?? 0) * 29) >> 8;
  }
  return { width, height, pixels: grey };
}

/** Recognises the page's words; an engine failure is an OCR_FAILED AppError, a cancel CANCELLED. */
export async function ocrPdfPage(page: RenderablePage, options: OcrOptions, signal?: AbortSignal): Promise<OcrResult> {
  let image: GreyImage;
  try {
    image = await renderGrey(page);
  } catch (e) {
    throw new AppError('OCR_FAILED', `the page could not be rendered for OCR (${e instanceof Error ? e.message : String(e)})`);
  }
  const { paragraphs } = await recognise(image, options.languages, signal);
  return { ...ocrPageText(paragraphs, image.width, image.height), method: ocrMethod(options.languages) };
}
