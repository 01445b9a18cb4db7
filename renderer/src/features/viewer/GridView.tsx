import { useEffect, useMemo, useState } from 'react';
import type { SheetCell, SheetGrid } from '../../../../shared/contract/content-schemas.ts';
import { columnName } from '../../../../shared/domain/sheet-cells.ts';
import type { Placement } from './flow-place.ts';
import { LazyChunks, type ChunkFocus } from './LazyChunks.tsx';
import { markedText, usePlacementMarks } from './placement-marks.tsx';
import { countWords } from '../../../../shared/text/count-words.ts';

/** Rows drawn around the marked cell (or from the top): a sheet of 100,000 rows opens at once. */
const ROW_WINDOW = 200;
const MAX_COLS = 60;

/** The rows and columns drawn: a window that holds the focused cell. */
function windowOf(sheet: SheetGrid, focus: SheetCell | undefined): { rows: [number, number]; cols: number } {
  const first = Math.max(1, (focus?.row ?? 1) - ROW_WINDOW / 2);
  const last = Math.min(sheet.rows, first + ROW_WINDOW - 1);
  return { rows: [first, last], cols: Math.min(sheet.cols, Math.max(MAX_COLS, focus?.col ?? 0)) };
}

/** The marked cell's address, labels and formula, as a spreadsheet's formula bar shows them. */
function CellBar({ sheet, cell }: { sheet: SheetGrid; cell: SheetCell | undefined }) {
  if (!cell) return <div className="grid-bar muted">Sheet “{sheet.name}”: {countWords(sheet.cells.length)} filled cells</div>;
  const labels = [cell.rowLabel ? `row ${cell.rowLabel}` : '', cell.colLabel ? `column ${cell.colLabel}` : ''].filter(Boolean).join(', ');
  return (
    <div className="grid-bar" data-testid="cell-bar">
      <strong>{cell.address}</strong>
      {labels && <span> · {labels}</span>}
      <span className="grid-formula">{cell.formula ? ` · ƒx ${cell.formula}` : ` · ${cell.text}`}</span>
    </div>
  );
}

/**
 * An Excel source as a grid per sheet (issue 14): the filled cells at their addresses, values as
 * Excel shows them (the stored text), the cited cell scrolled to and marked, its formula in the bar.
 */
export function GridView({ sheets, placement }: { sheets: readonly SheetGrid[]; placement: Placement | null }) {
  const shown = usePlacementMarks(placement);
  const focusSheet = useMemo(() => sheets.findIndex((s) => s.cells.some((c) => c.paragraph === shown.focusUnit)), [sheets, shown]);
  const [picked, setPicked] = useState(0);
  useEffect(() => {
    if (focusSheet >= 0) setPicked(focusSheet);
  }, [focusSheet]);
  const sheet = sheets[picked];
  const focusCell = sheet?.cells.find((c) => c.paragraph === shown.focusUnit);
  const byPlace = useMemo(() => new Map((sheet?.cells ?? []).map((c) => [`${c.row}:${c.col}`, c])), [sheet]);
  const focus = useMemo<ChunkFocus | null>(() => {
    const block = shown.focusUnit;
    if (block === undefined || focusSheet !== picked) return null;
    return { chunk: 0, element: (root) => root.querySelector(`[data-block="${block}"]`) };
  }, [shown, focusSheet, picked]);
  if (!sheet) return <p className="flow-note muted">This workbook has no sheets.</p>;
  const win = windowOf(sheet, focusCell);
  const rowNumbers: number[] = [];
  for (let r = win.rows[0]; r <= win.rows[1]; r++) rowNumbers.push(r);
  return (
    <div className="grid-viewer">
      <div className="grid-tabs" role="tablist" aria-label="Sheets">
        {sheets.map((s, i) => (
          <button key={s.index} type="button" role="tab" aria-selected={i === picked} className={i === picked ? 'active' : ''} onClick={() => setPicked(i)} title={s.unreadable ? 'This sheet could not be read' : undefined}>
            {s.name}
            {s.unreadable ? ' ⚠' : ''}
          </button>
        ))}
      </div>
      <CellBar sheet={sheet} cell={focusCell} />
      {sheet.unreadable && <p className="flow-note warn">This sheet could not be read, so none of its cells can be cited; the other sheets were read.</p>}
      {(win.rows[0] > 1 || win.rows[1] < sheet.rows || win.cols < sheet.cols) && (
        <p className="flow-note muted">
          Rows {countWords(win.rows[0])}–{countWords(win.rows[1])} of {countWords(sheet.rows)}
          {win.cols < sheet.cols ? `, columns A–${columnName(win.cols)} of ${columnName(sheet.cols)}` : ''} shown.
        </p>
      )}
      <LazyChunks
        className="flow-scroll grid-doc"
        count={1}
        estimate={() => rowNumbers.length * 26}
        focus={focus}
        render={() => (
          <table className="sheet-grid" aria-label={`Sheet ${sheet.name}`}>
            <thead>
              <tr>
                <th className="corner" />
                {Array.from({ length: win.cols }, (_, c) => (
                  <th key={c} scope="col">
                    {columnName(c + 1)}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rowNumbers.map((r) => (
                <tr key={r} className={sheet.headerRow === r ? 'header-row' : undefined}>
                  <th scope="row">{r}</th>
                  {Array.from({ length: win.cols }, (_, c) => {
                    const cell = byPlace.get(`${r}:${c + 1}`);
                    if (!cell) return <td key={c} />;
                    const cls = [/^[-+−(]?[$€£¥]?[\d,.]+%?\)?$/.test(cell.text) ? 'num' : '', shown.current.has(cell.paragraph) ? (shown.failed ? 'current failed' : 'current') : ''].filter(Boolean).join(' ');
                    return (
                      <td key={c} className={cls || undefined} data-block={cell.paragraph} data-address={cell.address} title={cell.formula ? `${cell.address}: ${cell.formula}` : cell.address}>
                        {markedText(cell.text, shown.marks.get(cell.paragraph))}
                      </td>
                    );
                  })}
                </tr>
              ))}
            </tbody>
          </table>
        )}
      />
    </div>
  );
}
