import type { PDFDocumentProxy, PDFPageProxy } from 'pdfjs-dist';
import { TEXT_CONTENT_OPTIONS } from './pdfjs-setup.ts';

type TextContent = Awaited<ReturnType<PDFPageProxy['getTextContent']>>;

/** Recent pages' text content (what their text layers are built from), newest last. */
const KEEP = 16;
const cache = new Map<PDFPageProxy, Promise<TextContent>>();

/** A page's text content with the ingestion's options, asked of pdf.js once while the page is recent. */
export function textContentOf(page: PDFPageProxy): Promise<TextContent> {
  const hit = cache.get(page);
  if (hit) {
    cache.delete(page);
    cache.set(page, hit);
    return hit;
  }
  const p = page.getTextContent(TEXT_CONTENT_OPTIONS);
  // A failed read is not kept: the next look asks again.
  p.catch(() => cache.delete(page));
  cache.set(page, p);
  while (cache.size > KEEP) cache.delete(cache.keys().next().value as PDFPageProxy);
  return p;
}

/**
 * Starts loading a page and its text the moment a navigation asks for it, before React has laid
 * out and mounted the page: pdf.js keeps the page, and the text layer then finds its text here.
 */
export function prefetchPage(pdf: PDFDocumentProxy, pageNumber: number): void {
  if (pageNumber < 1 || pageNumber > pdf.numPages) return;
  pdf.getPage(pageNumber).then(textContentOf, () => undefined).catch(() => undefined);
}
