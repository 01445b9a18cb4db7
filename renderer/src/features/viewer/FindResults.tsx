import { useEffect, useState } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useReader } from './reader-store.ts';
import { countWords } from '../../../../shared/text/count-words.ts';

const ROW = 58;

/** The find hits as a list (drawn virtually: "the" in a 2,400-page manual is thousands of rows). */
export function FindResults() {
  const find = useReader((s) => s.find);
  const [scroller, setScroller] = useState<HTMLDivElement | null>(null);
  const hits = find.result?.hits ?? [];
  const virtualizer = useVirtualizer({ count: hits.length, getScrollElement: () => scroller, estimateSize: () => ROW, overscan: 6 });

  useEffect(() => {
    if (find.current >= 0) virtualizer.scrollToIndex(find.current, { align: 'auto' });
  }, [find.current, virtualizer]);

  if (find.status === 'idle') return <p className="sidebar-note">Type in “Find in document” and press Enter to list every place the words occur.</p>;
  if (find.status === 'searching') return <p className="sidebar-note" role="status">Searching the document’s text…</p>;
  if (find.status === 'error') return <p className="sidebar-note error" role="alert">{find.error}</p>;
  const total = find.result?.total ?? 0;
  return (
    <div className="find-results">
      <p className="sidebar-note" role="status">
        {total === 0 ? `No matches for “${find.query}”.` : `${countWords(total)} ${total === 1 ? 'match' : 'matches'} for “${find.query}”`}
        {find.result?.truncated && `; the first ${countWords(hits.length)} are listed.`}
      </p>
      <div ref={setScroller} className="find-list" data-testid="find-results">
        <ol style={{ height: virtualizer.getTotalSize() }} aria-label="Matches">
          {virtualizer.getVirtualItems().map((item) => {
            const hit = hits[item.index];
            if (!hit) return null;
            const [a, b] = hit.snippetHit;
            return (
              <li key={item.index} style={{ transform: `translateY(${item.start}px)`, height: ROW }}>
                <button
                  type="button"
                  className="find-hit-row"
                  aria-current={item.index === find.current ? 'true' : undefined}
                  onClick={() => {
                    useReader.getState().setFindCurrent(item.index);
                    useReader.getState().navigate(hit.page, hit.start);
                  }}
                >
                  <span className="find-hit-page">p. {hit.pageLabel && hit.pageLabel !== String(hit.page) ? `${hit.pageLabel} (${hit.page})` : hit.page}</span>
                  <span className="find-hit-snippet">
                    {hit.snippet.slice(0, a)}
                    <mark>{hit.snippet.slice(a, b)}</mark>
                    {hit.snippet.slice(b)}
                  </span>
                </button>
              </li>
            );
          })}
        </ol>
      </div>
    </div>
  );
}
