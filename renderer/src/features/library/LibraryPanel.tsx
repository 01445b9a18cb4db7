import { useEffect, useState, type DragEvent, type FormEvent } from 'react';
import { client } from '../../api/client.ts';
import { dropFiles } from './drops.ts';
import { useFindMissing } from '../relink/find-missing-store.ts';
import { useRelink } from '../relink/relink-store.ts';
import { healthCountsSummary } from '../relink/selectors.ts';
import { useLibrary } from './library-store.ts';
import { AddWebPage } from './AddWebPage.tsx';
import { LibraryToolbar } from './LibraryToolbar.tsx';
import { SourceTable } from './SourceTable.tsx';
import { ingestSummary, progressLine, skippedLines } from './selectors.ts';
import { SkippedList } from './SkippedList.tsx';
import { RemovedNotice } from '../housekeeping/HousekeepingNotices.tsx';

export function LibraryPanel() {
  const { summary, error, ingesting, uploading, progress, walk, skipped, lastIngest, refresh, ingest, setProgress, onWalk, cancel } = useLibrary();
  const [pathText, setPathText] = useState('');
  const [password, setPassword] = useState('');
  const [followLinks, setFollowLinks] = useState(false);
  const [dropNote, setDropNote] = useState<string | null>(null);
  const { checking, checkError, check } = useRelink();
  const openFindMissing = useFindMissing((s) => s.open);
  const missingIds = (summary?.attention ?? []).map((a) => a.id);

  useEffect(() => {
    void refresh();
    return client.onEvent((event) => {
      if (event.type === 'ingest.progress') setProgress(event);
      if (event.type === 'ingest.walk') onWalk(event);
      // A check or relink finished elsewhere (e.g. the one run when the workspace opened).
      if (event.type === 'sources.health') void refresh();
    });
  }, [refresh, setProgress, onWalk]);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const paths = pathText.split('\n').map((p) => p.trim()).filter(Boolean);
    if (paths.length === 0) return;
    void ingest(paths, password || undefined, followLinks).then(() => setPathText(''));
  };

  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    const files = Array.from(e.dataTransfer.files);
    if (files.length === 0) return;
    setDropNote(null);
    void dropFiles(files, 'sources', followLinks).then(setDropNote);
  };

  return (
    <section className="library" aria-label="Sources" onDragOver={(e) => e.preventDefault()} onDrop={onDrop}>
      <h2>Sources</h2>
      <form className="add-form" onSubmit={submit}>
        <label htmlFor="add-paths">Add files or folders by path (one per line)</label>
        <textarea id="add-paths" rows={2} value={pathText} onChange={(e) => setPathText(e.target.value)} placeholder="/home/me/Documents/policy.pdf" />
        <label htmlFor="add-password">Password (only for password-protected PDF, Word, PowerPoint or Excel files)</label>
        <input id="add-password" type="password" value={password} onChange={(e) => setPassword(e.target.value)} autoComplete="off" />
        <label className="follow-links">
          <input type="checkbox" checked={followLinks} onChange={(e) => setFollowLinks(e.target.checked)} />
          Follow links that lead outside the chosen folders (never to pipes or devices)
        </label>
        <button type="submit" disabled={ingesting || pathText.trim() === ''}>
          {ingesting ? 'Adding…' : 'Add'}
        </button>
      </form>
      <AddWebPage />
      {dropNote && <p className="note">{dropNote}</p>}
      {ingesting && (progress || walk) && (
        // The button stays put while the line beside it changes with every page read.
        <div className="progress-row">
          <button type="button" className="cancel" onClick={() => void cancel()}>
            Cancel
          </button>
          <p className="progress" role="status">
            {progressLine(progress, walk)}
          </p>
        </div>
      )}
      {uploading && (
        <p className="progress" role="status">
          Uploading {uploading.name} to the workspace ({uploading.index} of {uploading.count})…
        </p>
      )}
      {ingesting && skipped.length > 0 && <SkippedList {...skippedLines(skipped)} />}
      {error && (
        <p className="error" role="alert" title={error.code}>
          {error.text}
        </p>
      )}
      {lastIngest && (
        <div className="ingest-report" role="status" aria-label="Ingest report">
          <p>{ingestSummary(lastIngest)}</p>
          <ul>
            {lastIngest.files
              .filter((f) => !f.ok || f.warnings.length > 0)
              .map((f) => (
                <li key={f.path} className={f.ok ? 'warning' : 'error'} title={f.ok ? undefined : f.error.code}>
                  {f.ok ? f.warnings.map((w) => `⚠ ${w.message}`).join(' ') : `✖ ${f.error.message}`}
                </li>
              ))}
          </ul>
          {lastIngest.skipped.length > 0 && <SkippedList {...skippedLines(lastIngest.skipped)} />}
        </div>
      )}
      <div className="check-bar">
        <button type="button" onClick={() => void check()} disabled={checking || (summary?.all ?? 0) === 0}>
          {checking ? 'Checking…' : 'Check files'}
        </button>
        <span className="check-summary" role="status">
          {checking || !summary ? '' : healthCountsSummary(summary.health)}
        </span>
        {!checking && missingIds.length > 0 && (
          <button type="button" onClick={() => openFindMissing(missingIds)}>
            Find missing files in a folder…
          </button>
        )}
        {checkError && <span className="error" role="alert">{checkError}</span>}
      </div>
      <RemovedNotice subject="source" />
      <LibraryToolbar />
      <SourceTable />
    </section>
  );
}
