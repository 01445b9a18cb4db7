/**
 * Reads and one-transaction writes on a member's pool for the EvidenceStore areas (pg-search.ts,
 * pg-health.ts), with PostgreSQL's refusals turned into coded errors naming the member's level.
 */
import type pg from 'pg';
import { storeError, type Who } from './pg-errors.ts';
import { runTransaction, type TransactionOpening } from './pg-resilience.ts';

export interface PgContext {
  pool: pg.Pool;
  who: Who;
}

/** One statement outside an explicit transaction (a read). */
export async function pgRead<R extends pg.QueryResultRow>(ctx: PgContext, operation: string, sql: string, params: unknown[]): Promise<R[]> {
  try {
    return (await ctx.pool.query<R>(sql, params)).rows;
  } catch (e) {
    throw storeError(e, ctx.who, operation);
  }
}

/**
 * `fn` in one transaction: committed whole or rolled back whole, tried again after a lost
 * connection or a serialisation failure as every PgStore write is (pg-resilience.ts).
 */
export function pgTransaction<T>(ctx: PgContext, operation: string, fn: (c: pg.PoolClient) => Promise<T>, opening: TransactionOpening = 'BEGIN'): Promise<T> {
  return runTransaction(ctx.pool, ctx.who, operation, fn, undefined, opening);
}
