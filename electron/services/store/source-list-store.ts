import type { SourceFilter, SourceSort, SortDirection } from '../../../shared/contract/list-schemas.ts';
import type { SourceKind } from '../../../shared/contract/schemas.ts';
import type { Db } from './database.ts';
import { REMOVED_SOURCE_IDS } from './library-changes-store.ts';
import { decodeCursor, encodeCursor, keysetClause, likePattern, type SortKey } from './keyset.ts';
import { SOURCE_SELECT, type SourceRow } from './sources-store.ts';

const HIDDEN_SOURCES = `s.id NOT IN (${REMOVED_SOURCE_IDS})`;

/** The SQL of each sort: the key (indexed by migration 14) and how a row's key is read back. */
const SORT_KEYS: Record<SourceSort, { expr: string; column: string }> = {
  added: { expr: 's.added_at', column: 'added_at' },
  name: { expr: 's.file_name COLLATE NOCASE', column: 'file_name' },
  size: { expr: 's.byte_size', column: 'byte_size' },
  kind: { expr: 's.kind', column: 'kind' },
};

export interface SourceListQuery {
  filter: SourceFilter;
  sort: SourceSort;
  dir: SortDirection;
  /** Ids the caller narrowed to beforehand (a health filter known outside SQL); none when undefined. */
  ids?: readonly number[];
}

/** The library as pages (issue 16): filtered and sorted in SQL, paged by keyset, counted in SQL. */
export class SourceListStore {
  private readonly db: Db;
  constructor(db: Db) {
    this.db = db;
  }

  private where(q: SourceListQuery): { sql: string; params: unknown[] } {
    // Sources removed from the library (issue 12 item 4) are hidden, never deleted.
    const parts: string[] = [HIDDEN_SOURCES];
    const params: unknown[] = [];
    // Every word must be in the file name or the title.
    for (const word of (q.filter.text ?? '').split(/\s+/).filter(Boolean)) {
      parts.push(`(s.file_name LIKE ? ESCAPE '\\' OR coalesce(s.title, '') LIKE ? ESCAPE '\\')`);
      params.push(likePattern(word), likePattern(word));
    }
    if (q.filter.kind !== undefined) {
      parts.push('s.kind = ?');
      params.push(q.filter.kind);
    }
    if (q.filter.restricted !== undefined) {
      parts.push('s.restricted = ?');
      params.push(q.filter.restricted ? 1 : 0);
    }
    if (q.ids !== undefined) {
      // json_each keeps one statement whatever the number of ids (no 999-parameter limit).
      parts.push('s.id IN (SELECT value FROM json_each(?))');
      params.push(JSON.stringify(q.ids));
    }
    return { sql: parts.join(' AND '), params };
  }

  /** Up to `limit` rows after `after` (a cursor this store gave), each with its own cursor. */
  page(q: SourceListQuery, limit: number, after?: string): { rows: { row: SourceRow; cursor: string }[]; next: string | null } {
    const key = SORT_KEYS[q.sort];
    const filter = this.where(q);
    const seek = keysetClause(key.expr, 's.id', q.dir, after === undefined ? undefined : decodeCursor(after));
    const conds = [filter.sql, seek.where].filter(Boolean);
    // One row more than asked says whether another page follows, without counting.
    const rows = this.db
      .prepare(`${SOURCE_SELECT} ${conds.length ? `WHERE ${conds.join(' AND ')}` : ''} ORDER BY ${seek.orderBy} LIMIT ?`)
      .all(...filter.params, ...seek.params, limit + 1) as (SourceRow & Record<string, SortKey>)[];
    const more = rows.length > limit;
    const page = rows.slice(0, limit).map((row) => ({ row: row as SourceRow, cursor: encodeCursor(row[key.column] ?? null, row.id) }));
    return { rows: page, next: more && page.length > 0 ? (page[page.length - 1]?.cursor ?? null) : null };
  }

  /** How many sources match. */
  count(q: SourceListQuery): number {
    const filter = this.where(q);
    return (this.db.prepare(`SELECT count(*) AS n FROM sources s ${filter.sql ? `WHERE ${filter.sql}` : ''}`).get(...filter.params) as { n: number }).n;
  }

  /**
   * The cursor that ends every `pageSize`-th row (the start of the page after it), in one pass over
   * the sort's index: a virtual list reaches the page under any scroll position by key, not offset.
   */
  pageStarts(q: SourceListQuery, pageSize: number): string[] {
    const key = SORT_KEYS[q.sort];
    const filter = this.where(q);
    const { orderBy } = keysetClause(key.expr, 's.id', q.dir, undefined);
    const rows = this.db
      .prepare(
        `SELECT k, id FROM (SELECT s.${key.column} AS k, s.id AS id, row_number() OVER (ORDER BY ${orderBy}) AS rn
           FROM sources s ${filter.sql ? `WHERE ${filter.sql}` : ''})
         WHERE rn % ? = 0 ORDER BY rn`,
      )
      .all(...filter.params, pageSize) as { k: SortKey; id: number }[];
    return rows.map((r) => encodeCursor(r.k, r.id));
  }

  kindCounts(): { kind: SourceKind; count: number }[] {
    return this.db.prepare(`SELECT kind, count(*) AS count FROM sources s WHERE ${HIDDEN_SOURCES} GROUP BY kind ORDER BY kind`).all() as { kind: SourceKind; count: number }[];
  }

  restrictedCount(): number {
    return (this.db.prepare(`SELECT count(*) AS n FROM sources s WHERE restricted = 1 AND ${HIDDEN_SOURCES}`).get() as { n: number }).n;
  }
}
