import { useEffect, useMemo, useRef } from 'react';
import type { PageText } from '../../../../shared/contract/schemas.ts';
import { markClass, ocrItems, pieces } from './highlight.ts';
import type { TextLayerProps } from './PdfTextLayer.tsx';

let measurer: CanvasRenderingContext2D | null = null;
function textWidth(text: string, fontPx: number): number {
  measurer ??= document.createElement('canvas').getContext('2d');
  if (!measurer) return text.length * fontPx * 0.5;
  measurer.font = `${fontPx}px sans-serif`;
  return measurer.measureText(text).width;
}

/**
 * A scanned page's text layer, drawn from its OCR words: each word an invisible span laid over
 * its box on the image, stretched to the box's width, so selection, find and the quote highlight
 * work as on a page with a real text layer. Offsets are the stored ones: a word's span holds
 * exactly its stored characters.
 */
export function OcrTextLayer({ page, scale, stored, marks, current, revealAt, onStatus, onRevealed }: TextLayerProps & { stored: PageText }) {
  const container = useRef<HTMLDivElement>(null);
  const viewport = useMemo(() => page.getViewport({ scale }), [page, scale]);
  const items = useMemo(() => ocrItems(stored), [stored]);

  useEffect(() => onStatus(items ? 'ok' : 'mismatch'), [items, onStatus]);

  useEffect(() => {
    if (revealAt === undefined) return;
    const marked = [...(container.current?.querySelectorAll<HTMLElement>('mark[data-end]') ?? [])];
    marked.find((m) => Number(m.dataset.end) > revealAt)?.scrollIntoView({ block: 'center' });
    onRevealed();
  }, [revealAt, marks, items, onRevealed]);

  if (!items) return null;
  const { width, height } = viewport;
  return (
    <div ref={container} className="textLayer ocr-text-layer" data-testid={current ? 'text-layer' : undefined} data-page={page.pageNumber} style={{ width, height }}>
      {items.map((item, i) => {
        const [x0, y0, x1, y1] = item.box;
        const boxHeight = Math.max(1, (y1 - y0) * height);
        const boxWidth = Math.max(1, (x1 - x0) * width);
        const fontPx = boxHeight * 0.9;
        const natural = textWidth(item.str, fontPx);
        const style = {
          left: x0 * width,
          top: y0 * height,
          fontSize: fontPx,
          fontFamily: 'sans-serif',
          transform: natural > 0 ? `scaleX(${boxWidth / natural})` : undefined,
        };
        let at = item.start;
        return (
          <span key={i} style={style} data-ocr-word={i}>
            {pieces(item.str, item.start, marks).map((p, j) => {
              at += p.text.length;
              return p.kinds.size === 0 ? (
                p.text
              ) : (
                <mark key={j} className={markClass(p.kinds)} data-end={at}>
                  {p.text}
                </mark>
              );
            })}
          </span>
        );
      })}
    </div>
  );
}
