import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { Document } from 'react-pdf';
import type { PDFDocumentProxy } from 'pdfjs-dist';
import type { PageText } from '../../../../shared/contract/schemas.ts';
import { client } from '../../api/client.ts';
import { useRelink } from '../relink/relink-store.ts';
import { OriginNote } from './OriginNote.tsx';
import type { ArchivedFrom } from '../../../../shared/domain/web-words.ts';
import { forgetPages, pageText } from './page-text-cache.ts';
import { prefetchPage } from './page-prefetch.ts';
import { documentOptions } from './pdfjs-setup.ts';
import { PdfPages } from './PdfPages.tsx';
import { PdfSidebar } from './PdfSidebar.tsx';
import { PdfToolbar } from './PdfToolbar.tsx';
import { useReader } from './reader-store.ts';
import { useViewer } from './viewer-store.ts';
import { ViewerFailure } from './ViewerErrorBoundary.tsx';
import { DEFAULT_ZOOM, scaleFor, stepZoom } from './zoom.ts';
import './reader.css';

const OPENING = (
  <p className="reader-opening" role="status">
    <span className="spinner" aria-hidden="true" /> Opening the PDF…
  </p>
);

function scanNoteOf(stored: PageText | null): string | null {
  if (stored?.ocr) return ` · this page is a scan: its text was recognised by OCR${stored.ocr.confidence !== null ? ` (confidence ${Math.round(stored.ocr.confidence)}%)` : ''}`;
  if (stored?.noTextLayer) return ' · this page is a scan with no text layer';
  return null;
}

/**
 * The PDF reader: a continuous, virtually drawn scroll of pages with zoom, find over the stored
 * text, thumbnails, the outline, and pages by printed label; a cited quote opens highlighted.
 */
export function PdfViewer({ sourceId }: { sourceId: number }) {
  // Only what this component shows: a click elsewhere in the viewer's state re-renders nothing here.
  const page = useViewer((s) => s.page);
  const setPageCount = useViewer((s) => s.setPageCount);
  const [pdf, setPdf] = useState<PDFDocumentProxy | null>(null);
  const [loadError, setLoadError] = useState<string | undefined>(undefined);
  // Bumped by "Open again": a new Document loads the file anew (e.g. after a relink).
  const [attempt, setAttempt] = useState(0);
  const [origin, setOrigin] = useState<{ servedFrom: string; path: string | null; archivedFrom: ArchivedFrom | null; fileName: string } | null>(null);
  const [scanNote, setScanNote] = useState<string | null>(null);
  const findInput = useRef<HTMLInputElement>(null);
  const zoom = useReader((s) => s.zoom);
  const base = useReader((s) => s.sizes[page] ?? s.sizes[1]);
  const [view, setView] = useState({ width: 800, height: 600 });

  useEffect(() => {
    forgetPages(sourceId);
    useReader.getState().reset(sourceId);
  }, [sourceId]);

  // The viewer shows the original when it is present and unchanged, else the snapshot, labelled.
  useEffect(() => {
    let live = true;
    client
      .call('sources.get', { id: sourceId })
      .then((d) => {
        if (!live) return;
        setOrigin({ servedFrom: d.servedFrom, path: d.path, archivedFrom: d.archivedFrom ?? null, fileName: d.fileName });
        const labels: (string | null)[] = [];
        for (const p of d.pages) labels[p.page - 1] = p.label;
        useReader.getState().setLabels(Array.from(labels, (l) => l ?? null));
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
    pageText(sourceId, page).then(
      (t) => live && setScanNote(scanNoteOf(t)),
      () => live && setScanNote(null),
    );
    return () => {
      live = false;
    };
  }, [sourceId, page]);

  // A navigation starts loading its page and that page's text at once (stored and pdf.js's), in
  // parallel with laying out and mounting it.
  useEffect(() => {
    if (!pdf) return;
    return useViewer.subscribe((s, prev) => {
      if (s.nav === prev.nav || s.sourceId !== sourceId) return;
      prefetchPage(pdf, s.page);
      void pageText(sourceId, s.page).catch(() => undefined);
    });
  }, [pdf, sourceId]);

  const scale = base ? scaleFor(zoom, base, view) : 1;

  // Zoom and find keys work anywhere in the reader (and keep the browser's own zoom out of it).
  const onKeyDown = (e: KeyboardEvent) => {
    if (!(e.ctrlKey || e.metaKey) || e.altKey) return;
    const reader = useReader.getState();
    if (e.key === '+' || e.key === '=') reader.setZoom(stepZoom(scale, 1));
    else if (e.key === '-' || e.key === '_') reader.setZoom(stepZoom(scale, -1));
    else if (e.key === '0') reader.setZoom(DEFAULT_ZOOM);
    else if (e.key.toLowerCase() === 'f') findInput.current?.select();
    else return;
    e.preventDefault();
  };

  return (
    <div className="pdf-viewer" onKeyDown={onKeyDown}>
      <PdfToolbar scale={scale} findInput={findInput} scanNote={scanNote} />
      {origin && (origin.archivedFrom || origin.servedFrom === 'snapshot') && <OriginNote path={origin.path} archivedFrom={origin.archivedFrom} />}
      {/* Not in react-pdf's Suspense mode: React holds back a boundary's content for up to 300 ms
          after its fallback showed, and each page opened would wait that long for nothing. */}
      <Document
        key={attempt}
        className="pdf-document"
        file={client.sourceUrl(sourceId)}
        options={documentOptions()}
        suspense={false}
        onLoadSuccess={(doc) => {
          // The page asked for loads alongside the first one, not after the view is laid out.
          prefetchPage(doc as unknown as PDFDocumentProxy, useViewer.getState().page);
          // The first page's size sizes every page's box until that page has loaded.
          void doc.getPage(1).then((p) => {
            const vp = p.getViewport({ scale: 1 });
            useReader.getState().setSize(1, { width: vp.width, height: vp.height });
            setPageCount(doc.numPages);
            setPdf(doc as unknown as PDFDocumentProxy);
          });
        }}
        onLoadError={(e) => {
          setLoadError(e.message);
          // FILE_MISSING (the file moved and there is no snapshot) opens the relink dialog.
          void useRelink.getState().openIfMissing(sourceId, 'The viewer could not open this source: its file is not where it was recorded. Relink it to open it.');
        }}
        loading={OPENING}
        error={
          <ViewerFailure
            detail={loadError}
            onRetry={() => {
              setLoadError(undefined);
              setPdf(null);
              setAttempt((a) => a + 1);
            }}
          />
        }
      >
        {pdf && <PdfSidebar pdf={pdf} pageCount={pdf.numPages} />}
        {pdf ? (
          <PdfPages sourceId={sourceId} pageCount={pdf.numPages} fileName={origin?.fileName ?? 'this PDF'} onView={setView} />
        ) : (
          OPENING
        )}
      </Document>
    </div>
  );
}
