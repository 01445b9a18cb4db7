import { useEffect, useState } from 'react';
import { useLibrary, type LibraryQuery } from './library-store.ts';
import { kindName, SORT_CHOICES, sortChoiceOf } from './list-words.ts';
import { countWords } from '../../../../shared/text/count-words.ts';

/** Find by name, narrow by kind or restriction, sort: the database does each (issue 12 item 4, issue 16). */
export function LibraryToolbar() {
  const { query, summary, setQuery } = useLibrary();
  const [text, setText] = useState(query.filter.text ?? '');

  // Typing settles for a moment before the library is asked again.
  useEffect(() => {
    if ((query.filter.text ?? '') === text.trim()) return;
    const t = setTimeout(() => void setQuery({ filter: { ...query.filter, text: text.trim() || undefined } }), 200);
    return () => clearTimeout(t);
  }, [text, query.filter, setQuery]);

  const filter = (patch: Partial<LibraryQuery['filter']>) => void setQuery({ filter: { ...query.filter, ...patch } });
  const n = countWords;
  const filtered = summary !== null && summary.total !== summary.all;
  return (
    <div className="library-tools" role="search" aria-label="Find sources">
      <input type="search" value={text} onChange={(e) => setText(e.target.value)} placeholder="Find by file name or title" aria-label="Find sources by file name or title" />
      <select
        aria-label="Kind of source"
        value={query.filter.restricted ? 'restricted' : (query.filter.kind ?? '')}
        onChange={(e) => {
          const v = e.target.value;
          if (v === 'restricted') filter({ kind: undefined, restricted: true });
          else filter({ kind: v === '' ? undefined : (v as NonNullable<LibraryQuery['filter']['kind']>), restricted: undefined });
        }}
      >
        <option value="">All kinds{summary ? ` (${n(summary.all)})` : ''}</option>
        {summary?.kinds.map((k) => (
          <option key={k.kind} value={k.kind}>
            {kindName(k.kind)} ({n(k.count)})
          </option>
        ))}
        {summary !== null && summary.restricted > 0 && <option value="restricted">Restricted ({n(summary.restricted)})</option>}
      </select>
      <select
        aria-label="Sort sources"
        value={sortChoiceOf(query)}
        onChange={(e) => {
          const choice = SORT_CHOICES.find((c) => c.value === e.target.value);
          if (choice) void setQuery({ sort: choice.sort, dir: choice.dir });
        }}
      >
        {SORT_CHOICES.map((c) => (
          <option key={c.value} value={c.value}>
            {c.label}
          </option>
        ))}
      </select>
      <span className="list-count muted" role="status" data-testid="source-count">
        {summary === null ? '' : filtered ? `${n(summary.total)} of ${n(summary.all)} sources match` : `${n(summary.all)} ${summary.all === 1 ? 'source' : 'sources'}`}
      </span>
      {filtered && (
        <button
          type="button"
          className="link"
          onClick={() => {
            setText('');
            void setQuery({ filter: {} });
          }}
        >
          Show all
        </button>
      )}
    </div>
  );
}
