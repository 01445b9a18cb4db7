/**
 * A process's copy of a shared workspace's sources for anchoring (issue 13). The anchoring and
 * verification code (Verifier, SourceAnchorer, CiteHints) reads sources and segments synchronously
 * through AnchoringStore and SearchStore, thousands of reads a cite; over PostgreSQL each would be
 * a round trip. Sources and segments are append-only (a changed file is a new source), so a copy
 * never goes stale but for a source's `restricted` flag, which is read afresh before every use.
 * The copy is an in-memory SQLite database with the workspace's schema, so the same code anchors
 * on both engines with the same results: every source's row (for names, versions and successors),
 * and the segments of the sources cited so far (read whole the first time, then kept).
 *
 * The copy's full-text index is built for a source only when a search first needs it: a quote
 * found at its claimed place (most cites) never searches, and indexing a big manual's text took
 * four fifths of its first cite (about 200 ms for 2,400 pages, where the read and the rows took 40).
 * Ranking (bm25) counts over the sources indexed so far, as it counted over those copied so far:
 * never the whole library, on either.
 *
 * It is a cache, not a workspace: its rows have no audit entries and nothing is written back.
 */
import { AnchoringStore, type RetrievedRow } from './anchoring-store.ts';
import { openMemoryDatabase, type Db } from './database.ts';
import type { CitationsArea, SegmentRow, SourcesArea, StoredSourceRow } from './evidence-store.ts';
import { SearchStore, type SearchOptions, type SearchRow } from './search-store.ts';
import { STORED_SOURCE_COLUMNS } from './sources-store.ts';
import { StatementCache } from './statement-cache.ts';

const SEGMENT_COLUMNS = [
  'id', 'source_id', 'ordinal', 'locator', 'page', 'page_label', 'paragraph', 'line_start', 'line_end', 'heading_path', 'block_type', 'text',
  'item_starts', 'no_text_layer', 'ocr_method', 'ocr_confidence', 'ocr_boxes',
] as const;
const SOURCE_COLUMNS = STORED_SOURCE_COLUMNS.split(', ');

export interface MirrorReads {
  citations: Pick<CitationsArea, 'sourcesAfter' | 'restrictedIds'>;
  sources: Pick<SourcesArea, 'anchoringSegments'>;
}

export class SourceMirror {
  readonly db: Db;
  readonly anchoring: AnchoringStore;
  readonly search: SearchStore;
  private readonly reads: MirrorReads;
  private lastId = 0;
  private restricted = new Set<number>();
  /** Sources whose segments are copied (or being copied): one read each, even for cites at once. */
  private readonly loaded = new Map<number, Promise<void>>();
  /** Sources whose segments are in the copy, and those of them in its full-text index. */
  private readonly copied = new Set<number>();
  private readonly indexed = new Set<number>();
  /** Prepared once: every search of the copy comes through indexText, most with nothing to add. */
  private readonly statements: StatementCache;
  private refreshing: Promise<void> | null = null;

  constructor(reads: MirrorReads) {
    this.reads = reads;
    this.db = openMemoryDatabase();
    this.statements = new StatementCache(this.db);
    // Segments are only ever inserted here, and indexed when a search first needs them (indexText).
    this.db.exec('DROP TRIGGER segments_fts_insert');
    const index = (ids?: readonly number[]): void => this.indexText(ids);
    this.anchoring = new MirrorAnchoringStore(this.db, index);
    this.search = new MirrorSearchStore(this.db, index);
  }

  /** Puts the copied text of `ids` (of every copied source when absent) in the full-text index, once each. */
  private indexText(ids: Iterable<number> = this.copied): void {
    for (const id of ids) {
      if (!this.copied.has(id) || this.indexed.has(id)) continue;
      this.statements.get('INSERT INTO segments_fts (rowid, text) SELECT id, text FROM segments WHERE source_id = ?').run(id);
      this.indexed.add(id);
    }
  }

