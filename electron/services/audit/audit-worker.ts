/**
 * The audit chain's check in a worker thread (issue 16): it hashes every evidence row, seconds on a
 * workspace of 100,000 sources, and the host and the window must go on answering meanwhile. The
 * worker reads the workspace through a read-only connection of its own and posts the check back.
 */
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { toErrorData } from '../../../shared/contract/errors.ts';
import { AuditService } from './audit-service.ts';

const { file } = workerData as { file: string };
let db: Database.Database | null = null;
try {
  db = new Database(file, { readonly: true, fileMustExist: true });
  db.pragma('busy_timeout = 5000');
  parentPort?.postMessage({ ok: true, value: new AuditService(db).check() });
} catch (e) {
  parentPort?.postMessage({ ok: false, error: toErrorData(e) });
} finally {
  db?.close();
}
