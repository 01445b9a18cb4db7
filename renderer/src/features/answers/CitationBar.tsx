import { useAnswers } from './answers-store.ts';
import { useViewer } from '../viewer/viewer-store.ts';
import { Pill } from './Pill.tsx';
import { statusLabel, stepCitation, verdictLabel } from './selectors.ts';
import './answers.css';

/**
 * Over the viewer, while it shows a citation: which one, what the viewer does with it (highlights
 * the quote, or shows the claimed place and says why nothing is highlighted), and the way to the
 * previous and next citations.
 */
export function CitationBar() {
  const { opened, detail, open } = useAnswers();
  const viewerSource = useViewer((s) => s.sourceId);
  // The markers suffice here: the bar names the citation and steps through the answer's order.
  const citations = detail?.marks ?? [];
  const c = opened ? citations.find((x) => x.id === opened.citationId) : undefined;
  if (!opened || !c || (opened.sourceId !== null && opened.sourceId !== viewerSource)) return null;
  const ids = citations.map((x) => x.id);
  const prev = stepCitation(ids, c.id, -1);
  const next = stepCitation(ids, c.id, 1);
  return (
    <div className={`citation-bar ${opened.highlights ? 'placed' : 'unplaced'}`} data-testid="citation-bar">
      <span className="marker">[{c.marker}]</span>
      {c.status && <Pill label={statusLabel(c.status, c.unit ?? undefined)} role="status" />}
      {c.verdict && <Pill label={verdictLabel(c.verdict)} role="verdict" />}
      <span className="bar-message" role="status" data-testid="citation-message">
        {!opened.highlights && <span aria-hidden="true">⚠ </span>}
        {opened.message}
      </span>
      <span className="bar-nav">
        <button type="button" onClick={() => prev !== null && void open(prev)} disabled={prev === c.id} aria-label="Previous citation">
          ‹
        </button>
        <span className="muted">
          {ids.indexOf(c.id) + 1} of {ids.length}
        </span>
        <button type="button" onClick={() => next !== null && void open(next)} disabled={next === c.id} aria-label="Next citation">
          ›
        </button>
      </span>
    </div>
  );
}
