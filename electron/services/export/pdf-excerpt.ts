/**
 * The evidence excerpt of a PDF quote (issue 9): the band of the cited page around the quote,
 * rendered in Node by pdf.js's legacy build on @napi-rs/canvas (pdf.js's NodeCanvasFactory loads
 * it) and encoded as lossy WebP, with the quote's characters boxed from the page's own text-item
 * geometry.
 *
 * Why WebP at 800 px: a 500-citation report of PNG bands at 900 px was 34 MB of base64 (about
 * 80 KB a band), and hashing, writing and printing it dominated the export. WebP at quality 80
 * keeps 9-point type crisp (the boxes are drawn by the report over the image, not into it) at about
 * a third of the bytes, and the encoder runs on libuv's thread pool, beside the next page's render.
 *
 * The items are read with ingestion's getTextContent options (TEXT_CONTENT_OPTIONS) and joined as
 * ingestion joins them (extractors/pdf.ts), so the stored page text's [start, end) maps onto items
 * and characters exactly. When the joined text is not the stored text (another pdf.js, a changed
 * file) the excerpt is left out with a note rather than boxing the wrong words.
 */
import { createRequire } from 'node:module';
import { AppError } from '../../../shared/contract/errors.ts';
import type { ExcerptBox, ReportExcerpt } from '../../../shared/report/schema.ts';
import { DOCUMENT_OPTIONS, loadPdfjs, TEXT_CONTENT_OPTIONS } from '../ingest/pdfjs.ts';

const require = createRequire(import.meta.url);

/** Rendered width of the page in pixels (readable in the report at its column width). */
export const TARGET_WIDTH = 800;
/** WebP quality: below about 75 the edges of small type start to smear. */
const WEBP_QUALITY = 80;
/** The band never grows taller than this; a long quote is cut below its start. */
const MAX_HEIGHT = 700;
/** Lines of context above and below the quote. */
const CONTEXT_LINES = 3;

export interface PdfExcerptRequest {
  bytes: Uint8Array;
  page: number;
  pageLabel: string | null;
  /** The stored text of that page (the segment's text) and the quote's [start, end) in it. */
  pageText: string;
  start: number;
  end: number;
  /** A scanned page read by OCR: its word items' starts in `pageText` and their boxes (fractions of the page). */
  ocr?: { itemStarts: number[]; boxes: [number, number, number, number][] };
}

export type PdfExcerptResult = { excerpt: ReportExcerpt } | { note: string };

/** One excerpt asked of an extraction child (pdfExcerptBatch). */
export type PdfExcerptAsk = Omit<PdfExcerptRequest, 'bytes'>;

interface TextItemLike {
  str: string;
  hasEOL: boolean;
  width: number;
  height: number;
  transform: number[];
}

interface NapiCanvas {
  width: number;
  height: number;
  getContext(kind: '2d'): { font: string; measureText(text: string): { width: number }; drawImage(img: unknown, sx: number, sy: number, sw: number, sh: number, dx: number, dy: number, dw: number, dh: number): void };
  encode(format: 'webp', quality: number): Promise<Buffer>;
}

/** One rendered page: its text items with their offsets in the joined text, and its pixels. */
interface PageRender {
  items: { item: TextItemLike; at: number }[];
  text: string;
  viewport: { width: number; height: number; convertToViewportPoint(x: number, y: number): number[] };
  full: NapiCanvas | null;
}

/** Pages kept rendered (about 4 MB each), for citations on the same page. */
const PAGE_CACHE = 6;

export interface PdfExcerpts {
  excerpt(req: Omit<PdfExcerptRequest, 'bytes'>): Promise<PdfExcerptResult>;
  close(): Promise<void>;
}

