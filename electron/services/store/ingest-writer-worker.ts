/**
 * The ingest writer's thread (ingest-writer.ts): commits groups of ingestion writes through a
 * connection of its own, so the main thread reads, hashes and extracts the next files while a
 * group's rows, audit entries and WAL flush are written here.
 */
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { toErrorData } from '../../../shared/contract/errors.ts';
import { applyConnectionSettings } from './database.ts';
import { commitInTransaction } from './group-commit.ts';
import path from 'node:path';
import { putGroup } from './blob-group.ts';
import { BlobStore } from './blobs.ts';
import { applyIngestWrite, groupSnapshots, type IngestWrite } from './ingest-writes.ts';
import type { WriterReply, WriterRequest } from './ingest-writer.ts';
import { SourcesStore } from './sources-store.ts';

const { file } = workerData as { file: string };
const port = parentPort;
let db: Database.Database | null = null;
try {
  // Migrations ran when the workspace was opened; this connection only writes what ingestion writes.
  db = new Database(file, { fileMustExist: true });
  applyConnectionSettings(db);
  const open = db;
  const store = new SourcesStore(open);
  const blobs = new BlobStore(path.dirname(file));
  port?.on('message', async (request: WriterRequest) => {
    if (request.type === 'close') {
      open.close();
      port.close();
      return;
    }
    let reply: WriterReply;
    try {
      // The group's snapshots first (flushed several at once): a document whose snapshot failed is not written.
      const skip = await putGroup(blobs, groupSnapshots(request.jobs));
      const outcomes = commitInTransaction(open, request.jobs, skip, (job: IngestWrite) => applyIngestWrite(store, job));
      reply = { id: request.id, outcomes: outcomes.map((o) => (o.ok ? o : { ok: false, error: toErrorData(o.error) })) };
    } catch (e) {
      reply = { id: request.id, failed: toErrorData(e) };
    }
    port.postMessage(reply);
  });
  port?.postMessage({ id: 0, ready: true } satisfies WriterReply);
} catch (e) {
  db?.close();
  port?.postMessage({ id: 0, failed: toErrorData(e) } satisfies WriterReply);
  port?.close();
}
