// HTML: one segment per block element, with its index and heading path (DESIGN.md §4).
// The block walker here is also used for mammoth's HTML (docx.ts), so DOCX and HTML share one
// definition of "a block's text".
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Parser } from 'htmlparser2';
import { AppError } from '../../../../shared/contract/errors.ts';
import type { TableCellLocator, Warning } from '../../../../shared/contract/schemas.ts';
import type { ExtractContext, ExtractedSegment, Extractor } from '../extracted.ts';
import { decodeText, normaliseLineEndings } from './decode.ts';
import { READER_METHOD, readerHtml } from './readable.ts';
import { TableTracker, type CellPlace } from './table-cells.ts';

export type BlockType = NonNullable<ExtractedSegment['blockType']>;

export interface ElementInfo {
  /** Lower-case tag name. */
  name: string;
  attribs: Readonly<Record<string, string>>;
}

/** Which elements are blocks, which are left out, and what type a block has. */
export interface BlockRule {
  isBlock(el: ElementInfo): boolean;
  /** Elements whose whole content is left out of the text (scripts, footnote markers, …). */
  isSkipped(el: ElementInfo): boolean;
  /** Blocks whose whitespace is kept as is (pre). */
  preservesWhitespace(el: ElementInfo): boolean;
  /** `ancestors` are the open elements around `el`, outermost first. */
  blockType(el: ElementInfo, ancestors: readonly ElementInfo[]): BlockType;
}

export interface HtmlBlock {
  text: string;
  /** Index among the emitted (non-empty) blocks, in document order of their start tags. */
  paragraph: number;
  /** Texts of the enclosing headings (h1 > h2 > …); a heading's path excludes itself. */
  headingPath: string[];
  blockType: BlockType;
  tag: string;
  /** A block inside a table cell: the cell's table, row and column, named by headers where there are any. */
  cell?: TableCellLocator;
}

export interface SplitOptions {
  /**
   * Also return the HTML with `data-ed-block="N"` on every emitted block, `data-ed-skip` on skipped
   * elements, and each piece of a block's own text replaced by exactly what it contributes to the
   * block's text, as `<span data-ed-b="N" data-ed-at="offset">…</span>`: a viewer then maps a stored
   * range [start, end) to spans and characters without re-deriving white space rules.
   */
  annotate?: boolean;
  /** XHTML: honour `<x/>` on non-void elements. */
  recognizeSelfClosing?: boolean;
  /** Text outside every block goes to an implicit block instead of being counted as lost. */
  implicitRootBlock?: boolean;
  /**
   * A block's own text on either side of a nested block makes separate blocks, numbered where
   * they start, as a browser lays out anonymous block boxes: `<div>Intro<h2>B</h2>More</div>` is
   * "Intro", "B", "More" (with "More" under heading B), not "Intro More" before "B". Without it,
   * the nested block counts as a space in its parent. Not with `annotate`: such runs have no
   * element of their own to carry a block index (mammoth's HTML, the annotated one, has none).
   */
  anonymousBlocks?: boolean;
}

export interface SplitResult {
  blocks: HtmlBlock[];
  /** The document's <title>, whitespace collapsed, or null. */
  title: string | null;
  /** Non-whitespace characters that sat outside every block and were therefore not extracted. */
  strayChars: number;
  annotatedHtml?: string;
  /** Emitted blocks whose start tag was implied by the parser, so they carry no annotation. */
  unannotated?: number;
}

/** A block's own content, in order: text, <br>, or the place of a nested block. */
export type Token = { kind: 'text'; s: string; raw?: RawRange } | { kind: 'br' } | { kind: 'sep' };

/** Where a text token sits in the HTML source: [start, end) of its raw characters (entities undecoded). */
export interface RawRange {
  start: number;
  end: number;
}

/** What one text token contributes to its block's text: `s` at offset `at`. */
export interface TextPiece {
  token: number;
  at: number;
  s: string;
}

interface Frame {
  el: ElementInfo;
  tokens: Token[];
  pre: boolean;
  blockType: BlockType;
  headingLevel: number | null;
  pathAtOpen: string[];
  /** Heading path when the block's first visible text arrived (a div can open before a heading). */
  pathAtText: string[] | null;
  insertAt: number | null;
  text: string;
  /** Annotate only: the block's text pieces, each with the raw range of its token. */
  pieces: { at: number; s: string; raw: RawRange }[];
  /** Rendered: its text is final (a run cut by a nested block, or a closed block). */
  done: boolean;
  /** anonymousBlocks: a nested block ended this run; the parent's next text starts a new one. */
  cut: boolean;
  /** The table cell the block opened in, if any. */
  cell: CellPlace | null;
}

