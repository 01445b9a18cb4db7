import { memo, useMemo } from 'react';
import type { Placement } from './flow-place.ts';
import { LazyChunks, type ChunkFocus } from './LazyChunks.tsx';
import { markedText, usePlacementMarks, type PlacementMarks } from './placement-marks.tsx';

const LINES_PER_CHUNK = 200;
const LINE_PX = 21;
const CHARS_PER_LINE = 110;

interface ChunkProps {
  lines: readonly string[];
  first: number;
  last: number;
  shown: PlacementMarks;
}

const LineChunk = memo(function LineChunk({ lines, first, last, shown }: ChunkProps) {
  const rows = [];
  for (let n = first; n <= last; n++) {
    const cls = shown.current.has(n) ? (shown.failed ? 'line current failed' : 'line current') : 'line';
    rows.push(
      <div key={n} className={cls} data-line={n}>
        {markedText(lines[n - 1] ?? '', shown.marks.get(n))}
      </div>,
    );
  }
  return <>{rows}</>;
});

/** Text and Markdown as their lines, numbered from 1 (the numbers are CSS, so a copy takes only the text). */
export function LinesView({ lines, placement }: { lines: readonly string[]; placement: Placement | null }) {
  const shown = usePlacementMarks(placement);
  const focus = useMemo<ChunkFocus | null>(() => {
    const line = shown.focusUnit;
    if (line === undefined) return null;
    return { chunk: Math.floor((line - 1) / LINES_PER_CHUNK), element: (root) => root.querySelector(`[data-line="${line}"]`) };
  }, [shown]);
  const estimate = (i: number): number => {
    let px = 0;
    for (let n = i * LINES_PER_CHUNK; n < Math.min(lines.length, (i + 1) * LINES_PER_CHUNK); n++) {
      px += Math.max(1, Math.ceil((lines[n] ?? '').length / CHARS_PER_LINE)) * LINE_PX;
    }
    return px;
  };
  return (
    <LazyChunks
      className="flow-scroll lines-doc"
      count={Math.ceil(lines.length / LINES_PER_CHUNK)}
      estimate={estimate}
      render={(i) => <LineChunk lines={lines} first={i * LINES_PER_CHUNK + 1} last={Math.min(lines.length, (i + 1) * LINES_PER_CHUNK)} shown={shown} />}
      focus={focus}
    />
  );
}
