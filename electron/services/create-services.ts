import { createDispatcher, type Dispatch, type Handlers } from '../../shared/contract/dispatcher.ts';
import { AppError } from '../../shared/contract/errors.ts';
import type { SourceSummary } from '../../shared/contract/schemas.ts';
import { EventBus } from './events.ts';
import { DEFAULT_INGEST_SETTINGS, IngestService, type IngestSettings } from './ingest/ingest-service.ts';
import { WorkerPool, type PoolOptions } from './ingest/worker-pool.ts';
import type { Platform } from './platform.ts';
import { SearchService } from './search/search-service.ts';
import { SourceFiles } from './sources/source-files.ts';
import { BlobStore } from './store/blobs.ts';
import { openDatabase, schemaVersion, type Db } from './store/database.ts';
import { SearchStore } from './store/search-store.ts';
import { parseWarnings, SourcesStore, type SourceRow } from './store/sources-store.ts';

import packageJson from '../../package.json' with { type: 'json' };

export const APP_VERSION: string = packageJson.version;

export interface ServicesOptions {
  ingest?: Partial<IngestSettings>;
  pool?: PoolOptions;
}

export interface Services {
  readonly workspaceDir: string;
  readonly db: Db;
  readonly events: EventBus;
  readonly sources: SourcesStore;
  readonly sourceFiles: SourceFiles;
  readonly ingest: IngestService;
  readonly search: SearchService;
  readonly handlers: Handlers;
  readonly dispatch: Dispatch;
  /** Stops the extraction workers and closes the database. */
  close(): void;
}

function summary(row: SourceRow): SourceSummary {
  return {
    id: row.id,
    sha256: row.sha256,
    kind: row.kind,
    fileName: row.file_name,
    path: row.current_path,
    byteSize: row.byte_size,
    segmentCount: row.segment_count,
    pageCount: row.page_count,
    title: row.title,
    addedAt: row.added_at,
    health: 'unchecked',
    hasSnapshot: row.snapshot !== null,
    predecessorId: row.predecessor_id,
    warnings: parseWarnings(row.warnings),
  };
}

/** Builds every service over one workspace folder; both transports and the CLI use this. */
export function createServices(platform: Platform, workspaceDir: string, options: ServicesOptions = {}): Services {
  const db = openDatabase(workspaceDir);
  const events = new EventBus();
  const sources = new SourcesStore(db);
  const blobs = new BlobStore(workspaceDir);
  const sourceFiles = new SourceFiles(sources, workspaceDir);
  const search = new SearchService(new SearchStore(db));
  const pool = new WorkerPool(options.pool);
  const ingest = new IngestService(sources, blobs, events, { ...DEFAULT_INGEST_SETTINGS, ...options.ingest }, pool);

  const requireSource = (id: number): SourceRow => {
    const row = sources.get(id);
    if (!row) throw new AppError('SOURCE_NOT_FOUND', `There is no source with id ${id} in this workspace.`);
    return row;
  };

  const handlers: Handlers = {
    'workspace.info': () => ({
      path: workspaceDir,
      schemaVersion: schemaVersion(db),
      appVersion: APP_VERSION,
      sourceCount: sources.count(),
      mode: platform.mode,
    }),
    'sources.ingest': (input) => ingest.ingest(input.password === undefined ? { paths: input.paths } : { paths: input.paths, password: input.password }),
    'sources.cancelIngest': ({ batchId }) => ({ cancelled: ingest.cancel(batchId) }),
    'sources.list': () => sources.list().map(summary),
    'sources.get': ({ id }) => {
      const row = requireSource(id);
      return {
        ...summary(row),
        extraction: row.extraction_method,
        knownPaths: sources.paths(id).map((p) => ({ path: p.path, firstSeenAt: p.first_seen_at, current: p.current === 1 })),
        pages: sources.pageSummaries(id),
      };
    },
    'sources.pageText': ({ id, page }) => {
      const row = requireSource(id);
      const seg = sources.pageSegment(id, page);
      if (!seg) {
        throw new AppError('SEGMENT_NOT_FOUND', `${row.file_name} has no page ${page}${row.page_count ? ` (it has ${row.page_count})` : ''}.`);
      }
      return {
        sourceId: id,
        page,
        pageLabel: seg.page_label,
        text: seg.text,
        itemStarts: seg.item_starts ? (JSON.parse(seg.item_starts) as number[]) : [],
        noTextLayer: seg.no_text_layer === 1,
      };
    },
    'search.query': ({ query, limit, sourceIds, snippets }) => ({
      hits: search.search(query, sourceIds === undefined ? { limit, snippets } : { limit, sourceIds, snippets }),
    }),
  };

  return {
    workspaceDir,
    db,
    events,
    sources,
    sourceFiles,
    ingest,
    search,
    handlers,
    dispatch: createDispatcher(handlers),
    close: () => {
      void pool.close();
      db.close();
    },
  };
}
