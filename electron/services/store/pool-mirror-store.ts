/**
 * A scratch SQLite copy, in memory, of the sources and segments a verification on the shared
 * PostgreSQL workspace reads (issue 13): the verifier and its anchoring (AnchoringStore,
 * SearchStore.candidateSegments over FTS5) run unchanged on it, so a shared workspace gives the
 * verdicts the same corpus gives on SQLite. Rows come from the `sources` area of the engine in use
 * (verification/pool-reads.ts fills it); sources are immutable once stored, so a source's segments
 * are copied once and kept while the mirror lives; its header row is refreshed (restricted may change).
 */
import type { Db } from './database.ts';
import { openScratchDatabase } from './database.ts';
import type { SegmentRow, SourceRow } from './sources-store.ts';

export class PoolMirrorStore {
  readonly db: Db;
  private readonly withSegments = new Set<number>();
  private readonly columns: { sources: string[]; segments: string[] };

  constructor() {
    this.db = openScratchDatabase();
    const columnsOf = (table: string): string[] => (this.db.pragma(`table_info(${table})`) as { name: string }[]).map((c) => c.name);
    this.columns = { sources: columnsOf('sources'), segments: columnsOf('segments') };
  }

  /** Every source's row as the pool has it now (in id order, so a predecessor comes before its successor). */
  putSources(rows: readonly SourceRow[]): void {
    const cols = this.columns.sources;
    const upsert = this.db.prepare(
      `INSERT INTO sources (${cols.join(', ')}) VALUES (${cols.map((c) => `@${c}`).join(', ')})
       ON CONFLICT (id) DO UPDATE SET ${cols.filter((c) => c !== 'id').map((c) => `${c} = excluded.${c}`).join(', ')}`,
    );
    const sorted = [...rows].sort((a, b) => a.id - b.id);
    this.db.transaction(() => {
      for (const row of sorted) upsert.run(pick(row as unknown as Record<string, unknown>, cols));
    })();
  }

  /** Whether a source's segments are here already. */
  hasSegments(sourceId: number): boolean {
    return this.withSegments.has(sourceId);
  }

  /** A source's segments, all of them (once per source). */
  putSegments(sourceId: number, rows: readonly SegmentRow[]): void {
    if (this.withSegments.has(sourceId)) return;
    const cols = this.columns.segments;
    const insert = this.db.prepare(`INSERT INTO segments (${cols.join(', ')}) VALUES (${cols.map((c) => `@${c}`).join(', ')})`);
    this.db.transaction(() => {
      for (const row of rows) insert.run(pick(row as unknown as Record<string, unknown>, cols));
    })();
    this.withSegments.add(sourceId);
  }

  close(): void {
    this.db.close();
  }
}

/** The row's values of these columns (a column the row lacks as NULL). */
function pick(row: Record<string, unknown>, cols: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(cols.map((c) => [c, row[c] ?? null]));
}
