// HTML documents: one segment per block element, with its index and heading path (DESIGN.md §4),
// through the block walker shared with DOCX (html-blocks.ts).
import { AppError } from '../../../../shared/contract/errors.ts';
import type { Warning } from '../../../../shared/contract/schemas.ts';
import type { ExtractContext, ExtractedSegment, Extractor } from '../extracted.ts';
import { decodeText, normaliseLineEndings } from './decode.ts';
import { splitHtmlBlocks, type BlockRule, type BlockType, type ElementInfo, type SplitResult } from './html-blocks.ts';
import { packageVersion } from './package-version.ts';
import { READER_METHOD, readerHtml } from './readable.ts';

const HTML_BLOCKS = new Set([
  'p', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'li', 'td', 'th', 'pre', 'blockquote', 'dd', 'dt', 'figcaption',
  // Containers: they become blocks only through text of their own (not inside a child block).
  'div', 'section', 'article', 'main', 'aside', 'header', 'footer', 'nav', 'address', 'figure', 'caption',
  'summary', 'details', 'legend', 'fieldset', 'form', 'center', 'body',
]);
/** Not rendered, or not document text. <title> is read separately even though <head> is skipped. */
const HTML_SKIPPED = new Set(['script', 'style', 'noscript', 'template', 'head', 'svg', 'iframe', 'canvas', 'object']);

/**
 * A block's type from itself and the nearest enclosing li/td/th/dd/dt: a <p> in a table cell is a
 * table cell, a <p> in a footnote item is a footnote. Shared with docx.ts.
 */
export function blockTypeInContext(el: ElementInfo, ancestors: readonly ElementInfo[], isFootnote: (li: ElementInfo) => boolean): BlockType {
  if (/^h[1-6]$/.test(el.name)) return 'heading';
  const chain = [...ancestors, el];
  for (let i = chain.length - 1; i >= 0; i--) {
    const a = chain[i];
    if (!a) continue;
    if (a.name === 'td' || a.name === 'th') return 'table_cell';
    if (a.name === 'li') return isFootnote(a) ? 'footnote' : 'list_item';
    if (a.name === 'dd' || a.name === 'dt') return 'list_item';
  }
  return 'paragraph';
}

export const HTML_BLOCK_RULE: BlockRule = {
  isBlock: (el) => HTML_BLOCKS.has(el.name),
  isSkipped: (el) => HTML_SKIPPED.has(el.name) || el.attribs['hidden'] !== undefined,
  preservesWhitespace: (el) => el.name === 'pre',
  blockType: (el, ancestors) => blockTypeInContext(el, ancestors, () => false),
};

/** The encoding an HTML/XHTML document declares in its first bytes (meta charset, http-equiv, XML prolog). */
export function sniffDeclaredCharset(bytes: Uint8Array): string | null {
  const head = new TextDecoder('windows-1252').decode(bytes.subarray(0, 4096));
  const patterns = [
    /<meta\s[^>]*?charset\s*=\s*["']?\s*([\w.:-]+)/i, // <meta charset=x> and content="…; charset=x"
    /^\s*<\?xml\s[^>]*?encoding\s*=\s*["']([\w.:-]+)["']/i,
  ];
  for (const re of patterns) {
    const m = re.exec(head);
    if (m?.[1]) return m[1];
  }
  return null;
}

function throwIfAborted(ctx: ExtractContext): void {
  if (ctx.signal?.aborted) throw new AppError('CANCELLED', `Extraction of "${ctx.fileName}" was cancelled.`, { fileName: ctx.fileName });
}

const HTMLPARSER2_VERSION = packageVersion('htmlparser2');

/** An HTML document's blocks as extraction and the viewer both see them: one decoding, one walk. */
export function htmlDocumentBlocks(
  bytes: Uint8Array,
  fileName: string,
  options: { reader?: boolean } = {},
): { split: SplitResult; encoding: string; warnings: Warning[]; reader: boolean } {
  const decoded = decodeText(bytes, fileName, { declared: sniffDeclaredCharset(bytes) });
  const page = normaliseLineEndings(decoded.text);
  // A web page: its article only, when Readability finds one (issue 11).
  const article = options.reader ? readerHtml(page) : null;
  const html = article ? article.html : page;
  const xhtml = /^\s*<\?xml/.test(html) || /<html[^>]+xmlns\s*=\s*["']http:\/\/www\.w3\.org\/1999\/xhtml/i.test(html.slice(0, 4096));
  try {
    const split = splitHtmlBlocks(html, HTML_BLOCK_RULE, { recognizeSelfClosing: xhtml, implicitRootBlock: true, anonymousBlocks: true });
    return { split, encoding: decoded.encoding, warnings: decoded.warnings, reader: article !== null };
  } catch (e) {
    throw new AppError(
      'EXTRACTION_FAILED',
      `Could not read the HTML of "${fileName}": ${e instanceof Error ? e.message : String(e)}. Save the page again (or as text) and ingest it again.`,
      { fileName },
    );
  }
}

export const extractHtml: Extractor = async (bytes, ctx) => {
  throwIfAborted(ctx);
  const { split, encoding, warnings: decodeWarnings, reader } = htmlDocumentBlocks(bytes, ctx.fileName, { reader: ctx.reader === true });
  const warnings: Warning[] = [...decodeWarnings];
  if (split.blocks.length === 0) {
    warnings.push({ code: 'FILE_EMPTY', message: `"${ctx.fileName}" contains no visible text; nothing in it can be cited.` });
  }
  const segments: ExtractedSegment[] = split.blocks.map((b) => ({
    text: b.text,
    paragraph: b.paragraph,
    headingPath: b.headingPath,
    blockType: b.blockType,
    ...(b.cell ? { cell: b.cell } : {}),
  }));
  const firstH1 = split.blocks.find((b) => b.tag === 'h1')?.text.replace(/\n/g, ' ') ?? null;
  return {
    kind: 'html',
    method: `${reader ? `${READER_METHOD}; ` : ''}htmlparser2@${HTMLPARSER2_VERSION}; encoding=${encoding}`,
    title: split.title ?? firstH1,
    pageCount: null,
    segments,
    warnings,
  };
};
