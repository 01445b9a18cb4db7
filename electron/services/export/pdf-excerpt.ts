/**
 * The evidence excerpt of a PDF quote (issue 9): the band of the cited page around the quote,
 * rendered in Node by pdf.js's legacy build on @napi-rs/canvas (pdf.js's NodeCanvasFactory loads
 * it) and encoded as JPEG, with the quote's characters boxed from the page's own text-item
 * geometry.
 *
 * What it costs (profiled on the export bench): drawing a page is dominated by pdf.js painting
 * every glyph's path, whatever the canvas's size, so each cited page is read and drawn once for
 * all its excerpts, onto a canvas only as tall as the rows they show. JPEG rather than WebP:
 * at 800 px and quality 80 both keep 9-point type legible (the boxes are drawn by the report over
 * the image, not into it), WebP is about two thirds of the bytes but takes six times as long to
 * encode (about 10 ms a band against 1.6 ms); and the printed PDF report of the export bench
 * shrank from 25 MB (WebP bands) to 16 MB (JPEG bands).
 *
 * The items are those ingestion stored with the page's text (text-geometry.ts), so the stored page
 * text's [start, end) maps onto items and characters exactly, and the page is not read again. A page
 * ingested before the geometry was stored is read with ingestion's getTextContent options
 * (TEXT_CONTENT_OPTIONS) and joined as ingestion joins them; what is read is handed back to be kept.
 * When that joined text is not the stored text (another pdf.js, a changed file) the excerpt is left
 * out with a note rather than boxing the wrong words.
 */
import { createRequire } from 'node:module';
import type { ExcerptBox, ReportExcerpt } from '../../../shared/report/schema.ts';
import { DOCUMENT_OPTIONS, loadPdfjs, TEXT_CONTENT_OPTIONS } from '../ingest/pdfjs.ts';
import { joinTextItems, packTextItems, unpackTextItems, type TextItemGeometry } from '../ingest/text-geometry.ts';
import { bandFilter } from './band-filter.ts';

const require = createRequire(import.meta.url);

/** Rendered width of the page in pixels (readable in the report at its column width); the excerpt shows its text's columns. */
export const TARGET_WIDTH = 800;
/** JPEG quality: at 80, 9-point type at 800 px stays crisp enough to read; below, edges ring. */
const JPEG_QUALITY = 80;
/** The band never grows taller than this; a long quote is cut below its start. */
const MAX_HEIGHT = 700;
/** Lines of context above and below the quote. */
const CONTEXT_LINES = 3;
/**
 * What the drawing of an excerpt depends on besides its inputs: part of the name of each kept
 * excerpt (excerpt-cache.ts). Change the revision when the drawing or the boxing changes.
 */
export const EXCERPT_RENDERING = `pdf-excerpt r3 jpeg q${JPEG_QUALITY} w${TARGET_WIDTH} h${MAX_HEIGHT} c${CONTEXT_LINES}`;

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
  /** The page's text-item geometry stored at ingestion (text-geometry.ts); without it the page's text is read again. */
  textItems?: Float64Array;
}

export type PdfExcerptResult = { excerpt: ReportExcerpt } | { note: string };

/** One excerpt asked of an extraction child (pdfExcerptBatch). */
export type PdfExcerptAsk = Omit<PdfExcerptRequest, 'bytes'>;

/** A batch's excerpts, one per ask, and the geometry of the pages it had to read (to be kept). */
export interface PdfExcerptBatchResult {
  results: PdfExcerptResult[];
  textItems: { page: number; items: Float64Array }[];
}

interface NapiCanvas {
  width: number;
  height: number;
  getContext(kind: '2d'): { font: string; measureText(text: string): { width: number }; drawImage(img: unknown, sx: number, sy: number, sw: number, sh: number, dx: number, dy: number, dw: number, dh: number): void };
  encode(format: 'jpeg', quality: number): Promise<Buffer>;
}

