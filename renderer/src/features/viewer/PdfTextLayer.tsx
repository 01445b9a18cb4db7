import { useEffect, useRef, useState } from 'react';
import type { PDFPageProxy } from 'pdfjs-dist';
import type { PageText } from '../../../../shared/contract/schemas.ts';
import { pdfjs, TEXT_CONTENT_OPTIONS } from './pdfjs-setup.ts';
import { itemsMatchStoredText, overlap } from './highlight.ts';
import { useViewer } from './viewer-store.ts';

interface Props {
  page: PDFPageProxy;
  scale: number;
  stored: PageText | null;
  highlight: { start: number; end: number } | null;
  onStatus(status: 'ok' | 'mismatch' | 'error'): void;
}

function markItem(div: HTMLElement, str: string, from: number, to: number, closest: boolean): void {
  const doc = div.ownerDocument;
  const mark = doc.createElement('mark');
  mark.className = 'quote-highlight';
  if (closest) {
    mark.dataset.kind = 'closest';
    mark.title = 'closest passage, not a match';
  }
  mark.textContent = str.slice(from, to);
  div.replaceChildren(doc.createTextNode(str.slice(0, from)), mark, doc.createTextNode(str.slice(to)));
}

/**
 * pdf.js's own TextLayer with the ingestion's getTextContent options. react-pdf's built-in text
 * layer normalises text (ligatures become two letters), which would shift stored offsets.
 */
export function PdfTextLayer({ page, scale, stored, highlight, onStatus }: Props) {
  const closest = useViewer((s) => s.closest);
  const container = useRef<HTMLDivElement>(null);
  const [rendered, setRendered] = useState<{ items: string[]; divs: HTMLElement[] } | null>(null);

  useEffect(() => {
    const el = container.current;
    if (!el) return;
    el.replaceChildren();
    setRendered(null);
    const layer = new pdfjs.TextLayer({
      textContentSource: page.streamTextContent(TEXT_CONTENT_OPTIONS),
      container: el,
      viewport: page.getViewport({ scale }),
    });
    let live = true;
    layer
      .render()
      .then(() => {
        if (live) setRendered({ items: [...layer.textContentItemsStr], divs: [...layer.textDivs] });
      })
      .catch(() => {
        if (live) onStatus('error');
      });
    return () => {
      live = false;
      layer.cancel();
    };
  }, [page, scale, onStatus]);

  useEffect(() => {
    if (!rendered || !stored) return;
    rendered.divs.forEach((div, i) => {
      const str = rendered.items[i] ?? '';
      if (div.querySelector('mark')) div.replaceChildren(div.ownerDocument.createTextNode(str));
    });
    if (!itemsMatchStoredText(rendered.items, stored.itemStarts, stored.text)) {
      onStatus('mismatch');
      return;
    }
    onStatus('ok');
    if (!highlight) return;
    let first: HTMLElement | null = null;
    rendered.divs.forEach((div, i) => {
      const str = rendered.items[i] ?? '';
      const range = overlap(stored.itemStarts[i] ?? 0, str.length, highlight.start, highlight.end);
      if (range) {
        markItem(div, str, range[0], range[1], closest);
        first ??= div;
      }
    });
    (first as HTMLElement | null)?.scrollIntoView({ block: 'center' });
  }, [rendered, stored, highlight, closest, onStatus]);

  return <div ref={container} className="textLayer" data-testid="text-layer" />;
}
