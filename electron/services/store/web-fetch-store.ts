// All SQL about web fetch records (migration 11). Each record is an evidence row: appended in the
// transaction that stores the page (or alone, for an unchanged page), recorded in the audit chain.
import type { WebFetchRecord, WebOutcome, WebRedirect } from '../../../shared/contract/web-schemas.ts';
import { ChainStore } from './audit-chain-store.ts';
import type { Db } from './database.ts';
import type { NewSource, SourcesStore } from './sources-store.ts';
import { StatementCache } from './statement-cache.ts';

interface FetchRow {
  id: number;
  source_id: number;
  url: string;
  final_url: string;
  redirects: string;
  http_status: number;
  content_type: string | null;
  byte_size: number;
  sha256: string;
  fetched_at: string;
  outcome: WebOutcome;
}

export interface NewFetch {
  url: string;
  finalUrl: string;
  redirects: WebRedirect[];
  httpStatus: number;
  contentType: string | null;
  byteSize: number;
  sha256: string;
  fetchedAt: string;
  outcome: WebOutcome;
}

function record(row: FetchRow): WebFetchRecord {
  return {
    id: row.id,
    sourceId: row.source_id,
    url: row.url,
    finalUrl: row.final_url,
    redirects: JSON.parse(row.redirects) as WebRedirect[],
    httpStatus: row.http_status,
    contentType: row.content_type,
    byteSize: row.byte_size,
    sha256: row.sha256,
    fetchedAt: row.fetched_at,
    outcome: row.outcome,
  };
}

export class WebFetchStore {
  readonly db: Db;
  private readonly chain: ChainStore;
  private readonly sources: SourcesStore;
  /** origin() runs for every row of every library page: prepared once. */
  private readonly statements: StatementCache;
  constructor(db: Db, sources: SourcesStore) {
    this.db = db;
    this.sources = sources;
    this.chain = new ChainStore(db);
    this.statements = new StatementCache(db);
  }

  private append(sourceId: number, f: NewFetch): number {
    const r = this.db
      .prepare(
        `INSERT INTO web_fetches (source_id, url, final_url, redirects, http_status, content_type, byte_size, sha256, fetched_at, outcome)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(sourceId, f.url, f.finalUrl, JSON.stringify(f.redirects), f.httpStatus, f.contentType, f.byteSize, f.sha256, f.fetchedAt, f.outcome);
    const id = Number(r.lastInsertRowid);
    this.chain.record('web_fetches', id, f.fetchedAt, 'web.fetch', { url: f.url, outcome: f.outcome, sha256: f.sha256 });
    return id;
  }

  /** A new source (or new version) and its fetch record, in one transaction. */
  insertWithSource(src: NewSource, fetch: NewFetch, now: string): { sourceId: number; fetchId: number } {
    let fetchId = 0;
    const sourceId = this.sources.insert(src, now, (id) => {
      fetchId = this.append(id, fetch);
    });
    return { sourceId, fetchId };
  }

  /** A fetch whose bytes the workspace already holds as `sourceId`. */
  insertForExisting(sourceId: number, fetch: NewFetch): number {
    const id = this.db.transaction(() => this.append(sourceId, fetch)).immediate();
    this.chain.publishHead();
    return id;
  }

  get(id: number): WebFetchRecord | undefined {
    const row = this.db.prepare('SELECT * FROM web_fetches WHERE id = ?').get(id) as FetchRow | undefined;
    return row ? record(row) : undefined;
  }

  /** The newest fetch of `url` (as asked for), if any. */
  latestForUrl(url: string): WebFetchRecord | undefined {
    const row = this.db.prepare('SELECT * FROM web_fetches WHERE url = ? ORDER BY id DESC LIMIT 1').get(url) as FetchRow | undefined;
    return row ? record(row) : undefined;
  }

  /** The fetches whose bytes a source holds, newest first. */
  forSource(sourceId: number): WebFetchRecord[] {
    return (this.db.prepare('SELECT * FROM web_fetches WHERE source_id = ? ORDER BY id DESC').all(sourceId) as FetchRow[]).map(record);
  }

  /** The first fetch that archived a source's bytes: where and when the page was captured. */
  origin(sourceId: number): WebFetchRecord | undefined {
    const row = this.statements.get('SELECT * FROM web_fetches WHERE source_id = ? ORDER BY id LIMIT 1').get(sourceId) as FetchRow | undefined;
    return row ? record(row) : undefined;
  }
}
