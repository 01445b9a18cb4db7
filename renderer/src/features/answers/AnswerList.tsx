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

/** Every answer of the workspace, newest first, with the ledger of its latest run. */
export function AnswerList() {
  const { answers, listError, select } = useAnswers();
  if (listError) return <p className="error" role="alert">The answers could not be listed: {listError}</p>;
  if (answers.length === 0) {
    return <p className="empty-answers">No answers yet. Import an answer file (native JSON, Markdown, an Anthropic response, an evidence ledger or Web Annotations), or ask the offline answerer.</p>;
  }
  return (
    <ul className="answer-list" aria-label="Answers">
      {answers.map((a) => (
        <li key={a.id}>
          <button type="button" className="answer-item" onClick={() => void select(a.id)} data-answer-id={a.id}>
            <span className="answer-title">{answerTitle(a)}</span>
            <span className="answer-meta">
              {answerOrigin(a)} · {a.citationCount} {a.citationCount === 1 ? 'citation' : 'citations'} · {when(a.createdAt)}
            </span>
            <ReviewMeter reviewed={a.reviewedCount} total={a.citationCount} />
            {a.latestRun ? <LedgerSummary summary={a.latestRun.summary} riskFlags={a.latestRun.riskFlags} compact /> : <span className="muted">Not verified yet</span>}
          </button>
          <AnswerActions id={a.id} title={answerTitle(a)} />
        </li>
      ))}
    </ul>
  );
}
