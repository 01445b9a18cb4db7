/** The viewer shows the original when present and unchanged, else the snapshot, clearly labelled (DESIGN.md §7). */
export function OriginNote({ path }: { path: string | null }) {
  return (
    <p className="origin-note" role="note">
      Showing the workspace’s snapshot of this file: the original{path ? ` at ${path}` : ''} is missing or has changed since it was ingested.
    </p>
  );
}
