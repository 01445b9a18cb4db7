// DOCX: mammoth converts to HTML; one segment per block (paragraph, heading, list item, table cell,
// footnote) with its index and heading path (DESIGN.md §4). A DOCX is an untrusted ZIP, so its
// central directory is checked before anything is inflated (DESIGN.md §8).
import { inflateRawSync } from 'node:zlib';
import JSZip from 'jszip';
import mammoth from 'mammoth';
import { Parser } from 'htmlparser2';
import { AppError } from '../../../../shared/contract/errors.ts';
import type { Warning } from '../../../../shared/contract/schemas.ts';
import { hasProperties, parseAuthors, parseDocumentDate, type DocumentProperties } from '../../../../shared/domain/document-properties.ts';
import type { ExtractContext, ExtractedSegment, Extractor } from '../extracted.ts';
import { blockTypeInContext, packageVersion, splitHtmlBlocks, type BlockRule, type ElementInfo } from './html.ts';
import { normaliseWordXml } from './word-markup.ts';

// ---------------------------------------------------------------------------------------------
// Block rule, shared with the viewer

/**
 * The elements of mammoth's HTML that are blocks, in document order. The viewer numbers the same
 * elements: a text node belongs to its nearest enclosing block; text inside DOCX_SKIP_SELECTOR is
 * ignored; a block's text is rendered as `renderBlockText` in html.ts describes (white space runs →
 * one space, <br> → "\n", trimmed; every nested element matching the selector, emitted or not, e.g.
 * a sub-list's <li> inside an <li>, counts as a space in its parent). Blocks whose text is then
 * empty (empty paragraphs, image-only paragraphs, a <td> whose text is all in its <p>s) are skipped
 * and take no index. `docxView` writes the resulting index on each emitted block as
 * `data-ed-block="N"` and each piece of its text as a span with its offset, so the viewer need not
 * re-derive either.
 */
export const DOCX_BLOCK_SELECTOR = 'p, h1, h2, h3, h4, h5, h6, li, td, th';

/**
 * mammoth's footnote/endnote reference marks ("[1]") and back-links ("↑"): left out of the text so
 * that a quote of the sentence matches without the marker.
 */
export const DOCX_SKIP_SELECTOR = 'a[href^="#footnote-"], a[href^="#endnote-"]';

const DOCX_BLOCK_TAGS = new Set(['p', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'li', 'td', 'th']);

/** mammoth renders notes as `<ol><li id="footnote-N">` / `<li id="endnote-N">` after the body. */
const isNoteItem = (li: ElementInfo): boolean => /^(?:footnote|endnote)-/.test(li.attribs['id'] ?? '');

export const DOCX_BLOCK_RULE: BlockRule = {
  isBlock: (el) => DOCX_BLOCK_TAGS.has(el.name),
  isSkipped: (el) => el.name === 'a' && /^#(?:footnote|endnote)-/.test(el.attribs['href'] ?? ''),
  preservesWhitespace: () => false,
  blockType: (el, ancestors) => blockTypeInContext(el, ancestors, isNoteItem),
};

// ---------------------------------------------------------------------------------------------
// ZIP pre-scan

export interface DocxLimits {
  /** Cap on the sum of the declared uncompressed sizes. */
  maxTotalUncompressed: number;
  /** Cap on uncompressed/compressed for an entry larger than `ratioMinSize`. */
  maxEntryRatio: number;
  ratioMinSize: number;
  maxEntries: number;
}

export const DEFAULT_DOCX_LIMITS: DocxLimits = {
  maxTotalUncompressed: 200 * 1024 * 1024,
  maxEntryRatio: 100,
  ratioMinSize: 10 * 1024 * 1024,
  maxEntries: 10_000,
};

export interface ZipEntry {
  name: string;
  method: number;
  flags: number;
  compressedSize: number;
  uncompressedSize: number;
  localHeaderOffset: number;
}

const SIG_LOCAL = 0x04034b50;
const SIG_CENTRAL = 0x02014b50;
const SIG_EOCD = 0x06054b50;
const SIG_ZIP64_LOCATOR = 0x07064b50;
const SIG_ZIP64_EOCD = 0x06064b50;
const MB = 1024 * 1024;

