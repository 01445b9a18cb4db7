/**
 * The audit chain in PostgreSQL: the same entries and hashes as SQLite's ChainStore (shared/audit),
 * appended through evidesk_audit_append (a write's entries in one call since migration 8, hashed in
 * that call since migration 11) under
 * one advisory lock held to the end of the writing transaction, so many writers at once still make
 * one chain; verified by the same walk.
 */
import type pg from 'pg';
import { AUDIT_GENESIS, CHAIN_TABLE_NAMES, rowHash, type ChainTable } from '../../../../shared/audit/canonical.ts';
import { walkChain, type ChainReport } from '../../../../shared/audit/chain-walk.ts';
import type { AuditHead } from '../../../../shared/audit/head.ts';
import { chainEntryOf, type AuditEntryRow } from '../audit-chain-store.ts';
import { sha256Text } from '../audit-head-file.ts';
import { noteTransactionId } from './pg-resilience.ts';

export interface PgEntry {
  action: string;
  payload?: unknown;
  /** The evidence row the entry records, as the INSERT … RETURNING * gave it. */
  table?: ChainTable;
  row?: Record<string, unknown>;
}

/**
 * Appends entries after the chain's head; call last in the transaction that wrote the rows, so
 * the lock (taken here) is held for as short a time as possible.
 */
export async function appendEntries(client: pg.ClientBase, entries: readonly PgEntry[], now: string): Promise<void> {
  if (entries.length === 0) return;
  // The rows' hashes before the lock; the head, the entries' hashes and their append in one call
  // under it (migration 11), each entry checked as evidesk_audit_append checks it.
  const cols = { action: [] as string[], payload: [] as string[], table: [] as (string | null)[], rowId: [] as (number | null)[], rowHash: [] as (string | null)[] };
  for (const e of entries) {
    const table = e.table !== undefined && e.row !== undefined ? e.table : null;
    cols.action.push(e.action);
    cols.payload.push(JSON.stringify(e.payload ?? {}));
    cols.table.push(table);
    cols.rowId.push(table !== null ? Number(e.row?.id) : null);
    cols.rowHash.push(table !== null && e.row !== undefined ? rowHash(table, e.row, sha256Text) : null);
  }
  const appended = await client.query<{ xid: string | null }>('SELECT evidesk_audit_append_hashed($1, $2, $3, $4, $5, $6) AS xid', [cols.action, cols.payload, now, cols.table, cols.rowId, cols.rowHash]);
  noteTransactionId(client, appended.rows[0]?.xid ?? null);
}

export interface PgChainReport extends ChainReport {
  /** Whether the end of the chain was checked against a head kept outside the database. */
  anchored: boolean;
}

/**
 * Walks the chain as it is in the database (read by an auditor, an admin or the owner). With no
 * `anchor` (a head kept outside the database, e.g. a member's head file) the end of the chain is
 * taken as the database says it is: edits, removals and insertions are found, a cut tail is not.
 */
export async function verifyPgChain(client: pg.ClientBase, anchor?: AuditHead): Promise<PgChainReport> {
  const entries = (await client.query<AuditEntryRow>('SELECT * FROM audit_log ORDER BY id')).rows.map(chainEntryOf);
  const present = (await client.query<{ name: string }>("SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = current_schema() AND c.relkind = 'r'")).rows;
  const tables = new Set(present.map((r) => r.name));
  const rowHashes = new Map<string, Map<number, string>>();
  for (const table of CHAIN_TABLE_NAMES.filter((t) => tables.has(t))) {
    const hashes = new Map<number, string>();
    for (const row of (await client.query<Record<string, unknown>>(`SELECT * FROM ${table} ORDER BY id`)).rows) {
      hashes.set(Number(row.id), rowHash(table, row, sha256Text));
    }
    rowHashes.set(table, hashes);
  }
  const restricted = new Map((await client.query<{ id: number; restricted: number }>('SELECT id, restricted FROM sources')).rows.map((r) => [r.id, r.restricted === 1]));
  const last = entries[entries.length - 1];
  const head: AuditHead = anchor ?? { count: entries.length, hash: last?.hash ?? AUDIT_GENESIS, at: new Date().toISOString() };
  const report = walkChain({ entries, rowHashes, headFile: { state: 'ok', head }, digest: sha256Text, restricted });
  return { ...report, anchored: anchor !== undefined };
}
