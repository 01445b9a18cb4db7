/**
 * Whether a database holds a shared workspace at all (issue 13), asked before a member's command
 * runs on it: otherwise the first query fails on a missing table, which says nothing useful.
 * to_regclass needs no privilege on the table, so any member may ask.
 */
import { AppError } from '../../../../shared/contract/errors.ts';
import { storeError } from './pg-errors.ts';
import type { PgStore } from './pg-store.ts';

export async function requireSharedWorkspace(store: PgStore, where: string): Promise<void> {
  let present: boolean;
  try {
    const r = await store.pool.query<{ present: boolean }>("SELECT to_regclass('audit_log') IS NOT NULL AND to_regclass('schema_migrations') IS NOT NULL AS present");
    present = r.rows[0]?.present === true;
  } catch (e) {
    throw storeError(e, store.who, 'look for the shared workspace');
  }
  if (!present) {
    throw new AppError('SHARED_WORKSPACE_MISSING', `${where} holds no Evidence Desk workspace: move one in with \`evidesk workspace migrate --from DIR --to URL\`.`, { database: where, login: store.who.login });
  }
}