const RESAVE = 'Open it in Word or LibreOffice, save it as .docx, and ingest it again.';

function invalid(fileName: string, why: string, details: Record<string, unknown> = {}, next: string = RESAVE): AppError {
  return new AppError('DOCX_INVALID', `"${fileName}" is not a valid DOCX (${why}). ${next}`, { fileName, ...details });
}

/** The first bytes are UTF-8 without control characters: a text file with the wrong extension. */
function looksLikeText(bytes: Uint8Array): boolean {
  try {
    // stream: a multi-byte character cut at the 512th byte is not an error.
    const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(0, 512), { stream: true });
    return !/[\x00-\x08\x0e-\x1f\x7f]/.test(text);
  } catch {
    return false;
  }
}

function bomb(fileName: string, why: string, details: Record<string, unknown>): AppError {
  return new AppError(
    'DOCX_ZIP_BOMB',
    `"${fileName}" was refused: ${why}. This looks like a ZIP bomb, not a document; if the file is genuine, save it again from Word and ingest the new copy.`,
    { fileName, ...details },
  );
}

/**
 * Reads the central directory (declared names and sizes) without inflating anything, and refuses
 * archives that are not ZIPs, are damaged, encrypted, use unknown compression, or declare more data
 * than the limits allow.
 */
export function scanZip(bytes: Uint8Array, fileName: string, limits: DocxLimits = DEFAULT_DOCX_LIMITS): ZipEntry[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const len = bytes.length;
  const u16 = (at: number): number => view.getUint16(at, true);
  const u32 = (at: number): number => view.getUint32(at, true);
  const u64 = (at: number): number => Number(view.getBigUint64(at, true));

  if (len >= 4 && u32(0) === 0xe011cfd0) {
    throw invalid(fileName, 'it is an OLE file: a Word 97–2003 .doc, or a password-protected DOCX', { stage: 'signature' });
  }
  if (len >= 5 && new TextDecoder().decode(bytes.subarray(0, 5)) === '%PDF-') {
    throw new AppError('WRONG_EXTENSION', `"${fileName}" is a PDF file, not a DOCX. Rename it with the .pdf extension and ingest it again.`, {
      fileName,
      detected: '.pdf',
    });
  }
  if (len < 22 || u32(0) !== SIG_LOCAL) {
    const next = looksLikeText(bytes)
      ? 'It looks like plain text: if it is, rename it with the .txt extension; otherwise open it in Word or LibreOffice, save it as .docx, and ingest it again.'
      : RESAVE;
    throw invalid(fileName, 'not a ZIP archive', { stage: 'signature' }, next);
  }

  // End of central directory: the last record signature whose comment fits in the file.
  let eocd = -1;
  for (let at = len - 22; at >= Math.max(0, len - 22 - 0xffff); at--) {
    if (u32(at) === SIG_EOCD && at + 22 + u16(at + 20) <= len) {
      eocd = at;
      break;
    }
  }
  if (eocd < 0) throw invalid(fileName, 'not a ZIP archive: no end of central directory; the file may be truncated', { stage: 'central-directory' });

  let disk = u16(eocd + 4);
  let cdDisk = u16(eocd + 6);
  let count = u16(eocd + 10);
  let cdSize = u32(eocd + 12);
  let cdOffset = u32(eocd + 16);
  if (count === 0xffff || cdSize === 0xffffffff || cdOffset === 0xffffffff) {
    const loc = eocd - 20;
    if (loc < 0 || u32(loc) !== SIG_ZIP64_LOCATOR) throw invalid(fileName, 'damaged ZIP64 directory', { stage: 'central-directory' });
    const z = u64(loc + 8);
    if (z + 56 > len || u32(z) !== SIG_ZIP64_EOCD) throw invalid(fileName, 'damaged ZIP64 directory', { stage: 'central-directory' });
    disk = view.getUint32(z + 16, true);
    cdDisk = view.getUint32(z + 20, true);
    count = u64(z + 32);
    cdSize = u64(z + 40);
    cdOffset = u64(z + 48);
  }
  if (disk !== 0 || cdDisk !== 0) throw invalid(fileName, 'a multi-part ZIP archive', { stage: 'central-directory' });
  if (count > limits.maxEntries) {
    throw bomb(fileName, `it declares ${count} files (limit ${limits.maxEntries})`, { stage: 'central-directory', entries: count });
  }
  if (cdOffset + cdSize > len) throw invalid(fileName, 'damaged ZIP central directory', { stage: 'central-directory' });

  const entries: ZipEntry[] = [];
  let total = 0;
  let at = cdOffset;
  for (let i = 0; i < count; i++) {
    if (at + 46 > len || u32(at) !== SIG_CENTRAL) throw invalid(fileName, 'damaged ZIP central directory', { stage: 'central-directory' });
    const flags = u16(at + 8);
    const method = u16(at + 10);
    let compressedSize = u32(at + 20);
    let uncompressedSize = u32(at + 24);
    const nameLen = u16(at + 28);
    const extraLen = u16(at + 30);
    const commentLen = u16(at + 32);
    let localHeaderOffset = u32(at + 42);
    const nameEnd = at + 46 + nameLen;
    if (nameEnd + extraLen + commentLen > len) throw invalid(fileName, 'damaged ZIP central directory', { stage: 'central-directory' });
    // ZIP names are CP437 unless flag bit 11 says UTF-8; DOCX part names are ASCII either way.
    const name = new TextDecoder(flags & 0x800 ? 'utf-8' : 'windows-1252').decode(bytes.subarray(at + 46, nameEnd));

    // ZIP64 extended information: the 64-bit values of the fields set to 0xFFFFFFFF, in this order.
    for (let x = nameEnd; x + 4 <= nameEnd + extraLen; ) {
      const id = u16(x);
      const size = u16(x + 2);
      if (id === 0x0001) {
        let p = x + 4;
        const end = x + 4 + size;
        if (uncompressedSize === 0xffffffff && p + 8 <= end) {
          uncompressedSize = u64(p);
          p += 8;
        }
        if (compressedSize === 0xffffffff && p + 8 <= end) {
          compressedSize = u64(p);
          p += 8;
        }
        if (localHeaderOffset === 0xffffffff && p + 8 <= end) localHeaderOffset = u64(p);
      }
      x += 4 + size;
    }

    if (flags & 0x1) throw invalid(fileName, `the ZIP entry ${name} is encrypted`, { stage: 'central-directory' });
    if (method !== 0 && method !== 8) throw invalid(fileName, `the ZIP entry ${name} uses unsupported compression method ${method}`, { stage: 'central-directory' });

    total += uncompressedSize;
    if (total > limits.maxTotalUncompressed) {
      throw bomb(fileName, `its files declare more than ${Math.round(limits.maxTotalUncompressed / MB)} MB once uncompressed`, {
        stage: 'central-directory',
        declaredTotal: total,
        limit: limits.maxTotalUncompressed,
      });
    }
    if (uncompressedSize > limits.ratioMinSize && uncompressedSize / Math.max(compressedSize, 1) > limits.maxEntryRatio) {
      const ratio = Math.round(uncompressedSize / Math.max(compressedSize, 1));
      throw bomb(fileName, `${name} would expand ${ratio}:1 (limit ${limits.maxEntryRatio}:1)`, {
        stage: 'central-directory',
        entry: name,
        ratio,
      });
    }
    if (localHeaderOffset + 30 > len) throw invalid(fileName, 'damaged ZIP central directory', { stage: 'central-directory' });
    entries.push({ name, method, flags, compressedSize, uncompressedSize, localHeaderOffset });
    at = nameEnd + extraLen + commentLen;
  }
  return entries;
}

