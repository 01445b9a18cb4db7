import type { DocumentProperties } from '../../../shared/domain/document-properties.ts';
import type { SourceKind, TableCellLocator, Warning } from '../../../shared/contract/schemas.ts';

/** One stored unit of text: a PDF page, a DOCX/HTML block, or a run of text lines. */
export interface ExtractedSegment {
  text: string;
  page?: number;
  pageLabel?: string;
  /** Block index (0-based) for DOCX and HTML, in document order. */
  paragraph?: number;
  headingPath?: string[];
  /** First and last line (1-based) for text and Markdown. */
  line?: number;
  lineEnd?: number;
  /** PDF: start offset in `text` of each pdf.js text item, in getTextContent order. */
  itemStarts?: number[];
  /** PDF page with a text layer: its text items' geometry (text-geometry.ts), stored for the export's excerpts. */
  textItems?: Float64Array;
  /** PDF: the page has no text layer (scan) – recorded, never silently empty. */
  noTextLayer?: boolean;
  /** PDF: the page's text was recognised by OCR; one box per item (shared/ocr/ocr-text.ts). */
  ocr?: { method: string; confidence: number | null; boxes: [number, number, number, number][] };
  blockType?: 'page' | 'paragraph' | 'heading' | 'list_item' | 'table_cell' | 'footnote' | 'lines';
  /** DOCX/HTML: the table cell the block is in. PowerPoint: a table cell; Excel: the cell (table = sheet number). */
  cell?: TableCellLocator;
  /** PowerPoint: the slide (1-based) and whether the block is its speaker notes. */
  slide?: number;
  notes?: boolean;
  /** Excel: the sheet's name and the cell's A1 address. */
  sheet?: string;
  address?: string;
  /** Excel: the formula whose cached value `text` is. */
  formula?: string;
}

export interface ExtractedDocument {
  kind: SourceKind;
  /** Extraction method and version, e.g. `pdfjs-text@6.3.289`, `mammoth@1.13.0`. */
  method: string;
  title: string | null;
  /** Authors and date from the file's own properties, when it has any (the bibliography's input). */
  properties?: DocumentProperties;
  pageCount: number | null;
  segments: ExtractedSegment[];
  warnings: Warning[];
}

export interface ExtractContext {
  fileName: string;
  password?: string;
  /** After each page; with stage 'ocr' before a page is recognised by OCR (slow: seconds a page). */
  onProgress?: (page: number, pageCount: number, stage?: 'ocr') => void;
  signal?: AbortSignal;
  /** HTML from the web: extract the article (Readability), not the whole page. */
  reader?: boolean;
}

/** An extractor turns a file's bytes into segments or throws an AppError with a precise code. */
export type Extractor = (bytes: Uint8Array, ctx: ExtractContext) => Promise<ExtractedDocument>;
