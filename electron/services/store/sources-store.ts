import type { Locator, SourceKind, Warning } from '../../../shared/contract/schemas.ts';
import type { ExtractedDocument, ExtractedSegment } from '../ingest/extracted.ts';
import { createHash } from 'node:crypto';
import { geometryBytes, geometryFromBytes } from '../ingest/text-geometry.ts';
import { hasProperties, type DocumentProperties } from '../../../shared/domain/document-properties.ts';
import { ChainStore } from './audit-chain-store.ts';
import type { Db } from './database.ts';
import { StatementCache } from './statement-cache.ts';

export interface SourceRow {
  id: number;
  sha256: string;
  kind: SourceKind;
  file_name: string;
  byte_size: number;
  page_count: number | null;
  title: string | null;
  extraction_method: string;
  warnings: string;
  predecessor_id: number | null;
  snapshot: string | null;
  restricted: number;
  added_at: string;
  segment_count: number;
  current_path: string | null;
}

export interface PathRow {
  id: number;
  source_id: number;
  path: string;
  size: number;
  mtime_ms: number;
  first_seen_at: string;
  last_seen_at: string;
  current: number;
}

export interface SegmentRow {
  id: number;
  source_id: number;
  ordinal: number;
  locator: string;
  page: number | null;
  page_label: string | null;
  paragraph: number | null;
  line_start: number | null;
  line_end: number | null;
  heading_path: string | null;
  block_type: string | null;
  text: string;
  item_starts: string | null;
  no_text_layer: number;
  /** Set on pages whose text OCR recognised (migration 12). */
  ocr_method: string | null;
  ocr_confidence: number | null;
  ocr_boxes: string | null;
}

export interface FileStat {
  size: number;
  mtimeMs: number;
}

export interface NewSource {
  sha256: string;
  fileName: string;
  byteSize: number;
  /** Null for a source with no file of its own (a web page: its snapshot is its only copy). */
  path: string | null;
  stat: FileStat;
  doc: ExtractedDocument;
  snapshot: string | null;
  predecessorId: number | null;
}

export const SOURCE_SELECT = `
  SELECT s.*, (SELECT count(*) FROM segments g WHERE g.source_id = s.id) AS segment_count,
         (SELECT p.path FROM source_paths p WHERE p.source_id = s.id AND p.current = 1 ORDER BY p.last_seen_at DESC LIMIT 1) AS current_path
  FROM sources s`;

/**
 * A segment's stored columns after its source id, in order: ordinal, locator, page, page label,
 * paragraph, line, line end, heading path, block type, text, item starts, no-text-layer, OCR
 * method, OCR confidence, OCR boxes (both engines store the same values).
 */
export function segmentValues(seg: ExtractedSegment, ordinal: number): unknown[] {
  return [
    ordinal,
    JSON.stringify(segmentLocator(seg)),
    seg.page ?? null,
    seg.pageLabel ?? null,
    seg.paragraph ?? null,
    seg.line ?? null,
    seg.lineEnd ?? null,
    seg.headingPath && seg.headingPath.length > 0 ? JSON.stringify(seg.headingPath) : null,
    seg.blockType ?? null,
    seg.text,
    seg.itemStarts ? JSON.stringify(seg.itemStarts) : null,
    seg.noTextLayer ? 1 : 0,
    seg.ocr?.method ?? null,
    seg.ocr?.confidence ?? null,
    seg.ocr ? JSON.stringify(seg.ocr.boxes) : null,
  ];
}

export function segmentLocator(seg: ExtractedSegment): Locator {
  const loc: Locator = { start: 0, end: seg.text.length };
  if (seg.page !== undefined) loc.page = seg.page;
  if (seg.pageLabel !== undefined) loc.pageLabel = seg.pageLabel;
  if (seg.paragraph !== undefined) loc.paragraph = seg.paragraph;
  if (seg.headingPath !== undefined && seg.headingPath.length > 0) loc.headingPath = seg.headingPath;
  if (seg.line !== undefined) loc.line = seg.line;
  if (seg.lineEnd !== undefined) loc.lineEnd = seg.lineEnd;
  if (seg.cell !== undefined) loc.cell = seg.cell;
  if (seg.slide !== undefined) loc.slide = seg.slide;
  if (seg.notes) loc.notes = true;
  if (seg.sheet !== undefined) loc.sheet = seg.sheet;
  if (seg.address !== undefined) loc.address = seg.address;
  if (seg.formula !== undefined) loc.formula = seg.formula;
  return loc;
}

