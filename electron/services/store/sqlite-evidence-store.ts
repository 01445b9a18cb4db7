/**
 * The SQLite engine of EvidenceStore: today's synchronous stores, unchanged, behind the async
 * interface. Each call runs its statements (and transaction) synchronously and returns a settled
 * promise: one microtask more per call, the same SQL.
 */
import os from 'node:os';
import { toFtsQuery } from '../../../shared/search/fts-query.ts';
import type { Db } from './database.ts';
import type { EvidenceStore, HealthArea, SearchArea } from './evidence-store.ts';
import { HealthStore } from './health-store.ts';
import { SearchStore } from './search-store.ts';

function sqliteSearch(store: SearchStore): SearchArea {
  return {
    search: async (query, options) => {
      const match = toFtsQuery(query);
      return match === null ? [] : store.search(match, options);
    },
  };
}

function sqliteHealth(store: HealthStore): HealthArea {
  return {
    sources: async (ids) => store.sources(ids),
    currentPaths: async (ids) => store.currentPaths(ids),
    citationCounts: async () => store.citationCounts(),
    confirmPaths: async (confirmed, now) => store.confirmPaths(confirmed, now),
    relink: async (sourceId, newPath, stat, stale, now) => store.relink(sourceId, newPath, stat, stale, now),
  };
}

function localLogin(): string {
  try {
    return os.userInfo().username;
  } catch {
    return '';
  }
}

/** Over an open workspace database; `ownsDb` closes it with the store. */
export function sqliteEvidenceStore(db: Db, ownsDb = false): EvidenceStore {
  return {
    engine: 'sqlite',
    // One person's workspace: the local user may do everything.
    member: { login: localLogin(), level: 'owner' },
    search: sqliteSearch(new SearchStore(db)),
    health: sqliteHealth(new HealthStore(db)),
    close: async () => {
      if (ownsDb) db.close();
    },
  };
}
