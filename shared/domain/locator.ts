import type { Locator, TableCellLocator } from '../contract/schemas.ts';

/**
 * A locator as people read it: "p. 12", "¶ 4 · §Leave policy", "lines 10–12", "slide 2 · table 1,
 * row REVENUE, column FY2024", "slide 3 notes", "sheet Revenue · B3 (row North, column FY2024)".
 */
export function formatLocator(loc: Partial<Locator>): string {
  if (loc.slide !== undefined || loc.sheet !== undefined) return officeText(loc);
  const parts: string[] = [];
  if (loc.page !== undefined) {
    parts.push(loc.pageLabel && loc.pageLabel !== String(loc.page) ? `p. ${loc.pageLabel} (${loc.page})` : `p. ${loc.page}`);
  }
  if (loc.paragraph !== undefined) parts.push(`¶ ${loc.paragraph}`);
  if (loc.headingPath && loc.headingPath.length > 0) parts.push(`§${loc.headingPath[loc.headingPath.length - 1]}`);
  if (loc.cell) parts.push(cellText(loc.cell));
  if (loc.line !== undefined) {
    parts.push(loc.lineEnd !== undefined && loc.lineEnd !== loc.line ? `lines ${loc.line}–${loc.lineEnd}` : `line ${loc.line}`);
  }
  return parts.join(' · ');
}

/** PowerPoint and Excel places: the block index is the store's, so it is not shown. */
function officeText(loc: Partial<Locator>): string {
  const parts: string[] = [];
  if (loc.slide !== undefined) parts.push(loc.notes ? `slide ${loc.slide} notes` : `slide ${loc.slide}`);
  if (loc.sheet !== undefined) {
    parts.push(`sheet ${loc.sheet}`);
    const labels = [loc.cell?.rowLabel ? `row ${loc.cell.rowLabel}` : '', loc.cell?.colLabel ? `column ${loc.cell.colLabel}` : ''].filter(Boolean).join(', ');
    if (loc.address) parts.push(labels ? `${loc.address} (${labels})` : loc.address);
  } else if (loc.cell) {
    parts.push(cellText(loc.cell));
  }
  return parts.join(' · ');
}

/** A table cell as people read it: "table 1, row REVENUE, column FY2024" (numbers where there are no headers). */
export function cellText(cell: TableCellLocator): string {
  const row = cell.rowLabel ? `row ${cell.rowLabel}` : `row ${cell.row}`;
  const col = cell.colLabel ? `column ${cell.colLabel}` : `column ${cell.col}`;
  return `table ${cell.table}, ${row}, ${col}`;
}
