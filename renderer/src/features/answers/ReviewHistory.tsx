import type { CitationDetail } from '../../../../shared/contract/answer-schemas.ts';
import { undoPlan } from '../../../../shared/review/trail.ts';
import { trailWhat, trailWho, whenText } from './review-trail.ts';

/**
 * A citation's review trail, newest first, in sentences: what was done, by whom, when, and the
 * note. Undo restores the decision before the last one; Clear leaves none in force. Both are new
 * rows in the trail, as every decision is.
 */
export function ReviewHistory({ citation: c, onUndo, onClear }: { citation: CitationDetail; onUndo(): void; onClear(): void }) {
  if (c.history.length === 0) return null;
  const rows = [...c.history].reverse();
  const canUndo = undoPlan(c.history) !== null;
  return (
    <section className="review-history" aria-label={`Review history of [${c.marker}]`}>
      <div className="history-head">
        <h4>Review history</h4>
        <span className="history-buttons">
          <button type="button" onClick={onUndo} disabled={!canUndo} title="Go back to the decision before the last one (recorded as a new row)">
            ↶ Undo
          </button>
          <button type="button" onClick={onClear} disabled={c.review === null} title="Leave this citation with no decision (recorded as a new row)">
            Clear decision
          </button>
        </span>
      </div>
      <ol className="history-rows">
        {rows.map((r) => (
          <li key={r.id} data-decision={r.decision} title={`${r.decision}${r.undoesId !== null ? ` (undoes row ${r.undoesId})` : ''} · ${r.createdAt}`}>
            <span className="history-what">{trailWhat(r, c.history)}</span> <span className="muted">by {trailWho(r)}, {whenText(r.createdAt)}</span>
            {r.note && r.undoesId === null && <span className="history-note">“{r.note}”</span>}
          </li>
        ))}
      </ol>
    </section>
  );
}
