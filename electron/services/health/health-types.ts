import type { AppError } from '../../../shared/contract/errors.ts';
import type { Health } from '../../../shared/contract/schemas.ts';

/** What the health service reports: a source's health, relink outcomes and folder searches. */
export type CheckedHealth = Exclude<Health, 'unchecked'>;

export interface SourceHealth {
  id: number;
  fileName: string;
  /** The path that holds the bytes when ok, else the path the source was last recorded at. */
  path: string | null;
  health: CheckedHealth;
  /** Citations that point at this source: what a missing or modified file puts at risk. */
  citations: number;
  detail: string;
}

export interface HealthReport {
  checkedAt: string;
  durationMs: number;
  sources: SourceHealth[];
  counts: Record<CheckedHealth, number>;
}

export interface RelinkSuggestion {
  id: number;
  fileName: string;
  /** Where the source was recorded before (its missing path). */
  fromPath: string | null;
  path: string;
}

export interface RelinkOutcome {
  sourceId: number;
  path: string;
  previousPath: string | null;
  suggestions: RelinkSuggestion[];
}

export type RelinkManyItem =
  | { ok: true; id: number; path: string; previousPath: string | null }
  | { ok: false; id: number; path: string; error: { code: AppError['code']; message: string } };

export interface FolderSearchResult {
  dir: string;
  /** Regular files whose size was looked at. */
  examined: number;
  /** Files hashed because their size matched a wanted source. */
  hashed: number;
  /** The walk stopped at its file or depth bound before seeing everything. */
  truncated: boolean;
  results: { id: number; fileName: string; matches: string[] }[];
}

export interface HealthSettings {
  /** Stat requests in flight during a check. */
  statConcurrency: number;
  /** Files hashed at once when a touched file must be re-hashed. */
  hashConcurrency: number;
  /** Folder levels a folder search descends below the folder it was given. */
  maxSearchDepth: number;
  /** Files a folder search examines before it stops and says so. */
  maxSearchFiles: number;
}

export const DEFAULT_HEALTH_SETTINGS: HealthSettings = { statConcurrency: 64, hashConcurrency: 4, maxSearchDepth: 16, maxSearchFiles: 200_000 };
