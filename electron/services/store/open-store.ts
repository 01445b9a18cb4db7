/**
 * Chooses the engine (issue 13): a workspace folder alone opens its SQLite database; a
 * postgres:// URL (from --database or EVIDESK_DATABASE_URL, resolved by the caller) connects to a
 * shared workspace as the member the URL names.
 */
import { AppError } from '../../../shared/contract/errors.ts';
import { openDatabase } from './database.ts';
import type { EvidenceStore } from './evidence-store.ts';
import { pgEvidenceStore } from './postgres/pg-evidence-store.ts';
import { PgStore } from './postgres/pg-store.ts';
import { sqliteEvidenceStore } from './sqlite-evidence-store.ts';

export interface OpenStoreOptions {
  /** The local workspace folder (on PostgreSQL, the member's own: caches, its signed head). */
  workspace: string;
  /** A postgres:// URL for a shared workspace; none: the folder's SQLite database. */
  database?: string | undefined;
}

export function isPostgresUrl(database: string): boolean {
  return /^postgres(ql)?:\/\//i.test(database);
}

export async function openStore(options: OpenStoreOptions): Promise<EvidenceStore> {
  const database = options.database?.trim();
  if (database === undefined || database === '') return sqliteEvidenceStore(openDatabase(options.workspace), true);
  if (!isPostgresUrl(database)) {
    throw new AppError('INVALID_INPUT', `The database must be a postgres:// URL (got "${database.replace(/\/\/[^@/]*@/, '//…@')}").`, { field: 'database' });
  }
  return pgEvidenceStore(await PgStore.connect(database));
}
