/**
 * The audit chain in PostgreSQL: the same entries and hashes as SQLite's ChainStore (shared/audit),
 * appended under one advisory lock held to the end of the writing transaction, so many writers at
 * once still make one chain; verified by the same walk. A write's entries go in one call (since
 * migration 8), hashed in that call (since migration 11), by one statement with the rows they name
 * checked before the lock (evidesk_audit_append_rows, since migration 15).
 */
import pg from 'pg';

const { escapeLiteral } = pg;
import { AUDIT_GENESIS, CHAIN_TABLE_NAMES, rowHash, type ChainTable } from '../../../../shared/audit/canonical.ts';
import { anchorBreak, walkChain, type AnchorLabel, type ChainReport } from '../../../../shared/audit/chain-walk.ts';
import type { AuditHead } from '../../../../shared/audit/head.ts';
import { chainEntryOf, type AuditEntryRow } from '../audit-chain-store.ts';
import { sha256Text } from '../audit-head-file.ts';
import { noteTransactionId, sendWithCommit } from './pg-resilience.ts';

export interface PgEntry {
  action: string;
  payload?: unknown;
  /** The evidence row the entry records, as the INSERT … RETURNING * gave it. */
  table?: ChainTable;
  row?: Record<string, unknown>;
}

interface EntryColumns {
  action: string[];
  payload: string[];
  table: (string | null)[];
  rowId: (number | null)[];
  rowHash: (string | null)[];
}

/** The entries as evidesk_audit_append_rows takes them, each row's hash computed here (before the lock). */
function entryColumns(entries: readonly PgEntry[]): EntryColumns {
  const cols: EntryColumns = { action: [], payload: [], table: [], rowId: [], rowHash: [] };
  for (const e of entries) {
    const table = e.table !== undefined && e.row !== undefined ? e.table : null;
    cols.action.push(e.action);
    cols.payload.push(JSON.stringify(e.payload ?? {}));
    cols.table.push(table);
    cols.rowId.push(table !== null ? Number(e.row?.id) : null);
    cols.rowHash.push(table !== null && e.row !== undefined ? rowHash(table, e.row, sha256Text) : null);
  }
  return cols;
}

/**
 * Appends entries after the chain's head; call last in the transaction that wrote the rows, so
 * the lock (taken here) is held for as short a time as possible.
 */
export async function appendEntries(client: pg.ClientBase, entries: readonly PgEntry[], now: string): Promise<void> {
  if (entries.length === 0) return;
  // The rows' hashes before the lock; the head, the entries' hashes and their insert in one call
  // under it (migrations 11 and 14).
  const cols = entryColumns(entries);
  const appended = await client.query<{ xid: string | null }>('SELECT evidesk_audit_append_rows($1, $2, $3, $4, $5, $6) AS xid', [cols.action, cols.payload, now, cols.table, cols.rowId, cols.rowHash]);
  noteTransactionId(client, appended.rows[0]?.xid ?? null);
}

/** A text array written out as a literal (the values escaped as the client library escapes them). */
function textArray(values: readonly (string | null)[]): string {
  return `ARRAY[${values.map((v) => (v === null ? 'NULL' : escapeLiteral(v))).join(', ')}]::text[]`;
}

