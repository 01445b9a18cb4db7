import { modalKeyDown } from '../../app/modal-keys.ts';
import { useEffect, useId, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { useLibrary } from '../library/library-store.ts';
import { FolderSearchForm } from './FolderSearchForm.tsx';
import { VirtualRows } from '../../app/VirtualRows.tsx';
import { HealthBadge } from './HealthBadge.tsx';
import { useRelink } from './relink-store.ts';
import { citationsText, explainHealth, plural, relinkManySummary, searchSummary, suggestionsFolder } from './selectors.ts';
import './relink.css';


/**
 * Relinks a missing (or modified) source to its file: by a typed path, or by searching a folder
 * for the same bytes; then offers the other missing sources found under the same new folder.
 * Paths are typed because browser mode has no native file dialogs.
 */
export function RelinkDialog() {
  const { target, busy, error, search, relinked, relinkedAll, close, relinkTo, searchIn, relinkAll } = useRelink();
  const addSources = useLibrary((s) => s.ingest);
  const [pathText, setPathText] = useState('');
  const dialogRef = useRef<HTMLDivElement>(null);
  const pathRef = useRef<HTMLInputElement>(null);
  const returnFocus = useRef<HTMLElement | null>(null);
  const afterRelinkRef = useRef<HTMLButtonElement>(null);
  const titleId = useId();
  const descId = useId();
  const targetId = target?.id ?? null;

  // Focus moves into the dialog when it opens and back to where it was when it closes.
  useEffect(() => {
    if (targetId === null) return;
    returnFocus.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    setPathText(useRelink.getState().target?.path ?? '');
    pathRef.current?.focus();
    pathRef.current?.select();
    return () => returnFocus.current?.focus();
  }, [targetId]);

  // After a relink (or Relink all) the button pressed is gone: focus goes to the next decision,
  // once the buttons are enabled again.
  const relinkedPath = relinked?.path ?? null;
  const idle = busy === null;
  useEffect(() => {
    if (relinkedPath !== null && idle) afterRelinkRef.current?.focus();
  }, [relinkedPath, relinkedAll, idle]);

  if (!target) return null;

  const onKeyDown = (e: KeyboardEvent) => modalKeyDown(e, dialogRef.current, close);

  const submitPath = (e: FormEvent) => {
    e.preventDefault();
    const p = pathText.trim();
    if (p) void relinkTo(p);
  };

  const matches = search?.results[0]?.matches ?? [];
  const suggestions = relinked?.suggestions ?? [];
  const outcomes = new Map((relinkedAll?.results ?? []).map((r) => [r.id, r]));
  const done = relinked !== null;

  return (
    <div className="modal-backdrop" onMouseDown={(e) => e.target === e.currentTarget && close()}>
      <div ref={dialogRef} className="relink-dialog" role="dialog" aria-modal="true" aria-labelledby={titleId} aria-describedby={done ? undefined : descId} onKeyDown={onKeyDown}>
        <header className="relink-head">
          <h2 id={titleId}>Relink {target.fileName}</h2>
          <button type="button" className="icon-button" onClick={close} aria-label="Close">
            ✕
          </button>
        </header>
        {!done && (
          <div id={descId} className="relink-about">
            {target.reason && <p className="relink-reason">{target.reason}</p>}
            <p>
              <HealthBadge health={target.health} title={target.detail ?? undefined} />{' '}
              {target.path ? <code className="path">{target.path}</code> : 'no recorded path'}
            </p>
            <p className="muted">
              {explainHealth(target.health)}
              {target.citations !== null && ` ${citationsText(target.citations)}`}
            </p>
          </div>
        )}

        {!done && (
          <>
            <form className="relink-form" onSubmit={submitPath}>
              <label htmlFor={`${titleId}-path`}>New location of the file (full path)</label>
              <div className="row">
                <input
                  id={`${titleId}-path`}
                  ref={pathRef}
                  value={pathText}
                  onChange={(e) => setPathText(e.target.value)}
                  spellCheck={false}
                  autoComplete="off"
                  placeholder="/home/me/Documents/moved/report.pdf"
                />
                <button type="submit" className="primary" disabled={busy !== null || pathText.trim() === ''}>
                  {busy === 'relink' ? 'Checking…' : 'Relink'}
                </button>
              </div>
              <p className="hint">Accepted only if the file has the same bytes (SHA-256) as the one ingested.</p>
            </form>
            <FolderSearchForm key={target.id} label="Or search a folder for it (subfolders included)" busy={busy === 'search'} disabled={busy !== null} onSearch={(d) => void searchIn(d)} />
          </>
        )}

        {error && (
          <div className="relink-error" role="alert">
            <p>
              <span aria-hidden="true">✖ </span>
              {error.message}
            </p>
            {error.code === 'HASH_MISMATCH' && error.path && (
              <button type="button" onClick={() => void addSources([error.path ?? ''])}>
                Add {error.path.split(/[\\/]/).pop()} as a new source
              </button>
            )}
          </div>
        )}

        {search && !done && (
          <div className="relink-search" role="status">
            <p>{searchSummary(search)}</p>
            {matches.length > 0 && (
              <VirtualRows
                count={matches.length}
                estimate={32}
                label="Files with the same bytes"
                className="match-list"
                rowKey={(i) => matches[i] ?? i}
                row={(i) => (
                  <div className="match">
                    <code className="path">{matches[i]}</code>
                    <button type="button" onClick={() => void relinkTo(matches[i] ?? '')} disabled={busy !== null}>
                      Relink to this
                    </button>
                  </div>
                )}
              />
            )}
          </div>
        )}

        {relinked && (
          <div className="relink-done" role="status">
            <p>
              <span aria-hidden="true">✓ </span>Relinked to <code className="path">{relinked.path}</code>
              {relinked.previousPath && (
                <>
                  {' '}
                  (was <code className="path">{relinked.previousPath}</code>)
                </>
              )}
              .
            </p>
          </div>
        )}

        {suggestions.length > 0 && (
          <section className="relink-suggestions" aria-labelledby={`${titleId}-sugg`}>
            <h3 id={`${titleId}-sugg`}>
              {plural(suggestions.length, 'other missing source')} found under <code className="path">{suggestionsFolder(suggestions, relinked?.path ?? '')}</code>
            </h3>
            <VirtualRows
              count={suggestions.length}
              estimate={28}
              label="Other missing sources found"
              className="suggestion-list"
              rowKey={(i) => suggestions[i]?.id ?? i}
              row={(i) => {
                const s = suggestions[i];
                if (!s) return null;
                const outcome = outcomes.get(s.id);
                return (
                  <div className="suggestion" data-source-id={s.id}>
                    <span className="file">{s.fileName}</span>
                    <code className="path">{s.path}</code>
                    {outcome && (outcome.ok ? <HealthBadge health="ok" /> : <span className="error">✖ {outcome.error.message}</span>)}
                  </div>
                );
              }}
            />
            {relinkedAll ? (
              <p role="status">{relinkManySummary(relinkedAll)}</p>
            ) : (
              <button ref={afterRelinkRef} type="button" className="primary" onClick={() => void relinkAll()} disabled={busy !== null}>
                {busy === 'relinkAll' ? 'Relinking…' : `Relink all ${suggestions.length}`}
              </button>
            )}
          </section>
        )}

        <footer className="relink-foot">
          <button ref={suggestions.length === 0 || relinkedAll ? afterRelinkRef : undefined} type="button" onClick={close}>
            {done ? 'Done' : 'Cancel'}
          </button>
        </footer>
      </div>
    </div>
  );
}