/** The compressed bytes of an entry, found through its local header. */
function entryData(bytes: Uint8Array, entry: ZipEntry, fileName: string): Uint8Array {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const at = entry.localHeaderOffset;
  if (view.getUint32(at, true) !== SIG_LOCAL) throw invalid(fileName, `damaged ZIP entry ${entry.name}`, { stage: 'local-header' });
  const start = at + 30 + view.getUint16(at + 26, true) + view.getUint16(at + 28, true);
  if (start + entry.compressedSize > bytes.length) throw invalid(fileName, `truncated ZIP entry ${entry.name}`, { stage: 'local-header' });
  return bytes.subarray(start, start + entry.compressedSize);
}

/**
 * Inflates an entry with its declared size as a hard cap: a central directory that understates a
 * size (the classic way round a pre-scan) is caught here rather than in mammoth's unbounded inflate.
 */
function inflateEntry(bytes: Uint8Array, entry: ZipEntry, fileName: string): Uint8Array {
  const data = entryData(bytes, entry, fileName);
  if (entry.method === 0) return data;
  try {
    return inflateRawSync(data, { maxOutputLength: Math.max(entry.uncompressedSize, 1) });
  } catch (e) {
    const code = (e as { code?: string }).code;
    if (e instanceof RangeError || code === 'ERR_BUFFER_TOO_LARGE') {
      throw bomb(fileName, `${entry.name} holds more data than its declared ${entry.uncompressedSize} bytes`, {
        stage: 'inflate-check',
        entry: entry.name,
      });
    }
    throw invalid(fileName, `the ZIP entry ${entry.name} is damaged`, { stage: 'inflate-check', entry: entry.name });
  }
}

