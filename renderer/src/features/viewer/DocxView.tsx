import { useEffect, useLayoutEffect, useMemo, useRef, useState, type MouseEvent } from 'react';
import { chunkOfElement, markDocx, type DocxDom } from './docx-dom.ts';
import type { Placement } from './flow-place.ts';
import { LazyChunks, type ChunkFocus } from './LazyChunks.tsx';
import { usePlacementMarks } from './placement-marks.tsx';

/** Puts a chunk's prepared nodes into the page (they are moved, not copied: marks on them stay). */
function DomChunk({ nodes }: { nodes: readonly Node[] }) {
  const ref = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    ref.current?.replaceChildren(...nodes);
  }, [nodes]);
  return <div ref={ref} className="docx-chunk" />;
}

/**
 * A DOCX as mammoth's HTML, sanitised, with each block numbered as its stored segment is: the
 * numbers and the text pieces come from the walker that made the segments (data-ed-* attributes).
 */
export function DocxView({ dom, placement }: { dom: DocxDom; placement: Placement | null }) {
  const [jump, setJump] = useState<ChunkFocus | null>(null);

  useEffect(() => {
    if (!placement) return;
    return markDocx(dom, placement.units, placement.ok ? placement.ranges : [], !placement.ok);
  }, [dom, placement]);

  const { focusUnit } = usePlacementMarks(placement);
  const focus = useMemo<ChunkFocus | null>(() => {
    const el = focusUnit === undefined ? undefined : dom.blocks.get(focusUnit);
    const chunk = el ? chunkOfElement(dom, el) : null;
    return el && chunk !== null ? { chunk, element: () => el } : null;
    // placement is a dependency so that a new placement scrolls again, even to the same block.
  }, [dom, placement, focusUnit]);
  useEffect(() => setJump(null), [focus]);

  // Footnote references and back-links jump inside the document; nothing else navigates.
  const onClick = (e: MouseEvent) => {
    const a = (e.target as Element).closest('a');
    if (!a) return;
    e.preventDefault();
    const el = dom.anchors.get(a.dataset['jump'] ?? '');
    const chunk = el ? chunkOfElement(dom, el) : null;
    if (el && chunk !== null) setJump({ chunk, element: () => el });
  };

  return (
    <div className="docx-frame" onClick={onClick}>
      <LazyChunks
        className="flow-scroll docx-doc"
        count={dom.chunks.length}
        estimate={(i) => dom.heights[i] ?? 0}
        render={(i) => <DomChunk nodes={dom.chunks[i] ?? []} />}
        focus={jump ?? focus}
      />
    </div>
  );
}
