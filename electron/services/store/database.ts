import Database from 'better-sqlite3';
import fs from 'node:fs';
import path from 'node:path';
import { AppError } from '../../../shared/contract/errors.ts';
import { ChainStore } from './audit-chain-store.ts';
import { readHeadFileText } from './audit-head-file.ts';
import { LATEST_SCHEMA_VERSION, MIGRATIONS, type Migration } from './migrations.ts';

export type Db = Database.Database;

export const DATABASE_FILE = 'workspace.sqlite';

export interface OpenOptions {
  /** Stop after this migration (tests of migration N migrate to N−1 first). */
  targetVersion?: number;
  readonly?: boolean;
}

/**
 * Opens (creating if needed) a workspace database with the connection settings of DESIGN.md §3,
 * checks it, and runs pending migrations. A database from a newer app is refused, never touched.
 */
export function openDatabase(dir: string, options: OpenOptions = {}): Db {
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, DATABASE_FILE);
  let db: Db;
  try {
    db = new Database(file, { readonly: options.readonly ?? false });
  } catch (e) {
    throw new AppError('WORKSPACE_CORRUPT', `Cannot open the workspace database ${file}: ${(e as Error).message}`);
  }
  try {
    applyConnectionSettings(db);
    if (!options.readonly) db.pragma('journal_mode = WAL');
    const check = db.pragma('quick_check', { simple: true });
    if (check !== 'ok') {
      throw new AppError('WORKSPACE_CORRUPT', `The workspace database ${file} is damaged (quick_check: ${String(check)}). Restore it from a backup.`);
    }
    const orphans = db.pragma('foreign_key_check') as { table: string; rowid: number; parent: string }[];
    if (orphans.length > 0) {
      const first = orphans[0];
      throw new AppError(
        'WORKSPACE_CORRUPT',
        `The workspace database ${file} has ${orphans.length} row(s) pointing at rows that do not exist (first: ${first?.table} row ${first?.rowid} → ${first?.parent}). Restore it from a backup.`,
        { foreignKeyViolations: orphans.length },
      );
    }
    const applied = migrate(db, options.targetVersion ?? LATEST_SCHEMA_VERSION);
    if (!options.readonly && schemaVersion(db) >= CHAIN_MIGRATION) {
      // Anchor the head when the chain began in this open (a new workspace, or one from before
      // migration 6), or when an empty chain has none (a crash before its first head write):
      // an empty chain has nothing a deleted head file could hide.
      const chain = new ChainStore(db);
      if (applied.includes(CHAIN_MIGRATION) || (chain.head().count === 0 && readHeadFileText(dir) === null)) chain.publishHead();
    }
    return db;
  } catch (e) {
    db.close();
    if (e instanceof AppError) throw e;
    throw new AppError('WORKSPACE_CORRUPT', `Cannot use the workspace database ${file}: ${(e as Error).message}`);
  }
}

/**
 * The per-connection settings of DESIGN.md §3, for every connection that writes the workspace
 * (this module's and the ingest writer's thread's, ingest-writer-worker.ts).
 */
export function applyConnectionSettings(db: Db): void {
  db.pragma('busy_timeout = 5000');
  db.pragma('synchronous = FULL');
  db.pragma('foreign_keys = ON');
  db.pragma('trusted_schema = OFF');
  // Deleted content is overwritten, not left in free pages for a file reader to find.
  db.pragma('secure_delete = ON');
  // A REPLACE's implicit delete then fires DELETE triggers too: a second guard beside migration 5's.
  db.pragma('recursive_triggers = ON');
}

/**
 * A database in memory with the workspace's schema: a process's working copy of rows kept
 * elsewhere (source-mirror.ts), never a workspace (no audit chain head, no file).
 */
export function openMemoryDatabase(): Db {
  const db = new Database(':memory:');
  db.pragma('foreign_keys = ON');
  db.pragma('trusted_schema = OFF');
  migrate(db, LATEST_SCHEMA_VERSION);
  return db;
}

export function schemaVersion(db: Db): number {
  return db.pragma('user_version', { simple: true }) as number;
}

/** The migration that starts the audit chain over the whole record. */
const CHAIN_MIGRATION = 6;

/**
 * A migrated database in memory, of no workspace: a scratch copy of rows read from elsewhere
 * (pool-mirror-store.ts), dropped with its connection. No head file, no checks: nothing in it is evidence.
 */
export function openScratchDatabase(): Db {
  const db = new Database(':memory:');
  applyConnectionSettings(db);
  migrate(db, LATEST_SCHEMA_VERSION);
  return db;
}

/** Runs pending migrations; returns the versions applied. */
function migrate(db: Db, target: number): number[] {
  const current = schemaVersion(db);
  if (current > LATEST_SCHEMA_VERSION) {
    throw new AppError(
      'WORKSPACE_TOO_NEW',
      `This workspace was written by a newer Evidence Desk (schema ${current}; this version knows up to ${LATEST_SCHEMA_VERSION}). Update the app to open it.`,
      { schemaVersion: current, supported: LATEST_SCHEMA_VERSION },
    );
  }
  const pending = MIGRATIONS.filter((m: Migration) => m.version > current && m.version <= target);
  for (const m of pending) {
    // PRAGMA foreign_keys is a no-op inside a transaction: it is switched around it.
    if (m.rebuildsReferencedTable) db.pragma('foreign_keys = OFF');
    try {
      db.transaction(() => {
        db.exec(m.sql);
        m.run?.(db);
        if (m.rebuildsReferencedTable && (db.pragma('foreign_key_check') as unknown[]).length > 0) {
          throw new Error(`Migration ${m.version} would leave rows pointing at nothing; the workspace was left as it was.`);
        }
        db.pragma(`user_version = ${m.version}`);
      }).immediate();
    } finally {
      if (m.rebuildsReferencedTable) db.pragma('foreign_keys = ON');
    }
  }
  return pending.map((m) => m.version);
}
