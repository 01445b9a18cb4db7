import { randomUUID } from 'node:crypto';
import type { SourceKind } from '../../../shared/contract/schemas.ts';
import type { ExtractedDocument } from './extracted.ts';
import { mergePdfParts, type PdfPart } from './extractors/pdf.ts';
import { extractText } from './extractors/text.ts';
import type { OcrOptions } from './ocr/ocr-page.ts';
import type { WorkerPool } from './worker-pool.ts';

export interface PooledContext {
  fileName: string;
  password?: string;
  signal?: AbortSignal;
  deadline?: number;
  /** A PDF with more pages is refused with PDF_TOO_MANY_PAGES before any page is read. */
  maxPages?: number;
  /** HTML from the web: its article only (Readability). */
  reader?: boolean;
  /** OCR of PDF pages without a text layer (on, in English, unless false). */
  ocr?: OcrOptions | false;
  /** Pages done so far; with stage 'ocr', the page about to be recognised (its number among those done). */
  onProgress?: (page: number, pageCount: number, stage?: 'ocr') => void;
}

/**
 * Plain-text files up to this size are read in the app's own process (issue 16 item 5). Plain text
 * has no structure to exploit: it is decoded and split into lines in linear time, and the cap
 * bounds its memory and time; a round trip to an extraction child costs far more than the work
 * (tens of milliseconds a file on a busy machine, against a fraction of one). PDF, Office, HTML
 * and Markdown (whose heading patterns can backtrack) are always parsed in a child.
 */
export const IN_PROCESS_TEXT_BYTES = 64 * 1024;

/** Pages read first, in one task, to learn the page count without a separate opening pass. */
const FIRST_CHUNK = 24;
const MIN_CHUNK = 16;
/**
 * pdf.js caches fonts and objects for as long as a document is open, so a worker's memory grows
 * with the pages it reads; ranges of at most this many pages (each opened and destroyed on its own)
 * keep a 2,400-page PDF within the memory budget.
 */
export const MAX_CHUNK = 200;

/**
 * Splits pages [from, to] into contiguous ranges: at least `parts` of them when there are enough
 * pages (MIN_CHUNK each), and more when needed to keep each range within MAX_CHUNK pages.
 */
export function splitPages(from: number, to: number, parts: number): [number, number][] {
  const total = to - from + 1;
  if (total <= 0) return [];
  const n = Math.max(1, Math.ceil(total / MAX_CHUNK), Math.min(parts, Math.floor(total / MIN_CHUNK)));
  const ranges: [number, number][] = [];
  for (let i = 0; i < n; i++) {
    const a = from + Math.floor((i * total) / n);
    const b = from + Math.floor(((i + 1) * total) / n) - 1;
    ranges.push([a, b]);
  }
  return ranges;
}

/**
 * Gives each page's text-item geometry a buffer of its own. A typed array that crosses from a child
 * (Node's advanced IPC serialisation) is a view into the whole reply's message buffer, so the
 * geometry of a part kept every part's reply (text, item starts and all) alive until the document
 * was stored: on the 2,415-page R manual, ~25 MB more of this process's peak (164 MB PSS, 138-142
 * after; issue 16 item 5). The copies are the geometry's own size; the replies are then freed.
 */
export function ownGeometry(part: PdfPart): PdfPart {
  for (const seg of part.segments) if (seg.textItems) seg.textItems = seg.textItems.slice();
  return part;
}

/**
 * Extracts a document in the pool. A long PDF is read by several workers at once, each a page
 * range, and merged in page order: the one file uses every core.
 */
export async function extractInPool(pool: WorkerPool, kind: SourceKind, bytes: Uint8Array, ctx: PooledContext): Promise<ExtractedDocument> {
  const base = { fileName: ctx.fileName, ...(ctx.password !== undefined ? { password: ctx.password } : {}), ...(ctx.ocr !== undefined ? { ocr: ctx.ocr } : {}) };
  // One failing range stops its siblings instead of letting them run on.
  const local = new AbortController();
  const onParentAbort = () => local.abort();
  ctx.signal?.addEventListener('abort', onParentAbort, { once: true });
  const options = (onProgress?: (page: number, pageCount: number, stage?: 'ocr') => void) => ({
    signal: local.signal,
    ...(ctx.deadline !== undefined ? { deadline: ctx.deadline } : {}),
    ...(onProgress ? { onProgress } : {}),
  });
  let pdfDoc: string | null = null;
  try {
    if (kind === 'text' && bytes.length <= IN_PROCESS_TEXT_BYTES && !ctx.reader) {
      return await extractText(bytes, { fileName: ctx.fileName, signal: local.signal });
    }
    if (kind !== 'pdf') return await pool.run<ExtractedDocument>({ op: 'extract', kind, bytes, ...base, ...(ctx.reader ? { reader: true } : {}) }, options(ctx.onProgress));

    // Each child gets the file with the first range it reads and keeps it for its next ones (kept-pdf.ts).
    const doc = randomUUID();
    pdfDoc = doc;
    let done = 0;
    // An OCR stage event announces the next page; it does not count as one done.
    const tick = (_page: number, pageCount: number, stage?: 'ocr') => (stage ? ctx.onProgress?.(done + 1, pageCount, stage) : ctx.onProgress?.(++done, pageCount));
    // The first range learns the page count and checks the cap before it reads a page.
    const cap = ctx.maxPages !== undefined ? { maxPages: ctx.maxPages } : {};
    const first = ownGeometry(await pool.run<PdfPart>({ op: 'pdfPart', bytes, doc, ...base, ...cap, firstPage: 1, lastPage: FIRST_CHUNK }, options(tick)));
    const rest = splitPages(FIRST_CHUNK + 1, first.pageCount, pool.size * 2);
    const parts = await Promise.all(
      rest.map(([a, b]) =>
        pool.run<PdfPart>({ op: 'pdfPart', bytes, doc, ...base, firstPage: a, lastPage: b }, options(tick)).then(ownGeometry, (e: unknown) => {
          local.abort();
          throw e;
        }),
      ),
    );
    return mergePdfParts([first, ...parts], ctx.fileName);
  } finally {
    if (pdfDoc !== null) pool.forgetPdf(pdfDoc);
    ctx.signal?.removeEventListener('abort', onParentAbort);
  }
}
