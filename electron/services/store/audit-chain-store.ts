/**
 * The SQL of the audit chain (DESIGN.md §3, §11): every appended evidence row gets an entry with
 * the hash of its canonical encoding, in the transaction that writes the row; the head is written
 * to a file beside the database once that transaction has committed.
 */
import type Database from 'better-sqlite3';
import path from 'node:path';
import { AUDIT_GENESIS, CHAIN_TABLE_NAMES, entryHash, rowHash, type ChainTable } from '../../../shared/audit/canonical.ts';
import type { ChainEntry } from '../../../shared/audit/chain-walk.ts';
import { parseHeadFile, type AuditHead } from '../../../shared/audit/head.ts';
import { readHeadFileText, sha256Text, writeHeadFile, writeHeadFileAsync } from './audit-head-file.ts';
import type { Db } from './database.ts';

type Statement = Database.Statement<unknown[]>;

/** The action of an entry that records an appended evidence row. */
export const ROW_APPEND = 'row.append';

export interface AuditEntryRow {
  id: number;
  action: string;
  payload: string;
  created_at: string;
  prev_hash: string;
  hash: string;
  hash_version: number;
  seq: number | null;
  table_name: string | null;
  row_id: number | null;
  row_hash: string | null;
}

/** An audit_log row in the chain walk's terms (the PostgreSQL store reads the same rows). */
export function chainEntryOf(r: AuditEntryRow): ChainEntry {
  return {
    id: r.id,
    version: r.hash_version,
    seq: r.seq,
    action: r.action,
    table: r.table_name,
    rowId: r.row_id,
    rowHash: r.row_hash,
    payload: r.payload,
    createdAt: r.created_at,
    prevHash: r.prev_hash,
    hash: r.hash,
  };
}

export interface NewEntry {
  action: string;
  payload?: unknown;
  table?: ChainTable;
  rowId?: number;
}

/** The last head this process wrote per database, so an unchanged head is not written again. */
const published = new WeakMap<Db, string>();

export class ChainStore {
  readonly db: Db;
  /** Statements prepared once per store: an import appends hundreds of entries in a row. */
  private readonly statements = new Map<string, Statement>();
  constructor(db: Db) {
    this.db = db;
  }

  private stmt(sql: string): Statement {
    let s = this.statements.get(sql);
    if (!s) {
      s = this.db.prepare(sql);
      this.statements.set(sql, s);
    }
    return s;
  }

  /** The workspace folder: the database file's folder. */
  get workspaceDir(): string {
    return path.dirname(this.db.name);
  }

  private rowOf(table: ChainTable, id: number): Record<string, unknown> | undefined {
    // Every column: rowHash picks the covered ones, and a later column a database may not have yet is simply absent.
    return this.stmt(`SELECT * FROM ${table} WHERE id = ?`).get(id) as Record<string, unknown> | undefined;
  }

  /** Appends one entry after the chain's last; call inside the transaction of the change it records. */
  append(entry: NewEntry, now: string): AuditEntryRow {
    const last = this.stmt('SELECT seq, hash FROM audit_log ORDER BY id DESC LIMIT 1').get() as { seq: number | null; hash: string } | undefined;
    const seq = last === undefined ? 1 : last.seq !== null ? last.seq + 1 : (this.db.prepare('SELECT count(*) AS n FROM audit_log').get() as { n: number }).n + 1;
    const prevHash = last?.hash ?? AUDIT_GENESIS;
    const payload = JSON.stringify(entry.payload ?? {});
    let table: ChainTable | null = null;
    let rowId: number | null = null;
    let hashOfRow: string | null = null;
    if (entry.table !== undefined && entry.rowId !== undefined) {
      const row = this.rowOf(entry.table, entry.rowId);
      if (!row) throw new Error(`audit: ${entry.table} row ${entry.rowId} does not exist`);
      table = entry.table;
      rowId = entry.rowId;
      hashOfRow = rowHash(entry.table, row, sha256Text);
    }
    const hash = entryHash({ seq, prevHash, action: entry.action, table, rowId, rowHash: hashOfRow, payload, createdAt: now }, sha256Text);
    const r = this
      .stmt('INSERT INTO audit_log (action, payload, created_at, prev_hash, hash, hash_version, seq, table_name, row_id, row_hash) VALUES (?, ?, ?, ?, ?, 2, ?, ?, ?, ?)')
      .run(entry.action, payload, now, prevHash, hash, seq, table, rowId, hashOfRow);
    return { id: Number(r.lastInsertRowid), action: entry.action, payload, created_at: now, prev_hash: prevHash, hash, hash_version: 2, seq, table_name: table, row_id: rowId, row_hash: hashOfRow };
  }

  /** Records an appended evidence row. */
  record(table: ChainTable, rowId: number, now: string, action = ROW_APPEND, payload?: unknown): AuditEntryRow {
    return this.append({ action, table, rowId, payload }, now);
  }

