/**
 * The check half of `evidesk workspace migrate` (issue 13): after the copy, still inside its
 * transaction, every moved table is read page by page on both sides and compared row for row
 * (the columns both engines have, in canonical JSON; for the chain's tables their row hashes
 * too), the counts per table compared, every snapshot's SHA-256 recomputed from its chunks, and
 * the audit chain walked on PostgreSQL, anchored at the local chain's head. With `movedOnly` (a
 * database this workspace was moved into before) rows members added since are left out.
 */
import { createHash } from 'node:crypto';
import type pg from 'pg';
import { canonicalJson, isChainTable, rowHash } from '../../../../shared/audit/canonical.ts';
import type { AuditHead } from '../../../../shared/audit/head.ts';
import { AppError } from '../../../../shared/contract/errors.ts';
import { sha256Text } from '../audit-head-file.ts';
import type { Db } from '../database.ts';
import { verifyPgChain, type PgChainReport } from './pg-audit-chain.ts';
import { readSnapshot } from './pg-snapshots.ts';
import { asShared, columnsOf, localHas, localPage, MOVED_TABLES, sharedPage, type MovedTable } from './pg-workspace-tables.ts';

export interface TableCheck {
  table: string;
  local: number;
  shared: number;
  /** Rows of a chain table whose row hash was compared (the rest are compared column by column). */
  rowHashes: number;
}

export interface WorkspaceCheck {
  tables: TableCheck[];
  snapshots: { checked: number; bytes: number };
  chain: PgChainReport;
}

function mismatch(message: string, details: Record<string, unknown>): AppError {
  return new AppError('MIGRATION_MISMATCH', message, details);
}

function picked(row: Record<string, unknown>, columns: readonly string[]): string {
  const out: Record<string, unknown> = {};
  for (const c of columns) out[c] = row[c] ?? null;
  return canonicalJson(out);
}

async function checkTable(db: Db, client: pg.ClientBase, t: MovedTable, movedOnly: boolean): Promise<TableCheck> {
  const sharedCount = Number((await client.query<{ n: number }>(`SELECT count(*) AS n FROM ${client.escapeIdentifier(t.shared)}`)).rows[0]?.n ?? 0);
  if (!localHas(db, t.local)) {
    if (sharedCount !== 0) throw mismatch(`The shared ${t.shared} table holds ${sharedCount} rows the local workspace has no table for.`, { table: t.shared, shared: sharedCount });
    return { table: t.local, local: 0, shared: 0, rowHashes: 0 };
  }
  const { common } = await columnsOf(db, client, t);
  const chain = isChainTable(t.local) ? t.local : null;
  let after: number | string | null = null;
  let local = 0;
  let hashes = 0;
  for (;;) {
    const mine = localPage(db, t, common, after).map((r) => asShared(t, r));
    const theirs = await sharedPage(client, t, common, after);
    for (let i = 0; i < Math.max(mine.length, theirs.length); i++) {
      const a = mine[i];
      const b = theirs[i];
      const key = a?.[t.key] ?? b?.[t.key];
      // Rows members added after an earlier move come after every moved one: not the move's to check.
      if (!a && movedOnly) break;
      if (!a || !b || a[t.key] !== b[t.key]) {
        throw mismatch(`The ${t.local} row ${String(key)} is ${a ? 'missing from' : 'extra in'} the shared workspace.`, { table: t.local, [t.key]: key });
      }
      if (picked(a, common) !== picked(b, common)) {
        const column = common.find((c) => canonicalJson(a[c] ?? null) !== canonicalJson(b[c] ?? null));
        throw mismatch(`The ${t.local} row ${String(key)} differs in the shared workspace (column ${column}).`, { table: t.local, [t.key]: key, column });
      }
      if (chain !== null) {
        if (rowHash(chain, a, sha256Text) !== rowHash(chain, b, sha256Text)) throw mismatch(`The ${t.local} row ${String(key)} hashes differently in the shared workspace.`, { table: t.local, [t.key]: key });
        hashes++;
      }
    }
    local += mine.length;
    if (mine.length === 0) break;
    after = mine[mine.length - 1]?.[t.key] as number | string;
  }
  if (movedOnly ? local > sharedCount : local !== sharedCount) throw mismatch(`The ${t.local} table has ${local} rows locally and ${sharedCount} in the shared workspace.`, { table: t.local, local, shared: sharedCount });
  return { table: t.local, local, shared: sharedCount, rowHashes: hashes };
}

/** Recomputes every blob's SHA-256 and size from its chunks. */
async function checkSnapshots(client: pg.ClientBase): Promise<{ checked: number; bytes: number }> {
  let checked = 0;
  let bytes = 0;
  let after = '';
  for (;;) {
    const page = (await client.query<{ sha256: string; byte_size: number }>('SELECT sha256, byte_size FROM blobs WHERE sha256 > $1 ORDER BY sha256 LIMIT 200', [after])).rows;
    if (page.length === 0) return { checked, bytes };
    for (const b of page) {
      const hash = createHash('sha256');
      let size = 0;
      for await (const chunk of readSnapshot(client, b.sha256)) {
        hash.update(chunk);
        size += chunk.byteLength;
      }
      const actual = hash.digest('hex');
      if (actual !== b.sha256 || size !== b.byte_size) {
        throw mismatch(`The shared snapshot ${b.sha256} reads back as ${size} bytes with SHA-256 ${actual}.`, { sha256: b.sha256, actual, size });
      }
      checked++;
      bytes += size;
    }
    after = page[page.length - 1]?.sha256 ?? after;
  }
}

/** Compares the shared workspace with the local one (in the copy's transaction); throws MIGRATION_MISMATCH naming the first difference. */
export async function checkWorkspace(db: Db, client: pg.ClientBase, anchor: AuditHead, options: { movedOnly?: boolean } = {}): Promise<WorkspaceCheck> {
  const movedOnly = options.movedOnly ?? false;
  const tables: TableCheck[] = [];
  for (const t of MOVED_TABLES) tables.push(await checkTable(db, client, t, movedOnly));
  const snapshots = await checkSnapshots(client);
  const localSnapshots = (db.prepare('SELECT count(*) AS n FROM sources WHERE snapshot IS NOT NULL').get() as { n: number }).n;
  if (movedOnly ? snapshots.checked < localSnapshots : snapshots.checked !== localSnapshots) throw mismatch(`The local workspace has ${localSnapshots} snapshots and the shared one ${snapshots.checked}.`, { local: localSnapshots, shared: snapshots.checked });
  // After an earlier move the chain may have grown in the shared workspace: walked to its own end then.
  const chain = await verifyPgChain(client, movedOnly ? undefined : anchor);
  if (!chain.ok) throw mismatch(`The audit chain does not verify on PostgreSQL: ${chain.break?.message ?? 'broken'}`, { break: chain.break });
  return { tables, snapshots, chain };
}
