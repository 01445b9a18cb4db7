import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import type { ResultRiskFlagCode } from '../../../../shared/verification/result-schema.ts';
import { useLibrary } from '../library/library-store.ts';
import { useExport } from '../reports/export-store.ts';
import { useAnswers } from './answers-store.ts';
import { AnswerText } from './AnswerText.tsx';
import { LedgerSummary } from './LedgerSummary.tsx';
import { VirtualCards } from './VirtualCards.tsx';
import { CardFilterBar, ReviewerName } from './ReviewControls.tsx';
import { filterCitations } from './review-trail.ts';
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
  const { detail, detailError, busy, currentId, expanded, filter, flagFilter, setFlagFilter, setFilter, select, verify, open, setCurrent, toggleExpanded, setDraft, live } = useAnswers();
  // Subscribed so a check or relink redraws the badges; healthOf answers for sources not on screen too.
  useLibrary((s) => s.summary);
  useLibrary((s) => s.sources);
  const healthOf = useLibrary((s) => s.healthOf);
  const openExport = useExport((s) => s.open);
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

  const shown = flagged(filterCitations(detail.citations, filter), flagFilter, detail.run?.riskFlags ?? []);
  const ids = shown.map((c) => c.id);
  const onKeyDown = (e: KeyboardEvent) => {
    if (typing(e.target) || e.altKey || e.ctrlKey || e.metaKey) return;
    // The store's current card, not this render's: a key pressed right after a click acts on the clicked card.
    const now = useAnswers.getState().currentId;
    const current = detail.citations.find((c) => c.id === now) ?? null;
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
  const progress = reviewProgress(detail.citations);
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
              {detail.citations.length} {detail.citations.length === 1 ? 'citation' : 'citations'} so far; new ones appear here as the agent cites.
            </p>
          )}
          {run && <LedgerSummary summary={run.summary} riskFlags={run.riskFlags} onVerdict={(v) => setFilter(`verdict:${v}`)} onFlag={setFlagFilter} activeFlag={flagFilter} />}
          {detailError && (
            <p className="error" role="alert">
              {detailError}
            </p>
          )}
        </div>
        <AnswerText text={answer.answerText} citations={detail.citations} currentId={currentId} onOpen={(id) => {
          moved.current = true;
          void open(id);
        }} />
        {detail.citations.length > 0 && <CardFilterBar citations={detail.citations} />}
        {flagFilter !== null && (
          <p className="flag-filter" role="status">
            Showing {shown.length} {shown.length === 1 ? 'citation' : 'citations'}: {detail.run?.riskFlags.find((f) => f.code === flagFilter)?.message ?? flagFilter}.{' '}
            <button type="button" className="link" onClick={() => setFlagFilter(null)}>
              Show all
            </button>
          </p>
        )}
        {detail.citations.length === 0 ? (
          <p className="muted">This answer cites nothing.</p>
        ) : shown.length === 0 ? (
          <p className="muted no-match">No citation is shown by this filter.</p>
        ) : (
          <VirtualCards
            shown={shown}
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

/** The cards of one risk flag, by their markers (a flag group clicked in the ledger). */
function flagged<C extends { marker: string }>(cards: C[], code: ResultRiskFlagCode | null, flags: readonly { code: ResultRiskFlagCode; markers: readonly string[] }[]): C[] {
  if (code === null) return cards;
  const markers = new Set(flags.find((f) => f.code === code)?.markers ?? []);
  return cards.filter((c) => markers.has(c.marker));
}
