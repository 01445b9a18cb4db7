/** Versions of one document: a modified file is a new source linked to its predecessor. */
import type { AnchoringStore, SourceRefRow } from '../store/anchoring-store.ts';

/** The first version of the document a source belongs to. */
export function rootOf(anchoring: AnchoringStore, row: SourceRefRow): number {
  let cur = row;
  for (let guard = 0; cur.predecessor_id !== null && guard < 1000; guard++) {
    const prev = anchoring.source(cur.predecessor_id);
    if (!prev) break;
    cur = prev;
  }
  return cur.id;
}

/** The newest version of a source, following predecessor links forward; null when it is the newest. */
export function newestVersion(anchoring: AnchoringStore, sourceId: number): SourceRefRow | null {
  let newest: SourceRefRow | null = null;
  let cur = sourceId;
  for (let guard = 0; guard < 1000; guard++) {
    const next = anchoring.successors(cur);
    const last = next[next.length - 1];
    if (!last) break;
    newest = last;
    cur = last.id;
  }
  return newest;
}
