import type { PDFDocumentProxy, PDFPageProxy } from 'pdfjs-dist';
import { TEXT_CONTENT_OPTIONS } from './pdfjs-setup.ts';
import { recentPromises } from './recent-promises.ts';

type TextContent = Awaited<ReturnType<PDFPageProxy['getTextContent']>>;

/** Recent pages' text content (what their text layers are built from). */
const recent = recentPromises<PDFPageProxy, TextContent>(16);

/** A page's text content with the ingestion's options, asked of pdf.js once while the page is recent. */
export function textContentOf(page: PDFPageProxy): Promise<TextContent> {
  return recent.get(page, () => page.getTextContent(TEXT_CONTENT_OPTIONS));
}

/**
 * Starts loading a page and its text the moment a navigation asks for it, before React has laid
 * out and mounted the page: pdf.js keeps the page, and the text layer then finds its text here.
 */
export function prefetchPage(pdf: PDFDocumentProxy, pageNumber: number): void {
  if (pageNumber < 1 || pageNumber > pdf.numPages) return;
  pdf.getPage(pageNumber).then(textContentOf, () => undefined).catch(() => undefined);
}
