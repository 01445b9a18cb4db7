/**
 * Sources and their stored text on PostgreSQL (issue 13): the shared pool's sources and
 * segments, with the member's own paths (a source's current path is where this member last saw
 * its file). The rows are SQLite's, column for column (the generated tsvector left out).
 */
import type { PathRow, SegmentRow, SourceRefRow, SourceRow, SourcesArea } from '../evidence-store.ts';
import { pgRead, type PgContext } from './pg-tx.ts';
import type { DocumentProperties } from '../../../../shared/domain/document-properties.ts';

/** A source with its segment count and this member's current path, as SQLite's SOURCE_SELECT has them. */
export const SOURCE_SELECT = `
  SELECT s.id, s.sha256, s.kind, s.file_name, s.byte_size, s.page_count, s.title, s.extraction_method, s.warnings,
         s.predecessor_id, s.snapshot, s.restricted, s.added_at,
         (SELECT count(*) FROM segments g WHERE g.source_id = s.id) AS segment_count,
         (SELECT p.path FROM source_paths p WHERE p.source_id = s.id AND p.current = 1 AND p.member = current_user
          ORDER BY p.last_seen_at DESC LIMIT 1) AS current_path
  FROM sources s`;

const REF_COLUMNS = 'id, sha256, kind, file_name, title, predecessor_id, restricted, page_count, added_at';

export const SEGMENT_COLUMNS =
  'id, source_id, ordinal, locator, page, page_label, paragraph, line_start, line_end, heading_path, block_type, text, item_starts, no_text_layer, ocr_method, ocr_confidence, ocr_boxes';
/** SEGMENT_COLUMNS less the text layer's geometry (SourcesArea.anchoringSegments). */
const ANCHORING_SEGMENT_COLUMNS = SEGMENT_COLUMNS.replace('item_starts', 'NULL AS item_starts').replace('ocr_boxes', 'NULL AS ocr_boxes');

export function pgSources(ctx: PgContext): SourcesArea {
  return {
    list: () => pgRead<SourceRow>(ctx, 'list the sources', `${SOURCE_SELECT} ORDER BY s.added_at DESC, s.id DESC`, []),

    async get(id) {
      return (await pgRead<SourceRow>(ctx, 'read a source', `${SOURCE_SELECT} WHERE s.id = $1`, [id]))[0];
    },

    async refs(ids) {
      if (ids.length === 0) return [];
      return pgRead<SourceRefRow>(ctx, 'read the sources', `SELECT ${REF_COLUMNS} FROM sources WHERE id = ANY ($1) ORDER BY id`, [[...new Set(ids)]]);
    },

    paths: (sourceId) =>
      pgRead<PathRow>(
        ctx,
        "read a source's paths",
        `SELECT id, source_id, path, size, mtime_ms, first_seen_at, last_seen_at, current FROM source_paths
         WHERE source_id = $1 AND member = current_user ORDER BY first_seen_at, id`,
        [sourceId],
      ),

    segments: (sourceId) => pgRead<SegmentRow>(ctx, "read a source's text", `SELECT ${SEGMENT_COLUMNS} FROM segments WHERE source_id = $1 ORDER BY ordinal`, [sourceId]),
    anchoringSegments: (sourceId) => pgRead<SegmentRow>(ctx, "read a source's text", `SELECT ${ANCHORING_SEGMENT_COLUMNS} FROM segments WHERE source_id = $1 ORDER BY ordinal`, [sourceId]),

    async segmentsById(ids) {
      if (ids.length === 0) return [];
      return pgRead<SegmentRow>(ctx, "read a source's text", `SELECT ${SEGMENT_COLUMNS} FROM segments WHERE id = ANY ($1)`, [[...new Set(ids)]]);
    },

    async pageSegment(sourceId, page) {
      const rows = await pgRead<SegmentRow>(ctx, 'read a page', `SELECT ${SEGMENT_COLUMNS} FROM segments WHERE source_id = $1 AND page = $2 ORDER BY ordinal LIMIT 1`, [sourceId, page]);
      return rows[0];
    },

    async properties(ids) {
      const out = new Map<number, DocumentProperties>();
      if (ids.length === 0) return out;
      const rows = await pgRead<{ source_id: number; authors: string; published: string | null }>(
        ctx,
        "read the sources' properties",
        'SELECT source_id, authors, published FROM source_properties WHERE source_id = ANY ($1) ORDER BY id',
        [[...new Set(ids)]],
      );
      for (const row of rows) out.set(row.source_id, { authors: JSON.parse(row.authors) as string[], published: row.published });
      return out;
    },
  };
}
