import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useRef, useState, type KeyboardEvent, type RefObject } from 'react';
import { INITIAL_RECT, keepSizeWhileHidden, measureShown, overscanFor, useScrollMargin, placedRow } from '../../app/virtual-lists.ts';
import { moveIndex } from '../library/list-words.ts';
import { LedgerSummary } from './LedgerSummary.tsx';
import { answerOrigin, answerTitle } from './selectors.ts';
import { useAnswers } from './answers-store.ts';
import { progressText } from './review-trail.ts';
import { AnswerActions } from '../housekeeping/AnswerActions.tsx';

/** Review progress of one answer: a bar and its words ("2 of 9 reviewed"). */
function ReviewMeter({ reviewed, total }: { reviewed: number; total: number }) {
  const share = total === 0 ? 0 : Math.min(1, reviewed / total);
  return (
    <span className="answer-progress" data-testid="answer-progress">
      <span className="progress-bar" aria-hidden="true">
        <span style={{ width: `${Math.round(share * 100)}%` }} />
      </span>
      {progressText(reviewed, total)}
    </span>
  );
}

function when(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

/** The row height assumed before a row is measured (title, meta line, progress, ledger, actions). */
const ROW_ESTIMATE = 110;
/** Space between rows: rows are placed absolutely, so the gap is each row's padding. */
const GAP = 6;

/**
 * Every answer of the workspace, newest first, with the ledger of its latest run, drawn virtually
 * (issue 16): only the rows near the viewport are in the page. Arrows, j/k, Page Up/Down, Home and
 * End move the focus between answers (the list scrolls the row in first); screen readers hear the
 * list's size and each row's place.
 */
export function AnswerList({ scrollElement }: { scrollElement: RefObject<HTMLElement | null> }) {
  const { answers, listError, select } = useAnswers();
  const listRef = useRef<HTMLUListElement>(null);
  const margin = useScrollMargin(listRef, scrollElement);
  const [active, setActive] = useState(0);
  const wantFocus = useRef(false);
  const virtualizer = useVirtualizer({
    count: answers.length,
    getScrollElement: () => scrollElement.current,
    estimateSize: () => ROW_ESTIMATE,
    overscan: overscanFor(answers.length, 4),
    initialRect: INITIAL_RECT,
    observeElementRect: keepSizeWhileHidden,
    measureElement: measureShown(ROW_ESTIMATE),
    scrollMargin: margin,
    getItemKey: (i) => answers[i]?.id ?? i,
  });
  const items = virtualizer.getVirtualItems();

  useEffect(() => {
    if (active >= answers.length && answers.length > 0) setActive(answers.length - 1);
  }, [active, answers.length]);
  // A keyboard move focuses its row once the list has drawn it.
  useEffect(() => {
    if (!wantFocus.current) return;
    const button = listRef.current?.querySelector<HTMLElement>(`li[data-index="${active}"] .answer-item`);
    if (button) {
      wantFocus.current = false;
      button.focus({ preventScroll: true });
    }
  });

  if (listError) return <p className="error" role="alert">The answers could not be listed: {listError}</p>;
  if (answers.length === 0) {
    return <p className="empty-answers">No answers yet. Import an answer file (native JSON, Markdown, an Anthropic response, an evidence ledger or Web Annotations), or ask the offline answerer.</p>;
  }

  const onKeyDown = (e: KeyboardEvent) => {
    if (!(e.target instanceof HTMLElement) || !e.target.classList.contains('answer-item') || e.altKey || e.ctrlKey || e.metaKey) return;
    const to = moveIndex(e.key, active, answers.length, Math.max(1, items.length - 2));
    if (to === null) return;
    e.preventDefault();
    setActive(to);
    wantFocus.current = true;
    virtualizer.scrollToIndex(to, { align: 'auto' });
  };

  return (
    <ul ref={listRef} className="answer-list virtual" aria-label="Answers" onKeyDown={onKeyDown} style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
      {items.map((item) => {
        const a = answers[item.index];
        if (!a) return null;
        return (
          <li
            key={item.key}
            ref={virtualizer.measureElement}
            {...placedRow(item, answers.length, margin, GAP)}
          >
            <button
              type="button"
              className="answer-item"
              // One answer in the tab order (the active one); arrows move between them.
              tabIndex={item.index === active ? 0 : -1}
              onFocus={() => setActive(item.index)}
              onClick={() => void select(a.id)}
              data-answer-id={a.id}
            >
              <span className="answer-title">{answerTitle(a)}</span>
              <span className="answer-meta">
                {answerOrigin(a)} · {a.citationCount} {a.citationCount === 1 ? 'citation' : 'citations'} · {when(a.createdAt)}
              </span>
              <ReviewMeter reviewed={a.reviewedCount} total={a.citationCount} />
              {a.latestRun ? <LedgerSummary summary={a.latestRun.summary} riskFlags={a.latestRun.riskFlags} compact /> : <span className="muted">Not verified yet</span>}
            </button>
            <AnswerActions id={a.id} title={answerTitle(a)} />
          </li>
        );
      })}
    </ul>
  );
}