  /** Brings in the sources stored since the last time and every source's `restricted` flag (two reads, at once). */
  refresh(): Promise<void> {
    // Cites at once share one refresh in flight.
    this.refreshing ??= this.doRefresh().finally(() => {
      this.refreshing = null;
    });
    return this.refreshing;
  }

  private async doRefresh(): Promise<void> {
    const [added, restricted] = await Promise.all([this.reads.citations.sourcesAfter(this.lastId), this.reads.citations.restrictedIds()]);
    const insert = this.db.prepare(`INSERT OR IGNORE INTO sources (${SOURCE_COLUMNS.join(', ')}) VALUES (${SOURCE_COLUMNS.map((c) => `@${c}`).join(', ')})`);
    const setRestricted = this.db.prepare('UPDATE sources SET restricted = ? WHERE id = ? AND restricted <> ?');
    const now = new Set(restricted);
    this.db.transaction(() => {
      for (const s of added) insert.run(s as unknown as Record<string, unknown>);
      for (const id of new Set([...now, ...this.restricted])) {
        const flag = now.has(id) ? 1 : 0;
        setRestricted.run(flag, id, flag);
      }
    })();
    this.restricted = now;
    const last = added[added.length - 1];
    if (last) this.lastId = Math.max(this.lastId, last.id);
  }

  /** Copies a source's segments the first time it is asked for (after a refresh that brought its row). */
  load(sourceId: number): Promise<void> {
    let p = this.loaded.get(sourceId);
    if (!p) {
      p = this.copySegments(sourceId);
      this.loaded.set(sourceId, p);
      // A failed read is tried again next time.
      p.catch(() => this.loaded.delete(sourceId));
    }
    return p;
  }

  private async copySegments(sourceId: number): Promise<void> {
    const rows: SegmentRow[] = await this.reads.sources.anchoringSegments(sourceId);
    if (this.anchoring.source(sourceId) === undefined) return;
    const insert = this.db.prepare(`INSERT OR IGNORE INTO segments (${SEGMENT_COLUMNS.join(', ')}) VALUES (${SEGMENT_COLUMNS.map(() => '?').join(', ')})`);
    this.db.transaction(() => {
      for (const r of rows as unknown as Record<string, unknown>[]) insert.run(SEGMENT_COLUMNS.map((c) => r[c] ?? null));
    })();
    this.copied.add(sourceId);
  }

  /** Up to 10 sources whose SHA-256 starts with `prefix`, as CitationsStore.sourcesByShaPrefix. */
  sourcesByShaPrefix(prefix: string): number[] {
    return (this.db.prepare('SELECT id FROM sources WHERE substr(sha256, 1, ?) = ? ORDER BY id LIMIT 10').all(prefix.length, prefix) as { id: number }[]).map((r) => r.id);
  }

  close(): void {
    this.db.close();
  }
}

/** The copy's searches: the text they may find indexed first (SourceMirror.indexText). */
class MirrorSearchStore extends SearchStore {
  private readonly index: (ids?: readonly number[]) => void;
  constructor(db: Db, index: (ids?: readonly number[]) => void) {
    super(db);
    this.index = index;
  }

  override search(match: string, options: SearchOptions): SearchRow[] {
    this.index(options.sourceIds);
    return super.search(match, options);
  }

  override candidateSegments(match: string, sourceId: number, limit: number): SegmentRow[] {
    this.index([sourceId]);
    return super.candidateSegments(match, sourceId, limit);
  }
}

class MirrorAnchoringStore extends AnchoringStore {
  private readonly index: (ids?: readonly number[]) => void;
  constructor(db: Db, index: (ids?: readonly number[]) => void) {
    super(db);
    this.index = index;
  }

  override retrieve(match: string, limit: number, options: { excludeRestricted: boolean }): RetrievedRow[] {
    this.index();
    return super.retrieve(match, limit, options);
  }
}

export type { StoredSourceRow };
