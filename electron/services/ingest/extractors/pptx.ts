// PowerPoint (.pptx, .pptm; issue 14): the text of each slide in reading order (titles first, then
// text boxes and tables by their place on the slide, top to bottom, left to right), one block per
// shape or table cell, then the slide's speaker notes as a block of their own. Locators carry the
// slide, and for a table cell the table (counted on its slide), row and column with their header
// labels. The viewer's outline (viewable.ts) is made by this same reading, so block numbers agree.
import type { SlideOutline } from '../../../../shared/contract/content-schemas.ts';
import type { TableCellLocator, Warning } from '../../../../shared/contract/schemas.ts';
import { hasProperties } from '../../../../shared/domain/document-properties.ts';
import type { ExtractedSegment, Extractor } from '../extracted.ts';
import { OoxmlPackage, refusesFile, relId, throwIfAborted, walkXml } from './ooxml-package.ts';
import type { PackageKind, ZipLimits } from './ooxml-zip.ts';
import { statedNumber } from '../../../../shared/domain/sheet-cells.ts';
import { TableTracker, type CellPlace } from './table-cells.ts';
import { decryptedPackage } from './ooxml-decrypt.ts';

export const PPTX: PackageKind = {
  label: 'PowerPoint file (.pptx)',
  article: 'a',
  invalidCode: 'OFFICE_INVALID',
  bombCode: 'OFFICE_ZIP_BOMB',
  resave: 'Open it in PowerPoint or LibreOffice Impress, save it as .pptx, and ingest it again.',
  legacy: 'a PowerPoint 97–2003 .ppt; save it as .pptx',
  app: 'PowerPoint',
};

/** Our own reader of PresentationML: its version changes when what it extracts changes. */
export const PPTX_METHOD = 'ooxml-pptx@1';

export type SlideBlockRole = 'title' | 'text' | 'cell' | 'notes';

export interface SlideBlock {
  role: SlideBlockRole;
  text: string;
  cell?: TableCellLocator;
}

export interface Slide {
  /** 1-based, in presentation order. */
  number: number;
  title: string | null;
  hidden: boolean;
  blocks: SlideBlock[];
}

export interface Deck {
  slides: Slide[];
  /** Slides whose part could not be read: the others were. */
  unreadable: { slide: number; reason: string }[];
}

interface Shape {
  title: boolean;
  /** A placeholder's "type:idx", to find its place on the layout when the slide gives none. */
  ph: string | null;
  x: number | null;
  y: number | null;
  paragraphs: string[];
  /** A table: its rows of cells as written, and whether its style marks a header row or column. */
  table?: { rows: TableCellText[][]; firstRow: boolean; firstCol: boolean };
  order: number;
}

interface TableCellText {
  text: string;
  span: number;
  /** Covered by a neighbour's span (hMerge): holds nothing and takes no column of its own. */
  merged: boolean;
}

const TITLE_TYPES = new Set(['title', 'ctrTitle']);
/** Placeholders that repeat slide furniture, not content. */
const FURNITURE_TYPES = new Set(['sldNum', 'dt', 'ftr', 'hdr', 'sldImg']);

/** A paragraph's text: runs as written, line breaks (<a:br>, vertical tab) as newlines. */
const cleanText = (t: string): string => t.replace(/\v/g, '\n');

/**
 * The shapes of a slide (or notes) part, in document order, with their placeholder type, position
 * and text; group shapes contribute their children; tables come with one entry per cell.
 */
