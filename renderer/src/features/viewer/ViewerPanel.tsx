import { Suspense } from 'react';
import { lazyPart, PartLoading } from '../../app/lazy-part.tsx';
import { useLibrary } from '../library/library-store.ts';
import { ViewerErrorBoundary, ViewerFailure } from './ViewerErrorBoundary.tsx';
import { useViewer } from './viewer-store.ts';

// The readers are chunks of their own (pdf.js is a megabyte): the first screen does not parse them.
export const loadPdfViewer = () => import('./PdfViewer.tsx').then((m) => m.PdfViewer);
export const loadFlowViewer = () => import('./FlowViewer.tsx').then((m) => m.FlowViewer);
const readerFailed = (detail: string, retry: () => void) => <ViewerFailure detail={detail} onRetry={retry} />;
const PdfViewer = lazyPart(loadPdfViewer, readerFailed);
const FlowViewer = lazyPart(loadFlowViewer, readerFailed);

export function ViewerPanel() {
  const sourceId = useViewer((s) => s.sourceId);
  const kind = useViewer((s) => s.kind);
  const closest = useViewer((s) => s.closest);
  // As the library has it: restricted here or, on a shared workspace, by an admin elsewhere (the live feed refreshes the library).
  const restricted = useLibrary((s) => s.sources.find((x) => x.id === sourceId)?.restricted === true);
  if (sourceId === null) {
    return (
      <section className="viewer empty-viewer" aria-label="Viewer">
        <p>Select a source to open it.</p>
      </section>
    );
  }
  return (
    <section className={`viewer${closest ? ' closest-mode' : ''}${restricted ? ' restricted-mode' : ''}`} aria-label="Viewer">
      {restricted && (
        <p className="restricted-banner" role="note" data-testid="viewer-restricted">
          This source is restricted: its passages are never sent to a model endpoint.
        </p>
      )}
      {closest && (
        // The highlight below is no match: it is labelled and drawn apart from a found quote.
        <p className="closest-banner" role="note" data-testid="closest-banner">
          <span className="closest-tag">closest passage, not a match</span> The quote is not in this document; the outlined text is the nearest the verifier saw.
        </p>
      )}
      <ViewerErrorBoundary key={sourceId}>
        <Suspense fallback={<PartLoading what="the viewer" />}>{kind === 'pdf' ? <PdfViewer sourceId={sourceId} /> : <FlowViewer sourceId={sourceId} />}</Suspense>
      </ViewerErrorBoundary>
    </section>
  );
}
