/**
 * The copy half of `evidesk workspace migrate` (issue 13): every row of a local workspace into the
 * shared schema with the same ids, in the owner's open transaction, page by page; snapshots
 * streamed from the workspace's blobs/ folder into chunk rows. A row PostgreSQL refuses is found
 * and named (table, id, reason), as is a snapshot file that cannot be read or does not hash to
 * its source.
 */
import fs from 'node:fs';
import path from 'node:path';
import type pg from 'pg';
import { AppError } from '../../../../shared/contract/errors.ts';
import type { Db } from '../database.ts';
import { writeSnapshot } from './pg-snapshots.ts';
import { asShared, columnsOf, localHas, localPage, MOVED_TABLES, type MovedTable } from './pg-workspace-tables.ts';

/**
 * For a move of a workspace moved before: each id-keyed shared table's largest id before this
 * move (only later local rows are copied; evidence rows are append-only on both sides, so a row
 * added since has a larger id than every moved one).
 */
export type MovedUpTo = ReadonlyMap<string, number>;

/** Each id-keyed shared table's largest id now (0 when empty). */
export async function movedUpTo(client: pg.ClientBase): Promise<MovedUpTo> {
  const out = new Map<string, number>();
  for (const t of MOVED_TABLES) {
    if (t.key !== 'id') continue;
    const r = await client.query<{ n: string | null }>(`SELECT max(id) AS n FROM ${client.escapeIdentifier(t.shared)}`);
    out.set(t.shared, Number(r.rows[0]?.n ?? 0));
  }
  return out;
}

export interface CopyCounts {
  rows: Record<string, number>;
  snapshots: number;
  snapshotBytes: number;
}

function invalid(message: string, details: Record<string, unknown>): AppError {
  return new AppError('MIGRATION_SOURCE_INVALID', message, details);
}

function reasonOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** The project of each answer: an agent session's project, else the project given for the workspace. */
function answerProjects(db: Db): Map<number, string> {
  if (!localHas(db, 'agent_sessions')) return new Map();
  const rows = db.prepare('SELECT answer_id, project_id FROM agent_sessions').all() as { answer_id: number; project_id: string }[];
  return new Map(rows.map((r) => [r.answer_id, r.project_id]));
}

/** Every project a local row names, and the one given for answers outside any session. */
export async function ensureProjects(db: Db, client: pg.ClientBase, project: { key: string; name: string }, now: string): Promise<string[]> {
  const keys = new Set<string>([project.key]);
  for (const t of ['agent_sessions', 'citation_contexts']) {
    if (!localHas(db, t)) continue;
    for (const r of db.prepare(`SELECT DISTINCT project_id FROM ${t}`).all() as { project_id: string }[]) keys.add(r.project_id);
  }
  for (const key of keys) {
    try {
      await client.query('SAVEPOINT project');
      await client.query('INSERT INTO projects (key, name, created_at) VALUES ($1, $2, $3) ON CONFLICT (key) DO NOTHING', [key, key === project.key ? project.name : key, now]);
      await client.query('RELEASE SAVEPOINT project');
    } catch (e) {
      await client.query('ROLLBACK TO SAVEPOINT project');
      throw invalid(`The project "${key}" named by the local workspace cannot be a shared project: ${reasonOf(e)}.`, { project: key, reason: reasonOf(e) });
    }
  }
  return [...keys];
}

/** The values of a local row for the shared table's columns (answers gain their project). */
function sharedRow(t: MovedTable, row: Record<string, unknown>, projects: Map<number, string>, fallback: string, now: string): Record<string, unknown> {
  if (t.local === 'answers') return { ...row, project_key: projects.get(row.id as number) ?? fallback };
  if (t.local === 'meta') return { ...row, updated_at: now };
  return asShared(t, row);
}

async function insertRows(client: pg.ClientBase, table: string, columns: readonly string[], rows: readonly Record<string, unknown>[], onConflict = ''): Promise<void> {
  const params: unknown[] = [];
  const tuples = rows.map((r) => `(${columns.map((c) => (params.push(r[c] ?? null), `$${params.length}`)).join(', ')})`);
  await client.query(`INSERT INTO ${client.escapeIdentifier(table)} (${columns.map((c) => client.escapeIdentifier(c)).join(', ')}) VALUES ${tuples.join(', ')}${onConflict}`, params);
}

/**
 * A later move's settings: the workspace's settings are not evidence (no chain entry, no id), so
 * a key added or changed locally since is written over the shared one.
 */
const SETTINGS_LATER = ' ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, updated_at = EXCLUDED.updated_at WHERE settings.value IS DISTINCT FROM EXCLUDED.value';

