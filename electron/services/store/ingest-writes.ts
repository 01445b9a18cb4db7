/**
 * What ingestion writes for one file, as data: the same write runs on this process's connection
 * or on the ingest writer's (ingest-writer-worker.ts), so it must cross a thread by structured clone.
 */
import type { GroupSnapshot } from './blob-group.ts';
import type { FileStat, NewSource, SourcesStore } from './sources-store.ts';

export type IngestWrite =
  /**
   * A new document: a new source, or a new version of the one whose current path it is. With
   * `snapshotBytes`, its snapshot (at `source.snapshot`) is put durably by the writer, with its
   * group's others, before the group's transaction (blob-group.ts).
   */
  | { op: 'add'; source: Omit<NewSource, 'predecessorId' | 'path'> & { path: string }; snapshotBytes?: Uint8Array }
  /** Bytes already stored, seen (again) at `path`. */
  | { op: 'seen'; sourceId: number; path: string; stat: FileStat };

export interface IngestWritten {
  sourceId: number;
  outcome: 'added' | 'new_version' | 'duplicate';
  /** The source's segments (null for 'seen', whose caller has the source's row). */
  segmentCount: number | null;
}

/** The snapshots a group's writer must put before its transaction, by job (undefined: none). */
export function groupSnapshots(jobs: IngestWrite[]): (GroupSnapshot | undefined)[] {
  return jobs.map((j) => (j.op === 'add' && j.snapshotBytes ? { sha256: j.source.sha256, bytes: j.snapshotBytes, fileName: j.source.fileName } : undefined));
}

/** Runs one write; inside a group's transaction (group-commit.ts), in its own savepoint. */
export function applyIngestWrite(store: SourcesStore, write: IngestWrite): IngestWritten {
  const now = new Date().toISOString();
  if (write.op === 'seen') {
    store.touchPath(write.sourceId, write.path, write.stat, now);
    return { sourceId: write.sourceId, outcome: 'duplicate', segmentCount: null };
  }
  // Another batch stored the same bytes since they were looked up: one source, this path on it.
  const existing = store.findBySha(write.source.sha256);
  if (existing) {
    store.touchPath(existing.id, write.source.path, write.source.stat, now);
    return { sourceId: existing.id, outcome: 'duplicate', segmentCount: existing.segment_count };
  }
  const predecessor = store.findByCurrentPath(write.source.path);
  const sourceId = store.insert({ ...write.source, predecessorId: predecessor?.id ?? null }, now);
  return { sourceId, outcome: predecessor ? 'new_version' : 'added', segmentCount: write.source.doc.segments.length };
}
