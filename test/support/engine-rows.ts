/**
 * What a parametrised suite (engines.ts) asks of the engine in use beside the services: SQL as
 * the tables' owner, and the audit chain walked.
 */
import type { AuditCheckData } from '../../shared/contract/answer-schemas.ts';
import { checkData } from '../../electron/services/audit/audit-service.ts';
import { PgStore } from '../../electron/services/store/postgres/pg-store.ts';
import type { Opened } from './engines.ts';
import { callHandler, workspaceSnapshot } from './workspace.ts';

/** SQL as the tables' owner: on SQLite the workspace's database, on PostgreSQL the owner's (SQLite's `?` placeholders, numbered there). */
export async function ownerSql<R = unknown>(opened: Opened<unknown>, sql: string, params: unknown[] = []): Promise<R[]> {
  if (!opened.database) {
    const statement = opened.services.db.prepare(sql);
    return statement.reader ? (statement.all(...params) as R[]) : (statement.run(...params), []);
  }
  const owner = await opened.database.owner();
  try {
    let n = 0;
    return (await owner.query(sql.replace(/\?/g, () => `$${++n}`), params)).rows as R[];
  } finally {
    await owner.end();
  }
}

/**
 * `audit.verify` on SQLite; on PostgreSQL the same walk over its rows, as the owner (the audit
 * command does not reach PostgreSQL yet), unanchored.
 */
export async function auditCheck(opened: Opened<unknown>): Promise<AuditCheckData> {
  if (!opened.database) return callHandler<AuditCheckData>(opened.services, 'audit.verify', {});
  const owner = await PgStore.connect(opened.database.ownerUrl);
  try {
    return checkData(await owner.verifyChain());
  } finally {
    await owner.close();
  }
}

/**
 * Every row of every table of the engine in use (on SQLite with the blob files, workspaceSnapshot):
 * equal snapshots mean nothing was stored. On PostgreSQL as the owner, bookkeeping left out.
 */
export async function engineSnapshot(opened: Opened<unknown>): Promise<string> {
  if (!opened.database) return workspaceSnapshot(opened.services);
  const tables = await ownerSql<{ name: string }>(opened, "SELECT tablename AS name FROM pg_tables WHERE schemaname = current_schema() AND tablename <> 'schema_migrations' ORDER BY tablename");
  const rows: string[] = [];
  for (const { name } of tables) rows.push(`${name}:${JSON.stringify(await ownerSql(opened, `SELECT * FROM "${name}" ORDER BY 1`))}`);
  return rows.join('\n');
}
