import { useLibrary } from '../library/library-store.ts';
import { useRelink } from '../relink/relink-store.ts';
import { useViewer } from './viewer-store.ts';

/**
 * The viewer shows the original when present and unchanged, else the snapshot, clearly labelled
 * (DESIGN.md §7), with the way back to the original one click away.
 */
export function OriginNote({ path }: { path: string | null }) {
  const sourceId = useViewer((s) => s.sourceId);
  const source = useLibrary((s) => s.sources.find((x) => x.id === sourceId));
  const openRelink = useRelink((s) => s.open);
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
