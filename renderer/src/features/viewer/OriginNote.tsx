import { archivedFromText, type ArchivedFrom } from '../../../../shared/domain/web-words.ts';

/**
 * The viewer shows the original when present and unchanged, else the snapshot, clearly labelled
 * (DESIGN.md §7). An archived web page has only its snapshot: the note says where and when it was fetched.
 */
export function OriginNote({ path, archivedFrom = null }: { path: string | null; archivedFrom?: ArchivedFrom | null }) {
  if (archivedFrom) {
    return (
      <p className="origin-note archived" role="note" data-testid="archived-from">
        {archivedFromText(archivedFrom)}. This is the copy Evidence Desk fetched then; citations are checked against it, not the live page.
      </p>
    );
  }
  return (
    <p className="origin-note" role="note">
      Showing the workspace’s snapshot of this file: the original{path ? ` at ${path}` : ''} is missing or has changed since it was ingested.
    </p>
  );
}
