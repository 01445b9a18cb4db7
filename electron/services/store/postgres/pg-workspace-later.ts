/**
 * A second `evidesk workspace migrate` of a workspace moved before (issue 13): analysts keep
 * working locally after a first move, and the later move copies only what was added since. That
 * is possible only while both sides still share one history: the local chain must continue the
 * chain that was moved (its entry at the moved count has the moved head's hash), and the shared
 * chain must still end where the move left it (no member has appended since: their entries and
 * the local ones would both claim the next places of the one chain). Anything else is refused,
 * saying which side went its own way.
 */
import type pg from 'pg';
import type { AuditHead } from '../../../../shared/audit/head.ts';
import { AppError } from '../../../../shared/contract/errors.ts';
import type { Db } from '../database.ts';
import { AUDIT_LOCK_KEY } from './schema-access.ts';

/** What the last move recorded (workspace_origin). */
export interface MovedOrigin {
  workspace_id: string;
  chain_count: number;
  chain_head: string;
}

function diverged(message: string, details: Record<string, unknown>): AppError {
  return new AppError('SHARED_WORKSPACE_DIVERGED', `${message} Nothing was copied.`, details);
}

const short = (hash: string | undefined) => (hash ? `${hash.slice(0, 12)}…` : 'none');

/** Throws SHARED_WORKSPACE_DIVERGED unless the local chain at `local` continues the moved one and the shared one has not moved on. */
export async function checkContinuation(db: Db, client: pg.ClientBase, moved: MovedOrigin, local: AuditHead): Promise<void> {
  const movedCount = Number(moved.chain_count);
  const details = { workspaceId: moved.workspace_id, moved: movedCount, local: local.count };
  if (local.count < movedCount) {
    throw diverged(
      `The local workspace's audit chain has ${local.count} entries, fewer than the ${movedCount} moved into the shared workspace: it is not a continuation of what was moved (restored from an older backup, or cut short).`,
      details,
    );
  }
  const localAtMoved = movedCount === 0 ? moved.chain_head : (db.prepare('SELECT hash FROM audit_log ORDER BY id LIMIT 1 OFFSET ?').get(movedCount - 1) as { hash: string } | undefined)?.hash;
  if (localAtMoved !== moved.chain_head) {
    throw diverged(
      `The local workspace's audit chain is not a continuation of what was moved: its entry ${movedCount} has the hash ${short(localAtMoved)}, the move recorded ${short(moved.chain_head)}.`,
      { ...details, localHash: localAtMoved, movedHash: moved.chain_head },
    );
  }
  // The chain's lock, held to the commit: no member appends between this look and the copy.
  await client.query('SELECT pg_advisory_xact_lock($1)', [AUDIT_LOCK_KEY]);
  const shared = (await client.query<{ n: string; hash: string | null }>('SELECT count(*) AS n, (SELECT hash FROM audit_log ORDER BY id DESC LIMIT 1) AS hash FROM audit_log')).rows[0];
  const sharedCount = Number(shared?.n ?? 0);
  if (sharedCount !== movedCount || (movedCount > 0 && shared?.hash !== moved.chain_head)) {
    const what =
      sharedCount > movedCount
        ? `members have appended ${sharedCount - movedCount} audit ${sharedCount - movedCount === 1 ? 'entry' : 'entries'} to it since the move (it holds ${sharedCount}, the move left ${movedCount})`
        : `its audit chain no longer ends where the move left it (it holds ${sharedCount} entries ending in ${short(shared?.hash ?? undefined)}, the move left ${movedCount} ending in ${short(moved.chain_head)})`;
    throw diverged(
      `The shared workspace went its own way: ${what}, so the ${local.count - movedCount} local entries added since cannot follow it in the one chain. Keep working in the shared workspace, or move the local workspace into an empty database.`,
      { ...details, shared: sharedCount },
    );
  }
}