/** Inserts a page; when PostgreSQL refuses it, finds the first row it refuses and names it. */
async function insertPage(client: pg.ClientBase, t: MovedTable, columns: readonly string[], rows: readonly Record<string, unknown>[], onConflict = ''): Promise<void> {
  await client.query('SAVEPOINT page');
  try {
    await insertRows(client, t.shared, columns, rows, onConflict);
    await client.query('RELEASE SAVEPOINT page');
    return;
  } catch (e) {
    await client.query('ROLLBACK TO SAVEPOINT page');
    for (const row of rows) {
      try {
        await insertRows(client, t.shared, columns, [row], onConflict);
      } catch (one) {
        const key = row[t.key];
        throw invalid(`The local ${t.local} row ${String(key)} cannot be copied: ${reasonOf(one)}.`, { table: t.local, [t.key]: key, reason: reasonOf(one) });
      }
    }
    throw e;
  }
}

/** Copies one table (after `upTo`'s id for a later move), page by page; returns how many rows it copied. */
async function copyTable(db: Db, client: pg.ClientBase, t: MovedTable, projects: Map<number, string>, fallback: string, now: string, upTo?: MovedUpTo): Promise<number> {
  if (!localHas(db, t.local)) return 0;
  const { common } = await columnsOf(db, client, t);
  const columns = t.local === 'answers' ? [...common, 'project_key'] : t.local === 'meta' ? [...common, 'updated_at'] : common;
  const onConflict = upTo && t.local === 'meta' ? SETTINGS_LATER : '';
  let after: number | string | null = upTo && t.key === 'id' ? (upTo.get(t.shared) ?? 0) : null;
  let n = 0;
  for (;;) {
    const page = localPage(db, t, common, after);
    if (page.length === 0) return n;
    await insertPage(client, t, columns, page.map((r) => sharedRow(t, r, projects, fallback, now)), onConflict);
    n += page.length;
    after = page[page.length - 1]?.[t.key] as number | string;
  }
}

/** Streams every source's snapshot file into chunk rows (each file read once, never whole). */
async function copySnapshots(db: Db, client: pg.ClientBase, dir: string, afterSource: number): Promise<{ count: number; bytes: number }> {
  let count = 0;
  let bytes = 0;
  const rows = db.prepare('SELECT id, sha256, byte_size, snapshot, file_name, added_at FROM sources WHERE snapshot IS NOT NULL AND id > ? ORDER BY id').iterate(afterSource) as IterableIterator<{
    id: number;
    sha256: string;
    byte_size: number;
    snapshot: string;
    file_name: string;
    added_at: string;
  }>;
  for (const s of rows) {
    const file = path.resolve(dir, s.snapshot);
    if (!file.startsWith(path.resolve(dir) + path.sep)) {
      throw invalid(`Source ${s.id} (${s.file_name}) names a snapshot outside its workspace: ${s.snapshot}.`, { table: 'sources', id: s.id, snapshot: s.snapshot });
    }
    let handle: fs.promises.FileHandle | undefined;
    try {
      await client.query('SAVEPOINT snapshot');
      // Opened first, so a missing or unreadable file is an error here, not an unheard stream event.
      handle = await fs.promises.open(file, 'r');
      await writeSnapshot(client, s.sha256, s.byte_size, handle.createReadStream({ autoClose: false }), s.added_at);
      await client.query('RELEASE SAVEPOINT snapshot');
    } catch (e) {
      await client.query('ROLLBACK TO SAVEPOINT snapshot');
      const reason = e instanceof AppError && e.code === 'HASH_MISMATCH' ? e.message : `it cannot be read (${reasonOf(e)})`;
      throw invalid(`The snapshot of source ${s.id} (${s.file_name}) at ${file} cannot be copied: ${reason}`, { table: 'sources', id: s.id, file, reason });
    } finally {
      await handle?.close();
    }
    count++;
    bytes += s.byte_size;
  }
  return { count, bytes };
}

/** Moves the identity counters past the copied ids, so the next row a member adds gets a fresh one. */
async function advanceIdentities(client: pg.ClientBase): Promise<void> {
  for (const t of MOVED_TABLES) {
    if (t.key !== 'id') continue;
    const table = client.escapeIdentifier(t.shared);
    await client.query(`SELECT setval(pg_get_serial_sequence($1, 'id'), max(id)) FROM ${table} HAVING max(id) IS NOT NULL`, [t.shared]);
  }
}

/**
 * Copies every table and snapshot in the caller's transaction; returns what it copied. With
 * `upTo` (a workspace moved before), only what was added locally since: rows after those ids,
 * their sources' snapshots, and changed settings.
 */
export async function copyWorkspace(db: Db, client: pg.ClientBase, dir: string, project: { key: string; name: string }, now: string, upTo?: MovedUpTo): Promise<CopyCounts> {
  await ensureProjects(db, client, project, now);
  const projects = answerProjects(db);
  const rows: Record<string, number> = {};
  for (const t of MOVED_TABLES) rows[t.local] = await copyTable(db, client, t, projects, project.key, now, upTo);
  const snaps = await copySnapshots(db, client, dir, upTo?.get('sources') ?? 0);
  await advanceIdentities(client);
  return { rows, snapshots: snaps.count, snapshotBytes: snaps.bytes };
}
