// Excel (.xlsx, .xlsm; issue 14): per sheet, one block per non-empty cell, its text the value as
// Excel shows it (the cached value of a formula, formatted by the cell's number format through
// numfmt), with its A1 address and the labels of its header row and column. The formula itself is
// kept beside the value. A sheet that cannot be read costs that sheet, with a warning, never the
// workbook. Nothing is calculated and no macro is read: cached values are what Excel last saved.
import type { Warning } from '../../../../shared/contract/schemas.ts';
import type { SheetCell, SheetGrid } from '../../../../shared/contract/content-schemas.ts';
import { columnName } from '../../../../shared/domain/sheet-cells.ts';
import { hasProperties } from '../../../../shared/domain/document-properties.ts';
import type { ExtractedSegment, Extractor } from '../extracted.ts';
import { OoxmlPackage, refusesFile, relId, throwIfAborted, walkXml } from './ooxml-package.ts';
import type { PackageKind, ZipLimits } from './ooxml-zip.ts';
import { decryptedPackage } from './ooxml-decrypt.ts';
import { display, readStyles, type Styles } from './xlsx-number-formats.ts';

export const XLSX: PackageKind = {
  label: 'Excel workbook (.xlsx)',
  article: 'an',
  invalidCode: 'OFFICE_INVALID',
  bombCode: 'OFFICE_ZIP_BOMB',
  resave: 'Open it in Excel or LibreOffice Calc, save it as .xlsx, and ingest it again.',
  legacy: 'an Excel 97–2003 .xls; save it as .xlsx',
  app: 'Excel',
};

/**
 * numfmt's version, written out: its package.json points require() at a file it does not ship, so
 * packageVersion cannot find it (a test checks this against package.json).
 */
export const NUMFMT_VERSION = '4.0.1';
export const XLSX_METHOD = `ooxml-xlsx@1+numfmt@${NUMFMT_VERSION}`;

/** Cells read per workbook at most: beyond it a sheet's text is cut, with a warning. */
export const MAX_CELLS = 500_000;

export interface Workbook {
  sheets: SheetGrid[];
  unreadable: { sheet: string; reason: string }[];
  /** Cells left out past MAX_CELLS. */
  cut: number;
}

/** Excel escapes characters XML cannot hold as _xHHHH_ in strings. */
const unescapeExcel = (t: string): string => t.replace(/_x([0-9A-Fa-f]{4})_/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));

function readSharedStrings(xml: string | null): string[] {
  const out: string[] = [];
  if (xml === null) return out;
  let current: string | null = null;
  let inText = false;
  let phonetic = 0;
  walkXml(xml, {
    open(name) {
      if (name === 'si') current = '';
      else if (name === 'rPh') phonetic++;
      else if (name === 't' && phonetic === 0) inText = true;
    },
    text(t) {
      if (inText && current !== null) current += t;
    },
    close(name) {
      if (name === 't') inText = false;
      else if (name === 'rPh') phonetic--;
      else if (name === 'si' && current !== null) {
        out.push(unescapeExcel(current));
        current = null;
      }
    },
  });
  return out;
}

/** "B12" → { row: 12, col: 2 }; null for anything else. */
export function parseAddress(ref: string): { row: number; col: number } | null {
  const m = /^\$?([A-Z]{1,3})\$?(\d{1,7})$/i.exec(ref);
  if (!m) return null;
  let col = 0;
  for (const ch of (m[1] ?? '').toUpperCase()) col = col * 26 + (ch.charCodeAt(0) - 64);
  return { row: Number(m[2]), col };
}

interface RawCell {
  row: number;
  col: number;
  text: string;
  formula?: string;
  isText: boolean;
}

