import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { useLibrary } from '../library/library-store.ts';
import { useExport } from '../reports/export-store.ts';
import { useAnswers } from './answers-store.ts';
import { useCards } from './cards-store.ts';
import { AnswerText } from './AnswerText.tsx';
import { LedgerSummary } from './LedgerSummary.tsx';
import { VirtualCards } from './VirtualCards.tsx';
import { CardFilterBar, ReviewerName } from './ReviewControls.tsx';
import { answerOrigin, answerTitle, reviewProgress, stepCitation } from './selectors.ts';

function typing(target: EventTarget): boolean {
  return target instanceof HTMLElement && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName));
}

/**
 * The selected answer: its ledger, its text with markers, and a card per citation. Keyboard:
 * j/k or arrows move between the cards shown (the viewer follows), Enter opens, x shows details,
 * a accepts, r rejects and f flags: each opens the card's form, where Enter confirms (no single key
 * decides). A filter narrows the cards; the reviewer's name goes on every decision.
 */
export function AnswerReview() {
  const { detail, detailError, busy, currentId, expanded, flagFilter, setFlagFilter, setFilter, select, verify, open, setCurrent, toggleExpanded, setDraft, live } = useAnswers();
  // Subscribed so a check or relink redraws the badges; healthOf answers for sources not on screen too.
  useLibrary((s) => s.summary);
  useLibrary((s) => s.sources);
  const healthOf = useLibrary((s) => s.healthOf);
  const openExport = useExport((s) => s.open);
  const cardList = useCards((s) => s.summary);
  const scrollRef = useRef<HTMLDivElement>(null);
  const moved = useRef(false);
  const [scrollTarget, setScrollTarget] = useState<{ id: number; tick: number } | null>(null);

  // Keyboard moves and marker clicks bring the current card into view (the list draws it there).
  useEffect(() => {
    if (!moved.current || currentId === null) return;
    moved.current = false;
    setScrollTarget((t) => ({ id: currentId, tick: (t?.tick ?? 0) + 1 }));
  }, [currentId]);

  if (detailError && !detail) {
    return (
      <div className="review">
        <button type="button" className="link back" onClick={() => void select(null)}>
          ‹ All answers
        </button>
        <p className="error" role="alert">
          {detailError}
        </p>
      </div>
    );
  }
  if (!detail) return <p className="muted review-loading">Opening the answer…</p>;

  // What the filter shows is SQL's answer (answers.cardsSummary); until it comes, the keys step nowhere.
  const ids = cardList?.ids ?? [];
  const total = detail.marks.length;
  const onKeyDown = (e: KeyboardEvent) => {
    if (typing(e.target) || e.altKey || e.ctrlKey || e.metaKey) return;
    // The store's current card, not this render's: a key pressed right after a click acts on the clicked card.
    const now = useAnswers.getState().currentId;
    const current = now !== null && detail.marks.some((m) => m.id === now) ? { id: now } : null;
    const step = e.key === 'j' || e.key === 'ArrowDown' ? 1 : e.key === 'k' || e.key === 'ArrowUp' ? -1 : 0;
    if (step !== 0) {
      const to = stepCitation(ids, now, step);
      if (to !== null) {
        moved.current = true;
        void open(to);
      }
    } else if (current && (e.key === 'Enter' || e.key === 'o')) void open(current.id);
    else if (current && e.key === 'x') toggleExpanded(current.id);
    else if (current && e.key === 'a') setDraft({ citationId: current.id, decision: 'accepted' });
    else if (current && e.key === 'r') setDraft({ citationId: current.id, decision: 'rejected' });
    else if (current && e.key === 'f') setDraft({ citationId: current.id, decision: 'flagged' });
    else return;
    e.preventDefault();
  };

  const { answer, run } = detail;
  const progress = reviewProgress(detail.marks);
  return (
    <div className="review" onKeyDown={onKeyDown}>
      <div className="review-bar">
        <button type="button" className="link back" onClick={() => void select(null)}>
          ‹ All answers
        </button>
        {progress && <span className="review-progress">{progress}</span>}
        <ReviewerName />
        <span className="muted run-info" title={run ? `Verified ${new Date(run.createdAt).toLocaleString()} by ${run.verifier}` : undefined}>
          {run ? `Run ${detail.runCount} · ${new Date(run.createdAt).toLocaleString(undefined, { dateStyle: 'short', timeStyle: 'short' })}` : 'Not verified'}
        </span>
        <button type="button" onClick={() => void verify()} disabled={busy !== null} title="Verify every citation again against the workspace (a new run; earlier runs are kept)">
          {busy === 'verify' ? 'Verifying…' : 'Re-verify'}
        </button>
        <button type="button" onClick={() => void openExport(answer.id, answerTitle(answer))} disabled={busy !== null} title="Export this answer as a report (HTML, PDF, Markdown, JSON, CSV or a bibliography)">
          Export…
        </button>
      </div>
      {/* Focusable as a whole (not card by card): a click focuses it without scrolling a card away under the pointer. */}
      <div className="review-scroll" ref={scrollRef} tabIndex={0} data-keys role="region" aria-label="Answer review">
        <div className="review-head">
          <h3 className="review-title">{answerTitle(answer)}</h3>
          <p className="muted answer-origin">{answerOrigin(answer)}</p>
          {answer.format === 'agent-session' && (
            <p className={`live-session${live[answer.id] ? ' on' : ''}`} role="status" aria-live="polite">
              {live[answer.id] ? '● Live: ' : ''}
              {total} {total === 1 ? 'citation' : 'citations'} so far; new ones appear here as the agent cites.
            </p>
          )}
          {run && <LedgerSummary summary={run.summary} riskFlags={run.riskFlags} onVerdict={(v) => setFilter(`verdict:${v}`)} onFlag={setFlagFilter} activeFlag={flagFilter} />}
          {detailError && (
            <p className="error" role="alert">
              {detailError}
            </p>
          )}
        </div>
        <AnswerText text={answer.answerText} marks={detail.marks} currentId={currentId} onOpen={(id) => {
          moved.current = true;
          void open(id);
        }} />
        {total > 0 && <CardFilterBar counts={detail.counts} />}
        {flagFilter !== null && (
          <p className="flag-filter" role="status">
            Showing {ids.length} {ids.length === 1 ? 'citation' : 'citations'}: {detail.run?.riskFlags.find((f) => f.code === flagFilter)?.message ?? flagFilter}.{' '}
            <button type="button" className="link" onClick={() => setFlagFilter(null)}>
              Show all
            </button>
          </p>
        )}
        {total === 0 ? (
          <p className="muted">This answer cites nothing.</p>
        ) : cardList === null ? null : cardList.total === 0 ? (
          <p className="muted no-match">No citation is shown by this filter.</p>
        ) : (
          <VirtualCards
            ids={cardList.ids}
            scrollElement={scrollRef}
            currentId={currentId}
            expanded={expanded}
            healthOf={healthOf}
            scrollTarget={scrollTarget}
            onOpen={(id) => {
              setCurrent(id);
              void open(id);
            }}
          />
        )}
      </div>
      <p className="key-hints muted" aria-hidden="true">
        <kbd>j</kbd>/<kbd>k</kbd> move · <kbd>Enter</kbd> open · <kbd>x</kbd> details · <kbd>a</kbd> accept · <kbd>r</kbd> reject · <kbd>f</kbd> flag, then <kbd>Enter</kbd> to confirm
      </p>
    </div>
  );
}
