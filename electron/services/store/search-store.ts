import Database from 'better-sqlite3';
import { SNIPPET_CLOSE, SNIPPET_OPEN } from '../../../shared/search/fts-query.ts';
import type { Db } from './database.ts';
import { StatementCache } from './statement-cache.ts';
import { REMOVED_SOURCE_IDS } from './library-changes-store.ts';
import type { SegmentRow } from './sources-store.ts';

export interface SearchRow {
  segment_id: number;
  source_id: number;
  file_name: string;
  locator: string;
  rank: number;
  snippet: string | null;
  kind: string;
  /** The whole segment text with the matched words marked (only when asked for). */
  marked: string | null;
}

export interface SearchOptions {
  limit: number;
  sourceIds?: number[];
  kinds?: string[];
  snippets: boolean;
}

/** All SQL over the FTS5 index of segments. */
export class SearchStore {
  private readonly db: Db;
  private readonly statements: StatementCache;
  constructor(db: Db) {
    this.db = db;
    this.statements = new StatementCache(db);
  }

  /**
   * Ranked hits (bm25, best first) in sources still in the library; snippets and the marked text
   * (for the match's offsets) only when asked, they cost a re-read of the text.
   */
  search(match: string, options: SearchOptions): SearchRow[] {
    const ids = options.sourceIds ?? [];
    const kinds = options.kinds ?? [];
    const bySource = ids.length > 0 ? `AND g.source_id IN (${ids.map(() => '?').join(',')})` : '';
    const byKind = kinds.length > 0 ? `AND s.kind IN (${kinds.map(() => '?').join(',')})` : '';
    const snippet = options.snippets ? `snippet(segments_fts, 0, '${SNIPPET_OPEN}', '${SNIPPET_CLOSE}', '…', 16)` : 'NULL';
    const marked = options.snippets ? `highlight(segments_fts, 0, '${SNIPPET_OPEN}', '${SNIPPET_CLOSE}')` : 'NULL';
    const sql = `
      SELECT g.id AS segment_id, g.source_id, s.file_name, s.kind, g.locator, bm25(segments_fts) AS rank, ${snippet} AS snippet, ${marked} AS marked
      FROM segments_fts
      JOIN segments g ON g.id = segments_fts.rowid
      JOIN sources s ON s.id = g.source_id
      WHERE segments_fts MATCH ? ${bySource} ${byKind}
        AND g.source_id NOT IN (${REMOVED_SOURCE_IDS})
      ORDER BY rank
      LIMIT ?`;
    return this.db.prepare(sql).all(match, ...ids, ...kinds, options.limit) as SearchRow[];
  }

  /** An in-memory index of one segment at a time, tokenised as segments_fts is (null: tokenizer unknown). */
  private scratch: { index: (text: string) => void; matches: (match: string) => boolean } | null | undefined;

  /**
   * Whether one segment matches a query, asked of an index holding that segment alone, built with
   * segments_fts's own tokenizer: the same answer as the workspace index gives for that row, without
   * reading the doclist of every common term over every source (milliseconds each in a workspace of
   * 100,000 notes). Null when the tokenizer cannot be read from the schema.
   */
  private matchesAlone(match: string, segmentId: number): SegmentRow[] | null {
    if (this.scratch === undefined) {
      const sql = (this.db.prepare("SELECT sql FROM sqlite_master WHERE name = 'segments_fts'").get() as { sql: string } | undefined)?.sql ?? '';
      const tokenizer = /tokenize\s*=\s*'([^']*)'/i.exec(sql)?.[1];
      if (tokenizer === undefined) this.scratch = null;
      else {
        const mem = new Database(':memory:');
        mem.exec(`CREATE VIRTUAL TABLE one USING fts5(text, tokenize = '${tokenizer.replace(/'/g, "''")}')`);
        const clear = mem.prepare('DELETE FROM one');
        const insert = mem.prepare('INSERT INTO one (rowid, text) VALUES (1, ?)');
        const find = mem.prepare('SELECT 1 FROM one WHERE one MATCH ?');
        this.scratch = {
          index: (text) => {
            clear.run();
            insert.run(text);
          },
          matches: (q) => find.get(q) !== undefined,
        };
      }
    }
    if (this.scratch === null) return null;
    const row = this.statements.get('SELECT * FROM segments WHERE id = ?').get(segmentId) as SegmentRow | undefined;
    if (!row) return [];
    this.scratch.index(row.text);
    return this.scratch.matches(match) ? [row] : [];
  }

  /** Segment ids of one source that match, best first: candidate narrowing for anchoring. */
  candidateSegments(match: string, sourceId: number, limit: number): SegmentRow[] {
    // The source's rows lie between its first and last segment id: FTS5 seeks there instead of
    // joining every matching row of the workspace. Ranking reads each term's whole doclist
    // (bm25 counts the documents holding it), so a source of one segment, which needs no ranking,
    // is asked without it: the same row either way.
    const span = this.statements.get('SELECT count(*) AS n, min(id) AS first, max(id) AS last FROM segments WHERE source_id = ?').get(sourceId) as {
      n: number;
      first: number | null;
      last: number | null;
    };
    if (span.n === 0 || limit <= 0) return [];
    if (span.n === 1) {
      const alone = this.matchesAlone(match, span.first ?? 0);
      if (alone !== null) return alone;
    }
    const ranked = span.n > 1 ? 'ORDER BY bm25(segments_fts)' : '';
    return this.statements
      .get(
        `SELECT g.* FROM segments_fts JOIN segments g ON g.id = segments_fts.rowid
         WHERE segments_fts MATCH ? AND segments_fts.rowid BETWEEN ? AND ? AND g.source_id = ? ${ranked} LIMIT ?`,
      )
      .all(match, span.first, span.last, sourceId, limit) as SegmentRow[];
  }
}
