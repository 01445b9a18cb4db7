import { useEffect, useRef, useState } from 'react';
import type { PDFPageProxy } from 'pdfjs-dist';
import type { PageText } from '../../../../shared/contract/schemas.ts';
import { textContentOf } from './page-prefetch.ts';
import { pdfjs } from './pdfjs-setup.ts';
import { itemsMatchStoredText, markClass, pieces, type PageMark } from './highlight.ts';
import type { TextStatus } from './reader-store.ts';
import { markStep } from './reader-spans.ts';
import { useViewer } from './viewer-store.ts';

export interface TextLayerProps {
  page: PDFPageProxy;
  scale: number;
  stored: PageText | null;
  marks: readonly PageMark[];
  /** The current page's layer carries the test id the e2e tests read. */
  current: boolean;
  /** A stored offset whose mark is to be scrolled to the middle of the view once drawn. */
  revealAt: number | undefined;
  onStatus(status: TextStatus): void;
  onRevealed(): void;
}

/** Replaces an item's text by its pieces, marked ones in <mark>; returns the marks, with their stored end offsets. */
function markItem(div: HTMLElement, str: string, itemStart: number, marks: readonly PageMark[], closest: boolean): { el: HTMLElement; end: number }[] {
  const doc = div.ownerDocument;
  const out: { el: HTMLElement; end: number }[] = [];
  let at = itemStart;
  const nodes = pieces(str, itemStart, marks).map((p) => {
    at += p.text.length;
    if (p.kinds.size === 0) return doc.createTextNode(p.text);
    const mark = doc.createElement('mark');
    mark.className = markClass(p.kinds);
    if (closest && p.kinds.has('quote')) {
      mark.dataset.kind = 'closest';
      mark.title = 'closest passage, not a match';
    }
    mark.textContent = p.text;
    out.push({ el: mark, end: at });
    return mark;
  });
  div.replaceChildren(...nodes);
  return out;
}

/**
 * pdf.js's own TextLayer with the ingestion's getTextContent options. react-pdf's built-in text
 * layer normalises text (ligatures become two letters), which would shift stored offsets.
 */
export function PdfTextLayer({ page, scale, stored, marks, current, revealAt, onStatus, onRevealed }: TextLayerProps) {
  const closest = useViewer((s) => s.closest);
  const container = useRef<HTMLDivElement>(null);
  const [rendered, setRendered] = useState<{ items: string[]; divs: HTMLElement[] } | null>(null);

  useEffect(() => {
    const el = container.current;
    if (!el) return;
    el.replaceChildren();
    setRendered(null);
    let live = true;
    let layer: InstanceType<typeof pdfjs.TextLayer> | null = null;
    // The text may already be on its way: a navigation asks for it before the page is mounted.
    textContentOf(page)
      .then((textContentSource) => {
        if (!live) return;
        const built = new pdfjs.TextLayer({ textContentSource, container: el, viewport: page.getViewport({ scale }) });
        layer = built;
        return built.render().then(() => {
          if (!live) return;
          markStep('text-layer', page.pageNumber);
          setRendered({ items: [...built.textContentItemsStr], divs: [...built.textDivs] });
        });
      })
      .catch(() => {
        if (live) onStatus('error');
      });
    return () => {
      live = false;
      layer?.cancel();
    };
  }, [page, scale, onStatus]);

  useEffect(() => {
    if (!rendered || !stored) return;
    rendered.divs.forEach((div, i) => {
      if (div.querySelector('mark')) div.replaceChildren(div.ownerDocument.createTextNode(rendered.items[i] ?? ''));
    });
    if (!itemsMatchStoredText(rendered.items, stored.itemStarts, stored.text)) {
      onStatus('mismatch');
      return;
    }
    let target: HTMLElement | null = null;
    if (marks.length > 0) {
      rendered.divs.forEach((div, i) => {
        const placed = markItem(div, rendered.items[i] ?? '', stored.itemStarts[i] ?? 0, marks, closest);
        if (revealAt !== undefined) target ??= placed.find((m) => m.end > revealAt)?.el ?? null;
      });
    }
    onStatus('ok');
    if (marks.length > 0) markStep('marked', page.pageNumber);
    if (revealAt !== undefined) {
      (target as HTMLElement | null)?.scrollIntoView({ block: 'center' });
      onRevealed();
    }
  }, [rendered, stored, marks, closest, revealAt, onStatus, onRevealed]);

  return <div ref={container} className="textLayer" data-testid={current ? 'text-layer' : undefined} data-page={page.pageNumber} />;
}
