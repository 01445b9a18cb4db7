import { useEffect, useId, useRef, type KeyboardEvent } from 'react';
import { modalKeyDown } from '../../app/modal-keys.ts';
import { useFindMissing } from './find-missing-store.ts';
import { FolderSearchForm } from './FolderSearchForm.tsx';
import { VirtualRows } from '../../app/VirtualRows.tsx';
import { plural, relinkManySummary, searchSummary } from './selectors.ts';
import './relink.css';

/**
 * Looks for every missing or changed source at once in a folder and its subfolders (the same bytes,
 * by SHA-256), then relinks all that were found in one step. A path is typed: browser mode has no
 * native folder dialog.
 */
export function FindMissingDialog() {
  const { ids, busy, error, search, found, relinked, close, searchIn, choose, relinkFound } = useFindMissing();
  const dialogRef = useRef<HTMLDivElement>(null);
  const dirRef = useRef<HTMLInputElement>(null);
  const returnFocus = useRef<HTMLElement | null>(null);
  const titleId = useId();
  const isOpen = ids !== null;

  useEffect(() => {
    if (!isOpen) return;
    returnFocus.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    dirRef.current?.focus();
    return () => returnFocus.current?.focus();
  }, [isOpen]);

  // After an error the focus goes back to the folder field, so the analyst can correct it at once.
  useEffect(() => {
    if (error) dirRef.current?.focus();
  }, [error]);

  if (!ids) return null;
  const ready = found.filter((f) => f.chosen !== null).length;
  const outcomes = new Map((relinked?.results ?? []).map((r) => [r.id, r]));
  const notFound = search ? ids.length - found.length : 0;

  return (
    <div className="modal-backdrop" onMouseDown={(e) => e.target === e.currentTarget && close()}>
      <div ref={dialogRef} className="relink-dialog" role="dialog" aria-modal="true" aria-labelledby={titleId} onKeyDown={(e: KeyboardEvent) => modalKeyDown(e, dialogRef.current, close)}>
        <header className="relink-head">
          <h2 id={titleId}>Find {plural(ids.length, 'missing file')}</h2>
          <button type="button" className="icon-button" onClick={close} aria-label="Close">
            ✕
          </button>
        </header>
        <p className="muted">
          Give a folder where the files may be now. It is searched with its subfolders for files with exactly the same contents as the ones ingested.
        </p>
        <FolderSearchForm label="Folder to search" busy={busy === 'search'} disabled={busy !== null} onSearch={(d) => void searchIn(d)} inputRef={dirRef} />

        {error && (
          <div className="relink-error" role="alert">
            <p>
              <span aria-hidden="true">✖ </span>
              {error}
            </p>
          </div>
        )}

        {search && (
          <div className="relink-search" role="status">
            <p>
              {searchSummary(search)}
              {found.length > 0 && notFound > 0 && ` ${plural(notFound, 'file')} not found there.`}
            </p>
          </div>
        )}

        {found.length > 0 && (
          <section className="relink-suggestions" aria-label="Files found">
            <VirtualRows
              count={found.length}
              estimate={30}
              label="Missing files found"
              className="suggestion-list"
              rowKey={(i) => found[i]?.id ?? i}
              row={(i) => {
                const f = found[i];
                if (!f) return null;
                const outcome = outcomes.get(f.id);
                return (
                  <div className="suggestion" data-source-id={f.id}>
                    <span className="file">{f.fileName}</span>
                    {f.matches.length === 1 ? (
                      <code className="path">{f.matches[0]}</code>
                    ) : (
                      <select aria-label={`Copy of ${f.fileName} to relink to`} value={f.chosen ?? ''} onChange={(e) => choose(f.id, e.target.value)}>
                        <option value="" disabled>
                          {f.matches.length} copies: pick one
                        </option>
                        {f.matches.map((m) => (
                          <option key={m} value={m}>
                            {m}
                          </option>
                        ))}
                      </select>
                    )}
                    {outcome && (outcome.ok ? <span className="health health-ok">✓ relinked</span> : <span className="error">✖ {outcome.error.message}</span>)}
                  </div>
                );
              }}
            />
            {relinked ? (
              <p role="status">{relinkManySummary(relinked, 'source')}</p>
            ) : (
              <button type="button" className="primary" onClick={() => void relinkFound()} disabled={busy !== null || ready === 0}>
                {busy === 'relink' ? 'Relinking…' : `Relink ${plural(ready, 'file')}`}
              </button>
            )}
          </section>
        )}

        <footer className="relink-foot">
          <button type="button" onClick={close}>
            {relinked ? 'Done' : 'Cancel'}
          </button>
        </footer>
      </div>
    </div>
  );
}
