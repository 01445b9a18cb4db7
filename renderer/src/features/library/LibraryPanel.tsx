import { useEffect, useState, type DragEvent, type FormEvent } from 'react';
import type { SourceSummary } from '../../../../shared/contract/schemas.ts';
import { client } from '../../api/client.ts';
import { dropFiles } from './drops.ts';
import { HealthBadge } from '../relink/HealthBadge.tsx';
import { useFindMissing } from '../relink/find-missing-store.ts';
import { useRelink } from '../relink/relink-store.ts';
import { healthSummary, needsRelink } from '../relink/selectors.ts';
import { useViewer } from '../viewer/viewer-store.ts';
import { useLibrary } from './library-store.ts';
import { AddWebPage } from './AddWebPage.tsx';
import { RestrictedToggle } from './RestrictedToggle.tsx';
import { formatBytes, ingestSummary, progressLine, skippedLines, sourceExtent } from './selectors.ts';
import { SkippedList } from './SkippedList.tsx';
import { RemoveSource } from '../housekeeping/RemoveSource.tsx';
import { RemovedNotice } from '../housekeeping/HousekeepingNotices.tsx';

export function LibraryPanel() {
  const { sources, error, ingesting, uploading, progress, walk, skipped, lastIngest, refresh, ingest, setProgress, onWalk, cancel, setRestricted } = useLibrary();
  const openSource = useViewer((s) => s.open);
  const openId = useViewer((s) => s.sourceId);
  const [pathText, setPathText] = useState('');
  const [password, setPassword] = useState('');
  const [followLinks, setFollowLinks] = useState(false);
  const [dropNote, setDropNote] = useState<string | null>(null);
  const { checking, checkError, byId: healthById, check, open: openRelink } = useRelink();
  const openFindMissing = useFindMissing((s) => s.open);
  const missingIds = sources.filter((s) => needsRelink(s.health)).map((s) => s.id);

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
        <label htmlFor="add-password">PDF password (only for encrypted files)</label>
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
        <p className="progress" role="status">
          {progressLine(progress, walk)}
          {ingesting && (
            <button type="button" className="cancel" onClick={() => void cancel()}>
              Cancel
            </button>
          )}
        </p>
      )}
      {uploading && (
        <p className="progress" role="status">
          Uploading {uploading.name} to the workspace ({uploading.index} of {uploading.count})…
        </p>
      )}
      {ingesting && skipped.length > 0 && <SkippedList {...skippedLines(skipped)} />}
      {error && <p className="error" role="alert">{error}</p>}
      {lastIngest && (
        <div className="ingest-report" role="status" aria-label="Ingest report">
          <p>{ingestSummary(lastIngest)}</p>
          <ul>
            {lastIngest.files
              .filter((f) => !f.ok || f.warnings.length > 0)
              .map((f) => (
                <li key={f.path} className={f.ok ? 'warning' : 'error'}>
                  {f.ok ? f.warnings.map((w) => `⚠ ${w.message}`).join(' ') : `✖ ${f.error.message} [${f.error.code}]`}
                </li>
              ))}
          </ul>
          {lastIngest.skipped.length > 0 && <SkippedList {...skippedLines(lastIngest.skipped)} />}
        </div>
      )}
      <div className="check-bar">
        <button type="button" onClick={() => void check()} disabled={checking || sources.length === 0}>
          {checking ? 'Checking…' : 'Check files'}
        </button>
        <span className="check-summary" role="status">
          {checking ? '' : healthSummary(sources.map((s) => s.health))}
        </span>
        {!checking && missingIds.length > 0 && (
          <button type="button" onClick={() => openFindMissing(missingIds)}>
            Find missing files in a folder…
          </button>
        )}
        {checkError && <span className="error" role="alert">{checkError}</span>}
      </div>
      <RemovedNotice subject="source" />
      <table className="sources">
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Length</th>
            <th scope="col">Health</th>
            <th scope="col">Size</th>
            <th scope="col">SHA-256</th>
          </tr>
        </thead>
        <tbody>
          {sources.map((s) => (
            <tr key={s.id} className={[s.id === openId && 'selected', s.restricted && 'restricted'].filter(Boolean).join(' ') || undefined} data-source-id={s.id}>
              <td>
                <div className="name-cell">
                  <span>
                    <button type="button" className="link" onClick={() => openSource(s.id, s.kind)} title={s.path ?? s.archivedFrom?.url ?? s.fileName}>
                      {s.fileName}
                    </button>
                    {s.warnings.length > 0 && <span className="badge" title={s.warnings.map((w) => w.message).join('\n')}>⚠ {s.warnings.length}</span>}
                  </span>
                  {s.uploaded && <span className="muted">Uploaded from the browser: the workspace’s copy is the source of record.</span>}
                  <RestrictedToggle fileName={s.fileName} restricted={s.restricted} onToggle={() => void setRestricted(s.id, !s.restricted)} />
                  <RemoveSource id={s.id} fileName={s.fileName} />
                </div>
              </td>
              <ExtentCell source={s} />
              <td>
                <div className="health-cell">
                  <HealthBadge health={s.health} title={healthById[s.id]?.detail ?? s.path ?? undefined} />
                  {needsRelink(s.health) && (
                    <button type="button" className="link" onClick={() => openRelink({ id: s.id, fileName: s.fileName, path: s.path, health: s.health })} aria-label={`Relink ${s.fileName}`}>
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
            </tr>
          ))}
          {sources.length === 0 && (
            <tr>
              <td colSpan={5} className="empty">No sources yet. Add a PDF by its path above, or drop files here.</td>
            </tr>
          )}
        </tbody>
      </table>
    </section>
  );
}

function ExtentCell({ source }: { source: SourceSummary }) {
  const { label, title } = sourceExtent(source);
  return <td title={title}>{label}</td>;
}