interface Viewport {
  width: number;
  height: number;
  scale: number;
  convertToViewportPoint(x: number, y: number): number[];
}

/** The page, as pdf.js gives it, reduced to what an excerpt needs. */
interface RenderablePage {
  render(params: { canvas: unknown; viewport: Viewport; transform: number[]; background: string; operationsFilter?: (i: number) => boolean }): { promise: Promise<void> };
  cleanup(): unknown;
}

/** One read page: its text items with their offsets in the joined text. */
interface PageRead {
  items: { item: TextItemGeometry; at: number }[];
  text: string;
  /** The geometry as read from the page now, when it was not stored. */
  readNow?: Float64Array;
  viewport: Viewport;
  page: RenderablePage;
}

/** Where one excerpt sits on its page: the band's rows [top, bottom) and the quote's boxes in page pixels. */
interface Placed {
  top: number;
  bottom: number;
  rects: ExcerptBox[];
}

/** One page's excerpts, and its text-item geometry when it had to be read (to be kept: it matches the stored text). */
export interface PageExcerpts {
  results: PdfExcerptResult[];
  textItems?: Float64Array;
}

export interface PdfExcerpts {
  /** The excerpts asked of one page, in order: the page is read once and rendered once. */
  pageExcerpts(page: number, reqs: readonly Omit<PdfExcerptRequest, 'bytes'>[]): Promise<PageExcerpts>;
  close(): Promise<void>;
}

/** Opens a PDF once for all the excerpts of its citations. */
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
  const measure = createCanvas(1, 1).getContext('2d');
  measure.font = '100px sans-serif';

  /** The page and its text items: the stored ones when they fit the stored text, else read from the page. */
  const readPage = async (n: number, stored: { textItems?: Float64Array; pageText: string } | undefined): Promise<PageRead> => {
    const page = await doc.getPage(n);
    const base = page.getViewport({ scale: 1 });
    const viewport = page.getViewport({ scale: TARGET_WIDTH / base.width });
    const kept = stored?.textItems ? unpackTextItems(stored.textItems, stored.pageText) : null;
    if (kept && stored) return { items: kept, text: stored.pageText, viewport, page: page as unknown as RenderablePage };
    const joined = joinTextItems((await page.getTextContent(TEXT_CONTENT_OPTIONS)).items);
    const items = joined.items.map((item, i) => ({ item, at: joined.starts[i]! }));
    return { items, text: joined.text, readNow: packTextItems(joined.items), viewport, page: page as unknown as RenderablePage };
  };

  const pageExcerpts = async (n: number, reqs: readonly Omit<PdfExcerptRequest, 'bytes'>[]): Promise<PageExcerpts> => {
    if (n < 1 || n > doc.numPages) return { results: reqs.map(() => ({ note: `The excerpt is left out: the PDF has no page ${n}.` })) };
    const read = await readPage(n, reqs.find((r) => !r.ocr));
    // Geometry read now is handed back to be kept only when it is the stored text's.
    const textItems = read.readNow && reqs.some((r) => !r.ocr && r.pageText === read.text && read.text.trim() !== '') ? { textItems: read.readNow } : {};
    try {
      const placed = reqs.map((req): Placed | { note: string } => {
        // A scan's words are boxed from their OCR boxes, not from pdf.js's text (it has none).
        if (req.ocr) return bandAround(req, ocrRects(req, req.ocr, read.viewport), read.viewport);
        if (read.text !== req.pageText) {
          return { note: `The excerpt is left out: the text pdf.js reads on page ${req.pageLabel ?? n} now differs from the stored text, so the quote's characters cannot be placed exactly.` };
        }
        return place(req, read, measure);
      });
      const bands = placed.filter((p): p is Placed => 'rects' in p);
      if (bands.length === 0) return { results: placed as { note: string }[], ...textItems };
      // Only the rows the page's excerpts show are rasterised: canvases that tall, the page shifted
      // up by their top row (pdf.js applies `transform` before the viewport's). Drawing outside a
      // canvas is clipped by the canvas itself, so what lies off the bands costs no pixels.
      // Columns too: from the left edge of the page's text to its right edge, not its blank margins.
      // A scan's text is in its image, where pdf.js reads none: the whole width.
      const [left, right] = reqs.some((r) => r.ocr) ? [0, Math.round(read.viewport.width)] : textSpan(read, bands);
      const width = right - left;
      // The bands drawn in groups of those that overlap or nearly touch: rows between groups far
      // apart are not drawn at all. The page's operator list is read once, by the first render;
      // later renders of the page reuse it, so a group costs only its drawing.
      const out: PdfExcerptResult[] = placed.map((p) => ('rects' in p ? { note: '' } : p));
      const tallest = read.items.reduce((most, { item }) => Math.max(most, item.height), 0) * read.viewport.scale;
      for (const group of bandGroups(bands)) {
        const top = Math.min(...group.map((b) => b.top));
        const bottom = Math.max(...group.map((b) => b.bottom));
        const canvas = createCanvas(width, bottom - top);
        // Text and images wholly above or below the canvas are not drawn (band-filter.ts); the margin
        // is twice the page's tallest text, so that a line at the edge is drawn whole.
        const filter = bandFilter(pdfjs.OPS, bottom - top, Math.max(24, 2 * tallest));
        const rendering = read.page.render({ canvas, viewport: read.viewport, transform: [1, 0, 0, 1, -left, -top], background: 'white', operationsFilter: filter.filter });
        filter.attach(rendering);
        await rendering.promise;
        for (const p of group) {
          let band = canvas;
          if (p.top !== top || p.bottom !== bottom) {
            band = createCanvas(width, p.bottom - p.top);
            band.getContext('2d').drawImage(canvas, 0, p.top - top, width, p.bottom - p.top, 0, 0, width, p.bottom - p.top);
          }
          const i = placed.indexOf(p);
          out[i] = await encodeExcerpt(reqs[i]!, p, band, left, width);
        }
      }
      return { results: out, ...textItems };
    } finally {
      read.page.cleanup();
    }
  };
  return { pageExcerpts, close };
}

