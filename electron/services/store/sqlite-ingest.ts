/**
 * The SQLite engine's ingest area (issue 13): documents stored close together share one
 * transaction (GroupCommit, each in a savepoint of its own), committed here or, for folders of
 * small files, in the ingest writer's thread with its own connection (ingest-writer.ts, issue 16).
 * A small file's snapshot goes with its write and is put durably by the group's writer just
 * before the transaction; a larger one is staged in a temporary file when the document is handed
 * over and flushed with its group's others before the commit. Either way it is on disk before the
 * row naming it is committed.
 */
import path from 'node:path';
import { BlobStore } from './blobs.ts';
import type { Db } from './database.ts';
import type { IngestArea, StoredSource } from './evidence-store.ts';
import { GroupCommit } from './group-commit.ts';
import { IngestWriter } from './ingest-writer.ts';
import type { IngestWrite, IngestWritten } from './ingest-writes.ts';
import { SourcesStore } from './sources-store.ts';

/** Snapshots up to this size go to the ingest writer with their document's write (copied to its thread). */
const SNAPSHOT_WITH_WRITE_BYTES = 256 * 1024;

export function sqliteIngest(db: Db): IngestArea {
  const store = new SourcesStore(db);
  // The workspace folder holds the database file and the blobs/ folder.
  const blobs = new BlobStore(path.dirname(db.name));
  const writer = new IngestWriter(store, blobs);
  const commits = new GroupCommit<IngestWrite, IngestWritten>(db, writer.commitGroup);
  const stored = (w: IngestWritten): StoredSource => ({ sourceId: w.sourceId, outcome: w.outcome, segmentCount: w.segmentCount ?? 0 });
  return {
    findBySha: async (sha256) => store.findBySha(sha256),

    seen: async (sourceId, file, stat) => {
      await commits.run({ op: 'seen', sourceId, path: file, stat });
    },

    async add(src) {
      const source = { sha256: src.sha256, fileName: src.fileName, byteSize: src.bytes.length, path: src.path, stat: src.stat, doc: src.doc };
      if (src.snapshot && src.bytes.length <= SNAPSHOT_WITH_WRITE_BYTES) {
        const snapshot = blobs.relativePath(src.sha256);
        return { committed: commits.run({ op: 'add', source: { ...source, snapshot }, snapshotBytes: src.bytes }).then(stored) };
      }
      const staged = src.snapshot ? await blobs.stage(src.sha256, src.bytes) : null;
      const prepare = staged
        ? () =>
            staged.settle().catch(async (e: unknown) => {
              await staged.discard();
              throw e;
            })
        : undefined;
      return { committed: commits.run({ op: 'add', source: { ...source, snapshot: staged?.path ?? null } }, prepare).then(stored) };
    },

    close: () => writer.close(),
  };
}
