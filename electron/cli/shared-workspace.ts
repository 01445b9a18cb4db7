/**
 * Which database a command works on (issue 13): `--database postgres://…`, else
 * $EVIDESK_DATABASE_URL, else the local workspace. On a shared database the command connects as
 * the member the URL names (its own login role: PostgreSQL enforces what its level may do).
 */
import { AppError } from '../../shared/contract/errors.ts';
import { createSharedServices, notOnSharedDatabase, type SharedServices } from '../services/shared-services.ts';
import { isPostgresUrl } from '../services/store/open-store.ts';
import { PgStore } from '../services/store/postgres/pg-store.ts';
import { requireSharedWorkspace } from '../services/store/postgres/pg-workspace-present.ts';
import type { ParsedArgs } from './args.ts';
import { safeUrl } from './commands/shared-database.ts';

export interface DatabaseChoice {
  url: string;
  /** Where the URL came from, for messages (an inherited variable is easy to forget). */
  from: '--database' | 'EVIDESK_DATABASE_URL';
}

/** The shared database asked for, or none (an empty variable counts as unset; an empty --database does not). */
export function databaseChoice(args: ParsedArgs, env: NodeJS.ProcessEnv): DatabaseChoice | undefined {
  const flag = args.flags.get('database');
  if (flag !== undefined) {
    if (typeof flag !== 'string' || flag.trim() === '') {
      throw new AppError('INVALID_INPUT', 'Give the shared database after --database as a postgres:// URL.', { field: 'database' });
    }
    return { url: flag.trim(), from: '--database' };
  }
  const fromEnv = env.EVIDESK_DATABASE_URL?.trim();
  return fromEnv ? { url: fromEnv, from: 'EVIDESK_DATABASE_URL' } : undefined;
}

/** The refusal of a command that does not run on a shared database yet. */
export function commandNotShared(command: string, choice: DatabaseChoice): AppError {
  const where = choice.from === '--database' ? 'without --database' : 'with EVIDESK_DATABASE_URL unset';
  return notOnSharedDatabase(`evidesk ${command}`, { command, database: safeUrl(choice.url), from: choice.from }, `run it ${where}`);
}

/** Connects as the URL's member and builds the shared services; the caller closes them. */
export async function openSharedWorkspace(choice: DatabaseChoice, workspaceDir: string): Promise<SharedServices> {
  if (!isPostgresUrl(choice.url)) {
    throw new AppError('INVALID_INPUT', `The shared database must be a postgres:// URL (${choice.from} gave ${safeUrl(choice.url)}).`, { field: 'database', from: choice.from });
  }
  const store = await PgStore.connect(choice.url);
  try {
    await requireSharedWorkspace(store, safeUrl(choice.url));
  } catch (e) {
    await store.close();
    throw e;
  }
  return createSharedServices(store, workspaceDir);
}
