import { SNIPPET_CLOSE, SNIPPET_OPEN } from '../../../shared/search/fts-query.ts';
import type { Db } from './database.ts';
import type { SegmentRow } from './sources-store.ts';

export interface SearchRow {
  segment_id: number;
  source_id: number;
  file_name: string;
  locator: string;
  rank: number;
  snippet: string | null;
}

/** All SQL over the FTS5 index of segments. */
export class SearchStore {
  private readonly db: Db;
  constructor(db: Db) {
    this.db = db;
  }

  /** Ranked hits (bm25, best first); snippets only when asked, they cost a re-read of the text. */
  search(match: string, options: { limit: number; sourceIds?: number[]; snippets: boolean }): SearchRow[] {
    const filter = options.sourceIds && options.sourceIds.length > 0 ? `AND g.source_id IN (${options.sourceIds.map(() => '?').join(',')})` : '';
    const snippet = options.snippets ? `snippet(segments_fts, 0, '${SNIPPET_OPEN}', '${SNIPPET_CLOSE}', '…', 16)` : 'NULL';
    const sql = `
      SELECT g.id AS segment_id, g.source_id, s.file_name, g.locator, bm25(segments_fts) AS rank, ${snippet} AS snippet
      FROM segments_fts
      JOIN segments g ON g.id = segments_fts.rowid
      JOIN sources s ON s.id = g.source_id
      WHERE segments_fts MATCH ? ${filter}
      ORDER BY rank
      LIMIT ?`;
    return this.db.prepare(sql).all(match, ...(options.sourceIds ?? []), options.limit) as SearchRow[];
  }

  /** Segment ids of one source that match, best first: candidate narrowing for anchoring. */
  candidateSegments(match: string, sourceId: number, limit: number): SegmentRow[] {
    return this.db
      .prepare(
        `SELECT g.* FROM segments_fts JOIN segments g ON g.id = segments_fts.rowid
         WHERE segments_fts MATCH ? AND g.source_id = ? ORDER BY bm25(segments_fts) LIMIT ?`,
      )
      .all(match, sourceId, limit) as SegmentRow[];
  }
}
