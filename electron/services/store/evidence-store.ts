/**
 * The store interface the services depend on (issue 13): one async `EvidenceStore`, split by area,
 * implemented by the SQLite engine (sqlite-evidence-store.ts, today's synchronous stores wrapped)
 * and the PostgreSQL engine (postgres/pg-evidence-store.ts). An area is added here when a service
 * moves onto it and both engines implement it; the rest of the services still use the SQLite
 * stores directly (docs/postgres-store.md, "Next steps").
 *
 * Rules every engine keeps: reads return the same plain row types, ids as numbers; refusals are
 * the same AppError codes; each write is one transaction inside the engine (no generic "run this
 * callback in a transaction": better-sqlite3 transactions must stay synchronous).
 */
import type { CheckSourceRow, CurrentPathRow } from './health-store.ts';
import type { SearchOptions, SearchRow } from './search-store.ts';
import type { FileStat } from './sources-store.ts';

export type { CheckSourceRow, CurrentPathRow, FileStat, SearchOptions, SearchRow };

export type StoreEngine = 'sqlite' | 'postgres';

/** Who the store acts for: on PostgreSQL a login role and its access level; on SQLite the local user. */
export interface StoreMember {
  login: string;
  level: 'agent' | 'reviewer' | 'auditor' | 'admin' | 'owner' | null;
}

/** Full-text search over segments, in sources still in the library. */
export interface SearchArea {
  /**
   * Ranked hits for what a person typed (words, "phrases", a trailing * for a prefix), best first:
   * `rank` ascending is better in both engines. Snippets and the marked whole text (for the
   * match's offsets) only when asked. An empty query finds nothing.
   */
  search(query: string, options: SearchOptions): Promise<SearchRow[]>;
}

/** Source health and relinking (DESIGN.md §7); on PostgreSQL, paths are the member's own. */
export interface HealthArea {
  /** Every source (or the named ones), in id order. */
  sources(ids?: readonly number[]): Promise<CheckSourceRow[]>;
  /** This member's current paths, newest first within a source. */
  currentPaths(ids?: readonly number[]): Promise<CurrentPathRow[]>;
  /** How many citations point at each source. */
  citationCounts(): Promise<Map<number, number>>;
  /** Touched files with the same bytes: remember their new stat (one transaction). */
  confirmPaths(confirmed: readonly { pathId: number; stat: FileStat }[], now: string): Promise<void>;
  /** A relink in one transaction: `newPath` current, `stalePathIds` no longer; audited. */
  relink(sourceId: number, newPath: string, stat: FileStat, stalePathIds: readonly number[], now: string): Promise<void>;
}

export interface EvidenceStore {
  readonly engine: StoreEngine;
  readonly member: StoreMember;
  readonly search: SearchArea;
  readonly health: HealthArea;
  /** Releases the engine's connections (the SQLite engine closes its database only if it opened it). */
  close(): Promise<void>;
}
