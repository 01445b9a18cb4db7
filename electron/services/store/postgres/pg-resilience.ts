/**
 * Failure handling of a member's writes to the shared workspace (issue 13, What-to-build 6).
 *
 * Each operation (an ingest, a cite, a decision) is one transaction. When the connection is lost,
 * or PostgreSQL reports a serialization failure or a deadlock, the whole transaction is tried
 * again after a growing, bounded wait; a refusal (a role, an append-only row, a bad hash) is never
 * tried again. The one doubtful moment is a connection lost while COMMIT is under way: the write may
 * have been recorded. The transaction's id is read just before COMMIT, so the retry first asks
 * PostgreSQL (pg_xact_status) what became of it and, if it committed, returns what it wrote instead
 * of writing it twice. Once the attempts are spent, the caller gets DATABASE_UNREACHABLE.
 */
import type pg from 'pg';
import { AppError } from '../../../../shared/contract/errors.ts';
import { storeError, type Who } from './pg-errors.ts';

/** How often and how patiently a write is tried again. */
export interface RetryPolicy {
  /** Attempts in all, the first included (1: never retried). */
  attempts: number;
  /** The wait before the second attempt; it doubles each time, up to maxDelayMs, with jitter. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** Told before each wait (e.g. for a "reconnecting…" line in the app). */
  onRetry?: (info: { operation: string; attempt: number; delayMs: number; reason: string }) => void;
}

export const DEFAULT_RETRY: RetryPolicy = { attempts: 6, baseDelayMs: 100, maxDelayMs: 3000 };

/**
 * Session limits every member connection starts with: no statement runs longer, and no lock is
 * waited for longer (the chain's lock is held only for the end of a write, so a wait this long means
 * something is stuck). Either one ending a statement is DATABASE_TIMEOUT, not retried.
 */
export const DEFAULT_TIMEOUTS = { statementTimeoutMs: 60_000, lockTimeoutMs: 15_000 };

/** SQLSTATEs of a transaction PostgreSQL gave up on that is safe and right to try again. */
const RETRY_SQLSTATES = new Set(['40001', '40P01']);
/** query_canceled (statement_timeout) and lock_not_available (lock_timeout). */
const TIMEOUT_SQLSTATES = new Set(['57014', '55P03']);
const CONNECTION_SQLSTATES = new Set(['57P01', '57P02', '57P03']);
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH']);
/** node-postgres reports a closed socket with these messages and no code. */
const LOST_MESSAGES = /Connection terminated|not queryable|Connection ended|timeout exceeded when trying to connect/i;

