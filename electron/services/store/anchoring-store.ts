import type { Db } from './database.ts';
import { StatementCache } from './statement-cache.ts';
import type { SegmentRow } from './sources-store.ts';

/** The columns of a source that resolving a citation's reference needs. */
export interface SourceRefRow {
  id: number;
  sha256: string;
  kind: string;
  file_name: string;
  title: string | null;
  predecessor_id: number | null;
  restricted: number;
  page_count: number | null;
  added_at: string;
}

export interface RetrievedRow extends SegmentRow {
  file_name: string;
  sha256: string;
  rank: number;
}

const SOURCE_COLUMNS = 'id, sha256, kind, file_name, title, predecessor_id, restricted, page_count, added_at';

/** Reads of sources and segments for anchoring, re-anchoring and the answerers' retrieval. */
export interface SegmentSpan {
  id: number;
  ordinal: number;
  chars: number;
  line_start: number | null;
  line_end: number | null;
}

export class AnchoringStore {
  /** Prepared once: a verification asks these few statements thousands of times, and opening an answer reads a source and a segment per citation. */
  private readonly statements: StatementCache;
  constructor(db: Db) {
    this.statements = new StatementCache(db);
  }

  source(id: number): SourceRefRow | undefined {
    return this.statements.get(`SELECT ${SOURCE_COLUMNS} FROM sources WHERE id = ?`).get(id) as SourceRefRow | undefined;
  }

  sourceBySha(sha256: string): SourceRefRow | undefined {
    return this.statements.get(`SELECT ${SOURCE_COLUMNS} FROM sources WHERE sha256 = ?`).get(sha256) as SourceRefRow | undefined;
  }

  /**
   * Sources whose file name or title matches a name without regard to case, with or without its
   * extension: `stem` is the lowercased name without extension, `name` the lowercased full name.
   */
  sourcesNamed(name: string, stem: string): SourceRefRow[] {
    return this.statements
      .get(
        `SELECT ${SOURCE_COLUMNS} FROM sources
         WHERE lower(file_name) = @name OR lower(title) = @name OR lower(title) = @stem
            OR lower(file_name) = @stem OR (lower(file_name) >= @stemDot AND lower(file_name) < @stemSlash)
         ORDER BY id`,
      )
      // The names starting "stem." are those from "stem." up to "stem/" ('/' follows '.'), a range
      // the index on lower(file_name) seeks to (migration 16); no LIKE, which SQLite refuses over
      // 50,000 bytes ("LIKE or GLOB pattern too complex"), and a citation may name a source at any length.
      .all({ name, stem, stemDot: `${stem}.`, stemSlash: `${stem}/` }) as SourceRefRow[];
  }

  /** Every source, for resolving loose references (names without extension, titles, abbreviations). */
  allSources(): SourceRefRow[] {
    return this.statements.get(`SELECT ${SOURCE_COLUMNS} FROM sources ORDER BY id`).all() as SourceRefRow[];
  }

  /** Newer versions of a source (ingested as a changed file at its path). */
  successors(id: number): SourceRefRow[] {
    return this.statements.get(`SELECT ${SOURCE_COLUMNS} FROM sources WHERE predecessor_id = ? ORDER BY id`).all(id) as SourceRefRow[];
  }

  segment(id: number): SegmentRow | undefined {
    return this.statements.get('SELECT * FROM segments WHERE id = ?').get(id) as SegmentRow | undefined;
  }

  segmentsByPages(sourceId: number, from: number, to: number): SegmentRow[] {
    return this.statements
      .get('SELECT * FROM segments WHERE source_id = ? AND page BETWEEN ? AND ? ORDER BY ordinal')
      .all(sourceId, from, to) as SegmentRow[];
  }

  /** The printed label of every labelled page ("iv", "T-3", "12"), in page order. */
  pageLabels(sourceId: number): { page: number; page_label: string }[] {
    return this.statements
      .get('SELECT page, page_label FROM segments WHERE source_id = ? AND page IS NOT NULL AND page_label IS NOT NULL ORDER BY page')
      .all(sourceId) as { page: number; page_label: string }[];
  }

  /** PowerPoint: the blocks of one slide (its notes too). */
  segmentsBySlide(sourceId: number, slide: number): SegmentRow[] {
    return this.statements
      .get("SELECT * FROM segments WHERE source_id = ? AND json_extract(locator, '$.slide') = ? ORDER BY ordinal")
      .all(sourceId, slide) as SegmentRow[];
  }

  /** Excel: the cells of a sheet (named without regard to case), or the one cell at `address`. */
  segmentsBySheet(sourceId: number, sheet: string, address: string | null): SegmentRow[] {
    return this.statements
      .get(
        `SELECT * FROM segments WHERE source_id = ? AND lower(json_extract(locator, '$.sheet')) = lower(?)
           AND (? IS NULL OR json_extract(locator, '$.address') = ?) ORDER BY ordinal`,
      )
      .all(sourceId, sheet, address, address) as SegmentRow[];
  }

