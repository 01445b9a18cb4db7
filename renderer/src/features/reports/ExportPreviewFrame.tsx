import type { ExportPreview } from './export-store.ts';

/**
 * The report's first page as the export would write it, in an iframe sandboxed with no
 * permissions at all (no scripts, no forms, no navigation, an opaque origin); the report itself
 * is self-contained and its CSP forbids every request. Shown smaller than life, like a page.
 */
export function ExportPreviewFrame({ preview, format }: { preview: ExportPreview; format: string }) {
  return (
    <section className="export-preview" aria-label="Preview of the report's first page">
      <h3>First page</h3>
      <div className="export-preview-page" aria-busy={preview.loading}>
        {preview.html !== null ? (
          <iframe title="Preview of the report's first page" sandbox="" srcDoc={preview.html} tabIndex={-1} />
        ) : (
          <p className="muted">{preview.loading ? 'Preparing the preview…' : 'No preview.'}</p>
        )}
      </div>
      {preview.error ? (
        <p className="hint" title={preview.error.code}>
          The preview could not be made: {preview.error.message}
        </p>
      ) : (
        <p className="hint">
          {preview.loading && preview.html !== null ? 'Updating the preview… ' : ''}
          {format === 'HTML' || format === 'PDF' ? `The ${format} report starts like this.` : `Shown as the HTML report; the ${format} file holds the same content.`}
        </p>
      )}
    </section>
  );
}
