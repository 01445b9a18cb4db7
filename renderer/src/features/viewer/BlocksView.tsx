import { memo, useMemo } from 'react';
import type { ViewBlock } from '../../../../shared/contract/content-schemas.ts';
import { cellText } from '../../../../shared/domain/locator.ts';
import type { Placement } from './flow-place.ts';
import { LazyChunks, type ChunkFocus } from './LazyChunks.tsx';
import { markedText, usePlacementMarks, type PlacementMarks } from './placement-marks.tsx';

const BLOCKS_PER_CHUNK = 40;

const BlockChunk = memo(function BlockChunk({ blocks, shown }: { blocks: readonly ViewBlock[]; shown: PlacementMarks }) {
  return (
    <>
      {blocks.map((b) => {
        const cls = ['hb', `hb-${b.blockType}`];
        if (b.headingLevel) cls.push(`hb-h${b.headingLevel}`);
        if (shown.current.has(b.paragraph)) cls.push(shown.failed ? 'current failed' : 'current');
        return (
          <div
            key={b.paragraph}
            className={cls.join(' ')}
            data-block={b.paragraph}
            data-cell={b.cell ? cellText(b.cell) : undefined}
            role={b.headingLevel ? 'heading' : undefined}
            aria-level={b.headingLevel ?? undefined}
          >
            {markedText(b.text, shown.marks.get(b.paragraph))}
          </div>
        );
      })}
    </>
  );
});

/**
 * An HTML source as the blocks its extraction read, with their heading structure: never its own
 * markup, scripts or styles (documents are untrusted), so what is shown is exactly the stored text.
 */
export function BlocksView({ blocks, placement }: { blocks: readonly ViewBlock[]; placement: Placement | null }) {
  const shown = usePlacementMarks(placement);
  const chunks = useMemo(() => {
    const out: ViewBlock[][] = [];
    for (let i = 0; i < blocks.length; i += BLOCKS_PER_CHUNK) out.push(blocks.slice(i, i + BLOCKS_PER_CHUNK));
    return out;
  }, [blocks]);
  const focus = useMemo<ChunkFocus | null>(() => {
    const block = shown.focusUnit;
    const index = blocks.findIndex((b) => b.paragraph === block);
    if (index < 0) return null;
    return { chunk: Math.floor(index / BLOCKS_PER_CHUNK), element: (root) => root.querySelector(`[data-block="${block}"]`) };
  }, [shown, blocks]);
  return (
    <LazyChunks
      className="flow-scroll blocks-doc"
      count={chunks.length}
      estimate={(i) => (chunks[i] ?? []).reduce((px, b) => px + Math.ceil(b.text.length / 95) * 24 + 12, 0)}
      render={(i) => <BlockChunk blocks={chunks[i] ?? []} shown={shown} />}
      focus={focus}
    />
  );
}
