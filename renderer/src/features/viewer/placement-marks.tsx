import { useMemo, type ReactNode } from 'react';
import type { Placement } from './flow-place.ts';

export interface PlacementMarks {
  /** Per block or line, the [from, to) to highlight. */
  marks: ReadonlyMap<number, [number, number]>;
  /** The blocks or lines of the target. */
  current: ReadonlySet<number>;
  failed: boolean;
  /** Where to scroll: the first highlighted unit, else the target's first. */
  focusUnit: number | undefined;
}

/** What the text and HTML views draw for a placement. */
export function usePlacementMarks(placement: Placement | null): PlacementMarks {
  return useMemo(
    () => ({
      marks: new Map(placement?.ok ? placement.ranges.map((r) => [r.unit, [r.from, r.to] as [number, number]]) : []),
      current: new Set(placement?.units ?? []),
      failed: placement?.ok === false,
      focusUnit: placement?.ok ? (placement.ranges[0]?.unit ?? placement.units[0]) : placement?.units[0],
    }),
    [placement],
  );
}

/** A text with [from, to) in a highlight mark, or the text alone. */
export function markedText(text: string, range: readonly [number, number] | undefined): ReactNode {
  if (!range) return text;
  const [from, to] = range;
  return (
    <>
      {text.slice(0, from)}
      <mark className="quote-highlight">{text.slice(from, to)}</mark>
      {text.slice(to)}
    </>
  );
}
