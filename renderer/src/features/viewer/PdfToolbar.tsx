import { useEffect, useState, type FormEvent, type RefObject } from 'react';
import { hasOwnLabels, resolvePageInput } from './page-labels.ts';
import { useReader } from './reader-store.ts';
import { useViewer } from './viewer-store.ts';
import { stepZoom, ZOOM_STEPS, zoomLabel, type Zoom } from './zoom.ts';
import { countWords } from '../../../../shared/text/count-words.ts';

const STATUS_TEXT = {
  ok: 'Text layer matches the stored text',
  mismatch: '⚠ The text layer differs from the stored text: highlights are off for this page',
  error: '⚠ The text layer could not be drawn',
} as const;

function zoomValue(zoom: Zoom): string {
  return zoom.kind === 'scale' ? String(zoom.scale) : zoom.kind;
}

/**
 * The reader's bar: sidebar, pages (by printed label or number), zoom, find, and what is loading.
 * `scale` is the scale the pages are drawn at now (a fit mode's, too).
 */
export function PdfToolbar({ scale, findInput, scanNote }: { scale: number; findInput: RefObject<HTMLInputElement | null>; scanNote: string | null }) {
  const page = useViewer((s) => s.page);
  const pageCount = useViewer((s) => s.pageCount);
  const goTo = useViewer((s) => s.goTo);
  const { zoom, setZoom, sidebar, setSidebar, labels, pending, find, runFind } = useReader();
  const status = useReader((s) => s.statuses[page]);
  const ownLabels = hasOwnLabels(labels);
  const shownValue = ownLabels ? (labels[page - 1] ?? String(page)) : String(page);
  const [pageInput, setPageInput] = useState(shownValue);
  const [pageError, setPageError] = useState<string | null>(null);
  const [query, setQuery] = useState(find.query);

  useEffect(() => {
    setPageInput(shownValue);
    setPageError(null);
  }, [shownValue]);
  useEffect(() => setQuery(find.query), [find.query]);

  const submitPage = (e: FormEvent) => {
    e.preventDefault();
    const to = resolvePageInput(pageInput, labels, pageCount);
    if (to === null) {
      setPageError(`No page is numbered or labelled “${pageInput.trim()}”${pageCount ? ` (pages 1–${countWords(pageCount)})` : ''}.`);
      return;
    }
    setPageError(null);
    goTo(to);
  };

  const hits = find.result?.hits ?? [];
  const showHit = (i: number) => {
    const hit = useReader.getState().find.result?.hits[i];
    if (!hit) return;
    useReader.getState().setFindCurrent(i);
    useReader.getState().navigate(hit.page, hit.start);
  };
  const stepHit = (dir: 1 | -1) => {
    if (hits.length === 0) return;
    const from = find.current < 0 ? (dir > 0 ? -1 : 0) : find.current;
    showHit((from + dir + hits.length) % hits.length);
  };
  const submitFind = (e: FormEvent) => {
    e.preventDefault();
    if (query.trim() === find.query && find.status === 'done') stepHit(1);
    else void runFind(query).then(() => useReader.getState().find.result?.hits.length && showHit(0));
  };

  return (
    <div className="pager reader-bar" role="toolbar" aria-label="Reader">
      <button type="button" aria-pressed={sidebar !== null} onClick={() => setSidebar(sidebar ? null : 'thumbnails')} title="Thumbnails, outline and find results">
        ☰ <span className="visually-hidden">Sidebar</span>
      </button>
      <nav className="reader-pages" aria-label="Pages">
        <button type="button" onClick={() => goTo(page - 1)} disabled={page <= 1} aria-label="Previous page">
          ‹
        </button>
        <form onSubmit={submitPage}>
          <label>
            Page{' '}
            <input
              aria-label="Page number"
              title="A page number, or the page's printed label (iv, A-3)"
              value={pageInput}
              onChange={(e) => setPageInput(e.target.value)}
              size={5}
              aria-invalid={pageError !== null}
            />
          </label>
          <span>
            {' '}
            {ownLabels ? `(${countWords(page)} of ${pageCount ? countWords(pageCount) : '…'})` : `of ${pageCount ? countWords(pageCount) : '…'}`}
          </span>
        </form>
        <button type="button" onClick={() => goTo(page + 1)} disabled={pageCount > 0 && page >= pageCount} aria-label="Next page">
          ›
        </button>
      </nav>
      <div className="reader-zoom" role="group" aria-label="Zoom">
        <button type="button" aria-label="Zoom out" title="Zoom out (Ctrl −)" onClick={() => setZoom(stepZoom(scale, -1))} disabled={scale <= (ZOOM_STEPS[0] ?? 0)}>
          −
        </button>
        <select aria-label="Zoom level" value={zoomValue(zoom)} onChange={(e) => setZoom(e.target.value === 'fit-width' || e.target.value === 'fit-page' ? { kind: e.target.value } : { kind: 'scale', scale: Number(e.target.value) })}>
          <option value="fit-width">{zoom.kind === 'fit-width' ? zoomLabel(zoom, scale) : 'Fit width'}</option>
          <option value="fit-page">{zoom.kind === 'fit-page' ? zoomLabel(zoom, scale) : 'Fit page'}</option>
          {ZOOM_STEPS.map((s) => (
            <option key={s} value={String(s)}>
              {Math.round(s * 100)}%
            </option>
          ))}
          {zoom.kind === 'scale' && !ZOOM_STEPS.includes(zoom.scale as (typeof ZOOM_STEPS)[number]) && <option value={String(zoom.scale)}>{Math.round(zoom.scale * 100)}%</option>}
        </select>
        <button type="button" aria-label="Zoom in" title="Zoom in (Ctrl +)" onClick={() => setZoom(stepZoom(scale, 1))} disabled={scale >= (ZOOM_STEPS[ZOOM_STEPS.length - 1] ?? 4)}>
          +
        </button>
      </div>
      <form className="reader-find" role="search" onSubmit={submitFind}>
        <input ref={findInput} type="search" aria-label="Find in document" placeholder="Find in document" value={query} onChange={(e) => setQuery(e.target.value)} size={16} />
        <button type="button" aria-label="Previous match" onClick={() => stepHit(-1)} disabled={hits.length === 0}>
          ↑
        </button>
        <button type="button" aria-label="Next match" onClick={() => stepHit(1)} disabled={hits.length === 0}>
          ↓
        </button>
        <span className="find-count" aria-live="polite">
          {find.status === 'searching' && 'Searching…'}
          {find.status === 'done' && (hits.length === 0 ? 'No matches' : `${find.current >= 0 ? `${countWords(find.current + 1)} of ` : ''}${countWords(find.result?.total ?? 0)}`)}
        </span>
      </form>
      {pending && (
        <span className="reader-busy" role="status" data-testid="reader-busy">
          <span className="spinner" aria-hidden="true" /> {pending.message}
        </span>
      )}
      {pageError && (
        <p className="reader-bar-error" role="alert">
          {pageError}
        </p>
      )}
      <span className={`text-status ${status ?? 'pending'}`} role="status" data-testid="text-status">
        {status && STATUS_TEXT[status]}
        {scanNote}
      </span>
    </div>
  );
}
