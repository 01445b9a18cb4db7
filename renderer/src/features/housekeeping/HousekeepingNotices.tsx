import { useHousekeeping } from './housekeeping-store.ts';
import './housekeeping.css';

function when(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

/** Answer files imported before, each with its choice: re-verify that answer, or import it again. */
export function ReimportOffers() {
  const { offers, reverify, importAgain, dismiss } = useHousekeeping();
  if (offers.length === 0) return null;
  return (
    <ul className="reimport-offers" aria-label="Files imported before">
      {offers.map((o) => (
        <li key={`${o.previous.id}-${o.fileName}`} className="reimport-offer" role="group" aria-label={`${o.fileName} was imported before`}>
          <p>
            {o.fileName} was imported before, on {when(o.previous.createdAt)}, as “{o.previous.name}”. Re-verify that answer against the sources as they are now, or import the file again as a new answer?
          </p>
          <div className="offer-buttons">
            <button type="button" className="primary" onClick={() => void reverify(o)}>
              Re-verify “{o.previous.name}”
            </button>
            <button type="button" onClick={() => void importAgain(o)}>
              Import as a new answer
            </button>
            <button type="button" className="link" onClick={() => dismiss(o)}>
              Do nothing
            </button>
          </div>
        </li>
      ))}
    </ul>
  );
}

/** What was just removed, with a way back; and any housekeeping error. */
export function RemovedNotice({ subject }: { subject: 'answer' | 'source' }) {
  const { removed, error, undoRemove, clearRemoved } = useHousekeeping();
  return (
    <>
      {removed?.subject === subject && (
        <p className="removed-notice" role="status">
          Removed {removed.name} from the {subject === 'answer' ? 'answer list' : 'library'}
          {subject === 'source' ? '; citations of it now say so' : ''}. Nothing was deleted from the workspace’s record.{' '}
          <button type="button" className="link" onClick={() => void undoRemove()}>
            Undo
          </button>{' '}
          <button type="button" className="link" onClick={clearRemoved} aria-label="Dismiss">
            ×
          </button>
        </p>
      )}
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
    </>
  );
}
