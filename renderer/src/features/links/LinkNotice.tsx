import './links.css';
import { useState } from 'react';
import { useLinks } from './links-store.ts';

/**
 * What became of the last link opened: where it opened, or why it could not. For a source the
 * workspace lacks, a folder to search for the file by its SHA-256 (nothing is added until the
 * analyst adds the file under Sources).
 */
export function LinkNotice() {
  const { notice, busy, search, findByHash, addFound, dismiss } = useLinks();
  const [dir, setDir] = useState('');
  if (!notice) return null;
  return (
    <div className={`link-notice tone-${notice.tone}`} role={notice.tone === 'error' ? 'alert' : 'status'} data-testid="link-notice" title={notice.code}>
      <p>
        <span aria-hidden="true">{notice.tone === 'ok' ? '✓ ' : notice.tone === 'warn' ? '⚠ ' : '✖ '}</span>
        {notice.text}
      </p>
      {notice.missing && (
        <form
          className="link-find"
          onSubmit={(e) => {
            e.preventDefault();
            void findByHash(dir);
          }}
        >
          <label>
            Find the file by its hash in a folder
            <input type="text" value={dir} onChange={(e) => setDir(e.target.value)} placeholder="/path/to/folder" aria-label="Folder to search for the file" />
          </label>
          <button type="submit" disabled={busy || !dir.trim()}>
            {busy ? 'Searching…' : 'Search folder'}
          </button>
        </form>
      )}
      {search && (
        <p className={search.tone === 'ok' ? 'ok' : 'error'} data-testid="link-search">
          {search.text}{' '}
          {search.found && (
            <button type="button" onClick={() => void addFound()} disabled={busy}>
              Add it and open the link
            </button>
          )}
        </p>
      )}
      <button type="button" className="link dismiss" onClick={dismiss} aria-label="Dismiss the link message">
        ✕
      </button>
    </div>
  );
}
