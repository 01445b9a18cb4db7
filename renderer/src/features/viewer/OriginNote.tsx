import { archivedFromText, type ArchivedFrom } from '../../../../shared/domain/web-words.ts';
import { useLibrary } from '../library/library-store.ts';
import { useRelink } from '../relink/relink-store.ts';
import { useViewer } from './viewer-store.ts';

/**
 * The viewer shows the original when present and unchanged, else the snapshot, clearly labelled
 * (DESIGN.md §7), with the way back to the original one click away. An archived web page has only
 * its snapshot: the note says where and when it was fetched.
 */
export function OriginNote({ path, archivedFrom = null }: { path: string | null; archivedFrom?: ArchivedFrom | null }) {
  const sourceId = useViewer((s) => s.sourceId);
  const source = useLibrary((s) => s.sources.find((x) => x.id === sourceId));
  const openRelink = useRelink((s) => s.open);
  if (archivedFrom) {
    return (
      <p className="origin-note archived" role="note" data-testid="archived-from">
        {archivedFromText(archivedFrom)}. This is the copy Evidence Desk fetched then; citations are checked against it, not the live page.
      </p>
    );
  }
  return (
    <p className="origin-note" role="note">
      Showing the workspace’s snapshot of this file: the original{path ? ` at ${path}` : ''} is missing or has changed since it was ingested.{' '}
      {source && (
        <button type="button" className="link" onClick={() => openRelink({ id: source.id, fileName: source.fileName, path: source.path, health: source.health })}>
          Relink…
        </button>
      )}
    </p>
  );
}
