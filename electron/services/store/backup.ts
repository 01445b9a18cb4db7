import Database from 'better-sqlite3';
import fs from 'node:fs';
import { AppError } from '../../../shared/contract/errors.ts';
import type { Db } from './database.ts';

export interface BackupResult {
  file: string;
  /** Rows per table in the copy. */
  tables: Record<string, number>;
  schemaVersion: number;
}

function userTables(db: Database.Database): string[] {
  return (
    db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND sql NOT LIKE 'CREATE VIRTUAL TABLE%' ORDER BY name").all() as {
      name: string;
    }[]
  ).map((r) => r.name);
}

function rowCounts(db: Database.Database): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const t of userTables(db)) counts[t] = (db.prepare(`SELECT count(*) AS n FROM "${t.replaceAll('"', '""')}"`).get() as { n: number }).n;
  return counts;
}

/**
 * Copies the live workspace database to `dest` through SQLite's online backup API (consistent
 * even while the app writes), then opens the copy on its own and checks it: integrity_check,
 * foreign keys, schema version and every table's row count against the source as it was copied.
 * A copy that fails the check is removed and the call throws: a backup that cannot be restored
 * is worse than none, because it is trusted.
 */
export async function backupDatabase(db: Db, dest: string): Promise<BackupResult> {
  if (fs.existsSync(dest)) throw new AppError('INVALID_INPUT', `The backup file ${dest} already exists; choose a new name.`);
  // The app may write while the copy runs (the backup API copies in steps and restarts on a
  // change), so the copy must hold at least the rows there were before and at most those after.
  const before = rowCounts(db);
  const expectedVersion = db.pragma('user_version', { simple: true }) as number;
  await db.backup(dest);
  const after = rowCounts(db);
  let copy: Database.Database | undefined;
  try {
    copy = new Database(dest, { readonly: true, fileMustExist: true });
    const integrity = copy.pragma('integrity_check', { simple: true });
    if (integrity !== 'ok') throw new Error(`integrity_check says ${String(integrity)}`);
    const orphans = copy.pragma('foreign_key_check') as unknown[];
    if (orphans.length > 0) throw new Error(`${orphans.length} foreign key violation(s)`);
    const version = copy.pragma('user_version', { simple: true }) as number;
    if (version !== expectedVersion) throw new Error(`schema ${version} instead of ${expectedVersion}`);
    const tables = rowCounts(copy);
    for (const [t, n] of Object.entries(before)) {
      const got = tables[t];
      if (got === undefined || got < n || got > (after[t] ?? n)) throw new Error(`table ${t} has ${got ?? 'no'} rows, expected ${n}`);
    }
    return { file: dest, tables, schemaVersion: version };
  } catch (e) {
    copy?.close();
    copy = undefined;
    fs.rmSync(dest, { force: true });
    throw new AppError('WORKSPACE_CORRUPT', `The backup copy ${dest} did not verify (${(e as Error).message}); it was removed. Try again.`);
  } finally {
    copy?.close();
  }
}
