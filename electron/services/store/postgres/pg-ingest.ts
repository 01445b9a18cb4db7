/**
 * Source ingest on PostgreSQL (issue 13): each document one transaction through the retrying
 * runTransaction (the bytes are in memory, so a retry reads them again). In it: the snapshot in
 * chunk rows (pg-snapshots.ts: the blob row claims the SHA-256 first, so a second writer of the same
 * bytes waits for the first and then finds its source: one source, the second a duplicate with its
 * path recorded); the source with SQLite's columns (a new version of a restricted source
 * restricted too); its segments; the member's own path (the predecessor's path at that place no
 * longer current); the file's properties; and their audit entries, appended last, as SQLite
 * records them. PDF text-item geometry (SQLite's page_text_items, derived data) is not stored:
 * the export reads such a page with pdf.js instead.
 */
import { AppError } from '../../../../shared/contract/errors.ts';
import { hasProperties } from '../../../../shared/domain/document-properties.ts';
import type { ExtractedSegment } from '../../ingest/extracted.ts';
import { ROW_APPEND } from '../audit-chain-store.ts';
import type { FileStat, IngestArea, NewIngest, SourceRow, StoredSource } from '../evidence-store.ts';
import { segmentValues } from '../sources-store.ts';
import { appendEntries, type PgEntry } from './pg-audit-chain.ts';
import { INSUFFICIENT_PRIVILEGE } from './pg-errors.ts';
import { CHUNK_SIZE, writeSnapshot } from './pg-snapshots.ts';
import { SOURCE_SELECT } from './pg-sources.ts';
import { pgRead, pgTransaction, type PgContext } from './pg-tx.ts';
import type pg from 'pg';

type Row = Record<string, unknown> & { id: number };

/** Where a stored snapshot is named, as a SQLite workspace names it (the row then hashes alike). */
function snapshotName(sha256: string): string {
  return `blobs/sha256/${sha256.slice(0, 2)}/${sha256}`;
}

/** The bytes in chunk-sized pieces (views, no copies). */
async function* piecesOf(bytes: Uint8Array): AsyncGenerator<Uint8Array> {
  for (let at = 0; at < bytes.length; at += CHUNK_SIZE) yield bytes.subarray(at, at + CHUNK_SIZE);
}

/** PostgreSQL text cannot hold U+0000: each becomes U+FFFD, one UTF-16 unit for one, so offsets still hold. */
function pgText(text: string): string {
  return text.includes('\u0000') ? text.replaceAll('\u0000', '\uFFFD') : text;
}

/** The segments' columns as arrays, in SEGMENT_INSERT's order (values as SQLite stores them). */
function segmentArrays(segments: readonly ExtractedSegment[]): unknown[][] {
  const cols: unknown[][] = Array.from({ length: 15 }, () => []);
  segments.forEach((seg, ordinal) => {
    const values = segmentValues(seg, ordinal);
    values[9] = pgText(seg.text); // the text column: PostgreSQL text holds no NUL
    values.forEach((v, i) => cols[i]?.push(v));
  });
  return cols;
}

const SEGMENT_INSERT = `
  INSERT INTO segments (source_id, ordinal, locator, page, page_label, paragraph, line_start, line_end, heading_path, block_type, text, item_starts, no_text_layer, ocr_method, ocr_confidence, ocr_boxes)
  SELECT $1::bigint, t.* FROM unnest($2::integer[], $3::text[], $4::integer[], $5::text[], $6::integer[], $7::integer[], $8::integer[], $9::text[], $10::text[],
                             $11::text[], $12::text[], $13::integer[], $14::text[], $15::double precision[], $16::text[]) AS t`;

/**
 * This member's path to a source: a new one inserted (with its entry), a known one seen again.
 * Every path still holding the bytes stays current.
 */
async function touchPath(c: pg.PoolClient, sourceId: number, file: string, stat: FileStat, now: string): Promise<PgEntry[]> {
  const known = (await c.query('SELECT 1 FROM source_paths WHERE source_id = $1 AND member = current_user AND path = $2', [sourceId, file])).rowCount !== 0;
  const row = (
    await c.query<Row>(
      `INSERT INTO source_paths (source_id, path, size, mtime_ms, first_seen_at, last_seen_at, current) VALUES ($1, $2, $3, $4, $5, $5, 1)
       ON CONFLICT (source_id, member, path) DO UPDATE SET size = excluded.size, mtime_ms = excluded.mtime_ms, last_seen_at = excluded.last_seen_at, current = 1
       RETURNING id, source_id, path, size, mtime_ms, first_seen_at, last_seen_at, current`,
      [sourceId, file, stat.size, stat.mtimeMs, now],
    )
  ).rows[0];
  return !known && row ? [{ action: ROW_APPEND, table: 'source_paths', row }] : [];
}

