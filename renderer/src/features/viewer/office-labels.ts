// Blocks of PowerPoint and Excel sources named as analysts name them ("slide 2 · table 1, row North,
// column FY2024", "sheet Revenue · C2"), not by the store's block number.
import type { SourceContent } from '../../../../shared/contract/content-schemas.ts';
import { formatLocator } from '../../../../shared/domain/locator.ts';

/** Per block number, its place in words; empty for other kinds of source. */
export function officeBlockLabels(content: SourceContent | null): ReadonlyMap<number, string> {
  const out = new Map<number, string>();
  if (content?.view === 'slides') {
    for (const s of content.slides) {
      for (const b of s.blocks) out.set(b.paragraph, formatLocator({ slide: s.number, ...(b.role === 'notes' ? { notes: true } : {}), ...(b.cell ? { cell: b.cell } : {}) }));
    }
  } else if (content?.view === 'grid') {
    for (const s of content.sheets) {
      for (const c of s.cells) {
        const cell = { table: s.index, row: c.row, col: c.col, ...(c.rowLabel ? { rowLabel: c.rowLabel } : {}), ...(c.colLabel ? { colLabel: c.colLabel } : {}) };
        out.set(c.paragraph, formatLocator({ sheet: s.name, address: c.address, cell }));
      }
    }
  }
  return out;
}

/**
 * "Go to" in a deck or workbook: "slide 3" (or "3") is that slide's first block; "C4" a cell of the
 * first sheet that has it filled, "Notes!B3" (or "'Q1 2024'!B3") a cell of that sheet. A block number
 * for anything else, or null when the entry names nothing there.
 */
export function officeGoTo(content: SourceContent, entry: string): { at: number } | { error: string } | null {
  const text = entry.trim();
  if (content.view === 'slides') {
    const m = /^(?:slide\s*)?(\d+)$/i.exec(text);
    if (!m) return { error: 'Type a slide number, e.g. 3 or slide 3' };
    const slide = content.slides.find((s) => s.number === Number(m[1]));
    const first = slide?.blocks[0];
    if (!slide) return { error: `This deck has no slide ${m[1]} (it has ${content.slides.length})` };
    return first ? { at: first.paragraph } : { error: `Slide ${slide.number} has no text` };
  }
  if (content.view === 'grid') {
    const m = /^(?:'?([^'!]+)'?!)?\$?([A-Za-z]{1,3})\$?(\d{1,7})$/.exec(text);
    if (!m) return { error: 'Type a cell address, e.g. C4 or Notes!B3' };
    const address = `${(m[2] ?? '').toUpperCase()}${m[3] ?? ''}`;
    const sheets = m[1] ? content.sheets.filter((s) => s.name.toLowerCase() === (m[1] ?? '').toLowerCase()) : content.sheets;
    if (m[1] && sheets.length === 0) return { error: `This workbook has no sheet “${m[1]}”` };
    const cell = sheets.flatMap((s) => s.cells).find((c) => c.address === address);
    return cell ? { at: cell.paragraph } : { error: m[1] ? `Sheet “${m[1]}” has no filled cell ${address}` : `No sheet has a filled cell ${address}` };
  }
  return null;
}