function readShapes(xml: string): Shape[] {
  const shapes: Shape[] = [];
  const stack: string[] = [];
  let shape: (Shape & { skip: boolean; depth: number }) | null = null;
  let paragraph: string | null = null;
  let inText = false;
  let cell: (TableCellText & { texts: string[] }) | null = null;

  walkXml(xml, {
    open(name, a) {
      stack.push(name);
      if ((name === 'sp' || name === 'graphicFrame') && !shape) {
        shape = { title: false, ph: null, x: null, y: null, paragraphs: [], order: shapes.length, skip: false, depth: stack.length };
        return;
      }
      if (!shape) return;
      if (name === 'ph') {
        const type = a['type'] ?? 'body';
        shape.ph = `${type}:${a['idx'] ?? ''}`;
        if (TITLE_TYPES.has(type)) shape.title = true;
        if (FURNITURE_TYPES.has(type)) shape.skip = true;
      } else if (name === 'off' && stack[stack.length - 2] === 'xfrm' && shape.x === null) {
        shape.x = Number(a['x'] ?? 0);
        shape.y = Number(a['y'] ?? 0);
      } else if (name === 'tbl' && !shape.table) {
        shape.table = { rows: [], firstRow: false, firstCol: false };
      } else if (name === 'tblPr' && shape.table) {
        shape.table.firstRow = a['firstRow'] === '1' || a['firstRow'] === 'true';
        shape.table.firstCol = a['firstCol'] === '1' || a['firstCol'] === 'true';
      } else if (name === 'tr' && shape.table) {
        shape.table.rows.push([]);
      } else if (name === 'tc' && shape.table) {
        const span = Number.parseInt(a['gridSpan'] ?? '1', 10);
        cell = { text: '', texts: [], span: Number.isFinite(span) && span > 0 ? span : 1, merged: a['hMerge'] === '1' || a['hMerge'] === 'true' };
      } else if (name === 'p' && stack[stack.length - 2] === 'txBody') {
        paragraph = '';
      } else if (name === 't' && paragraph !== null) {
        inText = true;
      } else if (name === 'br' && paragraph !== null) {
        paragraph += '\n';
      }
    },
    text(t) {
      if (inText && paragraph !== null) paragraph += t;
    },
    close(name) {
      stack.pop();
      if (!shape) return;
      if (name === 't') inText = false;
      else if (name === 'p' && paragraph !== null && stack[stack.length - 1] === 'txBody') {
        const text = cleanText(paragraph);
        if (cell) cell.texts.push(text);
        else shape.paragraphs.push(text);
        paragraph = null;
      } else if (name === 'tc' && cell) {
        shape.table?.rows[shape.table.rows.length - 1]?.push({ text: joinParagraphs(cell.texts), span: cell.span, merged: cell.merged });
        cell = null;
      } else if ((name === 'sp' || name === 'graphicFrame') && stack.length < shape.depth) {
        if (!shape.skip && (shape.paragraphs.some((p) => p.trim()) || shape.table?.rows.some((r) => r.some((c) => c.text)))) shapes.push(shape);
        shape = null;
      }
    },
  });
  return shapes;
}

/** A shape's paragraphs as one block: empty ones at either end dropped, white space at its ends trimmed. */
function joinParagraphs(paragraphs: readonly string[]): string {
  return paragraphs.join('\n').replace(/^\s+|\s+$/g, '');
}

/** Reading order: titles first, then top to bottom and left to right; shapes with no place keep theirs. */
function readingOrder(shapes: Shape[], layout: Map<string, { x: number; y: number }>): Shape[] {
  for (const s of shapes) {
    const placed = s.y === null && s.ph !== null ? layout.get(s.ph) : undefined;
    if (placed) Object.assign(s, placed);
  }
  const rank = (s: Shape): number => (s.title ? 0 : 1);
  return [...shapes].sort((a, b) => {
    if (rank(a) !== rank(b)) return rank(a) - rank(b);
    if (a.y === null || b.y === null) return a.order - b.order;
    // Shapes whose tops are within ~0.1 inch share a line: left to right.
    if (Math.abs(a.y - b.y) > 91440) return a.y - b.y;
    return (a.x ?? 0) - (b.x ?? 0) || a.order - b.order;
  });
}