/** The newest source whose current path (this member's) is `file`. */
async function predecessorAt(c: pg.PoolClient, file: string): Promise<number | null> {
  const r = await c.query<{ source_id: number }>(
    'SELECT source_id FROM source_paths WHERE path = $1 AND member = current_user AND current = 1 ORDER BY last_seen_at DESC, id DESC LIMIT 1',
    [file],
  );
  return r.rows[0]?.source_id ?? null;
}

async function segmentCount(c: pg.PoolClient, sourceId: number): Promise<number> {
  return (await c.query<{ n: number }>('SELECT count(*) AS n FROM segments WHERE source_id = $1', [sourceId])).rows[0]?.n ?? 0;
}

async function store(c: pg.PoolClient, src: NewIngest): Promise<StoredSource> {
  const now = new Date().toISOString();
  await writeSnapshot(c, src.sha256, src.bytes.length, piecesOf(src.bytes), now);
  // The same bytes stored by another batch or member (before, or while this one waited on the blob).
  const existing = (await c.query<{ id: number }>('SELECT id FROM sources WHERE sha256 = $1', [src.sha256])).rows[0];
  if (existing) {
    await appendEntries(c, await touchPath(c, existing.id, src.path, src.stat, now), now);
    return { sourceId: existing.id, outcome: 'duplicate', segmentCount: await segmentCount(c, existing.id) };
  }
  const predecessorId = await predecessorAt(c, src.path);
  const { doc } = src;
  const source = (
    await c.query<Row & { restricted: number }>(
      // A new version of a restricted document is restricted too: its text is the same secret.
      `INSERT INTO sources (sha256, kind, file_name, byte_size, page_count, title, extraction_method, warnings, predecessor_id, snapshot, restricted, added_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, coalesce((SELECT restricted FROM sources WHERE id = $9), 0), $11) RETURNING *`,
      [src.sha256, doc.kind, src.fileName, src.bytes.length, doc.pageCount, doc.title, doc.method, JSON.stringify(doc.warnings), predecessorId, snapshotName(src.sha256), now],
    )
  ).rows[0];
  if (!source) throw new Error('the source row was not returned');
  if (doc.segments.length > 0) await c.query(SEGMENT_INSERT, [source.id, ...segmentArrays(doc.segments)]);
  if (predecessorId !== null) {
    await c.query('UPDATE source_paths SET current = 0 WHERE source_id = $1 AND member = current_user AND path = $2', [predecessorId, src.path]);
  }
  const entries: PgEntry[] = [
    {
      action: predecessorId === null ? 'source.add' : 'source.version',
      table: 'sources',
      row: source,
      payload: { sha256: src.sha256, predecessorId, restricted: source.restricted === 1 },
    },
    ...(await touchPath(c, source.id, src.path, src.stat, now)),
  ];
  if (hasProperties(doc.properties)) {
    const props = (
      await c.query<Row>('INSERT INTO source_properties (source_id, authors, published, created_at) VALUES ($1, $2, $3, $4) RETURNING *', [
        source.id,
        JSON.stringify(doc.properties.authors),
        doc.properties.published,
        now,
      ])
    ).rows[0];
    if (props) entries.push({ action: ROW_APPEND, table: 'source_properties', row: props });
  }
  await appendEntries(c, entries, now);
  return { sourceId: source.id, outcome: predecessorId === null ? 'added' : 'new_version', segmentCount: doc.segments.length };
}

/**
 * A member whose level may not add sources is told who may: "The reviewer role may not add a
 * source: only an admin adds sources to the shared workspace, and the shared database refused it (…)".
 */
function whoAddsSources(e: unknown, who: PgContext['who']): unknown {
  if (!(e instanceof AppError) || e.code !== 'DATABASE_ROLE_REFUSED' || e.details?.sqlstate !== INSUFFICIENT_PRIVILEGE) return e;
  const tail = e.message.slice(e.message.indexOf(': ') + 2);
  return new AppError('DATABASE_ROLE_REFUSED', `The ${who.level ?? 'no Evidence Desk'} role may not add a source: only an admin adds sources to the shared workspace, and ${tail}`, e.details);
}

export function pgIngest(ctx: PgContext): IngestArea {
  return {
    async findBySha(sha256) {
      const rows = await pgRead<SourceRow>(ctx, 'look up a source by its SHA-256', `${SOURCE_SELECT} WHERE s.sha256 = $1`, [sha256]);
      return rows[0];
    },

    seen: (sourceId, file, stat) =>
      pgTransaction(ctx, "record a source's path", async (c) => {
        const now = new Date().toISOString();
        await appendEntries(c, await touchPath(c, sourceId, file, stat, now), now);
      }),

    // PostgreSQL keeps every snapshot (src.snapshot is the local setting): it is how other members open the source.
    add: async (src) => ({
      committed: pgTransaction(ctx, 'add a source', (c) => store(c, src)).catch((e: unknown) => {
        throw whoAddsSources(e, ctx.who);
      }),
    }),

    // Each document is its own transaction on the pool's connections: nothing runs beside them.
    close: async () => undefined,
  };
}
