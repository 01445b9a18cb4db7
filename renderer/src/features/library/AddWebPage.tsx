import { useState, type FormEvent } from 'react';
import { webOutcomeText } from '../../../../shared/domain/web-words.ts';
import { client, ClientError } from '../../api/client.ts';
import { useLibrary } from './library-store.ts';

/** "Add web page…": the services fetch the page once and archive it (the renderer never fetches it). */
export function AddWebPage() {
  const refresh = useLibrary((s) => s.refresh);
  const [open, setOpen] = useState(false);
  const [url, setUrl] = useState('');
  const [busy, setBusy] = useState(false);
  const [note, setNote] = useState<{ text: string; error: boolean; code?: string } | null>(null);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const address = url.trim();
    if (!address) return;
    setBusy(true);
    setNote(null);
    client
      .call('sources.addUrl', { url: address })
      .then(async (r) => {
        setNote({ text: webOutcomeText(r.outcome, r.source.title ?? r.source.fileName, r.fetch.fetchedAt), error: false });
        setUrl('');
        await refresh();
      })
      .catch((e: unknown) => {
        setNote(e instanceof ClientError ? { text: e.message, error: true, code: e.code } : { text: String(e), error: true });
      })
      .finally(() => setBusy(false));
  };

  if (!open) {
    return (
      <button type="button" className="link add-web" onClick={() => setOpen(true)}>
        Add web page…
      </button>
    );
  }
  return (
    <form className="add-form add-web-form" onSubmit={submit} aria-label="Add web page">
      <label htmlFor="add-url">Web page address (fetched once and archived; citations check against the archive)</label>
      <input id="add-url" type="url" value={url} onChange={(e) => setUrl(e.target.value)} placeholder="https://example.org/report.html" autoComplete="off" />
      <button type="submit" disabled={busy || url.trim() === ''}>
        {busy ? 'Fetching…' : 'Archive page'}
      </button>
      {note && (
        <p className={note.error ? 'error' : 'note'} role={note.error ? 'alert' : 'status'} title={note.code}>
          {note.text}
        </p>
      )}
    </form>
  );
}
