import { AppError } from '../../../../shared/contract/errors.ts';
import type { Warning } from '../../../../shared/contract/schemas.ts';
import type { ExtractContext, ExtractedDocument, ExtractedSegment } from '../extracted.ts';
import { loadPdfjs, PDFJS_ASSETS, PDFJS_VERSION, TEXT_CONTENT_OPTIONS } from '../pdfjs.ts';

export interface PdfExtractOptions extends ExtractContext {
  /** 1-based inclusive page range, so several workers can share one long PDF. */
  firstPage?: number;
  lastPage?: number;
}

export function looksLikePdf(bytes: Uint8Array): boolean {
  // The header may follow up to 1 KiB of junk; pdf.js accepts that too.
  const head = Buffer.from(bytes.subarray(0, 1024)).toString('latin1');
  return head.includes('%PDF-');
}

function describeHead(bytes: Uint8Array): string {
  const head = Buffer.from(bytes.subarray(0, 8));
  if (head[0] === 0x50 && head[1] === 0x4b) return 'a ZIP archive (perhaps a DOCX)';
  if (head.toString('latin1').startsWith('\x7fELF')) return 'an executable';
  if (head[0] === 0x89 && head.toString('latin1', 1, 4) === 'PNG') return 'a PNG image';
  if (head[0] === 0xff && head[1] === 0xd8) return 'a JPEG image';
  return 'something else';
}

interface PdfjsError {
  name?: string;
  code?: number;
  message?: string;
}

function translateOpenError(e: unknown, fileName: string, gavePassword: boolean): AppError {
  const err = (e ?? {}) as PdfjsError;
  if (err.name === 'PasswordException') {
    // pdf.js: code 1 = a password is needed, code 2 = the given one is wrong.
    if (err.code === 2 || gavePassword) {
      return new AppError('PDF_PASSWORD_INCORRECT', `${fileName}: the password given is not the right one for this encrypted PDF. Check it and ingest the file again.`);
    }
    return new AppError('PDF_ENCRYPTED', `${fileName} is encrypted and needs a password to open. Give its password (--password on the command line, or the password field when adding files) and ingest it again.`);
  }
  const detail = err.message ? ` (${err.message})` : '';
  return new AppError('PDF_CORRUPT', `${fileName} is damaged or truncated and cannot be read as a PDF${detail}. Get a fresh copy of the file and ingest it again.`);
}

/**
 * One segment per page: the page's text items joined in order, a newline after items that end a
 * line, and each item's start offset kept so the viewer's text layer spans map back exactly.
 */
export async function extractPdf(bytes: Uint8Array, ctx: PdfExtractOptions): Promise<ExtractedDocument> {
  if (bytes.length === 0) throw new AppError('FILE_EMPTY', `${ctx.fileName} is empty (0 bytes); there is nothing to ingest.`);
  if (!looksLikePdf(bytes)) {
    throw new AppError('WRONG_EXTENSION', `${ctx.fileName} is named like a PDF but is ${describeHead(bytes)}, not a PDF. Rename it to its real type or remove it from the batch.`);
  }
  const pdfjs = await loadPdfjs();
  // pdf.js may detach the buffer it is given, so it gets its own copy.
  const task = pdfjs.getDocument({
    data: new Uint8Array(bytes),
    password: ctx.password,
    // pdfjs-dist 6 has no eval-based font path any more (the isEvalSupported option is gone and
    // the build contains no eval or new Function), so DESIGN.md §8's rule holds by construction.
    enableXfa: false,
    disableFontFace: true,
    useSystemFonts: false,
    cMapUrl: PDFJS_ASSETS.cMapUrl,
    cMapPacked: true,
    standardFontDataUrl: PDFJS_ASSETS.standardFontDataUrl,
    verbosity: pdfjs.VerbosityLevel.ERRORS,
  });
  let doc: Awaited<typeof task.promise>;
  try {
    doc = await task.promise;
  } catch (e) {
    await task.destroy().catch(() => undefined);
    throw translateOpenError(e, ctx.fileName, ctx.password !== undefined && ctx.password !== '');
  }
  try {
    const pageCount = doc.numPages;
    const first = Math.max(1, ctx.firstPage ?? 1);
    const last = Math.min(pageCount, ctx.lastPage ?? pageCount);
    const labels = await doc.getPageLabels().catch(() => null);
    const warnings: Warning[] = [];
    const segments: ExtractedSegment[] = [];
    const failedPages: number[] = [];
    const scannedPages: number[] = [];
    for (let n = first; n <= last; n++) {
      if (ctx.signal?.aborted) throw new AppError('CANCELLED', `Ingestion of ${ctx.fileName} was cancelled.`);
      const seg: ExtractedSegment = { text: '', page: n, itemStarts: [], blockType: 'page' };
      const label = labels?.[n - 1];
      if (label) seg.pageLabel = label;
      try {
        const page = await doc.getPage(n);
        const content = await page.getTextContent(TEXT_CONTENT_OPTIONS);
        let text = '';
        const starts: number[] = [];
        for (const item of content.items) {
          if (!('str' in item)) continue;
          starts.push(text.length);
          text += item.str;
          if (item.hasEOL) text += '\n';
        }
        seg.text = text;
        seg.itemStarts = starts;
        if (text.trim().length === 0 && (await pageHasImages(page, pdfjs.OPS))) {
          seg.noTextLayer = true;
          scannedPages.push(n);
        }
        page.cleanup();
      } catch (e) {
        if (e instanceof AppError) throw e;
        failedPages.push(n);
      }
      segments.push(seg);
      ctx.onProgress?.(n, pageCount);
    }
    if (scannedPages.length > 0) {
      warnings.push({
        code: 'PDF_NO_TEXT_LAYER',
        message: `${ctx.fileName}: ${scannedPages.length} of ${last - first + 1} pages have no text layer (scanned images; no OCR yet): ${pageList(scannedPages)}. Quotes on them cannot be verified.`,
      });
    }
    if (failedPages.length > 0) {
      warnings.push({
        code: 'EXTRACTION_FAILED',
        message: `${ctx.fileName}: ${failedPages.length} pages could not be read (damaged content): ${pageList(failedPages)}. They are stored empty.`,
      });
    }
    const meta = await doc.getMetadata().catch(() => null);
    const info = (meta?.info ?? {}) as { Title?: unknown };
    const title = typeof info.Title === 'string' && info.Title.trim() ? info.Title.trim() : null;
    return { kind: 'pdf', method: `pdfjs-text@${PDFJS_VERSION}`, title, pageCount, segments, warnings };
  } finally {
    await task.destroy().catch(() => undefined);
  }
}

function pageList(pages: number[]): string {
  const shown = pages.slice(0, 12).join(', ');
  return pages.length > 12 ? `${shown}, … (${pages.length} in all)` : shown;
}

interface PageWithOps {
  getOperatorList(): Promise<{ fnArray: number[] }>;
}

/** Tells a scanned page (images, no text) from a legitimately blank one. */
async function pageHasImages(page: PageWithOps, OPS: Record<string, number>): Promise<boolean> {
  const imageOps = new Set([OPS.paintImageXObject, OPS.paintInlineImageXObject, OPS.paintImageMaskXObject, OPS.paintImageXObjectRepeat].filter((x): x is number => x !== undefined));
  try {
    const ops = await page.getOperatorList();
    return ops.fnArray.some((fn) => imageOps.has(fn));
  } catch {
    return false;
  }
}
