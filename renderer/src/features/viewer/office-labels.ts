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
