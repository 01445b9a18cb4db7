// Table cells as locators (issue 11): while the HTML walker reads a document, this tracks which
// table, row and column each block sits in; afterwards it names rows and columns by their header
// cells. Shared by HTML and DOCX (mammoth's HTML), so both cite "table 1, row REVENUE, column FY2024".
import type { TableCellLocator } from '../../../../shared/contract/schemas.ts';

/** Where a cell is, before its labels are known. */
export interface CellPlace {
  table: number;
  row: number;
  col: number;
}

interface OpenTable {
  index: number;
  row: number;
  nextCol: number;
  inHead: boolean;
}

interface CellInfo {
  header: boolean;
  inHead: boolean;
  texts: string[];
}

/** A header label is a short line of text; a long cell is content, not a label. */
const MAX_LABEL = 80;

const key = (c: CellPlace): string => `${c.table}:${c.row}:${c.col}`;

export class TableTracker {
  private count = 0;
  private readonly tables: OpenTable[] = [];
  private readonly cells: CellPlace[] = [];
  private readonly info = new Map<string, CellInfo>();

  /** Call for every element opened outside skipped content; returns true when it opened something to close. */
  open(name: string, attribs: Readonly<Record<string, string>>): boolean {
    const table = this.tables[this.tables.length - 1];
    switch (name) {
      case 'table':
        this.tables.push({ index: ++this.count, row: 0, nextCol: 1, inHead: false });
        return true;
      case 'thead':
        if (table) table.inHead = true;
        return true;
      case 'tr':
        if (!table) return false;
        table.row++;
        table.nextCol = 1;
        return false;
      case 'td':
      case 'th': {
        if (!table) return false;
        if (table.row === 0) table.row = 1; // a cell with no <tr> around it
        const place = { table: table.index, row: table.row, col: table.nextCol };
        const span = Number.parseInt(attribs['colspan'] ?? '1', 10);
        table.nextCol += Number.isFinite(span) && span > 0 ? Math.min(span, 1000) : 1;
        this.cells.push(place);
        this.info.set(key(place), { header: name === 'th', inHead: table.inHead, texts: [] });
        return true;
      }
      default:
        return false;
    }
  }

  /** Call when an element for which `open` returned true closes. */
  close(name: string): void {
    if (name === 'table') this.tables.pop();
    else if (name === 'thead') {
      const table = this.tables[this.tables.length - 1];
      if (table) table.inHead = false;
    } else if (name === 'td' || name === 'th') this.cells.pop();
  }

  /** The innermost open cell (a block opened now belongs to it), or null. */
  current(): CellPlace | null {
    return this.cells[this.cells.length - 1] ?? null;
  }

  /** Records a block's text as part of its cell (a cell may hold several paragraphs). */
  addText(place: CellPlace, text: string): void {
    this.info.get(key(place))?.texts.push(text);
  }

  private text(table: number, row: number, col: number): string | undefined {
    const t = this.info.get(`${table}:${row}:${col}`)?.texts.join(' ').replace(/\s+/g, ' ').trim();
    return t && t.length <= MAX_LABEL ? t : undefined;
  }

  /** Each table's header row, found once for all its cells (a table may have many thousands). */
  private headerRows: Map<number, number> | null = null;

  /** The header row of a table: the first row in <thead> or made only of <th> cells. */
  private headerRow(table: number): number | null {
    if (!this.headerRows) {
      // Per table and row: whether every cell is a header cell.
      const allHeader = new Map<string, boolean>();
      for (const [k, v] of this.info) {
        const row = k.slice(0, k.lastIndexOf(':'));
        allHeader.set(row, (allHeader.get(row) ?? true) && (v.inHead || v.header));
      }
      this.headerRows = new Map();
      for (const [row, headed] of allHeader) {
        if (!headed) continue;
        const [t, r] = row.split(':').map(Number);
        if (t === undefined || r === undefined) continue;
        const known = this.headerRows.get(t);
        if (known === undefined || r < known) this.headerRows.set(t, r);
      }
    }
    return this.headerRows.get(table) ?? null;
  }

  /**
   * The cell's locator with labels: its column is named by the header row's cell above it; its row
   * by a <th> at the row's start, or, in a table with a header row, by the row's first cell (the
   * first column of such a table names its rows). Without headers, numbers only.
   */
  locator(place: CellPlace): TableCellLocator {
    const out: TableCellLocator = { ...place };
    const headerRow = this.headerRow(place.table);
    if (headerRow !== null && place.row > headerRow) {
      const colLabel = this.text(place.table, headerRow, place.col);
      if (colLabel) out.colLabel = colLabel;
    }
    if (place.col > 1) {
      const first = this.info.get(`${place.table}:${place.row}:1`);
      const rowHeaded = first?.header === true || headerRow !== null;
      const rowLabel = rowHeaded && place.row !== headerRow ? this.text(place.table, place.row, 1) : undefined;
      if (rowLabel) out.rowLabel = rowLabel;
    }
    return out;
  }
}
