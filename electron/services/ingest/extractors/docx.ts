// DOCX: mammoth converts to HTML; one segment per block (paragraph, heading, list item, table cell,
// footnote) with its index and heading path (DESIGN.md §4). A DOCX is an untrusted ZIP, so its
// central directory is checked before anything is inflated (DESIGN.md §8).
import { AppError } from '../../../../shared/contract/errors.ts';
import type { Warning } from '../../../../shared/contract/schemas.ts';
import { hasProperties } from '../../../../shared/domain/document-properties.ts';
import type { ExtractContext, ExtractedSegment, Extractor } from '../extracted.ts';
import { blockTypeInContext } from './html.ts';
import { splitHtmlBlocks, type BlockRule, type ElementInfo } from './html-blocks.ts';
import { packageVersion } from './package-version.ts';
import { normaliseWordXml } from './word-markup.ts';
import {
  DEFAULT_ZIP_LIMITS,
  inflateEntry as inflatePackageEntry,
  invalidPackage,
  readXmlEntry as readPackageXml,
  coreProperties,
  scanPackage,
  xmlElements,
  type PackageKind,
  type ZipEntry,
  type ZipLimits,
} from './ooxml-zip.ts';
import { decryptedPackage } from './ooxml-decrypt.ts';

export type { ZipEntry } from './ooxml-zip.ts';
export type DocxLimits = ZipLimits;
export const DEFAULT_DOCX_LIMITS: DocxLimits = DEFAULT_ZIP_LIMITS;

const DOCX: PackageKind = {
  label: 'DOCX',
  article: 'a',
  invalidCode: 'DOCX_INVALID',
  bombCode: 'DOCX_ZIP_BOMB',
  resave: 'Open it in Word or LibreOffice, save it as .docx, and ingest it again.',
  legacy: 'a Word 97–2003 .doc, or a password-protected DOCX',
  app: 'Word',
};

/** The DOCX pre-scan (ooxml-zip.ts): refuses what is not a sound, honestly sized ZIP. */
export function scanZip(bytes: Uint8Array, fileName: string, limits: DocxLimits = DEFAULT_DOCX_LIMITS): ZipEntry[] {
  return scanPackage(bytes, fileName, DOCX, limits);
}

const inflateEntry = (bytes: Uint8Array, entry: ZipEntry, fileName: string): Uint8Array => inflatePackageEntry(bytes, entry, fileName, DOCX);
const readXmlEntry = (bytes: Uint8Array, entries: readonly ZipEntry[], name: string, fileName: string): string | null => readPackageXml(bytes, entries, name, fileName, DOCX);
const invalid = (fileName: string, why: string, details: Record<string, unknown> = {}): AppError => invalidPackage(DOCX, fileName, why, details);

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
    const { default: JSZip } = await import('jszip');
    const zip = await JSZip.loadAsync(bytes);
    for (const [name, xml] of changed) zip.file(name, xml);
    // Unchanged deflated entries keep their compressed bytes; only the rewritten parts are deflated.
    return await zip.generateAsync({ type: 'uint8array', compression: 'DEFLATE', compressionOptions: { level: 1 } });
  } catch (e) {
    throw invalid(fileName, `its ZIP archive could not be read: ${e instanceof Error ? e.message : String(e)}`, { stage: 'markup' });
  }
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
  // Loaded when a Word file comes: an extraction child that reads only PDFs is ~14 MB lighter (issue 16 item 5).
  const { default: mammoth } = await import('mammoth');
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
  return async (stored, ctx) => {
    throwIfAborted(ctx);
    // A protected file is read through its decrypted package (with the ingest's password).
    const bytes = await decryptedPackage(stored, ctx.fileName, DOCX, ctx.password);
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
    const core = coreProperties(bytes, entries, ctx.fileName, DOCX);
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