/** One excerpt, opening and closing the PDF for it. */
export async function renderPdfExcerpt(req: PdfExcerptRequest): Promise<PdfExcerptResult> {
  const pdf = await openPdfExcerpts(req.bytes);
  try {
    const { results } = await pdf.pageExcerpts(req.page, [req]);
    return results[0]!;
  } finally {
    await pdf.close();
  }
}

type Measure = ReturnType<NapiCanvas['getContext']>;

/** The quote's boxes and the band around them, in page pixels; a note when nothing can be boxed. */
function place(req: Omit<PdfExcerptRequest, 'bytes'>, { items, viewport }: PageRead, measure: Measure): Placed | { note: string } {
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
  return bandAround(req, rects, viewport);
}

/**
 * The quote's words on a scan, from their OCR boxes: a word partly in the quote is boxed in
 * proportion to its characters (OCR gives no glyph positions).
 */
function ocrRects(req: Omit<PdfExcerptRequest, 'bytes'>, ocr: NonNullable<PdfExcerptRequest['ocr']>, viewport: Viewport): ExcerptBox[] {
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

/** The band's rows [top, bottom) around the quote's rectangles (page pixels); a note when nothing can be boxed. */
function bandAround(req: Omit<PdfExcerptRequest, 'bytes'>, rects: ExcerptBox[], viewport: Viewport): Placed | { note: string } {
  if (rects.length === 0) return { note: `The excerpt is left out: the quote's characters on page ${req.pageLabel ?? req.page} have no visible text items to box.` };
  const lineHeight = Math.max(...rects.map((r) => r.height)) * 1.2;
  const quoteTop = Math.min(...rects.map((r) => r.y));
  const quoteBottom = Math.max(...rects.map((r) => r.y + r.height));
  const top = Math.max(0, Math.floor(quoteTop - (CONTEXT_LINES + 0.4) * lineHeight));
  const bottom = Math.min(Math.round(viewport.height), Math.ceil(quoteBottom + (CONTEXT_LINES + 0.4) * lineHeight), top + MAX_HEIGHT);
  return { top, bottom: Math.max(top + 1, bottom), rects };
}

/** Rows of page between two bands below which they are drawn as one (drawing them costs less than a render). */
const GROUP_GAP = 48;

/** The bands in groups, top down: a band joins the group above when it starts within GROUP_GAP rows of its end. */
function bandGroups(bands: readonly Placed[]): Placed[][] {
  const groups: { bands: Placed[]; bottom: number }[] = [];
  for (const band of [...bands].sort((a, b) => a.top - b.top)) {
    const last = groups[groups.length - 1];
    if (last && band.top <= last.bottom + GROUP_GAP) {
      last.bands.push(band);
      last.bottom = Math.max(last.bottom, band.bottom);
    } else groups.push({ bands: [band], bottom: band.bottom });
  }
  return groups.map((g) => g.bands);
}

/** Blank page edge kept beside the text, in pixels. */
const SIDE_MARGIN = 16;

/**
 * The columns [left, right) an excerpt of this page shows: its text items' and the quotes' extent
 * and a little margin, so that the image spends no pixels (drawing, encoding, bytes in the report)
 * on blank page margins, and its type shows larger in a report column. The whole width for a
 * page with no text items (a scan) or with rotated text.
 */
function textSpan({ items, viewport }: PageRead, bands: readonly Placed[]): [number, number] {
  const full = Math.round(viewport.width);
  let lo = Infinity;
  let hi = -Infinity;
  for (const { item } of items) {
    if (item.str.trim() === '') continue;
    const [a = 1, b = 0, c = 0, , e = 0, f = 0] = item.transform;
    if (Math.abs(b) > 1e-6 || Math.abs(c) > 1e-6 || a <= 0) return [0, full];
    const x0 = viewport.convertToViewportPoint(e, f)[0]!;
    const x1 = viewport.convertToViewportPoint(e + item.width, f)[0]!;
    lo = Math.min(lo, x0, x1);
    hi = Math.max(hi, x0, x1);
  }
  for (const band of bands) {
    for (const r of band.rects) {
      lo = Math.min(lo, r.x);
      hi = Math.max(hi, r.x + r.width);
    }
  }
  if (!(hi > lo)) return [0, full];
  const left = Math.max(0, Math.floor(lo - SIDE_MARGIN));
  const right = Math.min(full, Math.ceil(hi + SIDE_MARGIN));
  return right - left >= 1 ? [left, right] : [0, full];
}

/** The band as JPEG, with the quote's boxes moved into the band's rows and columns. */
async function encodeExcerpt(req: Omit<PdfExcerptRequest, 'bytes'>, { top, bottom, rects }: Placed, band: NapiCanvas, left: number, width: number): Promise<PdfExcerptResult> {
  const height = bottom - top;
  const jpeg = await band.encode('jpeg', JPEG_QUALITY);
  const boxes = rects
    .map((r) => ({ x: r.x - left, y: r.y - top, width: r.width, height: r.height }))
    .filter((r) => r.y + r.height > 0 && r.y < height)
    .map((r) => {
      const y = Math.max(0, r.y);
      const x = Math.max(0, r.x);
      return { x: round(x), y: round(y), width: round(Math.min(r.x + r.width, width) - x), height: round(Math.min(r.y + r.height, height) - y) };
    })
    .filter((r) => r.width > 0 && r.height > 0);
  return {
    excerpt: {
      image: { dataUri: `data:image/jpeg;base64,${jpeg.toString('base64')}`, width, height },
      boxes,
      caption: `p. ${req.pageLabel ?? req.page}, the lines around the quote (quote boxed${req.ocr ? ' from the OCR text of this scan' : ''})`,
    },
  };
}

const round = (n: number) => Math.round(n * 10) / 10;