/** Opens a PDF once for all the excerpts of its citations; each page is read and rendered once. */
export async function openPdfExcerpts(bytes: Uint8Array): Promise<PdfExcerpts> {
  const pdfjs = await loadPdfjs();
  const task = pdfjs.getDocument({
    data: new Uint8Array(bytes),
    ...DOCUMENT_OPTIONS,
    verbosity: pdfjs.VerbosityLevel.ERRORS,
  });
  const close = () => task.destroy().catch(() => undefined);
  let doc: Awaited<typeof task.promise>;
  try {
    doc = await task.promise;
  } catch (e) {
    await close();
    throw e;
  }
  const { createCanvas } = require('@napi-rs/canvas') as { createCanvas(w: number, h: number): NapiCanvas };
  // Promises, so that two excerpts of one page asked for at once share one render.
  const pages = new Map<number, Promise<PageRender>>();

  const pageRender = (n: number): Promise<PageRender> => {
    const cached = pages.get(n);
    if (cached) return cached;
    const made = renderPage(n);
    if (pages.size >= PAGE_CACHE) pages.delete(pages.keys().next().value ?? n);
    pages.set(n, made);
    made.catch(() => pages.delete(n));
    return made;
  };

  const renderPage = async (n: number): Promise<PageRender> => {
    const page = await doc.getPage(n);
    const content = await page.getTextContent(TEXT_CONTENT_OPTIONS);
    const items: { item: TextItemLike; at: number }[] = [];
    let text = '';
    for (const raw of content.items) {
      if (!('str' in raw)) continue;
      const item = raw as TextItemLike;
      items.push({ item, at: text.length });
      text += item.str;
      if (item.hasEOL) text += '\n';
    }
    const base = page.getViewport({ scale: 1 });
    const viewport = page.getViewport({ scale: TARGET_WIDTH / base.width });
    // Render the whole page (pdf.js draws pages, not regions); bands are cut out of it.
    const full = createCanvas(Math.round(viewport.width), Math.round(viewport.height));
    await page.render({ canvas: full as unknown as Parameters<typeof page.render>[0]['canvas'], viewport, background: 'white' }).promise;
    page.cleanup();
    return { items, text, viewport, full };
  };

  const measure = createCanvas(1, 1).getContext('2d');
  measure.font = '100px sans-serif';

  const excerpt = async (req: Omit<PdfExcerptRequest, 'bytes'>): Promise<PdfExcerptResult> => {
    if (req.page < 1 || req.page > doc.numPages) return { note: `The excerpt is left out: the PDF has no page ${req.page}.` };
    const { items, text, viewport, full } = await pageRender(req.page);
    if (req.ocr) return band(req, ocrRects(req, req.ocr, viewport), viewport, full, createCanvas);
    if (text !== req.pageText) {
      return { note: `The excerpt is left out: the text pdf.js reads on page ${req.pageLabel ?? req.page} now differs from the stored text, so the quote's characters cannot be placed exactly.` };
    }
    return cut(req, items, viewport, full, measure, createCanvas);
  };
  return { excerpt, close };
}

/**
 * The excerpts of one PDF that an extraction child makes for the export (extract-worker.ts):
 * opened once, each page rendered once, a progress report per excerpt; stops between excerpts
 * when cancelled. A failed excerpt is a note; the others go on.
 */
export async function pdfExcerptBatch(
  bytes: Uint8Array,
  asks: readonly PdfExcerptAsk[],
  ctx: { signal?: AbortSignal; onProgress?: (done: number, total: number) => void },
): Promise<PdfExcerptResult[]> {
  const pdf = await openPdfExcerpts(bytes);
  try {
    const out: PdfExcerptResult[] = [];
    for (const ask of asks) {
      if (ctx.signal?.aborted) throw new AppError('CANCELLED', 'The excerpts were cancelled.');
      out.push(
        await pdf.excerpt(ask).catch((e: unknown) => ({
          note: `The excerpt is left out: page ${ask.pageLabel ?? ask.page} could not be rendered (${e instanceof Error ? e.message : String(e)}).`,
        })),
      );
      ctx.onProgress?.(out.length, asks.length);
    }
    return out;
  } finally {
    await pdf.close();
  }
}

/** One excerpt, opening and closing the PDF for it. */
export async function renderPdfExcerpt(req: PdfExcerptRequest): Promise<PdfExcerptResult> {
  const pdf = await openPdfExcerpts(req.bytes);
  try {
    return await pdf.excerpt(req);
  } finally {
    await pdf.close();
  }
}

type Measure = ReturnType<NapiCanvas['getContext']>;

async function cut(
  req: Omit<PdfExcerptRequest, 'bytes'>,
  items: PageRender['items'],
  viewport: PageRender['viewport'],
  full: NapiCanvas | null,
  measure: Measure,
  createCanvas: (w: number, h: number) => NapiCanvas,
): Promise<PdfExcerptResult> {
  // The quote's characters, item by item, as rectangles in viewport pixels. Per-character x inside
  // an item: the item's width (pdf.js's, from the PDF's own glyph widths) shared out in proportion
  // to the widths a sans-serif font measures for the characters before it. Exact at item ends
  // (where most quotes start and stop); in between, close for proportional Latin text, and no worse
  // than equal shares when the measuring font lacks the characters (then equal shares are used).
  const share = (str: string, i: number): number => {
    const whole = measure.measureText(str).width;
    return whole > 0 ? measure.measureText(str.slice(0, i)).width / whole : i / str.length;
  };
  const rects: ExcerptBox[] = [];
  for (const { item, at } of items) {
    const from = Math.max(req.start, at) - at;
    const to = Math.min(req.end, at + item.str.length) - at;
    if (to <= from || item.str.length === 0 || item.str.slice(from, to).trim() === '') continue;
    const [a = 1, b = 0, c = 0, d = 1, e = 0, f = 0] = item.transform;
    const fontHeight = item.height || Math.hypot(c, d);
    const dirX = Math.hypot(a, b) === 0 ? [1, 0] : [a / Math.hypot(a, b), b / Math.hypot(a, b)];
    const x0 = e + dirX[0]! * item.width * share(item.str, from);
    const x1 = e + dirX[0]! * item.width * share(item.str, to);
    // From a little below the baseline (descenders) to the font's height above it.
    const p0 = viewport.convertToViewportPoint(x0, f - fontHeight * 0.25);
    const p1 = viewport.convertToViewportPoint(x1, f + fontHeight * 0.95);
    const x = Math.min(p0[0]!, p1[0]!);
    const y = Math.min(p0[1]!, p1[1]!);
    const w = Math.abs(p1[0]! - p0[0]!);
    const h = Math.abs(p1[1]! - p0[1]!);
    if (w > 0 && h > 0) rects.push({ x, y, width: w, height: h });
  }
  return band(req, rects, viewport, full, createCanvas);
}

