/**
 * The SQLite engine's ingest area: the write path IngestService used directly before (issue 13),
 * moved as it was. Documents stored close together share one transaction (GroupCommit, each in a
 * savepoint of its own); a snapshot is staged in a temporary file when the document is handed
 * over and flushed with its group's others just before the commit, so it is on disk before the
 * row naming it is committed.
 */
import path from 'node:path';
import { BlobStore } from './blobs.ts';
import type { Db } from './database.ts';
import type { IngestArea, StoredSource } from './evidence-store.ts';
import { GroupCommit } from './group-commit.ts';
import { SourcesStore } from './sources-store.ts';

export function sqliteIngest(db: Db): IngestArea {
  const store = new SourcesStore(db);
  // The workspace folder holds the database file and the blobs/ folder.
  const blobs = new BlobStore(path.dirname(db.name));
  const commits = new GroupCommit(db);
  return {
    findBySha: async (sha256) => store.findBySha(sha256),

    seen: (sourceId, file, stat) => commits.run(() => store.touchPath(sourceId, file, stat, new Date().toISOString())),

    async add(src) {
      const staged = src.snapshot ? await blobs.stage(src.sha256, src.bytes) : null;
      const snapshot = staged?.path ?? null;
      const prepare = staged
        ? () =>
            staged.settle().catch(async (e: unknown) => {
              await staged.discard();
              throw e;
            })
        : undefined;
      const committed = commits.run((): StoredSource => {
        const now = new Date().toISOString();
        // Another batch stored the same bytes since they were looked up: one source, this path on it.
        const existing = store.findBySha(src.sha256);
        if (existing) {
          store.touchPath(existing.id, src.path, src.stat, now);
          return { sourceId: existing.id, outcome: 'duplicate', segmentCount: existing.segment_count };
        }
        const predecessor = store.findByCurrentPath(src.path);
        const sourceId = store.insert(
          { sha256: src.sha256, fileName: src.fileName, byteSize: src.bytes.length, path: src.path, stat: src.stat, doc: src.doc, snapshot, predecessorId: predecessor?.id ?? null },
          now,
        );
        return { sourceId, outcome: predecessor ? 'new_version' : 'added', segmentCount: src.doc.segments.length };
      }, prepare);
      return { committed };
    },
  };
}