function codeOf(e: unknown): string | undefined {
  const code = (e as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** Whether `e` says the connection to the server is gone (or could not be made). */
export function isConnectionLost(e: unknown): boolean {
  if (e instanceof AppError) return e.code === 'DATABASE_UNREACHABLE';
  const code = codeOf(e);
  if (code !== undefined) return CONNECTION_SQLSTATES.has(code) || SOCKET_CODES.has(code) || code.startsWith('08');
  return e instanceof Error && LOST_MESSAGES.test(e.message);
}

/** Whether a transaction that failed with `e` should be tried again (never a refusal). */
export function isRetryable(e: unknown): boolean {
  if (isConnectionLost(e)) return true;
  const code = codeOf(e);
  return !(e instanceof AppError) && code !== undefined && RETRY_SQLSTATES.has(code);
}

/** The wait before attempt `attempt + 1`: exponential, capped, with up to half of it as jitter. */
export function backoffMs(policy: RetryPolicy, attempt: number): number {
  const full = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  return Math.round(full / 2 + (Math.random() * full) / 2);
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The error a member sees: timeouts and lost connections coded, the rest as storeError maps them. */
export function resilientError(e: unknown, who: Who, operation: string, attempts: number): unknown {
  const code = codeOf(e);
  if (!(e instanceof AppError) && code !== undefined && TIMEOUT_SQLSTATES.has(code)) {
    const what = code === '55P03' ? 'a lock it needed was held by another member for too long' : 'a statement ran past the time limit';
    return new AppError('DATABASE_TIMEOUT', `Could not ${operation}: ${what}; nothing was recorded.`, { sqlstate: code, operation, login: who.login });
  }
  if (!(e instanceof AppError) && isConnectionLost(e)) {
    const reason = e instanceof Error ? e.message : String(e);
    return new AppError('DATABASE_UNREACHABLE', `Could not ${operation}: the shared database cannot be reached (${reason}); tried ${attempts} time${attempts === 1 ? '' : 's'}, nothing was recorded.`, {
      sqlstate: code,
      operation,
      login: who.login,
      attempts,
    });
  }
  return storeError(e, who, operation);
}

type Outcome = 'committed' | 'aborted' | 'unknown';

/**
 * What became of transaction `xid`, whose COMMIT was sent on a connection that was then lost. A
 * killed backend may take a moment to finish its rollback ('in progress'): asked again until the
 * policy's patience runs out.
 */
async function outcomeOf(pool: pg.Pool, xid: string, policy: RetryPolicy): Promise<Outcome> {
  for (let attempt = 1; attempt <= policy.attempts * 2; attempt++) {
    try {
      const status = (await pool.query<{ s: string | null }>('SELECT pg_xact_status($1::xid8) AS s', [xid])).rows[0]?.s;
      if (status === 'committed') return 'committed';
      if (status === 'aborted') return 'aborted';
      // null: too old to say (not for a transaction of a moment ago); 'in progress': not settled yet.
    } catch (e) {
      if (!isConnectionLost(e)) throw e;
    }
    await sleep(backoffMs(policy, Math.min(attempt, 4)));
  }
  return 'unknown';
}

/** Transaction ids a transaction's last statement already returned (the audit append does), by connection. */
const knownXids = new WeakMap<pg.ClientBase, string>();

/**
 * Records the id of the transaction open on `client`, read by one of its statements, so that
 * runTransaction need not ask for it in a round trip of its own before COMMIT. Only a write that
 * is the transaction's last (or whose later statements write nothing new) should note it; an id,
 * once assigned, is the transaction's for good.
 */
export function noteTransactionId(client: pg.ClientBase, xid: string | null): void {
  if (xid !== null) knownXids.set(client, xid);
}

/** A statement to send with COMMIT in one message, by connection (see sendWithCommit). */
const withCommit = new WeakMap<pg.ClientBase, string>();

/**
 * Has `sql` (one statement, its values written in it: a message that also holds COMMIT takes no
 * parameters) sent in the same message as the transaction's COMMIT: the work it does waits on no
 * round trip between it and the commit. The chain's append goes there, so its lock is held for the
 * append and the commit alone. If it fails, PostgreSQL skips the COMMIT and the transaction rolls
 * back whole. Call it last; the transaction's id must be noted before (noteTransactionId).
 */
export function sendWithCommit(client: pg.ClientBase, sql: string): void {
  withCommit.set(client, sql);
}

/**
 * How a transaction starts: 'BEGIN' in a message of its own, or 'begun by fn': fn's first message
 * starts with BEGIN (a simple query, its values written in it: see withBegin), which saves a round
 * trip. Until then fn must write nothing.
 */
export type TransactionOpening = 'BEGIN' | 'begun by fn';

/** `sql` (one statement, its values written in it) after BEGIN, in one message: see TransactionOpening. */
export function withBegin(sql: string): string {
  return `BEGIN;\n${sql}`;
}

/** The last statement's result of a message holding several (node-postgres gives one result each). */
export function lastResult<R extends pg.QueryResultRow>(result: pg.QueryResult<R> | pg.QueryResult<R>[]): pg.QueryResult<R> | undefined {
  return Array.isArray(result) ? result[result.length - 1] : result;
}

/**
 * Runs `fn` as one transaction on a connection of `pool`, tried again as the policy says when the
 * connection is lost or PostgreSQL asks for a retry. `fn` may run more than once and must do all
 * its writing through the client it is given (its effects roll back with a failed attempt).
 */
export async function runTransaction<T>(
  pool: pg.Pool,
  who: Who,
  operation: string,
  fn: (c: pg.PoolClient) => Promise<T>,
  policy: RetryPolicy = DEFAULT_RETRY,
  opening: TransactionOpening = 'BEGIN',
): Promise<T> {
  let last: unknown;
  for (let attempt = 1; attempt <= policy.attempts; attempt++) {
    if (attempt > 1) {
      const delayMs = backoffMs(policy, attempt - 1);
      policy.onRetry?.({ operation, attempt, delayMs, reason: last instanceof Error ? last.message : String(last) });
      await sleep(delayMs);
    }
    let client: pg.PoolClient;
    try {
      client = await pool.connect();
    } catch (e) {
      last = e;
      if (isRetryable(e)) continue;
      throw resilientError(e, who, operation, attempt);
    }
    // A connection killed between statements is reported on the client, not on a query: keep it
    // from being an unhandled 'error' event while this attempt holds the client.
    let lost: unknown;
    const onError = (e: unknown) => void (lost = e);
    client.on('error', onError);
    let xid: string | null = null;
    let written: { value: T } | undefined;
    knownXids.delete(client);
    withCommit.delete(client);
    try {
      if (opening === 'BEGIN') await client.query('BEGIN');
      const value = await fn(client);
      written = { value };
      // Read before COMMIT: if COMMIT's reply is lost, this id says whether it happened.
      xid = knownXids.get(client) ?? (await client.query<{ xid: string | null }>('SELECT pg_current_xact_id_if_assigned()::text AS xid')).rows[0]?.xid ?? null;
      const before = withCommit.get(client);
      withCommit.delete(client);
      await client.query(before === undefined ? 'COMMIT' : `${before};\nCOMMIT`);
      client.off('error', onError);
      client.release();
      return value;
    } catch (e) {
      const failure = lost !== undefined && !isConnectionLost(e) && isConnectionLost(lost) ? lost : e;
      let broken = isConnectionLost(failure);
      if (!broken) await client.query('ROLLBACK').catch(() => (broken = true));
      client.off('error', onError);
      client.release(broken ? (failure instanceof Error ? failure : new Error(String(failure))) : undefined);
      if (!isRetryable(failure)) throw resilientError(failure, who, operation, attempt);
      if (xid !== null) {
        const outcome = await outcomeOf(pool, xid, policy);
        // Committed before the connection went: the write is there once; return what it wrote.
        if (outcome === 'committed' && written) return written.value;
        if (outcome === 'unknown') {
          throw new AppError('DATABASE_UNREACHABLE', `Could not learn whether "${operation}" was recorded: the connection was lost during its commit and the shared database has not answered since. Look for it before trying again.`, {
            operation,
            login: who.login,
            attempts: attempt,
            outcome: 'unknown',
          });
        }
      }
      last = failure;
    }
  }
  throw resilientError(last, who, operation, policy.attempts);
}

/**
 * Yields what `read` yields from a connection held for the whole stream (a snapshot read chunk by
 * chunk). Not retried once the reader has part of it. A connection lost while the reader is
 * between chunks is DATABASE_UNREACHABLE at the next chunk, never an unhandled 'error' event.
 */
export async function* streamOn<T>(pool: pg.Pool, who: Who, operation: string, read: (c: pg.PoolClient) => AsyncGenerator<T>): AsyncGenerator<T> {
  for (let attempt = 1; ; attempt++) {
    let client: pg.PoolClient;
    try {
      client = await pool.connect();
    } catch (e) {
      throw resilientError(e, who, operation, attempt);
    }
    let lost: unknown;
    let failure: unknown;
    let yielded = false;
    const onError = (e: unknown) => void (lost = e);
    client.on('error', onError);
    try {
      for await (const item of read(client)) {
        yielded = true;
        yield item;
      }
      return;
    } catch (e) {
      failure = lost !== undefined && !isConnectionLost(e) && isConnectionLost(lost) ? lost : e;
    } finally {
      client.off('error', onError);
      // A dead connection must leave the pool, whether the loss came as an event or as a failed query.
      const broken = lost ?? (failure !== undefined && isConnectionLost(failure) ? failure : undefined);
      client.release(broken === undefined ? undefined : broken instanceof Error ? broken : new Error(String(broken)));
    }
    // Found dead before the reader had anything: one fresh connection gives it the whole stream.
    if (!yielded && attempt === 1 && isConnectionLost(failure)) continue;
    throw resilientError(failure, who, operation, attempt);
  }
}