function bigintArray(values: readonly (number | null)[]): string {
  return `ARRAY[${values.map((v) => {
    if (v !== null && !Number.isSafeInteger(v)) throw new Error(`an audit entry's row id is not an integer: ${v}`);
    return v === null ? 'NULL' : String(v);
  }).join(', ')}]::bigint[]`;
}

/**
 * The same append, sent with the transaction's COMMIT in one message (pg-resilience.ts
 * sendWithCommit): the chain's lock is then held for the append and the commit, with no round trip
 * to this process between them (one that, with several agents in a busy process, waited on the
 * others' work while every other writer waited on the lock). The transaction's id must be noted
 * before: the append no longer returns it before the commit.
 */
export function appendEntriesWithCommit(client: pg.ClientBase, entries: readonly PgEntry[], now: string): void {
  if (entries.length === 0) return;
  const cols = entryColumns(entries);
  sendWithCommit(
    client,
    `SELECT evidesk_audit_append_rows(${textArray(cols.action)}, ${textArray(cols.payload)}, ${escapeLiteral(now)}, ${textArray(cols.table)}, ${bigintArray(cols.rowId)}, ${textArray(cols.rowHash)})`,
  );
}

export interface PgChainReport extends ChainReport {
  /** Whether the end of the chain was checked against a head recorded apart from the log (audit_head, or a head kept outside the database). */
  anchored: boolean;
  /** The head the database records beside the log (migration 13), with the chain's id. */
  recordedHead?: RecordedHead;
}

/** The row of audit_head: the chain's id, its entry count and last hash as the appends left them. */
export interface RecordedHead {
  chainId: string;
  count: number;
  hash: string;
  /** When the last append moved it (ISO 8601). */
  at: string;
  /** The database's name: with chainId, what a member's head file is kept under (a database made from a template copies chain_id). */
  database: string;
}

const RECORDED_LABEL: AnchorLabel = { name: 'the shared head record (audit_head)', holder: 'the audit log' };
const SEEN_LABEL: AnchorLabel = { name: "this member's head file (the head it last saw)", holder: 'the shared audit log' };
const LOCAL_LABEL: AnchorLabel = { name: "the local workspace's head", holder: 'the shared audit log' };

/** The head audit_head records, or undefined on a schema before migration 13. */
export async function recordedHead(client: pg.ClientBase): Promise<RecordedHead | undefined> {
  const there = (await client.query<{ t: string | null }>("SELECT to_regclass('audit_head')::text AS t")).rows[0]?.t;
  if (!there) return undefined;
  const row = (
    await client.query<{ chain_id: string; count: string; hash: string; updated_at: Date; database: string }>('SELECT chain_id::text AS chain_id, count, hash, updated_at, current_database() AS database FROM audit_head')
  ).rows[0];
  return row ? { chainId: row.chain_id, count: Number(row.count), hash: row.hash, at: row.updated_at.toISOString(), database: row.database } : undefined;
}

/**
 * Walks the chain as it is in the database (read by an auditor, an admin or the owner). Its end is
 * held to the head audit_head records (a cut tail, a tail rewritten without it, or entries put in
 * around the append function are found), then to `anchor` (the local head, when a workspace is
 * moved) and `seen` (the head this member saw last, kept outside the database: what catches an
 * owner who rewrote the log and audit_head together). With none of them the end is the log's own.
 */
export async function verifyPgChain(client: pg.ClientBase, anchor?: AuditHead, seen?: AuditHead): Promise<PgChainReport> {
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
  const recorded = await recordedHead(client);
  const last = entries[entries.length - 1];
  const now = new Date().toISOString();
  const primary: AuditHead = recorded ? { count: recorded.count, hash: recorded.hash, at: recorded.at } : (anchor ?? { count: entries.length, hash: last?.hash ?? AUDIT_GENESIS, at: now });
  const label = recorded ? RECORDED_LABEL : anchor ? LOCAL_LABEL : undefined;
  const report = walkChain({ entries, rowHashes, headFile: { state: 'ok', head: primary }, digest: sha256Text, restricted, ...(label ? { anchorLabel: label } : {}) });
  const out: PgChainReport = { ...report, anchored: anchor !== undefined || recorded !== undefined, ...(recorded ? { recordedHead: recorded } : {}) };
  if (!out.ok) return out;
  const hashes = entries.map((e) => e.hash);
  for (const [head, l] of [[recorded ? anchor : undefined, LOCAL_LABEL], [seen, SEEN_LABEL]] as const) {
    const b = head ? anchorBreak(head, hashes, l) : undefined;
    if (b) return { ...out, ok: false, break: b };
  }
  // A moved workspace's chain ends at the local head: an entry after it came from elsewhere.
  if (recorded && anchor && hashes.length > anchor.count) {
    const first = anchor.count + 1;
    return { ...out, ok: false, break: { kind: 'unanchored', seq: first, message: `Audit entries ${first} to ${hashes.length} follow the local workspace's head: they were not moved from it.` } };
  }
  return out;
}
