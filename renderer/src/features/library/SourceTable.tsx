import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { INITIAL_RECT, keepSizeWhileHidden, measureShown, overscanFor, useRevealWhenLoaded } from '../../app/virtual-lists.ts';
import type { SourceSummary } from '../../../../shared/contract/schemas.ts';
import { rowAt } from '../../app/page-window.ts';
import { HealthBadge } from '../relink/HealthBadge.tsx';
import { useRelink } from '../relink/relink-store.ts';
import { needsRelink } from '../relink/selectors.ts';
import { useViewer } from '../viewer/viewer-store.ts';
import { useLibrary } from './library-store.ts';
import { moveIndex } from './list-words.ts';
import { RestrictedToggle } from './RestrictedToggle.tsx';
import { RemoveSource } from '../housekeeping/RemoveSource.tsx';
import { formatBytes, sourceExtent } from './selectors.ts';

const ROW_ESTIMATE = 46;
/** The sticky header row's height: rows are placed below it. */
const HEADER = 27;

/**
 * The library drawn virtually (issue 16): only the rows near the viewport are in the page, fetched a
 * page at a time by cursor. The table takes focus as a whole; arrows, Page Up/Down, Home and End move
 * the active row (announced through aria-activedescendant, sized by aria-rowcount), Enter opens it.
 */
export function SourceTable() {
  const { summary, window, ensureRows, setRestricted } = useLibrary();
  const openSource = useViewer((s) => s.open);
  const openId = useViewer((s) => s.sourceId);
  const { byId: healthById, open: openRelink } = useRelink();
  const scrollRef = useRef<HTMLDivElement>(null);
  const [active, setActive] = useState(0);
  // Before the summary, the first page alone is known (drawn first, issue 16).
  const firstRows = useLibrary((s) => s.firstRows);
  const total = summary?.total ?? firstRows;

  const virtualizer = useVirtualizer({
    count: total,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_ESTIMATE,
    overscan: overscanFor(total, 6),
    initialRect: INITIAL_RECT,
    observeElementRect: keepSizeWhileHidden,
    measureElement: measureShown(ROW_ESTIMATE),
    paddingStart: HEADER,
    scrollPaddingStart: HEADER,
  });
  const items = virtualizer.getVirtualItems();
  const first = items[0]?.index ?? 0;
  const last = items[items.length - 1]?.index ?? -1;

  // The rows on screen are fetched when their page is not held.
  useEffect(() => {
    if (last >= first) void ensureRows(first, last);
  }, [first, last, ensureRows, summary]);

  // A new filter or sort starts at the top; a refresh of the same list keeps its place.
  const query = useLibrary((s) => s.query);
  useEffect(() => {
    setActive(0);
    scrollRef.current?.scrollTo({ top: 0 });
  }, [query]);
  useEffect(() => {
    if (active >= total && total > 0) setActive(total - 1);
  }, [active, total]);

  // A row moved to by keyboard is scrolled to again once its page arrives.
  const revealer = useRevealWhenLoaded(virtualizer, window);

  // End pressed before the count is known (a new filter or sort: the first page comes before the
  // count) went to the end of the first page: it goes on to the last row once the count arrives.
  const endPending = useRef(false);
  useEffect(() => {
    endPending.current = false;
  }, [query]);
  useEffect(() => {
    if (!endPending.current || !summary) return;
    endPending.current = false;
    if (total > 0) {
      setActive(total - 1);
      revealer.reveal(total - 1);
    }
  }, [summary, total, revealer]);

  const onKeyDown = (e: KeyboardEvent) => {
    if (e.target !== e.currentTarget || e.altKey || e.ctrlKey || e.metaKey) return;
    const shown = Math.max(1, items.length - 2);
    const to = moveIndex(e.key, active, total, shown);
    if (to !== null) {
      endPending.current = e.key === 'End' && !summary;
      setActive(to);
      revealer.reveal(to);
      e.preventDefault();
      return;
    }
    const s = rowAt(window, active);
    if (e.key === 'Enter' && s) {
      openSource(s.id, s.kind);
      e.preventDefault();
    }
  };

  const top = (items[0]?.start ?? HEADER) - HEADER;
  const bottom = virtualizer.getTotalSize() - (items[items.length - 1]?.end ?? HEADER);
  return (
    <div className="sources-scroll" ref={scrollRef} onWheel={revealer.cancel}>
      <table
        className="sources"
        role="grid"
        tabIndex={0}
        aria-label="Sources"
        aria-rowcount={total + 1}
        // Only a row in the page can be named: scrolled away by the mouse, the active row is not.
        aria-activedescendant={items.some((i) => i.index === active) ? `source-row-${active}` : undefined}
        onKeyDown={onKeyDown}
        data-testid="source-table"
      >
        <thead>
          <tr aria-rowindex={1}>
            <th scope="col">Name</th>
            <th scope="col">Length</th>
            <th scope="col">Health</th>
            <th scope="col">Size</th>
            <th scope="col">SHA-256</th>
          </tr>
        </thead>
        <tbody>
          {top > 0 && (
            <tr aria-hidden="true" className="spacer">
              <td colSpan={5} style={{ height: top }} />
            </tr>
          )}
          {items.map((item) => {
            const s = rowAt(window, item.index);
            const classes = [item.index === active && 'active', s?.id === openId && 'selected', s?.restricted && 'restricted'].filter(Boolean).join(' ') || undefined;
            return (
              <tr key={item.key} id={`source-row-${item.index}`} data-index={item.index} ref={virtualizer.measureElement} aria-rowindex={item.index + 2} aria-selected={item.index === active} className={classes} data-source-id={s?.id} onMouseDown={() => setActive(item.index)}>
                {s ? (
                  <SourceCells
                    s={s}
                    detail={healthById[s.id]?.detail}
                    onOpen={() => openSource(s.id, s.kind)}
                    onRestrict={() => void setRestricted(s.id, !s.restricted)}
                    onRelink={() => openRelink({ id: s.id, fileName: s.fileName, path: s.path, health: s.health })}
                  />
                ) : (
                  <td colSpan={5} className="loading-row muted">
                    Loading…
                  </td>
                )}
              </tr>
            );
          })}
          {bottom > 0 && (
            <tr aria-hidden="true" className="spacer">
              <td colSpan={5} style={{ height: bottom }} />
            </tr>
          )}
          {summary !== null && total === 0 && (
            <tr>
              <td colSpan={5} className="empty">
                {summary.all === 0 ? 'No sources yet. Add a PDF by its path above, or drop files here.' : 'No source matches this search.'}
              </td>
            </tr>
          )}
        </tbody>
      </table>
    </div>
  );
}

