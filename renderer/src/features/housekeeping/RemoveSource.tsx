import { useState } from 'react';
import { useHousekeeping } from './housekeeping-store.ts';
import './housekeeping.css';

/** Removes a source from the library after a confirm; its citations then say it was removed. */
export function RemoveSource({ id, fileName }: { id: number; fileName: string }) {
  const remove = useHousekeeping((s) => s.remove);
  const [confirming, setConfirming] = useState(false);
  if (!confirming) {
    return (
      <button type="button" className="link remove-source" onClick={() => setConfirming(true)} title={`Remove ${fileName} from the library`}>
        Remove…
      </button>
    );
  }
  return (
    <span className="remove-confirm" role="group" aria-label="Remove the source">
      <span>Remove {fileName} from the library and search? Citations of it stay, marked as removed.</span>
      <button type="button" className="danger" onClick={() => void remove('source', id, fileName)}>
        Remove source
      </button>
      <button type="button" onClick={() => setConfirming(false)}>
        Keep it
      </button>
    </span>
  );
}
