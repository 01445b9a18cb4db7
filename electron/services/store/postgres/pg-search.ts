/**
 * Search on PostgreSQL (issue 13): ts_rank over the segments' tsvector (GIN index, migration 7's
 * accent-folding configuration), the same rows as SQLite's SearchStore gives. The rank is negated
 * so that, as with bm25 there, ascending is better. A snippet comes from ts_headline; the marked
 * whole text is marked in JavaScript as FTS5's highlight() marks it, so a phrase is one run and
 * the hit's match offsets agree with SQLite's.
 */
import { SNIPPET_CLOSE, SNIPPET_OPEN } from '../../../../shared/search/fts-query.ts';
import { markMatches, toTsQuery } from '../../../../shared/search/ts-query.ts';
import type { SearchArea, SearchRow } from '../evidence-store.ts';
import { pgRead, type PgContext } from './pg-tx.ts';

/** About FTS5's snippet(…, 16): one fragment of up to 16 words around the best match. */
const HEADLINE = `StartSel="${SNIPPET_OPEN}", StopSel="${SNIPPET_CLOSE}", MaxWords=16, MinWords=6, ShortWord=0, MaxFragments=1, FragmentDelimiter="…"`;

type Row = Omit<SearchRow, 'marked'> & { text: string | null };

export function pgSearch(ctx: PgContext): SearchArea {
  return {
    async search(query, options) {
      const tsquery = toTsQuery(query);
      if (tsquery === null || options.limit <= 0) return [];
      const ids = options.sourceIds && options.sourceIds.length > 0 ? options.sourceIds : null;
      const kinds = options.kinds && options.kinds.length > 0 ? options.kinds : null;
      // Ranked and cut to the limit first; the headline (a re-read of the text) only for the rows kept.
      const rows = await pgRead<Row>(
        ctx,
        'search the shared workspace',
        `WITH q AS (SELECT to_tsquery('evidesk_search', $1) AS query),
         hits AS (
           SELECT g.id, g.source_id, -ts_rank(g.tsv, q.query) AS rank
           FROM segments g CROSS JOIN q
           JOIN sources s ON s.id = g.source_id
           WHERE g.tsv @@ q.query
             AND ($2::bigint[] IS NULL OR g.source_id = ANY ($2))
             AND ($3::text[] IS NULL OR s.kind = ANY ($3))
             AND g.source_id NOT IN (SELECT subject_id FROM hidden_subjects WHERE subject = 'source')
           ORDER BY rank, g.id
           LIMIT $4)
         SELECT h.id AS segment_id, h.source_id, s.file_name, s.kind, g.locator, h.rank,
                CASE WHEN $5 THEN ts_headline('evidesk_search', g.text, q.query, $6) END AS snippet,
                CASE WHEN $5 THEN g.text END AS text
         FROM hits h CROSS JOIN q JOIN segments g ON g.id = h.id JOIN sources s ON s.id = h.source_id
         ORDER BY h.rank, h.id`,
        [tsquery, ids, kinds, options.limit, options.snippets, HEADLINE],
      );
      return rows.map(({ text, ...row }) => ({ ...row, marked: text === null ? null : markMatches(text, query) }));
    },
  };
}
