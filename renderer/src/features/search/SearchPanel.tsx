import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import type { SearchHit, SourceKind } from '../../../../shared/contract/schemas.ts';
import { MAX_PAGE_ROWS } from '../../../../shared/contract/list-schemas.ts';
import { client } from '../../api/client.ts';
import { kindName } from '../library/list-words.ts';
import { formatLocator } from '../../../../shared/domain/locator.ts';
import { useLibrary } from '../library/library-store.ts';
import { useFirstScreenShown, useShownOnce } from '../../app/first-screen.ts';
import { HIT_LIMIT, useSearch } from './search-store.ts';
import './search.css';
import { countWords } from '../../../../shared/text/count-words.ts';

const KINDS: SourceKind[] = ['pdf', 'docx', 'pptx', 'xlsx', 'html', 'text', 'markdown'];

interface SourceChoice {
  id: number;
  fileName: string;
}

/**
 * The Source filter's choices: the library's first page by name, fetched for this menu (the library
 * list holds only the rows on its screen). `more` says the library has names beyond that page.
 * Fetched once the panel is first shown (`wanted`), and again as the library's size changes: a page
 * of hundreds of names is no work for the first screen (issue 16).
 */
function useSourceChoices(wanted: boolean): { choices: SourceChoice[]; more: boolean } {
  const count = useLibrary((s) => s.count);
  const ready = useFirstScreenShown() && wanted;
  const [state, setState] = useState<{ choices: SourceChoice[]; more: boolean }>({ choices: [], more: false });
  useEffect(() => {
    if (!ready) return;
    let current = true;
    void client
      .call('sources.page', { sort: 'name', dir: 'asc', filter: {}, limit: MAX_PAGE_ROWS })
      .then((page) => {
        if (current) setState({ choices: page.rows.map((r) => ({ id: r.source.id, fileName: r.source.fileName })), more: page.next !== null });
      })
      .catch(() => undefined); // the menu keeps its last choices; the search itself still works
    return () => {
      current = false;
    };
  }, [count, ready]);
  return state;
}

/** How long typing pauses before a search runs (Enter runs it at once). */
const TYPING_PAUSE_MS = 200;

/** The snippet with its matched words marked. */
function Snippet({ hit }: { hit: SearchHit }) {
  const text = hit.snippet ?? '';
  const parts: ReactNode[] = [];
  let at = 0;
  hit.highlights.forEach(([start, end], i) => {
    if (start > at) parts.push(text.slice(at, start));
    parts.push(<mark key={i}>{text.slice(start, end)}</mark>);
    at = end;
  });
  if (at < text.length) parts.push(text.slice(at));
  return <span className="hit-snippet">{parts}</span>;
}

function resultLine(count: number, searched: string): string {
  if (count === 0) return `No passage matches ${searched}.`;
  const more = count >= HIT_LIMIT ? ` (the best ${HIT_LIMIT}: add words or a filter to narrow them)` : '';
  return `${countWords(count)} ${count === 1 ? 'passage matches' : 'passages match'}${more}.`;
}

export function SearchPanel() {
  const { query, filters, hits, searched, busy, error, openedSegment, setQuery, setFilters, run, open } = useSearch();
  const panelRef = useRef<HTMLElement>(null);
  const { choices: sources, more: moreSources } = useSourceChoices(useShownOnce(panelRef));
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({ count: hits.length, getScrollElement: () => scrollRef.current, estimateSize: () => 72, overscan: 8 });

  // Searches as the analyst types, once typing pauses, and again when a filter changes.
  useEffect(() => {
    const t = setTimeout(() => void run(), TYPING_PAUSE_MS);
    return () => clearTimeout(t);
  }, [query, filters, run]);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    void run();
  };

  return (
    <section className="search-panel" aria-label="Search" ref={panelRef}>
      <h2>Search all sources</h2>
      <form className="search-form" role="search" onSubmit={submit}>
        <label htmlFor="search-query">Words to find (put a phrase in quotes)</label>
        <input id="search-query" type="search" value={query} onChange={(e) => setQuery(e.target.value)} placeholder='e.g. "annual leave" carry over' autoComplete="off" />
        <div className="search-filters">
          <label htmlFor="search-source">Source</label>
          <select id="search-source" value={filters.sourceId ?? ''} onChange={(e) => setFilters({ sourceId: e.target.value === '' ? null : Number(e.target.value) })}>
              <option value="">every source</option>
              {sources.map((s) => (
                <option key={s.id} value={s.id}>
                  {s.fileName}
                </option>
              ))}
              {moreSources && (
                <option value="" disabled>
                  (the first {countWords(MAX_PAGE_ROWS)} by name)
                </option>
              )}
          </select>
          <label htmlFor="search-kind">Type</label>
          <select id="search-kind" value={filters.kind ?? ''} onChange={(e) => setFilters({ kind: e.target.value === '' ? null : (e.target.value as SourceKind) })}>
              <option value="">every type</option>
              {KINDS.map((kind) => (
                <option key={kind} value={kind}>
                  {kindName(kind)}
                </option>
              ))}
          </select>
        </div>
      </form>
      <p className="search-status" role="status">
        {busy ? 'Searching…' : searched !== null && !error ? resultLine(hits.length, searched) : ''}
      </p>
      {error && <p className="error" role="alert">The search failed: {error}</p>}
      <div className="hit-scroll" ref={scrollRef} tabIndex={hits.length > 0 ? 0 : -1} role="region" aria-label="Matching passages">
        <ol className="hits" style={{ height: virtualizer.getTotalSize() }}>
          {virtualizer.getVirtualItems().map((item) => {
            const hit = hits[item.index];
            if (!hit) return null;
            return (
              <li key={hit.segmentId} data-index={item.index} ref={virtualizer.measureElement} className="hit-item" style={{ transform: `translateY(${item.start}px)` }} aria-setsize={hits.length} aria-posinset={item.index + 1}>
                <button type="button" className={`hit${hit.segmentId === openedSegment ? ' opened' : ''}`} onClick={() => open(hit)} data-testid="search-hit">
                  <span className="hit-where">
                    <span className="hit-file">{hit.fileName}</span> <span className="hit-locator">{formatLocator(hit.locator)}</span>
                  </span>
                  <Snippet hit={hit} />
                </button>
              </li>
            );
          })}
        </ol>
      </div>
    </section>
  );
}
