/**
 * The shared (PostgreSQL) database a workspace or team command works on: `--to`/`--database URL`,
 * else $EVIDESK_DATABASE_URL. Connected as the role that owns the workspace database (it runs the
 * migrations and manages members), with the store's type parsers (bigint ids as numbers).
 */
import pg from 'pg';
import { AppError } from '../../../shared/contract/errors.ts';
import { storeError } from '../../services/store/postgres/pg-errors.ts';
import { PG_TYPES } from '../../services/store/postgres/pg-store.ts';

/** The URL without its password, for messages. */
export function safeUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return '(not a URL)';
  }
}

/** Connects as the owner; a URL that is not postgres:// is a usage error the caller reports. */
export async function connectOwner(url: string): Promise<pg.Client> {
  if (!/^postgres(ql)?:\/\//.test(url)) {
    throw new AppError('INVALID_INPUT', `The shared database must be given as a postgres:// URL (got ${safeUrl(url)}).`, { url: safeUrl(url) });
  }
  const client = new pg.Client({ connectionString: url, types: PG_TYPES });
  client.on('error', () => undefined);
  try {
    await client.connect();
  } catch (e) {
    await client.end().catch(() => undefined);
    throw storeError(e, { login: decodeURIComponent(new URL(url).username), level: null }, `connect to ${safeUrl(url)}`);
  }
  return client;
}
