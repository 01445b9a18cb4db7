/**
 * What `evidesk workspace migrate` moves, table by table: a local (SQLite) workspace's tables in an
 * order where every row's references are already copied, and the columns both engines have. Shared
 * by the copy and the check that follows it, so they always agree on what "equal" covers.
 */
import type pg from 'pg';
import type { Db } from '../database.ts';

/** A table of the local workspace and the shared table its rows go to. */
export interface MovedTable {
  /** The SQLite table (meta holds the workspace's settings). */
  local: string;
  shared: string;
  /** The key rows are paged and compared by. */
  key: 'id' | 'key';
}

const SAME = (t: string): MovedTable => ({ local: t, shared: t, key: 'id' });

/**
 * In copy order: a row's references (source, answer, citation, run, result) come before it.
 * Derived data is deliberately not moved (the copy and the check skip it alike): the full-text
 * index, and page_text_items (SQLite migration 18, PDF text-item geometry for report excerpts):
 * where it is absent, the export reads the page with pdf.js instead and keeps what it read.
 */
export const MOVED_TABLES: readonly MovedTable[] = [
  SAME('sources'),
  SAME('source_paths'),
  SAME('segments'),
  SAME('source_properties'),
  SAME('web_fetches'),
  SAME('answers'),
  SAME('unknown_sources'),
  SAME('custom_sources'),
  SAME('agent_sessions'),
  SAME('citations'),
  SAME('citation_contexts'),
  SAME('verification_runs'),
  SAME('citation_results'),
  SAME('verification_run_ends'),
  SAME('judge_opinions'),
  SAME('closest_passages'),
  SAME('review_decisions'),
  SAME('library_changes'),
  { local: 'meta', shared: 'settings', key: 'key' },
  SAME('audit_log'),
];

/** Rows per statement and per page of the check (bounded memory whatever the workspace's size). */
export const PAGE_ROWS = 500;

export interface TableColumns {
  /** Columns both engines have, in the SQLite table's order: what is copied and compared. */
  common: string[];
}

/** The columns of a moved table both engines have (a generated PostgreSQL column is never one). */
export async function columnsOf(db: Db, client: pg.ClientBase, t: MovedTable): Promise<TableColumns> {
  const local = (db.prepare(`SELECT name FROM pragma_table_info(?)`).all(t.local) as { name: string }[]).map((r) => r.name);
  const shared = new Set(
    (
      await client.query<{ name: string }>(
        "SELECT column_name AS name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = $1 AND is_generated = 'NEVER'",
        [t.shared],
      )
    ).rows.map((r) => r.name),
  );
  return { common: local.filter((c) => shared.has(c)) };
}

/** Whether the local workspace has the table (an empty one counts). */
export function localHas(db: Db, table: string): boolean {
  return db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(table) !== undefined;
}

/** One page of local rows after `after` (by the table's key), in key order. */
export function localPage(db: Db, t: MovedTable, columns: readonly string[], after: number | string | null): Record<string, unknown>[] {
  const cols = columns.map((c) => `"${c}"`).join(', ');
  const where = after === null ? '' : `WHERE "${t.key}" > ?`;
  const stmt = db.prepare(`SELECT ${cols} FROM "${t.local}" ${where} ORDER BY "${t.key}" LIMIT ${PAGE_ROWS}`);
  return (after === null ? stmt.all() : stmt.all(after)) as Record<string, unknown>[];
}

/** One page of shared rows after `after`, in the same order (text keys compare bytewise, as SQLite's). */
export async function sharedPage(client: pg.ClientBase, t: MovedTable, columns: readonly string[], after: number | string | null): Promise<Record<string, unknown>[]> {
  const cols = columns.map((c) => client.escapeIdentifier(c)).join(', ');
  const key = client.escapeIdentifier(t.key);
  const order = t.key === 'key' ? `${key} COLLATE "C"` : key;
  const where = after === null ? '' : `WHERE ${order} > $1`;
  const r = await client.query<Record<string, unknown>>(`SELECT ${cols} FROM ${client.escapeIdentifier(t.shared)} ${where} ORDER BY ${order} LIMIT ${PAGE_ROWS}`, after === null ? [] : [after]);
  return r.rows;
}

/**
 * A local row as the shared table holds it. PostgreSQL's text cannot hold U+0000, which some PDFs'
 * text layers contain: in segments (outside the chain, and read by offset) each becomes U+FFFD,
 * one UTF-16 unit for one, so every stored offset still points at the same place. Anywhere else a
 * NUL is left as it is, and the copy names the row PostgreSQL refuses.
 */
export function asShared(t: MovedTable, row: Record<string, unknown>): Record<string, unknown> {
  if (t.local !== 'segments' || typeof row.text !== 'string' || !row.text.includes('\u0000')) return row;
  return { ...row, text: row.text.replaceAll('\u0000', '\uFFFD') };
}