/** Placeholder positions from the slide's layout, for placeholders the slide does not place itself. */
function placeholderPositions(xml: string | null): Map<string, { x: number; y: number }> {
  const out = new Map<string, { x: number; y: number }>();
  if (xml === null) return out;
  let key: string | null = null;
  let depth = 0;
  const stack: string[] = [];
  walkXml(xml, {
    open(name, a) {
      stack.push(name);
      if (name === 'sp') {
        key = null;
        depth = stack.length;
      } else if (name === 'ph') key = `${a['type'] ?? 'body'}:${a['idx'] ?? ''}`;
      else if (name === 'off' && key !== null && stack[stack.length - 2] === 'xfrm' && !out.has(key)) out.set(key, { x: Number(a['x'] ?? 0), y: Number(a['y'] ?? 0) });
    },
    close(name) {
      stack.pop();
      if (name === 'sp' && stack.length < depth) key = null;
    },
  });
  return out;
}

/**
 * A table's cells fed to the tracker that names rows and columns (table-cells.ts). Its header row is
 * the first row when the table style says so, or, when the style says nothing of headers, when no
 * cell of the first row states a number (generators other than PowerPoint rarely set the flag).
 */
function feedTable(tracker: TableTracker, table: NonNullable<Shape['table']>): { text: string; place: CellPlace }[] {
  const first = table.rows[0] ?? [];
  const headed = table.firstRow || (!table.firstCol && table.rows.length > 1 && first.every((c) => c.merged || statedNumber(c.text) === null));
  const out: { text: string; place: CellPlace }[] = [];
  tracker.open('table', {});
  table.rows.forEach((row, r) => {
    tracker.open('tr', {});
    let col = 0;
    for (const c of row) {
      if (c.merged) continue;
      col++;
      const header = (headed && r === 0) || (table.firstCol && col === 1);
      tracker.open(header ? 'th' : 'td', { colspan: String(c.span) });
      const place = tracker.current();
      if (place && c.text) {
        tracker.addText(place, c.text);
        out.push({ text: c.text, place });
      }
      tracker.close('td');
    }
  });
  tracker.close('table');
  return out;
}

/** The slide's blocks: the shapes in reading order, each table's cells in row order. */
function slideBlocks(xml: string, layoutXml: string | null): { blocks: SlideBlock[]; title: string | null; hidden: boolean } {
  const tracker = new TableTracker();
  const shapes = readingOrder(readShapes(xml), placeholderPositions(layoutXml));
  // Every table is fed before any cell is named: the tracker finds header rows once, for all tables.
  const tables = new Map(shapes.flatMap((s) => (s.table ? [[s, feedTable(tracker, s.table)] as const] : [])));
  const blocks: SlideBlock[] = [];
  let title: string | null = null;
  for (const s of shapes) {
    const cells = tables.get(s);
    if (cells) {
      for (const c of cells) blocks.push({ role: 'cell', text: c.text, cell: tracker.locator(c.place) });
      continue;
    }
    const text = joinParagraphs(s.paragraphs);
    if (!text) continue;
    if (s.title && title === null) title = text.replace(/\s+/g, ' ');
    blocks.push({ role: s.title ? 'title' : 'text', text });
  }
  const hidden = /<p:sld\b[^>]*\sshow="(?:0|false)"/.test(xml.slice(0, 2000));
  return { blocks, title, hidden };
}

/** The speaker notes of a slide: the text of its notes part's body placeholders. */
function notesText(xml: string): string {
  return readShapes(xml)
    .map((s) => joinParagraphs(s.paragraphs))
    .filter(Boolean)
    .join('\n');
}

const NOTES_REL = /\/notesSlide$/;
const LAYOUT_REL = /\/slideLayout$/;
const SLIDE_REL = /\/slide$/;

