/**
 * The PostgreSQL migration runner: numbered migrations, each in its own transaction, recorded in
 * schema_migrations. Run by the owner of the workspace database (not by a member). Two runners at
 * once take turns on an advisory lock and the second finds nothing left to do; a database written
 * by a newer Evidence Desk is refused, as a SQLite workspace from a newer version is.
 */
import type pg from 'pg';
import { AppError } from '../../../../shared/contract/errors.ts';
import { CHANGES_SCHEMA_SQL, RESTRICT_NOTIFY_SCHEMA_SQL } from './pg-changes.ts';
import { ACCESS_SCHEMA_SQL } from './schema-access.ts';
import { EVIDENCE_SCHEMA_SQL } from './schema-evidence.ts';
import { RESULTS_SCHEMA_SQL } from './schema-results.ts';
import { RUN_ENDS_SCHEMA_SQL } from './schema-run-ends.ts';
import { SEARCH_SCHEMA_SQL } from './schema-search.ts';
import { SPEED_SCHEMA_SQL } from './schema-speed.ts';
import { IMPORTS_SCHEMA_SQL } from './schema-imports.ts';
import { CHAIN_HEAD_SCHEMA_SQL } from './schema-chain-head.ts';
import { CHAIN_APPEND_SCHEMA_SQL } from './schema-chain-append.ts';
import { CITE_WRITE_SCHEMA_SQL } from './schema-cite-write.ts';

export interface PgMigration {
  version: number;
  name: string;
  sql: string;
}

export const PG_MIGRATIONS: readonly PgMigration[] = [
  { version: 1, name: 'evidence tables, snapshots in chunks, search, append-only triggers', sql: EVIDENCE_SCHEMA_SQL },
  { version: 2, name: 'access levels: group roles, grants, row-level security, audit append', sql: ACCESS_SCHEMA_SQL },
  { version: 3, name: 'live updates: a notification at commit for each new row an open app shows', sql: CHANGES_SCHEMA_SQL },
  { version: 4, name: 'verification runs and results, judge opinions, closest passages, properties, web fetches, library changes; migrated workspaces', sql: RESULTS_SCHEMA_SQL },
  { version: 5, name: 'runs verified in batches: the plan of a run and its end', sql: RUN_ENDS_SCHEMA_SQL },
  { version: 7, name: 'search as SQLite searches: case and accents folded, removed sources hidden', sql: SEARCH_SCHEMA_SQL },
  { version: 8, name: 'speed: superseded citations indexed, read policies asked once per query, audit entries appended in one call', sql: SPEED_SCHEMA_SQL },
  { version: 10, name: 'reviewers import answers: answers, citations and unknown sources in their projects', sql: IMPORTS_SCHEMA_SQL },
  { version: 11, name: "audit entries hashed in the append function: the head read and the entries appended in one call under the chain's lock", sql: CHAIN_APPEND_SCHEMA_SQL },
  { version: 13, name: "the audit chain's head recorded beside it, moved only by an appended entry", sql: CHAIN_HEAD_SCHEMA_SQL },
  { version: 14, name: 'live updates: a source restricted or lifted sends a notification', sql: RESTRICT_NOTIFY_SCHEMA_SQL },
  { version: 15, name: "a cite's rows written by one call; a write's audit entries inserted by one statement, the rows they name checked before the chain's lock", sql: CITE_WRITE_SCHEMA_SQL },
];

export const PG_LATEST_SCHEMA_VERSION = PG_MIGRATIONS[PG_MIGRATIONS.length - 1]?.version ?? 0;

/** Serialises runners on one database (a different key from the audit chain's). */
const MIGRATION_LOCK_KEY = 0x45764465736b02;

export interface MigrationOutcome {
  /** Versions applied by this run, in order (empty when the schema was current). */
  applied: number[];
  version: number;
}

async function currentVersion(client: pg.ClientBase): Promise<number> {
  const r = await client.query<{ v: number | null }>('SELECT max(version)::integer AS v FROM schema_migrations');
  return r.rows[0]?.v ?? 0;
}

export async function migratePostgres(client: pg.ClientBase, migrations: readonly PgMigration[] = PG_MIGRATIONS): Promise<MigrationOutcome> {
  const latest = migrations[migrations.length - 1]?.version ?? 0;
  // A session lock around the whole run: the bookkeeping table itself is made under it too.
  await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
  try {
    await client.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version integer PRIMARY KEY CHECK (version > 0),
      name text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`);
    const before = await currentVersion(client);
    if (before > latest) {
      throw new AppError('WORKSPACE_TOO_NEW', `The shared workspace's schema is at version ${before}, newer than this Evidence Desk knows (${latest}): update Evidence Desk.`, { version: before, latest });
    }
    const applied: number[] = [];
    for (const m of migrations) {
      if (m.version <= before) continue;
      await client.query('BEGIN');
      try {
        await client.query(m.sql);
        await client.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [m.version, m.name]);
        await client.query('COMMIT');
      } catch (e) {
        await client.query('ROLLBACK');
        throw e;
      }
      applied.push(m.version);
    }
    return { applied, version: await currentVersion(client) };
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
  }
}