/** The parts mammoth reads as markup (document, notes, styles, relationships, …). */
const isMarkupPart = (entry: ZipEntry): boolean => /\.(?:xml|rels)$/i.test(entry.name);

/**
 * Every entry mammoth may inflate, inflated once within its declared size, so mammoth then works
 * on honest data. With images omitted, mammoth never reads media, so a 150 MB photo is not
 * inflated for nothing.
 */
function verifyDeclaredSizes(bytes: Uint8Array, entries: readonly ZipEntry[], fileName: string, withMedia: boolean, mainPart: string): void {
  for (const entry of entries) {
    if (entry.method === 8 && (withMedia || isMarkupPart(entry) || entry.name === mainPart)) inflateEntry(bytes, entry, fileName);
  }
}

/** The package with its markup rewritten where mammoth would drop text (word-markup.ts), else the same bytes. */
async function withReadableMarkup(bytes: Uint8Array, entries: readonly ZipEntry[], fileName: string): Promise<Uint8Array> {
  const changed = new Map<string, string>();
  for (const entry of entries) {
    if (!/\.xml$/i.test(entry.name) || entry.name === '[Content_Types].xml') continue;
    const xml = new TextDecoder().decode(inflateEntry(bytes, entry, fileName));
    const rewritten = normaliseWordXml(xml);
    if (rewritten !== null) changed.set(entry.name, rewritten);
  }
  if (changed.size === 0) return bytes;
  try {
    const zip = await JSZip.loadAsync(bytes);
    for (const [name, xml] of changed) zip.file(name, xml);
    // Unchanged deflated entries keep their compressed bytes; only the rewritten parts are deflated.
    return await zip.generateAsync({ type: 'uint8array', compression: 'DEFLATE', compressionOptions: { level: 1 } });
  } catch (e) {
    throw invalid(fileName, `its ZIP archive could not be read: ${e instanceof Error ? e.message : String(e)}`, { stage: 'markup' });
  }
}

function readXmlEntry(bytes: Uint8Array, entries: readonly ZipEntry[], name: string, fileName: string): string | null {
  const entry = entries.find((e) => e.name === name);
  return entry ? new TextDecoder().decode(inflateEntry(bytes, entry, fileName)) : null;
}

/** Elements of an XML part as {name, attribs, text}; OOXML parts are small once sizes are checked. */
function xmlElements(xml: string): { name: string; attribs: Record<string, string>; text: string }[] {
  const out: { name: string; attribs: Record<string, string>; text: string }[] = [];
  const stack: { name: string; attribs: Record<string, string>; text: string }[] = [];
  const parser = new Parser(
    {
      onopentag(name, attribs) {
        const el = { name, attribs, text: '' };
        out.push(el);
        stack.push(el);
      },
      ontext(t) {
        const top = stack[stack.length - 1];
        if (top) top.text += t;
      },
      onclosetag() {
        stack.pop();
      },
    },
    { xmlMode: true },
  );
  parser.write(xml);
  parser.end();
  return out;
}

const OFFICE_DOCUMENT_TYPES = [
  'http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument',
  'http://purl.oclc.org/ooxml/officeDocument/relationships/officeDocument', // Strict OOXML
];

