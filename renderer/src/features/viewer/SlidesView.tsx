import { memo, useMemo } from 'react';
import type { SlideOutline } from '../../../../shared/contract/content-schemas.ts';
import { cellText } from '../../../../shared/domain/locator.ts';
import type { Placement } from './flow-place.ts';
import { LazyChunks, type ChunkFocus } from './LazyChunks.tsx';
import { markedText, usePlacementMarks, type PlacementMarks } from './placement-marks.tsx';

type Block = SlideOutline['blocks'][number];

function blockClass(b: Block, shown: PlacementMarks): string {
  const cls = ['sb', `sb-${b.role}`];
  if (shown.current.has(b.paragraph)) cls.push(shown.failed ? 'current failed' : 'current');
  return cls.join(' ');
}

/** A slide's table cells as a grid: rows and columns as the locators number them. */
function SlideTable({ cells, shown }: { cells: Block[]; shown: PlacementMarks }) {
  const rows = Math.max(...cells.map((c) => c.cell?.row ?? 1));
  const cols = Math.max(...cells.map((c) => c.cell?.col ?? 1));
  const at = new Map(cells.map((c) => [`${c.cell?.row}:${c.cell?.col}`, c]));
  return (
    <table className="slide-table">
      <tbody>
        {Array.from({ length: rows }, (_, r) => (
          <tr key={r}>
            {Array.from({ length: cols }, (_, c) => {
              const b = at.get(`${r + 1}:${c + 1}`);
              if (!b) return <td key={c} />;
              return (
                <td key={c} className={blockClass(b, shown)} data-block={b.paragraph} title={b.cell ? cellText(b.cell) : undefined}>
                  {markedText(b.text, shown.marks.get(b.paragraph))}
                </td>
              );
            })}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** One slide: its title, its text boxes and tables in reading order, then its speaker notes. */
const SlideCard = memo(function SlideCard({ slide, shown }: { slide: SlideOutline; shown: PlacementMarks }) {
  // Cells of one table stay together, drawn where the table's first cell comes in reading order.
  const parts: ({ kind: 'block'; block: Block } | { kind: 'table'; table: number; cells: Block[] })[] = [];
  for (const b of slide.blocks) {
    if (b.role === 'notes') continue;
    if (b.role === 'cell' && b.cell) {
      const table = b.cell.table;
      const open = parts.find((p) => p.kind === 'table' && p.table === table);
      if (open && open.kind === 'table') open.cells.push(b);
      else parts.push({ kind: 'table', table, cells: [b] });
    } else parts.push({ kind: 'block', block: b });
  }
  const notes = slide.blocks.filter((b) => b.role === 'notes');
  return (
    <section className="slide-card" aria-label={`Slide ${slide.number}`} data-slide={slide.number}>
      <header className="slide-head">
        Slide {slide.number}
        {slide.hidden && <span className="muted"> · hidden in the show</span>}
      </header>
      <div className="slide-body">
        {parts.length === 0 && notes.length === 0 && <p className="muted">No text on this slide.</p>}
        {parts.map((p) =>
          p.kind === 'table' ? (
            <SlideTable key={`t${p.table}`} cells={p.cells} shown={shown} />
          ) : (
            <div key={p.block.paragraph} className={blockClass(p.block, shown)} data-block={p.block.paragraph} role={p.block.role === 'title' ? 'heading' : undefined} aria-level={p.block.role === 'title' ? 3 : undefined}>
              {markedText(p.block.text, shown.marks.get(p.block.paragraph))}
            </div>
          ),
        )}
      </div>
      {notes.map((b) => (
        <div key={b.paragraph} className="slide-notes">
          <span className="slide-notes-label">Speaker notes</span>
          <div className={blockClass(b, shown)} data-block={b.paragraph}>
            {markedText(b.text, shown.marks.get(b.paragraph))}
          </div>
        </div>
      ))}
    </section>
  );
});

/**
 * A PowerPoint source as an outline of its slides (issue 14): each slide's text blocks in the
 * reading order its extraction stored them, tables as grids, notes apart; the slide's graphics are
 * not drawn. Every block is the stored text itself, so a highlight lands on the quoted words.
 */
export function SlidesView({ slides, placement }: { slides: readonly SlideOutline[]; placement: Placement | null }) {
  const shown = usePlacementMarks(placement);
  const focus = useMemo<ChunkFocus | null>(() => {
    const block = shown.focusUnit;
    const index = slides.findIndex((s) => s.blocks.some((b) => b.paragraph === block));
    if (index < 0) return null;
    return { chunk: index, element: (root) => root.querySelector(`[data-block="${block}"]`) };
  }, [shown, slides]);
  return (
    <LazyChunks
      className="flow-scroll slides-doc"
      count={slides.length}
      estimate={(i) => 140 + (slides[i]?.blocks.length ?? 0) * 36}
      render={(i) => {
        const slide = slides[i];
        return slide ? <SlideCard slide={slide} shown={shown} /> : null;
      }}
      focus={focus}
    />
  );
}