function SourceCells({ s, detail, onOpen, onRestrict, onRelink }: { s: SourceSummary; detail: string | undefined; onOpen: () => void; onRestrict: () => void; onRelink: () => void }) {
  const extent = sourceExtent(s);
  return (
    <>
      <td>
        <div className="name-cell">
          <span>
            <button type="button" className="link" onClick={onOpen} title={s.path ?? s.archivedFrom?.url ?? s.fileName}>
              {s.fileName}
            </button>
            {s.warnings.length > 0 && <span className="badge" title={s.warnings.map((w) => w.message).join('\n')}>⚠ {s.warnings.length}</span>}
          </span>
          {s.uploaded && <span className="muted">Uploaded from the browser: the workspace’s copy is the source of record.</span>}
          <RestrictedToggle fileName={s.fileName} restricted={s.restricted} onToggle={onRestrict} />
          <RemoveSource id={s.id} fileName={s.fileName} />
        </div>
      </td>
      <td title={extent.title}>{extent.label}</td>
      <td>
        <div className="health-cell">
          <HealthBadge health={s.health} title={detail ?? s.path ?? undefined} />
          {needsRelink(s.health) && (
            <button type="button" className="link" onClick={onRelink} aria-label={`Relink ${s.fileName}`}>
              Relink…
            </button>
          )}
        </div>
      </td>
      <td>{formatBytes(s.byteSize)}</td>
      <td>
        <code className="sha" title={s.sha256} data-sha256={s.sha256}>
          {s.sha256.slice(0, 12)}…
        </code>
      </td>
    </>
  );
}