/** Reads the deck: each slide listed in presentation.xml, in its order. */
export function readDeck(pkg: OoxmlPackage, signal?: AbortSignal): Deck {
  const main = pkg.mainPart('ppt/presentation.xml', /presentationml|ms-powerpoint/);
  const rels = pkg.relationships(main);
  const order: string[] = [];
  walkXml(pkg.xml(main) ?? '', {
    open(name, a) {
      if (name !== 'sldId') return;
      const id = relId(a);
      const rel = id ? rels.get(id) : undefined;
      if (rel && SLIDE_REL.test(rel.type) && !rel.external) order.push(rel.target);
    },
  });
  const slides: Slide[] = [];
  const unreadable: Deck['unreadable'] = [];
  order.forEach((part, i) => {
    throwIfAborted(signal, pkg.fileName);
    const number = i + 1;
    try {
      const xml = pkg.xml(part);
      if (xml === null) throw new Error(`its part ${part} is missing`);
      const slideRels = [...pkg.relationships(part).values()].filter((r) => !r.external);
      const layoutRel = slideRels.find((r) => LAYOUT_REL.test(r.type));
      const { blocks, title, hidden } = slideBlocks(xml, layoutRel ? pkg.xml(layoutRel.target) : null);
      const notesRel = slideRels.find((r) => NOTES_REL.test(r.type));
      const notesXml = notesRel ? pkg.xml(notesRel.target) : null;
      const notes = notesXml ? notesText(notesXml) : '';
      if (notes) blocks.push({ role: 'notes', text: notes });
      slides.push({ number, title, hidden, blocks });
    } catch (e) {
      if (refusesFile(e)) throw e;
      unreadable.push({ slide: number, reason: e instanceof Error ? e.message : String(e) });
      slides.push({ number, title: null, hidden: false, blocks: [] });
    }
  });
  return { slides, unreadable };
}

/** The deck's blocks in stored order: the block index of each is its position here. */
export function deckSegments(deck: Deck): ExtractedSegment[] {
  const out: ExtractedSegment[] = [];
  for (const slide of deck.slides) {
    for (const b of slide.blocks) {
      out.push({
        text: b.text,
        paragraph: out.length,
        slide: slide.number,
        headingPath: slide.title ? [slide.title] : [],
        blockType: b.role === 'title' ? 'heading' : b.role === 'cell' ? 'table_cell' : 'paragraph',
        ...(b.role === 'notes' ? { notes: true } : {}),
        ...(b.cell ? { cell: b.cell } : {}),
      });
    }
  }
  return out;
}

/** What the viewer shows of a deck: each slide's outline, numbered as the stored blocks are. */
export function pptxView(bytes: Uint8Array, fileName: string): SlideOutline[] {
  const deck = readDeck(new OoxmlPackage(bytes, fileName, PPTX));
  let paragraph = 0;
  return deck.slides.map((s) => ({
    number: s.number,
    title: s.title,
    hidden: s.hidden,
    blocks: s.blocks.map((b) => ({ paragraph: paragraph++, role: b.role, text: b.text, ...(b.cell ? { cell: b.cell } : {}) })),
  }));
}

export function createPptxExtractor(limits?: ZipLimits): Extractor {
  return async (stored, ctx) => {
    throwIfAborted(ctx.signal, ctx.fileName);
    // A protected file is read through its decrypted package (with the ingest's password).
    const bytes = await decryptedPackage(stored, ctx.fileName, PPTX, ctx.password);
    const pkg = new OoxmlPackage(bytes, ctx.fileName, PPTX, limits);
    const deck = readDeck(pkg, ctx.signal);
    const segments = deckSegments(deck);
    const warnings: Warning[] = deck.unreadable.map((u) => ({
      code: 'OFFICE_PART_UNREADABLE',
      message: `"${ctx.fileName}": slide ${u.slide} could not be read (${u.reason}); the other slides were.`,
    }));
    if (segments.length === 0) {
      warnings.push({ code: 'FILE_EMPTY', message: `"${ctx.fileName}" contains no text (pictures only?); nothing in it can be cited.` });
    }
    const core = pkg.core();
    return {
      kind: 'pptx',
      method: PPTX_METHOD,
      title: core.title ?? deck.slides.find((s) => s.title)?.title ?? null,
      ...(hasProperties(core.properties) ? { properties: core.properties } : {}),
      pageCount: deck.slides.length,
      segments,
      warnings,
    };
  };
}

export const extractPptx: Extractor = createPptxExtractor();