/** The cells of one worksheet part, with their displayed text. */
function readSheetCells(xml: string, strings: readonly string[], styles: Styles, date1904: boolean, budget: number): { cells: RawCell[]; cut: number } {
  const cells: RawCell[] = [];
  let cut = 0;
  let row = 0;
  let col = 0;
  let cell: { row: number; col: number; type: string; style: number; v: string; f: string; inline: string; hasF: boolean; sharedOf: string | null } | null = null;
  let into: 'v' | 'f' | 'inline' | null = null;
  let phonetic = 0;
  const sharedFormulas = new Map<string, string>();
  walkXml(xml, {
    open(name, a) {
      if (name === 'row') {
        row = a['r'] ? Number(a['r']) : row + 1;
        col = 0;
      } else if (name === 'c') {
        const at = a['r'] ? parseAddress(a['r']) : null;
        if (at) row = at.row;
        col = at ? at.col : col + 1;
        cell = { row, col, type: a['t'] ?? 'n', style: Number(a['s'] ?? 0), v: '', f: '', inline: '', hasF: false, sharedOf: null };
      } else if (!cell) {
        return;
      } else if (name === 'v') into = 'v';
      else if (name === 'f') {
        into = 'f';
        cell.hasF = true;
        if (a['t'] === 'shared' && a['si'] !== undefined) cell.sharedOf = a['si'];
      } else if (name === 'rPh') phonetic++;
      else if (name === 't' && phonetic === 0 && cell.type === 'inlineStr') into = 'inline';
    },
    text(t) {
      if (!cell || !into) return;
      cell[into] += t;
    },
    close(name) {
      if (name === 'v' || name === 'f' || name === 't') into = null;
      else if (name === 'rPh') phonetic--;
      else if (name === 'c' && cell) {
        const c = cell;
        cell = null;
        let formula: string | undefined;
        if (c.hasF) {
          if (c.f) {
            formula = `=${c.f}`;
            if (c.sharedOf !== null) sharedFormulas.set(c.sharedOf, formula);
          } else if (c.sharedOf !== null && sharedFormulas.has(c.sharedOf)) {
            // Shared formulas are written once, relative to their first cell: say so rather than misquote.
            formula = `${sharedFormulas.get(c.sharedOf)} (shared, as written for its first cell)`;
          }
        }
        let text: string;
        let isText = false;
        switch (c.type) {
          case 's':
            text = strings[Number(c.v)] ?? '';
            isText = true;
            break;
          case 'inlineStr':
            text = unescapeExcel(c.inline);
            isText = true;
            break;
          case 'str':
            text = unescapeExcel(c.v);
            isText = true;
            break;
          case 'b':
            text = c.v === '1' ? 'TRUE' : c.v === '0' ? 'FALSE' : c.v;
            break;
          case 'e':
          case 'd':
            text = c.v;
            break;
          default: {
            const n = Number(c.v);
            text = c.v.trim() === '' || !Number.isFinite(n) ? c.v : display(n, styles.formats[c.style] ?? 'General', date1904);
          }
        }
        text = text.replace(/\r\n?/g, '\n');
        if (text.trim() === '') return;
        if (cells.length >= budget) {
          cut++;
          return;
        }
        cells.push({ row: c.row, col: c.col, text, isText, ...(formula ? { formula } : {}) });
      }
    },
  });
  return { cells, cut };
}

/** A label is a short line of text. */
const MAX_LABEL = 80;
const labelOf = (c: RawCell | undefined): string | undefined => (c && c.isText && c.text.length <= MAX_LABEL && !c.text.includes('\n') ? c.text.trim() : undefined);

/**
 * Header labels: the sheet's first row names the columns below it when every cell in it is text;
 * the first column names the rows when its cells are text.
 */
function labelled(name: string, index: number, raw: RawCell[], firstBlock: number): SheetGrid {
  const byPlace = new Map(raw.map((c) => [`${c.row}:${c.col}`, c]));
  const firstRow = raw.reduce((m, c) => Math.min(m, c.row), Infinity);
  const firstCol = raw.reduce((m, c) => Math.min(m, c.col), Infinity);
  const top = raw.filter((c) => c.row === firstRow);
  const headerRow = top.length > 0 && top.every((c) => c.isText) && raw.some((c) => c.row > firstRow) ? firstRow : null;
  const cells: SheetCell[] = raw.map((c, i) => {
    const out: SheetCell = { paragraph: firstBlock + i, address: `${columnName(c.col)}${c.row}`, row: c.row, col: c.col, text: c.text };
    if (c.formula) out.formula = c.formula;
    if (headerRow !== null && c.row > headerRow) {
      const label = labelOf(byPlace.get(`${headerRow}:${c.col}`));
      if (label) out.colLabel = label;
    }
    if (c.col > firstCol && c.row !== headerRow) {
      const label = labelOf(byPlace.get(`${c.row}:${firstCol}`));
      if (label) out.rowLabel = label;
    }
    return out;
  });
  const rows = raw.reduce((m, c) => Math.max(m, c.row), 0);
  const cols = raw.reduce((m, c) => Math.max(m, c.col), 0);
  return { name, index, rows, cols, headerRow, cells };
}

const SHEET_REL = /\/worksheet$/;
const STRINGS_REL = /\/sharedStrings$/;
const STYLES_REL = /\/styles$/;