  /** Entries in chain order (id order), in the walk's terms. */
  entries(): ChainEntry[] {
    return (this.db.prepare('SELECT * FROM audit_log ORDER BY id').all() as AuditEntryRow[]).map(chainEntryOf);
  }

  /** The covered tables this database has: a workspace opened at an older schema version lacks later ones. */
  private presentTables(): ChainTable[] {
    const exists = this.stmt("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?");
    return CHAIN_TABLE_NAMES.filter((t) => exists.get(t) !== undefined);
  }

  /** The current hash of every row of every covered table. */
  rowHashes(): Map<string, Map<number, string>> {
    const all = new Map<string, Map<number, string>>();
    for (const table of this.presentTables()) {
      const hashes = new Map<number, string>();
      for (const row of this.db.prepare(`SELECT * FROM ${table} ORDER BY id`).iterate() as IterableIterator<Record<string, unknown>>) {
        hashes.set(row.id as number, rowHash(table, row, sha256Text));
      }
      all.set(table, hashes);
    }
    return all;
  }

  /** The chain's head as the database holds it now. */
  head(): { count: number; hash: string } {
    const last = this.db.prepare('SELECT seq, hash FROM audit_log ORDER BY id DESC LIMIT 1').get() as { seq: number | null; hash: string } | undefined;
    if (!last) return { count: 0, hash: AUDIT_GENESIS };
    const count = last.seq ?? (this.db.prepare('SELECT count(*) AS n FROM audit_log').get() as { n: number }).n;
    return { count, hash: last.hash };
  }

  /**
   * Writes the head file after a commit. Inside a transaction it does nothing: the outermost
   * commit's caller publishes, and a rollback must leave no head that is not in the chain.
   */
  publishHead(): AuditHead | undefined {
    if (this.db.inTransaction || this.db.readonly) return undefined;
    let written: AuditHead | undefined;
    // Two processes citing into one workspace (two agents) can write their heads in the opposite
    // order of their commits; a writer that finds the chain longer after writing writes again, so
    // the last writer always leaves the newest head.
    for (let attempt = 0; attempt < 8; attempt++) {
      const { count, hash } = this.head();
      const key = `${count}:${hash}`;
      if (published.get(this.db) === key) return written;
      // Another process (the app and the command line share workspaces) may have anchored a longer
      // chain since our commit: never move the head file backwards.
      const onDisk = parseHeadFile(readHeadFileText(this.workspaceDir), sha256Text);
      if (onDisk.state === 'ok' && onDisk.head.count > count) return written;
      written = { count, hash, at: new Date().toISOString() };
      writeHeadFile(this.workspaceDir, written);
      published.set(this.db, key);
    }
    return written;
  }

  /**
   * As publishHead, with the file's flushes off the event loop (GroupCommit). It does not chase a
   * chain that grows while it writes (the group commits that grow it publish after it); but when a
   * synchronous publish of this process landed meanwhile, this write's rename may have overtaken
   * it, so the newest head is written once more.
   */
  async publishHeadAsync(): Promise<AuditHead | undefined> {
    let written: AuditHead | undefined;
    let overtaken = false;
    for (let attempt = 0; attempt < 8; attempt++) {
      if (!this.db.open || this.db.inTransaction || this.db.readonly) return written;
      const { count, hash } = this.head();
      const key = `${count}:${hash}`;
      if (!overtaken && published.get(this.db) === key) return written;
      const onDisk = parseHeadFile(readHeadFileText(this.workspaceDir), sha256Text);
      if (onDisk.state === 'ok' && onDisk.head.count > count) return written;
      const before = published.get(this.db);
      written = { count, hash, at: new Date().toISOString() };
      await writeHeadFileAsync(this.workspaceDir, written);
      if (published.get(this.db) === before) {
        published.set(this.db, key);
        return written;
      }
      overtaken = true;
    }
    return written;
  }

  restrictedFlag(sourceId: number): boolean {
    return (this.stmt('SELECT restricted FROM sources WHERE id = ?').get(sourceId) as { restricted: number } | undefined)?.restricted === 1;
  }

  /** Every source's restricted flag now. */
  restrictedFlags(): Map<number, boolean> {
    const rows = this.db.prepare('SELECT id, restricted FROM sources').all() as { id: number; restricted: number }[];
    return new Map(rows.map((r) => [r.id, r.restricted === 1]));
  }

  /** Gives every covered row that no entry records one (migration 6: rows written before the chain). */
  backfill(now: string): number {
    let n = 0;
    for (const table of this.presentTables()) {
      const ids = this.db
        .prepare(`SELECT id FROM ${table} t WHERE NOT EXISTS (SELECT 1 FROM audit_log a WHERE a.table_name = ? AND a.row_id = t.id) ORDER BY id`)
        .all(table) as { id: number }[];
      for (const { id } of ids) {
        // A source's restricted flag is state, not content: its entry says what it was.
        const payload = table === 'sources' ? { restricted: this.restrictedFlag(id) } : undefined;
        this.record(table, id, now, 'row.backfill', payload);
        n++;
      }
    }
    return n;
  }
}
