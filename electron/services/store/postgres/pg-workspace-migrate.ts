/**
 * `evidesk workspace migrate --from DIR --to postgres://…` (issue 13): moves a local workspace into
 * a shared one in one PostgreSQL transaction, read from one SQLite snapshot. The local chain is
 * walked first (a tampered workspace is refused, naming the row); the target must be empty, hold
 * this very workspace at this very head (then nothing is copied, and the check still runs), or
 * hold it as an earlier move left it (then what was added locally since is copied, when both
 * sides still share one history: pg-workspace-later.ts); after the copy, everything is compared
 * (pg-workspace-check.ts) before the commit.
 */
import fs from 'node:fs';
import path from 'node:path';
import type pg from 'pg';
import type { AuditHead } from '../../../../shared/audit/head.ts';
import { AppError } from '../../../../shared/contract/errors.ts';
import { walkChain } from '../../../../shared/audit/chain-walk.ts';
import { parseHeadFile } from '../../../../shared/audit/head.ts';
import { ChainStore } from '../audit-chain-store.ts';
import { checkHeadSignature, readHeadFileText, sha256Text } from '../audit-head-file.ts';
import { DATABASE_FILE, openDatabase, type Db } from '../database.ts';
import { ExportStore } from '../export-store.ts';
import { migratePostgres } from './migrate.ts';
import { checkWorkspace, type WorkspaceCheck } from './pg-workspace-check.ts';
import { copyWorkspace, movedUpTo, type CopyCounts } from './pg-workspace-copy.ts';
import { checkContinuation, type MovedOrigin } from './pg-workspace-later.ts';

export interface MigrateOptions {
  /** The local workspace folder. */
  from: string;
  /** The project answers outside any agent session go to (made if missing). */
  project: { key: string; name: string };
  now?: string;
}

export interface MigrateSummary {
  /** migrated: into an empty database; updated: what was added since an earlier move; already_migrated: nothing to copy. */
  outcome: 'migrated' | 'updated' | 'already_migrated';
  workspaceId: string;
  project: string;
  copied: CopyCounts | null;
  check: WorkspaceCheck;
  chain: { entries: number; head: string; anchored: boolean };
}

/** Opens the local workspace (bringing its schema up to date, as the app would) and walks its chain. */
function openLocal(dir: string): Db {
  if (!fs.existsSync(path.join(dir, DATABASE_FILE))) {
    throw new AppError('MIGRATION_SOURCE_INVALID', `${dir} is not an Evidence Desk workspace: it has no ${DATABASE_FILE}.`, { dir });
  }
  const db = openDatabase(dir);
  // The walk `evidesk audit verify` does: every entry, every covered row, the signed head file.
  const chain = new ChainStore(db);
  const headFile = checkHeadSignature(dir, parseHeadFile(readHeadFileText(dir), sha256Text));
  const report = db.transaction(() => walkChain({ entries: chain.entries(), rowHashes: chain.rowHashes(), restricted: chain.restrictedFlags(), headFile, digest: sha256Text }))();
  if (!report.ok) {
    db.close();
    const b = report.break;
    const where = [b?.seq !== undefined ? `entry ${b.seq}` : '', b?.entryId !== undefined ? `audit_log id ${b.entryId}` : '', b?.table ? `${b.table} row ${b.rowId ?? '?'}` : ''].filter(Boolean).join(', ');
    throw new AppError('MIGRATION_SOURCE_INVALID', `The local workspace's audit chain is broken${where ? ` at ${where}` : ''}: ${b?.message ?? 'unknown'} Nothing was copied.`, {
      dir,
      break: b,
    });
  }
  return db;
}

type TargetState = { state: 'empty' } | { state: 'same' } | { state: 'later'; moved: MovedOrigin };

/** What the target holds already: nothing, this workspace at this head or at an earlier one, or something else (refused). */
async function targetState(db: Db, client: pg.ClientBase, workspaceId: string, head: AuditHead): Promise<TargetState> {
  const origins = (await client.query<MovedOrigin>('SELECT workspace_id, chain_count, chain_head FROM workspace_origin ORDER BY id')).rows;
  const other = origins.find((o) => o.workspace_id !== workspaceId);
  if (other) {
    throw new AppError('SHARED_WORKSPACE_NOT_EMPTY', `The shared workspace already holds another workspace (${other.workspace_id}); nothing was copied.`, { holds: other.workspace_id, workspaceId });
  }
  const mine = origins[origins.length - 1];
  if (mine) {
    if (Number(mine.chain_count) === head.count && mine.chain_head === head.hash) return { state: 'same' };
    await checkContinuation(db, client, mine, head);
    return { state: 'later', moved: mine };
  }
  const used = (await client.query<{ n: number }>('SELECT (SELECT count(*) FROM sources) + (SELECT count(*) FROM answers) + (SELECT count(*) FROM audit_log) AS n')).rows[0]?.n ?? 0;
  if (Number(used) > 0) {
    throw new AppError('SHARED_WORKSPACE_NOT_EMPTY', 'The shared workspace already holds sources, answers or audit entries of its own; a local workspace is moved only into an empty one. Nothing was copied.', { rows: Number(used) });
  }
  return { state: 'empty' };
}

/** Moves the workspace at `from` into the database `owner` is connected to (as the role that owns it). */
export async function migrateWorkspace(owner: pg.ClientBase, options: MigrateOptions): Promise<MigrateSummary> {
  const now = options.now ?? new Date().toISOString();
  const db = openLocal(options.from);
  try {
    const workspaceId = new ExportStore(db).workspaceId();
    await migratePostgres(owner);
    // One read snapshot of the local workspace for the copy and the check.
    db.exec('BEGIN');
    try {
      const { count, hash } = new ChainStore(db).head();
      const anchor: AuditHead = { count, hash, at: now };
      await owner.query('BEGIN');
      try {
        const target = await targetState(db, owner, workspaceId, anchor);
        const { state } = target;
        // A later move copies after the ids the shared tables hold (the earlier move's, as nobody has written since).
        const upTo = state === 'later' ? await movedUpTo(owner) : undefined;
        const copied = state === 'same' ? null : await copyWorkspace(db, owner, options.from, options.project, now, upTo);
        const check = await checkWorkspace(db, owner, anchor, { movedOnly: state === 'same' });
        const summary: MigrateSummary = {
          outcome: state === 'empty' ? 'migrated' : state === 'later' ? 'updated' : 'already_migrated',
          workspaceId,
          project: options.project.key,
          copied,
          check,
          chain: { entries: check.chain.entries, head: check.chain.head, anchored: check.chain.anchored },
        };
        if (state !== 'same') {
          await owner.query('INSERT INTO workspace_origin (workspace_id, chain_count, chain_head, summary, migrated_at) VALUES ($1, $2, $3, $4, $5)', [
            workspaceId,
            count,
            hash,
            JSON.stringify({ rows: copied?.rows ?? {}, snapshots: copied?.snapshots ?? 0, from: path.resolve(options.from), ...(target.state === 'later' ? { after: Number(target.moved.chain_count) } : {}) }),
            now,
          ]);
        }
        await owner.query('COMMIT');
        return summary;
      } catch (e) {
        await owner.query('ROLLBACK').catch(() => undefined);
        throw e;
      }
    } finally {
      db.exec('ROLLBACK');
    }
  } finally {
    db.close();
  }
}
