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
import { applyIngestWrite, type IngestWrite } from './ingest-writes.ts';
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
  port?.on('message', (request: WriterRequest) => {
    if (request.type === 'close') {
      open.close();
      port.close();
      return;
    }
    let reply: WriterReply;
    try {
      const outcomes = commitInTransaction(open, request.jobs, [], (job: IngestWrite) => applyIngestWrite(store, job));
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
