import { useCallback, useEffect, useMemo, useState, type FormEvent } from 'react';
import { Document, Page } from 'react-pdf';
import type { PDFPageProxy } from 'pdfjs-dist';
import type { PageText } from '../../../../shared/contract/schemas.ts';
import { client, ClientError } from '../../api/client.ts';
import { useRelink } from '../relink/relink-store.ts';
import { OriginNote } from './OriginNote.tsx';
import type { ArchivedFrom } from '../../../../shared/domain/web-words.ts';
import { highlightOnPage } from './highlight.ts';
import { DOCUMENT_OPTIONS } from './pdfjs-setup.ts';
import { OcrTextLayer } from './OcrTextLayer.tsx';
import { PdfTextLayer } from './PdfTextLayer.tsx';
import { useViewer } from './viewer-store.ts';

const SCALE = 1.25;

export function PdfViewer({ sourceId }: { sourceId: number }) {
  const { page, pageCount, highlight, setPageCount, goTo } = useViewer();
  const [pageProxy, setPageProxy] = useState<PDFPageProxy | null>(null);
  const [stored, setStored] = useState<PageText | null>(null);
  const [textStatus, setTextStatus] = useState<'ok' | 'mismatch' | 'error' | 'pending'>('pending');
  const [loadError, setLoadError] = useState<string | null>(null);
  const [pageInput, setPageInput] = useState(String(page));
  const [origin, setOrigin] = useState<{ servedFrom: string; path: string | null; archivedFrom: ArchivedFrom | null } | null>(null);

  useEffect(() => setPageInput(String(page)), [page]);

  // The viewer shows the original when it is present and unchanged, else the snapshot, labelled.
  useEffect(() => {
    let live = true;
    client
      .call('sources.get', { id: sourceId })
      .then((d) => {
        if (!live) return;
        setOrigin({ servedFrom: d.servedFrom, path: d.path, archivedFrom: d.archivedFrom ?? null });
        // The original changed or went away since the last check: re-check it so its health is current.
        if (d.servedFrom !== 'original' && d.health === 'ok') void client.call('sources.check', { ids: [sourceId] }).catch(() => undefined);
      })
      .catch(() => live && setOrigin(null));
    return () => {
      live = false;
    };
  }, [sourceId]);

  useEffect(() => {
    let live = true;
    setStored(null);
    setTextStatus('pending');
    client
      .call('sources.pageText', { id: sourceId, page })
      .then((t) => live && setStored(t))
      .catch((e: unknown) => live && setLoadError(e instanceof ClientError ? e.message : String(e)));
    return () => {
      live = false;
    };
  }, [sourceId, page]);

  const onStatus = useCallback((s: 'ok' | 'mismatch' | 'error') => setTextStatus(s), []);
  const submitPage = (e: FormEvent) => {
    e.preventDefault();
    const n = Number(pageInput);
    if (Number.isInteger(n)) goTo(n);
  };

  // This page's part of the quote, in its own stored offsets (a quote may run on across pages).
  const pageHighlight = useMemo(() => (highlight && stored ? highlightOnPage(highlight, page, stored.text.length) : null), [highlight, page, stored]);
  const label = stored?.pageLabel && stored.pageLabel !== String(page) ? ` (labelled “${stored.pageLabel}”)` : '';

  return (
    <div className="pdf-viewer">
      <nav className="pager" aria-label="Pages">
        <button type="button" onClick={() => goTo(page - 1)} disabled={page <= 1} aria-label="Previous page">
          ‹
        </button>
        <form onSubmit={submitPage}>
          <label>
            Page <input aria-label="Page number" value={pageInput} onChange={(e) => setPageInput(e.target.value)} size={4} />
          </label>
          <span> of {pageCount || '…'}{label}</span>
        </form>
        <button type="button" onClick={() => goTo(page + 1)} disabled={pageCount > 0 && page >= pageCount} aria-label="Next page">
          ›
        </button>
        <span className={`text-status ${textStatus}`} role="status" data-testid="text-status">
          {textStatus === 'ok' && 'Text layer matches the stored text'}
          {textStatus === 'mismatch' && '⚠ The text layer differs from the stored text: highlights are off for this page'}
          {textStatus === 'error' && '⚠ The text layer could not be drawn'}
          {stored?.noTextLayer && !stored.ocr && ' · this page is a scan with no text layer'}
          {stored?.ocr && ` · this page is a scan: its text was recognised by OCR${stored.ocr.confidence !== null ? ` (confidence ${Math.round(stored.ocr.confidence)}%)` : ''}`}
        </span>
      </nav>
      {origin && (origin.archivedFrom || origin.servedFrom === 'snapshot') && <OriginNote path={origin.path} archivedFrom={origin.archivedFrom} />}
      {loadError && <p className="error" role="alert">{loadError}</p>}
      {/* Focusable, so the keyboard scrolls the page (axe scrollable-region-focusable). */}
      <div className="pdf-scroll" tabIndex={0} role="region" aria-label="Page">
        <Document
          file={client.sourceUrl(sourceId)}
          options={DOCUMENT_OPTIONS}
          onLoadSuccess={(pdf) => setPageCount(pdf.numPages)}
          onLoadError={(e) => {
            setLoadError(`The PDF could not be opened: ${e.message}`);
            // FILE_MISSING (the file moved and there is no snapshot) opens the relink dialog.
            void useRelink.getState().openIfMissing(sourceId, 'The viewer could not open this source: its file is not where it was recorded. Relink it to open it.');
          }}
          loading="Opening…"
        >
          <Page
            key={page}
            pageNumber={page}
            scale={SCALE}
            renderTextLayer={false}
            renderAnnotationLayer={false}
            onLoadSuccess={(p) => setPageProxy(p as unknown as PDFPageProxy)}
          >
            {pageProxy && pageProxy.pageNumber === page && stored?.ocr && (
              <OcrTextLayer page={pageProxy} scale={SCALE} stored={stored} highlight={pageHighlight} onStatus={onStatus} />
            )}
            {pageProxy && pageProxy.pageNumber === page && !stored?.ocr && (
              <PdfTextLayer page={pageProxy} scale={SCALE} stored={stored} highlight={pageHighlight} onStatus={onStatus} />
            )}
          </Page>
        </Document>
      </div>
    </div>
  );
}
