import { AppError } from '../../../../shared/contract/errors.ts';
import type { Warning } from '../../../../shared/contract/schemas.ts';
import { assessText } from '../../../../shared/text/text-quality.ts';
import { hasProperties, parseAuthors, parseDocumentDate, type DocumentProperties } from '../../../../shared/domain/document-properties.ts';
import type { ExtractContext, ExtractedDocument, ExtractedSegment } from '../extracted.ts';
import { DOCUMENT_OPTIONS, loadPdfjs, PDFJS_VERSION, TEXT_CONTENT_OPTIONS } from '../pdfjs.ts';
import { joinTextItems, packTextItems } from '../text-geometry.ts';
import { releaseEngine } from '../ocr/ocr-engine.ts';
import { DEFAULT_OCR_LANGUAGES } from '../ocr/ocr-languages.ts';
import { ocrPdfPage, type OcrOptions } from '../ocr/ocr-page.ts';

export interface PdfExtractOptions extends ExtractContext {
  /** 1-based inclusive page range, so several workers can share one long PDF. */
  firstPage?: number;
  lastPage?: number;
  /** Refuse (PDF_TOO_MANY_PAGES) a PDF with more pages than this, before reading any page. */
  maxPages?: number;
  /** OCR of pages without a text layer: on (English) unless false. */
  ocr?: OcrOptions | false;
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

/**
 * The pixel cap. Ingestion renders nothing, but reading the operator list of a page without text
 * (to tell a scan from a blank page) makes pdf.js decode that page's images: a 420 KB file declaring
 * one 12,000 × 12,000 image took a worker to 1 GB. Images over this many pixels (an A4 page scanned
 * at 600 dpi is 35 million) are left undecoded; such a page then reads as blank, not as a scan.
 */
export { MAX_IMAGE_PIXELS } from '../pdfjs.ts';

interface PdfjsError {
  name?: string;
  code?: number;
  message?: string;
}

/** pdf.js's own exceptions for files it cannot parse; anything else is a bug somewhere. */
const PDF_FORMAT_ERRORS = new Set(['InvalidPDFException', 'FormatError', 'UnknownErrorException', 'XRefParseException', 'MissingPDFException', 'ResponseException']);

function translateOpenError(e: unknown, fileName: string, gavePassword: boolean): AppError {
  const err = (e ?? {}) as PdfjsError;
  if (err.name === 'PasswordException') {
    // pdf.js: code 1 = a password is needed, code 2 = the given one is wrong.
    if (err.code === 2 || gavePassword) {
      return new AppError('PDF_PASSWORD_INCORRECT', `${fileName}: the password given is not the right one for this encrypted PDF. Check it and ingest the file again.`);
    }
    return new AppError('PDF_ENCRYPTED', `${fileName} is encrypted and needs a password to open. Add it again with its password.`);
  }
  const detail = err.message ? ` (${err.message})` : '';
  if (!PDF_FORMAT_ERRORS.has(err.name ?? '')) {
    // Not the file's fault as far as we can tell: say so rather than calling it damaged.
    return new AppError('EXTRACTION_FAILED', `${fileName} could not be read because of an internal error in the PDF reader${detail}. Please report it with the file if you can share it.`);
  }
  return new AppError('PDF_CORRUPT', `${fileName} is damaged or truncated and cannot be read as a PDF${detail}. Get a fresh copy of the file and ingest it again.`);
}

/** What one worker extracts from a page range; `mergePdfParts` turns the parts into a document. */
export interface PdfPart {
  pageCount: number;
  title: string | null;
  properties?: DocumentProperties;
  segments: ExtractedSegment[];
  scannedPages: number[];
  failedPages: number[];
  unusablePages: number[];
  /** Filled-in form fields per page: their values are drawn by widgets, not in the text layer. */
  formFields: { page: number; count: number }[];
  /** Scanned pages whose words OCR recognised, with the mean word confidence (0–100). */
  ocrPages?: { page: number; confidence: number }[];
  /** Scanned pages on which OCR failed (each with the reason). */
  ocrFailed?: { page: number; reason: string }[];
  /** The OCR method used, when any page was recognised. */
  ocrMethod?: string;
  /** OCR was turned off for this ingestion. */
  ocrOff?: boolean;
}

async function openPdf(bytes: Uint8Array, ctx: PdfExtractOptions) {
  if (bytes.length === 0) throw new AppError('FILE_EMPTY', `${ctx.fileName} is empty (0 bytes); there is nothing to ingest.`);
  if (!looksLikePdf(bytes)) {
    throw new AppError('WRONG_EXTENSION', `${ctx.fileName} is named like a PDF but is ${describeHead(bytes)}, not a PDF. Rename it to its real type or remove it from the batch.`);
  }
  const pdfjs = await loadPdfjs();
  const gavePassword = ctx.password !== undefined && ctx.password !== '';
  const open = async (password: string | undefined) => {
    // pdf.js may detach the buffer it is given, so it gets its own copy.
    const task = pdfjs.getDocument({
      data: new Uint8Array(bytes),
      password,
      ...DOCUMENT_OPTIONS,
      disableFontFace: true,
      verbosity: pdfjs.VerbosityLevel.ERRORS,
    });
    try {
      return { pdfjs, task, doc: await task.promise };
    } catch (e) {
      await task.destroy().catch(() => undefined);
      throw e;
    }
  };
  try {
    return await open(ctx.password);
  } catch (e) {
    // A batch's password is given to every file in it, but a PDF with only an owner password (or
    // none) opens without one: refusing it as "wrong password" would be wrong.
    if (gavePassword && (e as PdfjsError | null)?.name === 'PasswordException') {
      const opened = await open(undefined).catch(() => null);
      if (opened) return opened;
    }
    throw translateOpenError(e, ctx.fileName, gavePassword);
  }
}

/** Opens the PDF only to count its pages (and prove it opens), so a pool can split the work. */
export async function countPdfPages(bytes: Uint8Array, ctx: PdfExtractOptions): Promise<number> {
  const { task, doc } = await openPdf(bytes, ctx);
  try {
    return doc.numPages;
  } finally {
    await task.destroy().catch(() => undefined);
  }
}

/**
 * One segment per page of [firstPage, lastPage]: the page's text items joined in order, a newline
 * after items that end a line, and each item's start offset kept so the viewer's text layer spans
 * map back exactly (DESIGN.md §4).
 */
export async function extractPdfPart(bytes: Uint8Array, ctx: PdfExtractOptions): Promise<PdfPart> {
  const { pdfjs, task, doc } = await openPdf(bytes, ctx);
  try {
    const pageCount = doc.numPages;
    if (ctx.maxPages !== undefined && pageCount > ctx.maxPages) {
      throw new AppError(
        'PDF_TOO_MANY_PAGES',
        `${ctx.fileName} has ${pageCount.toLocaleString('en-US')} pages, over the limit of ${ctx.maxPages.toLocaleString('en-US')} pages for one PDF, so none of it was read. Split it, or raise the page limit in the workspace settings.`,
        { file: ctx.fileName, pageCount, maxPages: ctx.maxPages },
      );
    }
    const first = Math.max(1, ctx.firstPage ?? 1);
    const last = Math.min(pageCount, ctx.lastPage ?? pageCount);
    const labels = await doc.getPageLabels().catch(() => null);
    const meta = await doc.getMetadata().catch(() => null);
    const info = (meta?.info ?? {}) as PdfInfo;
    const part: PdfPart = { pageCount, title: null, segments: [], scannedPages: [], failedPages: [], unusablePages: [], formFields: [], ocrPages: [], ocrFailed: [] };
    const ocr = ctx.ocr === false ? null : (ctx.ocr ?? { languages: DEFAULT_OCR_LANGUAGES });
    if (!ocr) part.ocrOff = true;
    for (let n = first; n <= last; n++) {
      if (ctx.signal?.aborted) throw new AppError('CANCELLED', `Ingestion of ${ctx.fileName} was cancelled.`);
      const seg: ExtractedSegment = { text: '', page: n, itemStarts: [], blockType: 'page' };
      const label = labels?.[n - 1];
      if (label) seg.pageLabel = label;
      try {
        const page = await doc.getPage(n);
        const content = await page.getTextContent(TEXT_CONTENT_OPTIONS);
        const { text, starts, items } = joinTextItems(content.items);
        seg.text = text;
        seg.itemStarts = starts;
        // Where each item sits, so that an export boxes quotes without reading the page again.
        if (text.trim().length > 0) seg.textItems = packTextItems(items);
        if (text.trim().length === 0 && (await pageHasImages(page, pdfjs.OPS))) {
          seg.noTextLayer = true;
          part.scannedPages.push(n);
          if (ocr) await recognisePage(page, seg, part, ocr, ctx, pageCount);
        } else if (assessText(text).unusable) {
          part.unusablePages.push(n);
        }
        // Only documents with an AcroForm pay for reading annotations (link-heavy manuals have thousands).
        if (info.IsAcroFormPresent === true) {
          const count = await filledFormFields(page);
          if (count > 0) part.formFields.push({ page: n, count });
        }
        page.cleanup();
      } catch (e) {
        if (e instanceof AppError) throw e;
        part.failedPages.push(n);
      }
      part.segments.push(seg);
      ctx.onProgress?.(n, pageCount);
    }
    if (first === 1) {
      part.title = typeof info.Title === 'string' && info.Title.trim() ? info.Title.trim() : null;
      part.properties = pdfProperties(info, meta?.metadata ?? null);
    }
    return part;
  } finally {
    await task.destroy().catch(() => undefined);
    await releaseEngine();
  }
}

/** A scanned page's text from OCR, into its segment; a failure is recorded, never fatal. */
async function recognisePage(page: Parameters<typeof ocrPdfPage>[0], seg: ExtractedSegment, part: PdfPart, ocr: OcrOptions, ctx: PdfExtractOptions, pageCount: number): Promise<void> {
  ctx.onProgress?.(seg.page ?? 0, pageCount, 'ocr');
  try {
    const result = await ocrPdfPage(page, ocr, ctx.signal);
    part.ocrMethod = result.method;
    if (result.wordCount === 0) return;
    seg.text = result.text;
    seg.itemStarts = result.itemStarts;
    seg.ocr = { method: result.method, confidence: result.confidence, boxes: result.boxes };
    part.ocrPages?.push({ page: seg.page ?? 0, confidence: result.confidence ?? 0 });
  } catch (e) {
    if (e instanceof AppError && e.code === 'CANCELLED') throw new AppError('CANCELLED', `Ingestion of ${ctx.fileName} was cancelled.`);
    part.ocrFailed?.push({ page: seg.page ?? 0, reason: e instanceof Error ? e.message : String(e) });
  }
}

/** Parts in page order → the document, its warnings, or TEXT_LAYER_UNUSABLE for garbage text. */
export function mergePdfParts(parts: PdfPart[], fileName: string): ExtractedDocument {
  const segments = parts.flatMap((p) => p.segments).sort((a, b) => (a.page ?? 0) - (b.page ?? 0));
  const pageCount = parts[0]?.pageCount ?? 0;
  const failed = parts.flatMap((p) => p.failedPages);
  const unusable = parts.flatMap((p) => p.unusablePages);
  const withText = segments.filter((s) => s.text.trim().length > 0).length;
  if (unusable.length > 0 && unusable.length * 2 >= withText) {
    throw new AppError(
      'TEXT_LAYER_UNUSABLE',
      `${fileName} has a text layer, but it is unusable on ${unusable.length} of ${withText} pages with text (garbled characters from a broken font encoding). Indexing it would store garbage and no quote could match it. Get a PDF with a proper text layer (or an OCRed copy) and ingest that.`,
      { pages: unusable.slice(0, 50) },
    );
  }
  const warnings: Warning[] = ocrWarnings(parts, fileName, pageCount);
  if (unusable.length > 0) {
    warnings.push({
      code: 'TEXT_LAYER_UNUSABLE',
      message: `${fileName}: the text of ${unusable.length} pages is garbled (broken font encoding): ${pageList(unusable)}. Quotes on them will not be found.`,
    });
  }
  if (failed.length > 0) {
    warnings.push({
      code: 'EXTRACTION_FAILED',
      message: `${fileName}: ${failed.length} pages could not be read (damaged content): ${pageList(failed)}. They are stored empty.`,
    });
  }
  const forms = parts.flatMap((p) => p.formFields);
  if (forms.length > 0) {
    const fields = forms.reduce((sum, f) => sum + f.count, 0);
    warnings.push({
      code: 'PDF_FORM_NOT_INDEXED',
      message: `${fileName}: ${fields} filled-in form field${fields === 1 ? '' : 's'} (page${forms.length === 1 ? '' : 's'} ${pageList(forms.map((f) => f.page))}) hold text that is not part of the page text, so it is not indexed and quotes from it cannot be verified. To index it, flatten the form (print it to PDF) and ingest that copy.`,
    });
  }
  const title = parts.find((p) => p.title !== null)?.title ?? null;
  const properties = parts.find((p) => hasProperties(p.properties))?.properties;
  const ocrMethod = parts.find((p) => (p.ocrPages?.length ?? 0) > 0)?.ocrMethod;
  const method = `pdfjs-text@${PDFJS_VERSION}${ocrMethod ? ` + ocr ${ocrMethod}` : ''}`;
  return { kind: 'pdf', method, title, ...(properties ? { properties } : {}), pageCount, segments, warnings };
}

/** A page read with a mean word confidence under this is named in the warning as doubtful. */
const POOR_OCR_CONFIDENCE = 60;

/** What happened to the pages without a text layer: read by OCR, OCR found nothing or failed, or OCR was off. */
function ocrWarnings(parts: PdfPart[], fileName: string, pageCount: number): Warning[] {
  const scanned = parts.flatMap((p) => p.scannedPages);
  if (scanned.length === 0) return [];
  const read = parts.flatMap((p) => p.ocrPages ?? []);
  const failed = parts.flatMap((p) => p.ocrFailed ?? []);
  const readSet = new Set(read.map((r) => r.page));
  const failedSet = new Set(failed.map((f) => f.page));
  const off = parts.some((p) => p.ocrOff === true);
  const warnings: Warning[] = [];
  if (read.length > 0) {
    const mean = Math.round(read.reduce((sum, r) => sum + r.confidence, 0) / read.length);
    const poor = read.filter((r) => r.confidence < POOR_OCR_CONFIDENCE).map((r) => r.page);
    const poorNote = poor.length > 0 ? ` OCR was unsure of pages ${pageList(poor)} (confidence under ${POOR_OCR_CONFIDENCE}%): they may be sideways, upside down or a poor scan; quotes there may not be found.` : '';
    warnings.push({
      code: 'PDF_OCR_TEXT',
      message: `${fileName}: ${read.length} of ${pageCount} pages are scans without a text layer; their text was recognised by OCR (mean confidence ${mean}%): ${pageList(read.map((r) => r.page))}. Quotes on them are matched allowing for misread characters.${poorNote}`,
    });
  }
  // Every page still without text is named once, with why: OCR was off, found nothing, or failed.
  const empty = scanned.filter((p) => !readSet.has(p));
  if (empty.length > 0) {
    const reasons: string[] = [];
    if (off) reasons.push('OCR was turned off for this ingestion; read the scanned pages with OCR to index them');
    const unread = empty.filter((p) => !failedSet.has(p));
    if (!off && unread.length > 0) reasons.push(`OCR found no words on ${unread.length === empty.length ? 'them' : `pages ${pageList(unread)}`}`);
    if (failed.length > 0) reasons.push(`OCR failed on pages ${pageList(failed.map((f) => f.page))} (${failed[0]?.reason ?? ''}); read them with OCR again`);
    warnings.push({
      code: 'PDF_NO_TEXT_LAYER',
      message: `${fileName}: ${empty.length} of ${pageCount} pages have no text layer (scanned images; ${reasons.join('; ')}): ${pageList(empty)}. Quotes on them cannot be verified.`,
    });
  }
  return warnings;
}

interface PdfInfo {
  Title?: unknown;
  Author?: unknown;
  CreationDate?: unknown;
  IsAcroFormPresent?: unknown;
}

/** pdf.js's parsed XMP packet: values by their qualified names (dc:creator is a list). */
interface XmpMetadata {
  get(name: string): unknown;
}

/** Authors and date from the Info dictionary, else from XMP (Dublin Core creator, xmp:CreateDate). */
function pdfProperties(info: PdfInfo, xmp: XmpMetadata | null): DocumentProperties {
  const xmpValue = (name: string): unknown => {
    try {
      return xmp?.get(name) ?? null;
    } catch {
      return null; // a malformed XMP packet costs the properties, not the document
    }
  };
  const textList = (v: unknown): string[] => (typeof v === 'string' ? [v] : Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
  let authors = parseAuthors(textList(info.Author));
  if (authors.length === 0) authors = parseAuthors(textList(xmpValue('dc:creator')));
  const published =
    parseDocumentDate(typeof info.CreationDate === 'string' ? info.CreationDate : null) ??
    parseDocumentDate(textList(xmpValue('xmp:createdate'))[0] ?? textList(xmpValue('xmp:CreateDate'))[0] ?? null);
  return { authors, published };
}

/** The whole PDF in this thread (the pool splits long ones across workers instead). */
export async function extractPdf(bytes: Uint8Array, ctx: PdfExtractOptions): Promise<ExtractedDocument> {
  return mergePdfParts([await extractPdfPart(bytes, ctx)], ctx.fileName);
}

function pageList(pages: number[]): string {
  const shown = pages.slice(0, 12).join(', ');
  return pages.length > 12 ? `${shown}, … (${pages.length} in all)` : shown;
}

interface PageWithAnnotations {
  getAnnotations(): Promise<{ annotationType?: number; fieldType?: string; fieldValue?: unknown }[]>;
}

/** pdf.js's AnnotationType.WIDGET: form fields. */
const WIDGET = 20;

/** Text and choice fields with a value on the page; checkboxes and buttons hold no citable text. */
async function filledFormFields(page: PageWithAnnotations): Promise<number> {
  try {
    const annotations = await page.getAnnotations();
    return annotations.filter((a) => {
      if (a.annotationType !== WIDGET || (a.fieldType !== 'Tx' && a.fieldType !== 'Ch')) return false;
      const values = Array.isArray(a.fieldValue) ? a.fieldValue : [a.fieldValue];
      return values.some((v) => typeof v === 'string' && v.trim() !== '');
    }).length;
  } catch {
    return 0; // a damaged annotation array costs the warning, not the page
  }
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
