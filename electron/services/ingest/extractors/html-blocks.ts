// The block walker behind HTML and DOCX extraction: one segment per block element, with its index
// and heading path (DESIGN.md §4). mammoth's HTML (docx.ts) goes through it too, so DOCX and HTML
// share one definition of "a block's text".
import { Parser } from 'htmlparser2';
import type { TableCellLocator } from '../../../../shared/contract/schemas.ts';
import type { ExtractedSegment } from '../extracted.ts';
import { escapeText, HAS_VISIBLE, renderBlock, renderBlockText, type RawRange, type Token } from './html-block-text.ts';
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