/** All SQL about sources, their known paths and their segments. */
/** A source's columns as stored, in both engines (StoredSourceRow). */
export const STORED_SOURCE_COLUMNS = 'id, sha256, kind, file_name, byte_size, page_count, title, extraction_method, warnings, predecessor_id, snapshot, restricted, added_at';

export class SourcesStore {
  readonly db: Db;
  private readonly chain: ChainStore;
  /** Ingestion runs the same inserts per document: prepared once (preparing them costs more than running them). */
  private readonly statements: StatementCache;
  constructor(db: Db) {
    this.db = db;
    this.chain = new ChainStore(db);
    this.statements = new StatementCache(db);
  }

  /** The sources stored after `afterId`, as stored, in id order. */
  storedAfter(afterId: number): Omit<SourceRow, 'segment_count' | 'current_path'>[] {
    return this.statements.get(`SELECT ${STORED_SOURCE_COLUMNS} FROM sources WHERE id > ? ORDER BY id`).all(afterId) as Omit<SourceRow, 'segment_count' | 'current_path'>[];
  }

  restrictedIds(): number[] {
    return (this.statements.get('SELECT id FROM sources WHERE restricted = 1 ORDER BY id').all() as { id: number }[]).map((r) => r.id);
  }

  count(): number {
    return (this.db.prepare('SELECT count(*) AS n FROM sources').get() as { n: number }).n;
  }

  list(): SourceRow[] {
    return this.db.prepare(`${SOURCE_SELECT} ORDER BY s.added_at DESC, s.id DESC`).all() as SourceRow[];
  }

  get(id: number): SourceRow | undefined {
    return this.statements.get(`${SOURCE_SELECT} WHERE s.id = ?`).get(id) as SourceRow | undefined;
  }

  findBySha(sha256: string): SourceRow | undefined {
    return this.statements.get(`${SOURCE_SELECT} WHERE s.sha256 = ?`).get(sha256) as SourceRow | undefined;
  }

  /** The newest source whose current path is `path` (a changed file at a known path is a new version of it). */
  findByCurrentPath(path: string): SourceRow | undefined {
    // The newest of a path's few current rows is picked here rather than by ORDER BY … LIMIT 1,
    // whose sorter costs more than the lookup itself (ingestion asks this of every new file).
    const rows = this.statements.get('SELECT source_id, last_seen_at, id FROM source_paths WHERE path = ? AND current = 1').all(path) as {
      source_id: number;
      last_seen_at: string;
      id: number;
    }[];
    let newest = rows[0];
    for (const r of rows) {
      if (newest && (r.last_seen_at > newest.last_seen_at || (r.last_seen_at === newest.last_seen_at && r.id > newest.id))) newest = r;
    }
    return newest ? this.get(newest.source_id) : undefined;
  }

  paths(sourceId: number): PathRow[] {
    return this.db.prepare('SELECT * FROM source_paths WHERE source_id = ? ORDER BY first_seen_at, id').all(sourceId) as PathRow[];
  }

  /**
   * Records that the source's bytes were seen at `path` now. Every path still holding the bytes stays
   * current; a path stops being current only when its file moves away or changes.
   */
  touchPath(sourceId: number, path: string, stat: FileStat, now: string): void {
    this.db.transaction(() => {
      const known = this.db.prepare('SELECT 1 FROM source_paths WHERE source_id = ? AND path = ?').get(sourceId, path) !== undefined;
      const r = this.db
        .prepare(
          `INSERT INTO source_paths (source_id, path, size, mtime_ms, first_seen_at, last_seen_at, current)
           VALUES (?, ?, ?, ?, ?, ?, 1)
           ON CONFLICT (source_id, path) DO UPDATE SET size = excluded.size, mtime_ms = excluded.mtime_ms,
             last_seen_at = excluded.last_seen_at, current = 1`,
        )
        .run(sourceId, path, stat.size, stat.mtimeMs, now, now);
      // A path seen for the first time is part of the source's record: the chain covers it.
      if (!known) this.chain.record('source_paths', Number(r.lastInsertRowid), now);
    }).immediate();
    this.chain.publishHead();
  }