interface OpenElement {
  el: ElementInfo;
  frame: Frame | null;
  skips: boolean;
  title: boolean;
  /** A table, thead or cell the table tracker must hear close. */
  tableTag: boolean;
}

/** CSS white space: what a browser collapses. NBSP is not in it. */
const CSS_SPACE = /[ \t\n\r\f]+/;
const HAS_VISIBLE = /[^ \t\n\r\f]/;

/**
 * A block's text, the way a browser lays it out: every run of white space (space, tab, LF, CR, FF)
 * in the block's own text, together with the boundary of a nested block, becomes one space; white
 * space at the start, at the end and next to a <br> disappears; <br> becomes "\n"; leading and trailing
 * "\n" are dropped. In a preserving block (pre) the text is kept as is, minus one leading newline (the
 * HTML parser drops it too) and trailing white space.
 */
export function renderBlockText(tokens: readonly Token[], pre: boolean): string {
  return renderBlock(tokens, pre).text;
}

/**
 * The block's text and, for each text token, the characters it contributes and where: a collapsed
 * space goes with the token whose white space it was (so a link or a bold run does not start with
 * one). The pieces tile the text except for <br> newlines and the spaces that stand for nested blocks.
 */
export function renderBlock(tokens: readonly Token[], pre: boolean): { text: string; pieces: TextPiece[] } {
  const raw: TextPiece[] = [];
  let out = '';
  if (pre) {
    tokens.forEach((t, token) => {
      const s = t.kind === 'text' ? t.s : '\n';
      if (t.kind === 'text' && s !== '') raw.push({ token, at: out.length, s });
      out += s;
    });
    const from = out.startsWith('\n') ? 1 : 0;
    const to = out.replace(/[ \t\n\r\f]+$/, '').length;
    return HAS_VISIBLE.test(out.slice(from, to)) ? clipPieces(out, raw, from, Math.max(from, to)) : { text: '', pieces: [] };
  }
  let pendingSpace = false;
  /** The token whose white space the pending space is; null for a nested block's boundary. */
  let spaceOwner: number | null = null;
  const last = new Map<number, TextPiece>();
  const emit = (token: number | null, s: string): void => {
    const piece = token === null ? undefined : last.get(token);
    if (piece && piece.at + piece.s.length === out.length) piece.s += s;
    else if (token !== null && !piece) {
      const fresh = { token, at: out.length, s };
      last.set(token, fresh);
      raw.push(fresh);
    }
    out += s;
  };
  const space = (owner: number | null): void => {
    if (out !== '' && !out.endsWith('\n')) {
      pendingSpace = true;
      spaceOwner = owner;
    }
  };
  tokens.forEach((t, token) => {
    if (t.kind === 'br') {
      out += '\n';
      pendingSpace = false;
    } else if (t.kind === 'sep') {
      space(null);
    } else {
      t.s.split(CSS_SPACE).forEach((word, i) => {
        if (i > 0) space(token);
        if (word === '') return;
        if (pendingSpace) emit(spaceOwner, ' ');
        pendingSpace = false;
        emit(token, word);
      });
    }
  });
  // Only <br> makes leading or trailing newlines, and it is in no piece.
  const from = /^\n*/.exec(out)?.[0].length ?? 0;
  const to = Math.max(from, out.length - (/\n*$/.exec(out)?.[0].length ?? 0));
  return clipPieces(out, raw, from, to);
}

function clipPieces(out: string, raw: readonly TextPiece[], from: number, to: number): { text: string; pieces: TextPiece[] } {
  const pieces: TextPiece[] = [];
  for (const p of raw) {
    const a = Math.max(p.at, from);
    const b = Math.min(p.at + p.s.length, to);
    if (a < b) pieces.push({ token: p.token, at: a - from, s: out.slice(a, b) });
  }
  return { text: out.slice(from, to), pieces };
}

