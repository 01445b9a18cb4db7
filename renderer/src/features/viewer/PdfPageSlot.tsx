import { memo, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Page } from 'react-pdf';
import type { PDFPageProxy } from 'pdfjs-dist';
import type { PageText } from '../../../../shared/contract/schemas.ts';
import type { FindHit } from '../../../../shared/contract/reader-schemas.ts';
import { ClientError } from '../../api/client.ts';
import { highlightOnPage, type PageMark } from './highlight.ts';
import { OcrTextLayer } from './OcrTextLayer.tsx';
import { pageText } from './page-text-cache.ts';
import { PdfTextLayer } from './PdfTextLayer.tsx';
import { markStep } from './reader-spans.ts';
import { useReader, type TextStatus } from './reader-store.ts';
import { useViewer } from './viewer-store.ts';
import type { Size } from './zoom.ts';

const HOLD_IMAGE_MS = 250;

interface Props {
  sourceId: number;
  pageNumber: number;
  scale: number;
  /** The page's size at scale 1 (the first page's until this one has loaded). */
  size: Size;
  current: boolean;
  /** This page's find hits, with their index in the whole list. */
  hits: readonly { hit: FindHit; index: number }[];
  currentHit: number;
  revealAt: number | undefined;
  /** Another page is being opened: this one waits (a box only), so the page asked for is drawn first. */
  deferred: boolean;
}

/**
 * One page of the continuous view: a box of the page's size at once (so the scrollbar is right
 * before anything is drawn), then the page's image and its text layer, checked against the stored
 * text and marked with the quote and the find hits.
 */
export const PdfPageSlot = memo(function PdfPageSlot({ sourceId, pageNumber, scale, size, current, hits, currentHit, revealAt, deferred }: Props) {
  const highlight = useViewer((s) => s.highlight);
  const [proxy, setProxy] = useState<PDFPageProxy | null>(null);
  const [stored, setStored] = useState<PageText | null>(null);
  const [textError, setTextError] = useState<string | null>(null);
  // Once drawn, a page stays drawn while another is being opened.
  const [started, setStarted] = useState(!deferred);
  useEffect(() => {
    if (!deferred) setStarted(true);
  }, [deferred]);

  // A page opened for a quote or a hit draws its text layer and marks first, its image right
  // after (drawing the image first would hold the marks back by its cost); a text layer slow to
  // come (the services busy) does not keep the image waiting longer than HOLD_IMAGE_MS, and an
  // image once let draw is never taken away again.
  const [imageDue, setImageDue] = useState(false);
  const imageLetDraw = useRef(false);
  if (revealAt === undefined || imageDue) imageLetDraw.current = true;
  useEffect(() => {
    setImageDue(false);
    if (revealAt === undefined) return;
    const t = setTimeout(() => setImageDue(true), HOLD_IMAGE_MS);
    return () => clearTimeout(t);
  }, [revealAt]);

  const onStatus = useCallback((s: TextStatus) => useReader.getState().pageReady(pageNumber, s), [pageNumber]);
  const onRevealed = useCallback(() => {
    const { pending, setPending } = useReader.getState();
    if (pending?.page === pageNumber) setPending(null);
  }, [pageNumber]);

  useEffect(() => () => useReader.getState().pageGone(pageNumber), [pageNumber]);

  useEffect(() => {
    let live = true;
    pageText(sourceId, pageNumber)
      .then((t) => live && setStored(t))
      .catch((e: unknown) => {
        if (!live) return;
        setTextError(e instanceof ClientError ? e.message : String(e));
        onStatus('error');
      });
    return () => {
      live = false;
    };
  }, [sourceId, pageNumber, onStatus]);

  const marks = useMemo<PageMark[]>(() => {
    if (!stored) return [];
    const out: PageMark[] = [];
    const quote = highlight ? highlightOnPage(highlight, pageNumber, stored.text.length) : null;
    if (quote) out.push({ ...quote, kind: 'quote' });
    for (const { hit, index } of hits) out.push({ start: hit.start, end: hit.end, kind: index === currentHit ? 'find-current' : 'find' });
    return out;
  }, [stored, highlight, pageNumber, hits, currentHit]);

  const width = Math.round(size.width * scale);
  const height = Math.round(size.height * scale);
  const layerProps = proxy && proxy.pageNumber === pageNumber ? { page: proxy, scale, marks, current, revealAt, onStatus, onRevealed } : null;
  return (
    <div className="pdf-page-slot" style={{ width, height }} data-page-number={pageNumber} aria-label={`Page ${pageNumber}`} role="group">
      <div className="pdf-page-placeholder" aria-hidden="true">
        <span>Page {pageNumber}</span>
        <span className="muted">Loading…</span>
      </div>
      {(started || !deferred) && (
        // While pdf.js loads the page, its placeholder shows.
        <Page
          pageNumber={pageNumber}
          scale={scale}
          renderMode={imageLetDraw.current ? 'canvas' : 'none'}
          renderTextLayer={false}
          renderAnnotationLayer={false}
          loading=""
          error={<p className="page-text-error">This page could not be drawn.</p>}
          onLoadSuccess={(p) => {
            const page = p as unknown as PDFPageProxy;
            markStep('page-loaded', pageNumber);
            const vp = page.getViewport({ scale: 1 });
            useReader.getState().setSize(pageNumber, { width: vp.width, height: vp.height });
            setProxy(page);
          }}
          // A page pdf.js cannot read or draw ends the wait for it as a text layer that failed would.
          onLoadError={() => onStatus('error')}
          onRenderError={() => onStatus('error')}
          onRenderSuccess={() => markStep('canvas', pageNumber)}
        >
          {layerProps && stored?.ocr && <OcrTextLayer {...layerProps} stored={stored} />}
          {layerProps && !stored?.ocr && <PdfTextLayer {...layerProps} stored={stored} />}
        </Page>
      )}
      {textError && (
        <p className="page-text-error" role="alert">
          {textError}
        </p>
      )}
    </div>
  );
});