  /**
   * One document's whole ingestion as one IMMEDIATE transaction (the write lock taken at BEGIN, so
   * it never fails half-way on a lock): after a crash it is fully present or absent.
   */
  insert(src: NewSource, now: string, alsoInTransaction?: (id: number) => void): number {
    const insertSource = this.statements.get(
      // A new version of a restricted document is restricted too: its text is the same secret.
      `INSERT INTO sources (sha256, kind, file_name, byte_size, page_count, title, extraction_method, warnings, predecessor_id, snapshot, restricted, added_at)
       VALUES (@sha256, @kind, @fileName, @byteSize, @pageCount, @title, @method, @warnings, @predecessorId, @snapshot,
               coalesce((SELECT restricted FROM sources WHERE id = @predecessorId), 0), @now)`,
    );
    const insertSegment = this.statements.get(
      `INSERT INTO segments (source_id, ordinal, locator, page, page_label, paragraph, line_start, line_end, heading_path, block_type, text, item_starts, no_text_layer, ocr_method, ocr_confidence, ocr_boxes)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const id = this.db.transaction(() => {
      const { lastInsertRowid } = insertSource.run({
        sha256: src.sha256,
        kind: src.doc.kind,
        fileName: src.fileName,
        byteSize: src.byteSize,
        pageCount: src.doc.pageCount,
        title: src.doc.title,
        method: src.doc.method,
        warnings: JSON.stringify(src.doc.warnings),
        predecessorId: src.predecessorId,
        snapshot: src.snapshot,
        now,
      });
      const id = Number(lastInsertRowid);
      src.doc.segments.forEach((seg, ordinal) => {
        if (seg.textItems && seg.page !== undefined) this.keepPageTextItems(id, seg.page, seg.text, seg.textItems);
        insertSegment.run(id, ...segmentValues(seg, ordinal));
      });
      if (src.predecessorId !== null && src.path !== null) {
        this.statements.get('UPDATE source_paths SET current = 0 WHERE source_id = ? AND path = ?').run(src.predecessorId, src.path);
      }
      const pathRow =
        src.path === null
          ? null
          : this.statements
              .get(
                `INSERT INTO source_paths (source_id, path, size, mtime_ms, first_seen_at, last_seen_at, current) VALUES (?, ?, ?, ?, ?, ?, 1)`,
              )
              .run(id, src.path, src.stat.size, src.stat.mtimeMs, now, now);
      this.chain.record('sources', id, now, src.predecessorId === null ? 'source.add' : 'source.version', {
        sha256: src.sha256,
        predecessorId: src.predecessorId,
        restricted: this.chain.restrictedFlag(id),
      });
      if (pathRow) this.chain.record('source_paths', Number(pathRow.lastInsertRowid), now);
      if (hasProperties(src.doc.properties)) {
        const props = this.statements
          .get('INSERT INTO source_properties (source_id, authors, published, created_at) VALUES (?, ?, ?, ?)')
          .run(id, JSON.stringify(src.doc.properties.authors), src.doc.properties.published, now);
        this.chain.record('source_properties', Number(props.lastInsertRowid), now);
      }
      alsoInTransaction?.(id);
      return id;
    }).immediate();
    this.chain.publishHead();
    return id;
  }

  /** Authors and date each source's file gave of itself; sources without any are absent. */
  properties(ids: readonly number[]): Map<number, DocumentProperties> {
    const get = this.db.prepare('SELECT authors, published FROM source_properties WHERE source_id = ?');
    const out = new Map<number, DocumentProperties>();
    for (const id of new Set(ids)) {
      const row = get.get(id) as { authors: string; published: string | null } | undefined;
      if (row) out.set(id, { authors: JSON.parse(row.authors) as string[], published: row.published });
    }
    return out;
  }

  /** The ids among `ids` that are not sources of this workspace. */
  missingIds(ids: readonly number[]): number[] {
    const known = this.db.prepare('SELECT 1 FROM sources WHERE id = ?');
    return ids.filter((id) => known.get(id) === undefined);
  }

  /** Sets the restricted flag of existing sources; returns the ids whose flag changed. */
  setRestricted(ids: readonly number[], restricted: boolean): number[] {
    const update = this.db.prepare('UPDATE sources SET restricted = ? WHERE id = ? AND restricted <> ?');
    const flag = restricted ? 1 : 0;
    return [...new Set(ids)].filter((id) => update.run(flag, id, flag).changes > 0);
  }

  segments(sourceId: number): SegmentRow[] {
    return this.db.prepare('SELECT * FROM segments WHERE source_id = ? ORDER BY ordinal').all(sourceId) as SegmentRow[];
  }

  pageSegment(sourceId: number, page: number): SegmentRow | undefined {
    return this.db.prepare('SELECT * FROM segments WHERE source_id = ? AND page = ? ORDER BY ordinal LIMIT 1').get(sourceId, page) as
      | SegmentRow
      | undefined;
  }

  /**
   * The stored text-item geometry of a PDF page (text-geometry.ts) whose items join into `text`,
   * or null when none is stored for that text.
   */
  pageTextItems(sourceId: number, page: number, text: string): Float64Array | null {
    const row = this.statements.get('SELECT text_sha256, items FROM page_text_items WHERE source_id = ? AND page = ?').get(sourceId, page) as
      | { text_sha256: string; items: Uint8Array }
      | undefined;
    return row && row.text_sha256 === sha256Hex(text) ? geometryFromBytes(row.items) : null;
  }

  /**
   * Keeps the geometry of a page whose items join into `text`: at ingestion, or when an export
   * read a page ingested before geometry was stored. Derived data, outside the audit chain; a page
   * that has geometry keeps it.
   */
  keepPageTextItems(sourceId: number, page: number, text: string, items: Float64Array): void {
    this.statements
      .get('INSERT OR IGNORE INTO page_text_items (source_id, page, text_sha256, items) VALUES (?, ?, ?, ?)')
      .run(sourceId, page, sha256Hex(text), geometryBytes(items));
  }

  /** Each PDF page's stored text and label, in page order (the reader's find). */
  pageTexts(sourceId: number): { page: number; label: string | null; text: string }[] {
    return this.db.prepare('SELECT page, page_label AS label, text FROM segments WHERE source_id = ? AND page IS NOT NULL ORDER BY ordinal').all(sourceId) as {
      page: number;
      label: string | null;
      text: string;
    }[];
  }

  pageSummaries(sourceId: number): { page: number; label: string | null; chars: number; noTextLayer: boolean; ocrConfidence: number | null }[] {
    const rows = this.db
      .prepare('SELECT page, page_label, length(text) AS chars, no_text_layer, ocr_confidence, ocr_method FROM segments WHERE source_id = ? AND page IS NOT NULL ORDER BY ordinal')
      .all(sourceId) as { page: number; page_label: string | null; chars: number; no_text_layer: number; ocr_confidence: number | null; ocr_method: string | null }[];
    return rows.map((r) => ({ page: r.page, label: r.page_label, chars: r.chars, noTextLayer: r.no_text_layer === 1, ocrConfidence: r.ocr_method === null ? null : (r.ocr_confidence ?? 0) }));
  }

  /**
   * New OCR text for pages without a text layer (OCR run again, or first run after --no-ocr): the
   * segment's text, items and OCR columns, in one transaction; the full-text index follows by its
   * trigger. Only pages without a text layer are touched. The source row (hashed in the audit chain)
   * is not: the chain records the run as an entry of its own.
   */
  replaceOcrText(sourceId: number, pages: { page: number; text: string; itemStarts: number[]; ocr: { method: string; confidence: number | null; boxes: number[][] } | null }[], now: string): number {
    const update = this.db.prepare(
      `UPDATE segments SET text = ?, item_starts = ?, ocr_method = ?, ocr_confidence = ?, ocr_boxes = ?
       WHERE source_id = ? AND page = ? AND no_text_layer = 1`,
    );
    const changed = this.db.transaction(() => {
      let n = 0;
      for (const p of pages) {
        n += update.run(p.text, JSON.stringify(p.itemStarts), p.ocr?.method ?? null, p.ocr?.confidence ?? null, p.ocr ? JSON.stringify(p.ocr.boxes) : null, sourceId, p.page).changes;
      }
      this.chain.append({ action: 'source.ocr', payload: { sourceId, pages: pages.map((p) => p.page), method: pages.find((p) => p.ocr)?.ocr?.method ?? null } }, now);
      return n;
    }).immediate();
    this.chain.publishHead();
    return changed;
  }
}

export function parseWarnings(json: string): Warning[] {
  try {
    const v = JSON.parse(json) as unknown;
    return Array.isArray(v) ? (v as Warning[]) : [];
  } catch {
    return [];
  }
}

const sha256Hex = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');