  segmentsByParagraphs(sourceId: number, from: number, to: number): SegmentRow[] {
    return this.statements
      .get('SELECT * FROM segments WHERE source_id = ? AND paragraph BETWEEN ? AND ? ORDER BY ordinal')
      .all(sourceId, from, to) as SegmentRow[];
  }

  /** Segments whose line range overlaps [from, to]. */
  segmentsByLines(sourceId: number, from: number, to: number): SegmentRow[] {
    return this.statements
      .get('SELECT * FROM segments WHERE source_id = ? AND line_start <= ? AND line_end >= ? ORDER BY ordinal')
      .all(sourceId, to, from) as SegmentRow[];
  }

  /** Segments under a heading whose text contains `section` (case-insensitive). */
  segmentsBySection(sourceId: number, section: string, limit: number): SegmentRow[] {
    // instr, not LIKE '%…%': a claimed section of any length must not hit SQLite's LIKE pattern limit.
    return this.statements
      .get('SELECT * FROM segments WHERE source_id = ? AND instr(lower(heading_path), ?) > 0 ORDER BY ordinal LIMIT ?')
      .all(sourceId, section.toLowerCase(), limit) as SegmentRow[];
  }

  segmentsByOrdinals(sourceId: number, ordinals: readonly number[]): SegmentRow[] {
    if (ordinals.length === 0) return [];
    return this.statements
      .get(`SELECT * FROM segments WHERE source_id = ? AND ordinal IN (${ordinals.map(() => '?').join(',')}) ORDER BY ordinal`)
      .all(sourceId, ...ordinals) as SegmentRow[];
  }

  segmentsByOrdinalRange(sourceId: number, from: number, to: number): SegmentRow[] {
    return this.statements
      .get('SELECT * FROM segments WHERE source_id = ? AND ordinal BETWEEN ? AND ? ORDER BY ordinal')
      .all(sourceId, from, to) as SegmentRow[];
  }

  /**
   * Segments of a source containing any of `needles` as plain substrings, those with the most
   * first: candidate narrowing where FTS has no tokens to offer (Han and kana are not split into
   * words by FTS5's unicode61 tokenizer).
   */
  /** Table and sheet cells short enough to be a figure and holding a digit (numbers compared as numbers). */
  figureCells(sourceId: number, limit: number): SegmentRow[] {
    return this.statements
      .get("SELECT * FROM segments WHERE source_id = ? AND block_type = 'table_cell' AND length(text) <= 40 AND text GLOB '*[0-9]*' ORDER BY ordinal LIMIT ?")
      .all(sourceId, limit) as SegmentRow[];
  }

  segmentsContaining(sourceId: number, needles: readonly string[], limit: number): SegmentRow[] {
    if (needles.length === 0) return [];
    const hits = needles.map(() => '(instr(text, ?) > 0)').join(' + ');
    return this.statements
      .get(`SELECT * FROM (SELECT *, ${hits} AS hits FROM segments WHERE source_id = ?) WHERE hits > 0 ORDER BY hits DESC, ordinal LIMIT ?`)
      .all(...needles, sourceId, limit) as SegmentRow[];
  }

  /** Each segment's length (characters) and lines, in document order. */
  segmentSpans(sourceId: number): SegmentSpan[] {
    return this.statements.get('SELECT id, ordinal, length(text) AS chars, line_start, line_end FROM segments WHERE source_id = ? ORDER BY ordinal').all(sourceId) as SegmentSpan[];
  }

  /** How many segments a source has. */
  segmentCount(sourceId: number): number {
    return (this.statements.get('SELECT count(*) AS n FROM segments WHERE source_id = ?').get(sourceId) as { n: number }).n;
  }

  allSegments(sourceId: number): SegmentRow[] {
    return this.statements.get('SELECT * FROM segments WHERE source_id = ? ORDER BY ordinal').all(sourceId) as SegmentRow[];
  }

  /** Characters of stored text in a source: decides whether a full scan is affordable. */
  textLength(sourceId: number): number {
    return (this.statements.get('SELECT coalesce(sum(length(text)), 0) AS n FROM segments WHERE source_id = ?').get(sourceId) as { n: number }).n;
  }

  /**
   * Ranked FTS hits over the whole workspace with their text, for the answerers. Restricted
   * sources can be left out: their text must never reach a model endpoint.
   */
  retrieve(match: string, limit: number, options: { excludeRestricted: boolean }): RetrievedRow[] {
    return this.statements
      .get(
        `SELECT g.*, s.file_name, s.sha256, bm25(segments_fts) AS rank
         FROM segments_fts JOIN segments g ON g.id = segments_fts.rowid JOIN sources s ON s.id = g.source_id
         WHERE segments_fts MATCH ? ${options.excludeRestricted ? 'AND s.restricted = 0' : ''}
           AND NOT EXISTS (SELECT 1 FROM sources n WHERE n.predecessor_id = s.id)
         ORDER BY rank LIMIT ?`,
      )
      .all(match, limit) as RetrievedRow[];
  }
}