/** Reads the workbook: its worksheets in tab order (chart sheets hold no cells and are skipped). */
export function readWorkbook(pkg: OoxmlPackage, signal?: AbortSignal): Workbook {
  const main = pkg.mainPart('xl/workbook.xml', /spreadsheetml|ms-excel/);
  const rels = pkg.relationships(main);
  const listed: { name: string; part: string | null }[] = [];
  let date1904 = false;
  walkXml(pkg.xml(main) ?? '', {
    open(name, a) {
      if (name === 'workbookPr') date1904 = a['date1904'] === '1' || a['date1904'] === 'true';
      if (name !== 'sheet') return;
      const id = relId(a);
      const rel = id ? rels.get(id) : undefined;
      if (rel && !SHEET_REL.test(rel.type)) return; // a chart sheet or dialog sheet
      listed.push({ name: a['name'] ?? `Sheet${listed.length + 1}`, part: rel && !rel.external ? rel.target : null });
    },
  });
  const relOf = (re: RegExp): string | null => [...rels.values()].find((r) => re.test(r.type) && !r.external)?.target ?? null;
  const unreadable: Workbook['unreadable'] = [];
  // Shared strings and styles serve every sheet: damaged, they cost the strings or formats, not the cells.
  const shared = <T>(part: string | null, read: (xml: string | null) => T, what: string): T => {
    try {
      return read(part ? pkg.xml(part) : null);
    } catch (e) {
      if (refusesFile(e)) throw e;
      unreadable.push({ sheet: what, reason: e instanceof Error ? e.message : String(e) });
      return read(null);
    }
  };
  const strings = shared(relOf(STRINGS_REL) ?? 'xl/sharedStrings.xml', readSharedStrings, '(shared strings)');
  const styles = shared(relOf(STYLES_REL) ?? 'xl/styles.xml', readStyles, '(number formats)');
  const sheets: SheetGrid[] = [];
  let cut = 0;
  let read = 0;
  listed.forEach((s, i) => {
    throwIfAborted(signal, pkg.fileName);
    try {
      const xml = s.part ? pkg.xml(s.part) : null;
      if (xml === null) throw new Error(`its part ${s.part ?? '(no relationship)'} is missing`);
      const result = readSheetCells(xml, strings, styles, date1904, MAX_CELLS - read);
      sheets.push(labelled(s.name, i + 1, result.cells, read));
      read += result.cells.length;
      cut += result.cut;
    } catch (e) {
      if (refusesFile(e)) throw e;
      unreadable.push({ sheet: s.name, reason: e instanceof Error ? e.message : String(e) });
      sheets.push({ name: s.name, index: i + 1, rows: 0, cols: 0, headerRow: null, cells: [], unreadable: true });
    }
  });
  return { sheets, unreadable, cut };
}

/** The workbook's cells in stored order (sheet by sheet, row by row): the block index of each is its position here. */
export function workbookSegments(book: Workbook): ExtractedSegment[] {
  const out: ExtractedSegment[] = [];
  for (const sheet of book.sheets) {
    for (const c of sheet.cells) {
      out.push({
        text: c.text,
        paragraph: c.paragraph,
        sheet: sheet.name,
        address: c.address,
        headingPath: [sheet.name],
        blockType: 'table_cell',
        cell: { table: sheet.index, row: c.row, col: c.col, ...(c.rowLabel ? { rowLabel: c.rowLabel } : {}), ...(c.colLabel ? { colLabel: c.colLabel } : {}) },
        ...(c.formula ? { formula: c.formula } : {}),
      });
    }
  }
  return out;
}

/** What the viewer shows of a workbook: its sheets' filled cells, numbered as the stored blocks are. */
export function xlsxView(bytes: Uint8Array, fileName: string): SheetGrid[] {
  return readWorkbook(new OoxmlPackage(bytes, fileName, XLSX)).sheets;
}

export function createXlsxExtractor(limits?: ZipLimits): Extractor {
  return async (stored, ctx) => {
    throwIfAborted(ctx.signal, ctx.fileName);
    // A protected file is read through its decrypted package (with the ingest's password).
    const bytes = await decryptedPackage(stored, ctx.fileName, XLSX, ctx.password);
    const pkg = new OoxmlPackage(bytes, ctx.fileName, XLSX, limits);
    const book = readWorkbook(pkg, ctx.signal);
    const segments = workbookSegments(book);
    const warnings: Warning[] = book.unreadable.map((u) => ({
      code: 'OFFICE_PART_UNREADABLE',
      message: u.sheet.startsWith('(')
        ? `"${ctx.fileName}": the workbook's ${u.sheet.slice(1, -1)} could not be read (${u.reason}); cells may show raw values.`
        : `"${ctx.fileName}": sheet "${u.sheet}" could not be read (${u.reason}); the other sheets were.`,
    }));
    if (book.cut > 0) {
      warnings.push({
        code: 'FILE_TOO_LARGE',
        message: `"${ctx.fileName}" has more than ${MAX_CELLS.toLocaleString('en')} filled cells: ${book.cut.toLocaleString('en')} were left out of the text.`,
      });
    }
    if (segments.length === 0 && book.unreadable.length === 0) {
      warnings.push({ code: 'FILE_EMPTY', message: `"${ctx.fileName}" has no filled cells; nothing in it can be cited.` });
    }
    const core = pkg.core();
    return {
      kind: 'xlsx',
      method: XLSX_METHOD,
      title: core.title,
      ...(hasProperties(core.properties) ? { properties: core.properties } : {}),
      pageCount: null,
      segments,
      warnings,
    };
  };
}

export const extractXlsx: Extractor = createXlsxExtractor();