/** The main document part, found as mammoth finds it: the package relationship, else word/document.xml. */
function mainDocumentPath(bytes: Uint8Array, entries: readonly ZipEntry[], fileName: string): string {
  const rels = readXmlEntry(bytes, entries, '_rels/.rels', fileName);
  let target = 'word/document.xml';
  if (rels !== null) {
    const rel = xmlElements(rels).find((e) => /(^|:)Relationship$/.test(e.name) && OFFICE_DOCUMENT_TYPES.includes(e.attribs['Type'] ?? ''));
    const t = rel?.attribs['Target'];
    if (t) target = t.replace(/^\//, '');
  }
  if (!entries.some((e) => e.name === target)) {
    throw invalid(fileName, `it has no main document part (${target}); it may be another kind of ZIP archive`, { stage: 'parts' });
  }
  return target;
}

/** Title, authors and date from docProps/core.xml (Dublin Core); a broken part costs them, not the document. */
function coreProperties(bytes: Uint8Array, entries: readonly ZipEntry[], fileName: string): { title: string | null; properties: DocumentProperties } {
  const none = { title: null, properties: { authors: [], published: null } };
  const xml = readXmlEntry(bytes, entries, 'docProps/core.xml', fileName);
  if (xml === null) return none;
  try {
    const elements = xmlElements(xml);
    const text = (local: RegExp): string | null => {
      const value = elements.find((e) => local.test(e.name))?.text.replace(/[ \t\n\r\f]+/g, ' ').trim();
      return value ? value : null;
    };
    return {
      title: text(/(^|:)title$/),
      properties: { authors: parseAuthors(text(/(^|:)creator$/)), published: parseDocumentDate(text(/(^|:)created$/)) },
    };
  } catch {
    return none;
  }
}

// ---------------------------------------------------------------------------------------------
// Conversion

export interface DocxHtmlOptions {
  fileName?: string;
  /** 'inline' (data URIs, for the viewer) or 'omit' (empty src, for extraction: no image is inflated). */
  images?: 'inline' | 'omit';
  limits?: DocxLimits;
}

interface Converted {
  html: string;
  messages: { type: string; message: string }[];
  entries: ZipEntry[];
  /** Images given an empty src: all of them with 'omit', else those a browser cannot show or past the budget. */
  imagesOmitted: number;
}

/** Image types Chromium shows in an <img>; EMF, WMF and TIFF are not among them. */
const VIEWABLE_IMAGES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/bmp', 'image/svg+xml']);

/** Inline images past this many bytes (all together) are left out of the viewer's HTML. */
export const MAX_INLINE_IMAGE_BYTES = 24 * 1024 * 1024;

async function convert(bytes: Uint8Array, options: DocxHtmlOptions): Promise<Converted> {
  const fileName = options.fileName ?? 'document.docx';
  if (bytes.length === 0) {
    throw new AppError('FILE_EMPTY', `"${fileName}" is empty (0 bytes). Check that the file was saved completely, then ingest it again.`, { fileName });
  }
  const entries = scanZip(bytes, fileName, options.limits ?? DEFAULT_DOCX_LIMITS);
  const inline = options.images === 'inline';
  const mainPart = mainDocumentPath(bytes, entries, fileName);
  verifyDeclaredSizes(bytes, entries, fileName, inline, mainPart);
  const docx = await withReadableMarkup(bytes, entries, fileName);
  let imagesOmitted = 0;
  let inlineBytes = 0;
  // The src is the only thing images change: block structure and text are the same either way.
  const convertImage = mammoth.images.imgElement(async (image) => {
    if (inline && VIEWABLE_IMAGES.has(image.contentType)) {
      const data = await image.readAsBuffer();
      // Base64 only what fits: a string of a huge image would take the worker's heap for nothing.
      const encoded = Math.ceil(data.length / 3) * 4;
      if (inlineBytes + encoded <= MAX_INLINE_IMAGE_BYTES) {
        inlineBytes += encoded;
        return { src: `data:${image.contentType};base64,${data.toString('base64')}` };
      }
    }
    imagesOmitted++;
    return { src: '' };
  });
  try {
    const result = await mammoth.convertToHtml(
      { buffer: Buffer.from(docx.buffer, docx.byteOffset, docx.byteLength) },
      // Untrusted input: no reading of linked files, no style map smuggled in by the document.
      { externalFileAccess: false, includeEmbeddedStyleMap: false, convertImage },
    );
    return { html: result.value, messages: result.messages, entries, imagesOmitted };
  } catch (e) {
    throw invalid(fileName, `Word content could not be read: ${e instanceof Error ? e.message : String(e)}`, { stage: 'mammoth' });
  }
}

export interface DocxView {
  /** mammoth's HTML annotated by the walker that made the stored segments (see SplitOptions.annotate). */
  html: string;
  imagesOmitted: number;
  /** Blocks whose start tag the parser implied, so the viewer cannot find them (0 for mammoth's HTML). */
  unannotated: number;
}

/** What the viewer shows of a DOCX: the same conversion and the same block walk as extraction. */
export async function docxView(bytes: Uint8Array, fileName: string): Promise<DocxView> {
  const { html, imagesOmitted } = await convert(bytes, { fileName, images: 'inline' });
  const split = splitHtmlBlocks(html, DOCX_BLOCK_RULE, { annotate: true });
  return { html: split.annotatedHtml ?? html, imagesOmitted, unannotated: split.unannotated ?? 0 };
}

export const MAMMOTH_VERSION = packageVersion('mammoth');

/**
 * mammoth's own messages: unknown styles are chatter; errors and ignored elements may mean lost text,
 * except ignored property elements (w:tblPrEx, w:rPrChange, …), which hold formatting, never text.
 */
function severeMessages(messages: readonly { type: string; message: string }[], fileName: string): Warning[] {
  const seen = new Set<string>();
  const out: Warning[] = [];
  for (const m of messages) {
    const formattingOnly = /style|\b\w+:\w*Pr(?:Ex|Change)?\b/.test(m.message);
    const severe = m.type === 'error' || (/unrecognised element|unsupported|could not|failed/i.test(m.message) && !formattingOnly);
    if (!severe || seen.has(m.message)) continue;
    seen.add(m.message);
    out.push({ code: 'EXTRACTION_FAILED', message: `"${fileName}": part of the document may be missing from the text (${m.message}).` });
  }
  return out;
}

function throwIfAborted(ctx: ExtractContext): void {
  if (ctx.signal?.aborted) throw new AppError('CANCELLED', `Extraction of "${ctx.fileName}" was cancelled.`, { fileName: ctx.fileName });
}

/** An extractor with other limits (tests use small ones; the defaults suit real documents). */
export function createDocxExtractor(limits: DocxLimits = DEFAULT_DOCX_LIMITS): Extractor {
  return async (bytes, ctx) => {
    throwIfAborted(ctx);
    const { html, messages, entries } = await convert(bytes, { fileName: ctx.fileName, images: 'omit', limits });
    throwIfAborted(ctx);
    const split = splitHtmlBlocks(html, DOCX_BLOCK_RULE);
    const warnings = severeMessages(messages, ctx.fileName);
    if (split.strayChars > 0) {
      warnings.push({
        code: 'EXTRACTION_FAILED',
        message: `"${ctx.fileName}": ${split.strayChars} characters outside any paragraph were not extracted.`,
      });
    }
    if (split.blocks.length === 0) {
      warnings.push({ code: 'FILE_EMPTY', message: `"${ctx.fileName}" contains no text (images only?); nothing in it can be cited.` });
    }
    const segments: ExtractedSegment[] = split.blocks.map((b) => ({
      text: b.text,
      paragraph: b.paragraph,
      headingPath: b.headingPath,
      blockType: b.blockType,
      ...(b.cell ? { cell: b.cell } : {}),
    }));
    const firstHeading = split.blocks.find((b) => b.blockType === 'heading')?.text.replace(/\n/g, ' ') ?? null;
    const core = coreProperties(bytes, entries, ctx.fileName);
    return {
      kind: 'docx',
      method: `mammoth@${MAMMOTH_VERSION}`,
      title: core.title ?? firstHeading,
      ...(hasProperties(core.properties) ? { properties: core.properties } : {}),
      pageCount: null,
      segments,
      warnings,
    };
  };
}

export const extractDocx: Extractor = createDocxExtractor();
