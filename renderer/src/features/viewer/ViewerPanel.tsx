import { FlowViewer } from './FlowViewer.tsx';
import { PdfViewer } from './PdfViewer.tsx';
import { ViewerErrorBoundary } from './ViewerErrorBoundary.tsx';
import { useViewer } from './viewer-store.ts';

export function ViewerPanel() {
  const { sourceId, kind } = useViewer();
  if (sourceId === null) {
    return (
      <section className="viewer empty-viewer" aria-label="Viewer">
        <p>Select a source to open it.</p>
      </section>
    );
  }
  return (
    <section className="viewer" aria-label="Viewer">
      <ViewerErrorBoundary key={sourceId}>{kind === 'pdf' ? <PdfViewer sourceId={sourceId} /> : <FlowViewer sourceId={sourceId} />}</ViewerErrorBoundary>
    </section>
  );
}
