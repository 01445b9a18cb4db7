// Web sources (issue 11): register a URL = fetch it once, archive the bytes as the source's snapshot
// with a fetch record, extract them like a file of that type (HTML through Readability). Citations
// then verify against the archive; registering again makes a new version only when the bytes changed.
import type { SourceSummary, Warning } from '../../../shared/contract/schemas.ts';
import type { WebFetchRecord, WebOutcome, WebRegisterOptions, WebRegisterResult } from '../../../shared/contract/web-schemas.ts';
import { AppError } from '../../../shared/contract/errors.ts';
import type { EventBus } from '../events.ts';
import { sha256Bytes } from '../hashing/sha256.ts';
import { extractInPool } from '../ingest/pooled-extract.ts';
import type { WorkerPool } from '../ingest/worker-pool.ts';
import type { BlobStore } from '../store/blobs.ts';
import type { SourceRow, SourcesStore } from '../store/sources-store.ts';
import type { NewFetch, WebFetchStore } from '../store/web-fetch-store.ts';
import { DEFAULT_FETCH_LIMITS, fetchPage, parseWebUrl, type FetchedPage, type FetchLimits } from './fetch-page.ts';

export interface WebServiceDeps {
  sources: SourcesStore;
  fetches: WebFetchStore;
  blobs: BlobStore;
  pool: WorkerPool;
  events: EventBus;
  /** The workspace's extraction settings, read at each call. */
  settings: () => { extractionTimeoutMs: number; maxPdfPages: number };
  /** How a stored source is described to callers (the same summary as sources.list). */
  summarize: (row: SourceRow) => SourceSummary;
}

/** A source's name in the library: host and path of the page, without the query. */
export function webFileName(finalUrl: string): string {
  const u = new URL(finalUrl);
  const name = `${u.host}${u.pathname === '/' ? '' : u.pathname}`;
  return name.length > 200 ? `${name.slice(0, 199)}…` : name;
}

export class WebService {
  private readonly deps: WebServiceDeps;
  /** Registrations of one URL run one after the other: two at once would both find "no archive yet". */
  private readonly inFlight = new Map<string, Promise<unknown>>();

  constructor(deps: WebServiceDeps) {
    this.deps = deps;
  }

  /**
   * Fetches `url` once and archives it. Throws a coded AppError (WEB_*, FILE_EMPTY, or an extraction
   * code) and stores nothing when the page cannot be fetched or read.
   */
  async register(url: string, options: WebRegisterOptions = {}): Promise<WebRegisterResult> {
    const key = parseWebUrl(url).href;
    const earlier = this.inFlight.get(key);
    const mine = (earlier ?? Promise.resolve()).catch(() => undefined).then(() => this.registerNow(key, options));
    this.inFlight.set(key, mine);
    try {
      return await mine;
    } finally {
      if (this.inFlight.get(key) === mine) this.inFlight.delete(key);
    }
  }

  private async registerNow(url: string, options: WebRegisterOptions): Promise<WebRegisterResult> {
    const limits: FetchLimits = {
      maxBytes: options.maxBytes ?? DEFAULT_FETCH_LIMITS.maxBytes,
      timeoutMs: options.timeoutMs ?? DEFAULT_FETCH_LIMITS.timeoutMs,
      maxRedirects: options.maxRedirects ?? DEFAULT_FETCH_LIMITS.maxRedirects,
    };
    const page = await fetchPage(url, limits);
    const sha256 = sha256Bytes(page.bytes);
    const previous = this.deps.fetches.latestForUrl(page.requestedUrl);
    const fetchOf = (outcome: WebOutcome): NewFetch => ({
      url: page.requestedUrl,
      finalUrl: page.finalUrl,
      redirects: page.redirects,
      httpStatus: page.status,
      contentType: page.contentType,
      byteSize: page.bytes.length,
      sha256,
      fetchedAt: page.fetchedAt,
      outcome,
    });

    const existing = this.deps.sources.findBySha(sha256);
    if (existing) {
      const outcome: WebOutcome = previous?.sourceId === existing.id ? 'unchanged' : 'duplicate';
      const fetchId = this.deps.fetches.insertForExisting(existing.id, fetchOf(outcome));
      return this.result(outcome, existing.id, previous?.sourceId ?? null, fetchId, []);
    }

    const doc = await this.extract(page);
    const outcome: WebOutcome = previous ? 'new_version' : 'added';
    const snapshot = this.deps.blobs.put(sha256, page.bytes);
    const { sourceId, fetchId } = this.deps.fetches.insertWithSource(
      {
        sha256,
        fileName: webFileName(page.finalUrl),
        byteSize: page.bytes.length,
        path: null,
        stat: { size: page.bytes.length, mtimeMs: Date.parse(page.fetchedAt) },
        doc,
        snapshot,
        predecessorId: previous?.sourceId ?? null,
      },
      fetchOf(outcome),
      page.fetchedAt,
    );
    this.deps.events.emit({ type: 'sources.changed' });
    return this.result(outcome, sourceId, previous?.sourceId ?? null, fetchId, doc.warnings);
  }

  private async extract(page: FetchedPage) {
    const settings = this.deps.settings();
    const fileName = webFileName(page.finalUrl);
    const doc = await extractInPool(this.deps.pool, page.kind, page.bytes, {
      fileName,
      deadline: Date.now() + settings.extractionTimeoutMs,
      maxPages: settings.maxPdfPages,
      ...(page.kind === 'html' ? { reader: true } : {}),
    });
    // A scanned PDF is kept like a scanned file (its pages say they have no text layer); a page with no text is not.
    if (page.kind !== 'pdf' && doc.segments.every((s) => s.text.trim() === '')) {
      throw new AppError('FILE_EMPTY', `${page.finalUrl} has no text that could be read; nothing was stored.`, { url: page.finalUrl });
    }
    return doc;
  }

  private result(outcome: WebOutcome, sourceId: number, previousSourceId: number | null, fetchId: number, warnings: Warning[]): WebRegisterResult {
    const row = this.deps.sources.get(sourceId);
    const fetch = this.deps.fetches.get(fetchId);
    if (!row || !fetch) throw new AppError('INTERNAL', `The archive of source ${sourceId} could not be read back.`);
    return { outcome, source: this.deps.summarize(row), previousSourceId: previousSourceId === sourceId ? null : previousSourceId, fetch, warnings };
  }

  /** Fetch records of a source, newest first (empty for sources that are not web pages). */
  fetchesOf(sourceId: number): WebFetchRecord[] {
    return this.deps.fetches.forSource(sourceId);
  }
}
