import { useEffect, useState, type KeyboardEvent } from 'react';
import type { CardCounts } from '../../../../shared/contract/card-schemas.ts';
import { useAnswers } from './answers-store.ts';
import { CARD_FILTERS, isCardFilter, type CardFilter } from './review-trail.ts';
import { statusLabel, verdictLabel } from './selectors.ts';

/** The reviewer's name, recorded on each decision; remembered by the workspace, saved on Enter or when leaving the field. */
export function ReviewerName() {
  const { reviewer, loadReviewer, saveReviewer } = useAnswers();
  const [text, setText] = useState(reviewer ?? '');
  const [error, setError] = useState<string | null>(null);
  useEffect(() => void loadReviewer(), [loadReviewer]);
  useEffect(() => setText(reviewer ?? ''), [reviewer]);
  const save = () =>
    saveReviewer(text).then(
      () => setError(null),
      (e: unknown) => setError(`The name was not saved: ${e instanceof Error ? e.message : String(e)}`),
    );
  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    // The desk's keys (a, r, j…) are letters of a name: they stay in the field.
    e.stopPropagation();
    if (e.key === 'Enter') {
      e.preventDefault();
      void save();
    }
  };
  return (
    <label className="reviewer-name" title={error ?? 'Recorded with each of your decisions and offered on exported reports'}>
      Reviewer
      <input value={text} onChange={(e) => setText(e.target.value)} onBlur={() => void save()} onKeyDown={onKeyDown} placeholder="Your name" maxLength={200} autoComplete="name" aria-invalid={error ? true : undefined} />
    </label>
  );
}

const FILTER_TEXT: Record<'all' | 'unreviewed' | 'problems', string> = { all: 'All citations', unreviewed: 'Not yet reviewed', problems: 'Problems to look at' };

function filterText(f: CardFilter): string {
  if (f === 'all' || f === 'unreviewed' || f === 'problems') return FILTER_TEXT[f];
  if (f.startsWith('status:')) return statusLabel(f.slice('status:'.length) as Parameters<typeof statusLabel>[0]).text;
  return verdictLabel(f.slice('verdict:'.length) as Parameters<typeof verdictLabel>[0]).text;
}

/** Which cards are shown: all, not yet reviewed, problems, or one status or verdict; each with its count. */
export function CardFilterBar({ counts }: { counts: CardCounts }) {
  const { filter, setFilter } = useAnswers();
  // Counted in SQL when the answer was opened (answers.open).
  const count = (f: CardFilter) => counts[f] ?? 0;
  const option = (f: CardFilter) => {
    const n = count(f);
    // Empty statuses and verdicts are left out, unless chosen.
    if (n === 0 && f.includes(':') && f !== filter) return null;
    return (
      <option key={f} value={f}>
        {filterText(f)} ({n})
      </option>
    );
  };
  const groups = (prefix: string) => CARD_FILTERS.filter((f) => f.startsWith(prefix)).map(option);
  return (
    <div className="card-filter">
      <label>
        Show
        <select
          title="Problems: quotes not found or only partly, unknown sources, weak or contradicted claims, flagged citations"
          value={filter}
          onChange={(e) => isCardFilter(e.target.value) && setFilter(e.target.value)}
          aria-label="Show citations"
        >
          {option('all')}
          {option('unreviewed')}
          {option('problems')}
          <optgroup label="By status">{groups('status:')}</optgroup>
          <optgroup label="By verdict">{groups('verdict:')}</optgroup>
        </select>
      </label>
      {filter !== 'all' && (
        <button type="button" className="link" onClick={() => setFilter('all')}>
          Show all
        </button>
      )}
    </div>
  );
}