/**
 * The quote's words on a scan, from their OCR boxes: a word partly in the quote is boxed in
 * proportion to its characters (OCR gives no glyph positions).
 */
function ocrRects(req: Omit<PdfExcerptRequest, 'bytes'>, ocr: NonNullable<PdfExcerptRequest['ocr']>, viewport: PageRender['viewport']): ExcerptBox[] {
  const rects: ExcerptBox[] = [];
  ocr.itemStarts.forEach((at, i) => {
    const word = /^\S+/.exec(req.pageText.slice(at))?.[0] ?? '';
    const box = ocr.boxes[i];
    const from = Math.max(req.start, at) - at;
    const to = Math.min(req.end, at + word.length) - at;
    if (!box || word.length === 0 || to <= from) return;
    const [x0, y0, x1, y1] = box;
    const left = x0 + ((x1 - x0) * from) / word.length;
    const right = x0 + ((x1 - x0) * to) / word.length;
    const pad = (y1 - y0) * 0.15;
    rects.push({ x: left * viewport.width, y: (y0 - pad) * viewport.height, width: (right - left) * viewport.width, height: (y1 - y0 + 2 * pad) * viewport.height });
  });
  return rects;
}

/** The band of the rendered page around the rectangles, and the rectangles in its coordinates. */
async function band(
  req: Omit<PdfExcerptRequest, 'bytes'>,
  rects: ExcerptBox[],
  viewport: PageRender['viewport'],
  full: NapiCanvas | null,
  createCanvas: (w: number, h: number) => NapiCanvas,
): Promise<PdfExcerptResult> {
  if (rects.length === 0) return { note: `The excerpt is left out: the quote's characters on page ${req.pageLabel ?? req.page} have no visible text items to box.` };

  const lineHeight = Math.max(...rects.map((r) => r.height)) * 1.2;
  const quoteTop = Math.min(...rects.map((r) => r.y));
  const quoteBottom = Math.max(...rects.map((r) => r.y + r.height));
  const top = Math.max(0, Math.floor(quoteTop - (CONTEXT_LINES + 0.4) * lineHeight));
  const bottom = Math.min(Math.round(viewport.height), Math.ceil(quoteBottom + (CONTEXT_LINES + 0.4) * lineHeight), top + MAX_HEIGHT);
  const width = Math.round(viewport.width);
  const height = Math.max(1, bottom - top);

  if (!full) return { note: `The excerpt is left out: page ${req.pageLabel ?? req.page} could not be rendered.` };
  const band = createCanvas(width, height);
  band.getContext('2d').drawImage(full, 0, top, width, height, 0, 0, width, height);
  const webp = await band.encode('webp', WEBP_QUALITY);

  const boxes = rects
    .map((r) => ({ x: r.x, y: r.y - top, width: r.width, height: r.height }))
    .filter((r) => r.y + r.height > 0 && r.y < height)
    .map((r) => {
      const y = Math.max(0, r.y);
      const x = Math.max(0, r.x);
      return { x: round(x), y: round(y), width: round(Math.min(r.width, width - x)), height: round(Math.min(r.y + r.height, height) - y) };
    })
    .filter((r) => r.width > 0 && r.height > 0);
  return {
    excerpt: {
      image: { dataUri: `data:image/webp;base64,${webp.toString('base64')}`, width, height },
      boxes,
      caption: `p. ${req.pageLabel ?? req.page}, the lines around the quote (quote boxed${req.ocr ? ' from the OCR text of this scan' : ''})`,
    },
  };
}

const round = (n: number) => Math.round(n * 10) / 10;
