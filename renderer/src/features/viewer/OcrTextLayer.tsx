import { useEffect, useMemo, useRef } from 'react';
import type { PDFPageProxy } from 'pdfjs-dist';
import type { PageText } from '../../../../shared/contract/schemas.ts';
import { ocrItems, overlap } from './highlight.ts';

interface Props {
  page: PDFPageProxy;
  scale: number;
  stored: PageText;
  highlight: { start: number; end: number } | null;
  onStatus(status: 'ok' | 'mismatch' | 'error'): void;
}

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
export function OcrTextLayer({ page, scale, stored, highlight, onStatus }: Props) {
  const container = useRef<HTMLDivElement>(null);
  const viewport = useMemo(() => page.getViewport({ scale }), [page, scale]);
  const items = useMemo(() => ocrItems(stored), [stored]);

  useEffect(() => onStatus(items ? 'ok' : 'mismatch'), [items, onStatus]);

  useEffect(() => {
    const first = container.current?.querySelector('mark');
    first?.scrollIntoView({ block: 'center' });
  }, [highlight, items]);

  if (!items) return null;
  const { width, height } = viewport;
  return (
    <div ref={container} className="textLayer ocr-text-layer" data-testid="text-layer" style={{ width, height }}>
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
        const mark = highlight ? overlap(item.start, item.str.length, highlight.start, highlight.end) : null;
        return (
          <span key={i} style={style} data-ocr-word={i}>
            {mark ? (
              <>
                {item.str.slice(0, mark[0])}
                <mark className="quote-highlight">{item.str.slice(mark[0], mark[1])}</mark>
                {item.str.slice(mark[1])}
              </>
            ) : (
              item.str
            )}
          </span>
        );
      })}
    </div>
  );
}