function escapeText(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * Walks HTML with htmlparser2 and returns its blocks. A text node belongs to its nearest enclosing
 * block; blocks are numbered in document order of their start tags, counting only those whose text
 * is not empty.
 */
export function splitHtmlBlocks(html: string, rule: BlockRule, options: SplitOptions = {}): SplitResult {
  const open: OpenElement[] = [];
  const frames: Frame[] = []; // open block frames, innermost last
  const all: Frame[] = []; // every block frame, in start-tag order
  const headings: { level: number; text: string }[] = [];
  /** Annotate only: replace html[at, end) by text (an insertion when end === at). */
  const edits: { at: number; end: number; text: string }[] = [];
  let skipDepth = 0;
  let titleDepth = 0;
  let title: string | null = null;
  let strayChars = 0;
  const tables = new TableTracker();

  const currentPath = (): string[] => headings.map((h) => h.text);

  const root: Frame | null = options.implicitRootBlock
    ? {
        el: { name: '#root', attribs: {} },
        tokens: [],
        pre: false,
        blockType: 'paragraph',
        headingLevel: null,
        pathAtOpen: [],
        pathAtText: null,
        insertAt: null,
        text: '',
        pieces: [],
        done: false,
        cut: false,
        cell: null,
      }
    : null;
  if (root) {
    frames.push(root);
    all.push(root);
  }

  /** anonymousBlocks: the parent's text after a nested block, as a new block numbered here. */
  const continueRun = (cut: Frame): Frame => {
    const next: Frame = { ...cut, tokens: [], pathAtOpen: currentPath(), pathAtText: null, insertAt: null, text: '', pieces: [], done: false, cut: false };
    frames[frames.length - 1] = next;
    all.push(next);
    const entry = open.findLast((o) => o.frame === cut);
    if (entry) entry.frame = next;
    return next;
  };

  /** Where ` name="…"` can be inserted into a start tag that is really in the source. */
  const tagInsertPoint = (name: string, implied: boolean): number | null => {
    if (implied) return null;
    const start = parser.startIndex;
    const written = html.slice(start, start + 1 + name.length).toLowerCase();
    return written === `<${name}` ? start + 1 + name.length : null;
  };

  const finish = (frame: Frame): void => {
    if (frame.done) return;
    frame.done = true;
    const rendered = renderBlock(frame.tokens, frame.pre);
    frame.text = rendered.text;
    if (options.annotate) {
      for (const p of rendered.pieces) {
        const t = frame.tokens[p.token];
        if (t?.kind === 'text' && t.raw) frame.pieces.push({ at: p.at, s: p.s, raw: t.raw });
      }
    }
    frame.tokens = [];
    if (frame.headingLevel !== null && frame.text !== '') {
      const level = frame.headingLevel;
      while (headings.length > 0 && (headings[headings.length - 1]?.level ?? 0) >= level) headings.pop();
      // Heading path entries are one line, even when the heading has a <br>.
      headings.push({ level, text: frame.text.replace(/\n/g, ' ') });
    }
  };

  const parser = new Parser(
    {
      onopentag(rawName, attribs, isImplied) {
        const name = rawName.toLowerCase();
        const el: ElementInfo = { name, attribs };
        const entry: OpenElement = { el, frame: null, skips: false, title: false, tableTag: false };
        // The document's <title>, not an SVG's <title> in the body.
        if (name === 'title' && title === null && titleDepth === 0 && !open.some((o) => o.el.name === 'svg' || o.el.name === 'body')) {
          entry.title = true;
          titleDepth++;
          title = '';
        }
        if (skipDepth === 0 && rule.isSkipped(el)) {
          entry.skips = true;
          skipDepth++;
          if (options.annotate) {
            const at = tagInsertPoint(name, isImplied);
            if (at !== null) edits.push({ at, end: at, text: ' data-ed-skip=""' });
          }
        }
        if (skipDepth === 0) {
          entry.tableTag = tables.open(name, attribs);
          if (rule.isBlock(el)) {
            const parent = frames[frames.length - 1];
            if (parent && options.anonymousBlocks && parent.headingLevel === null && !parent.pre) {
              finish(parent);
              parent.cut = true;
            } else {
              parent?.tokens.push({ kind: 'sep' });
            }
            const level = /^h[1-6]$/.test(name) ? Number(name[1]) : null;
            const frame: Frame = {
              el,
              tokens: [],
              pre: rule.preservesWhitespace(el) || (parent?.pre ?? false),
              blockType: rule.blockType(el, open.map((o) => o.el)),
              headingLevel: level,
              pathAtOpen: currentPath(),
              pathAtText: null,
              insertAt: options.annotate ? tagInsertPoint(name, isImplied) : null,
              text: '',
              pieces: [],
              done: false,
              cut: false,
              cell: tables.current(),
            };
            entry.frame = frame;
            frames.push(frame);
            all.push(frame);
          } else if (name === 'br') {
            // A <br> that would start a new run is dropped, as at the start of any block.
            const frame = frames[frames.length - 1];
            if (!frame?.cut) frame?.tokens.push({ kind: 'br' });
          }
        }
        open.push(entry);
      },
      ontext(data) {
        if (titleDepth > 0 && title !== null) title += data;
        if (skipDepth > 0) return;
        let frame = frames[frames.length - 1];
        if (frame?.cut) {
          // White space before a run's first visible character is dropped anyway.
          if (!HAS_VISIBLE.test(data)) return;
          frame = continueRun(frame);
        }
        if (!frame) {
          const visible = data.replace(/[ \t\n\r\f]+/g, '');
          strayChars += visible.length;
          return;
        }
        // htmlparser2 reports each text run (and each entity) with its raw range in the source.
        frame.tokens.push(options.annotate ? { kind: 'text', s: data, raw: { start: parser.startIndex, end: parser.endIndex + 1 } } : { kind: 'text', s: data });
        if (frame.pathAtText === null && HAS_VISIBLE.test(data)) {
          const level = frame.headingLevel;
          frame.pathAtText = level === null ? currentPath() : headings.filter((h) => h.level < level).map((h) => h.text);
        }
      },
      onclosetag(rawName) {
        const name = rawName.toLowerCase();
        // htmlparser2 closes implied elements itself, so the match is normally on top.
        let i = open.length - 1;
        while (i >= 0 && open[i]?.el.name !== name) i--;
        if (i < 0) return;
        while (open.length > i) {
          const entry = open.pop();
          if (!entry) break;
          if (entry.frame) {
            finish(entry.frame);
            frames.pop();
          }
          if (entry.skips) skipDepth--;
          if (entry.title) titleDepth--;
          if (entry.tableTag) tables.close(entry.el.name);
        }
      },
    },
    { lowerCaseTags: true, recognizeSelfClosing: options.recognizeSelfClosing ?? false },
  );
  parser.write(html);
  parser.end();
  // Anything still open (htmlparser2 normally closes all at end()).
  while (open.length > 0) {
    const entry = open.pop();
    if (entry?.frame) {
      finish(entry.frame);
      frames.pop();
    }
  }
  // The implicit root, or the run that continues it.
  for (const frame of frames) finish(frame);

  const blocks: HtmlBlock[] = [];
  let unannotated = 0;
  // Every cell's text first: a column's label is a header cell's whole text.
  for (const frame of all) if (frame.cell && frame.text !== '') tables.addText(frame.cell, frame.text);
  for (const frame of all) {
    if (frame.text === '') continue;
    const paragraph = blocks.length;
    const headingPath = frame.blockType === 'footnote' ? [] : (frame.pathAtText ?? frame.pathAtOpen);
    blocks.push({ text: frame.text, paragraph, headingPath, blockType: frame.blockType, tag: frame.el.name, ...(frame.cell ? { cell: tables.locator(frame.cell) } : {}) });
    if (options.annotate) {
      if (frame.insertAt === null) unannotated++;
      else edits.push({ at: frame.insertAt, end: frame.insertAt, text: ` data-ed-block="${paragraph}"` });
      for (const p of frame.pieces) {
        edits.push({ at: p.raw.start, end: p.raw.end, text: `<span data-ed-b="${paragraph}" data-ed-at="${p.at}">${escapeText(p.s)}</span>` });
      }
    }
  }

  const result: SplitResult = {
    blocks,
    title: title === null ? null : renderBlockText([{ kind: 'text', s: title }], false) || null,
    strayChars,
  };
  if (options.annotate) {
    edits.sort((a, b) => a.at - b.at);
    let out = '';
    let last = 0;
    for (const edit of edits) {
      out += html.slice(last, edit.at) + edit.text;
      last = edit.end;
    }
    result.annotatedHtml = out + html.slice(last);
    result.unannotated = unannotated;
  }
  return result;
}

/**
 * The installed version of a package, read from its package.json (found by walking up from its
 * entry point, because packages with an `exports` map do not expose package.json).
 */
export function packageVersion(name: string): string {
  const require = createRequire(import.meta.url);
  let dir = path.dirname(require.resolve(name));
  for (;;) {
    const file = path.join(dir, 'package.json');
    if (fs.existsSync(file)) {
      const pkg = JSON.parse(fs.readFileSync(file, 'utf8')) as { name?: string; version?: string };
      if (pkg.name === name && pkg.version) return pkg.version;
    }
    const up = path.dirname(dir);
    if (up === dir) return 'unknown';
    dir = up;
  }
}

// ---------------------------------------------------------------------------------------------
// HTML documents

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
