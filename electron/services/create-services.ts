import path from 'node:path';
import { createDispatcher, type Dispatch, type Handlers } from '../../shared/contract/dispatcher.ts';
import { AppError } from '../../shared/contract/errors.ts';
import type { Health, SourceSummary } from '../../shared/contract/schemas.ts';
import { AuditService } from './audit/audit-service.ts';
import { EventBus } from './events.ts';
import { ExportService } from './export/export-service.ts';
import { ExportStore } from './store/export-store.ts';
import { SourceWatcher } from './health/source-watcher.ts';
import { HealthService, type HealthSettings } from './health/health-service.ts';
import { rerunOcr } from './ingest/ocr-rerun.ts';
import { IngestService, type IngestSettings } from './ingest/ingest-service.ts';
import { ingestRequest } from './ingest/ingest-request.ts';
import { WorkerPool, type PoolOptions } from './ingest/worker-pool.ts';
import { AppExport } from './export/app-export.ts';
import { localReportReads } from './export/report-reads.ts';
import { answerWriteHandlers, exportHandlers } from './desk-answer-handlers.ts';
import type { Platform } from './platform.ts';
import { SearchService } from './search/search-service.ts';
import { SourceFiles } from './sources/source-files.ts';
import { SourceContentService } from './sources/source-content.ts';
import { setRestricted } from './sources/restriction.ts';
import { SourceList } from './sources/source-list.ts';
import { pageTextOf, storedSourceRow } from './sources/page-text.ts';
import { BlobStore } from './store/blobs.ts';
import { openDatabase, schemaVersion, type Db } from './store/database.ts';
import { SearchStore } from './store/search-store.ts';
import type { EvidenceStore } from './store/evidence-store.ts';
import { sqliteEvidenceStore } from './store/sqlite-evidence-store.ts';
import { SettingsStore } from './store/settings-store.ts';
import { inboxDir } from './workspace/inbox.ts';
import { ReviewService } from './verification/review-service.ts';
import { ingestSettingsFrom, WorkspaceSettingsService } from './workspace/settings.ts';
import { AnchoringStore } from './store/anchoring-store.ts';
import { AnswersStore } from './store/answers-store.ts';
import type { ModelSettings } from './answerers/openai-compatible.ts';
import { AnswersService } from './verification/answers-service.ts';
import { LinkService } from './links/link-service.ts';
import { Verifier } from './verification/verifier.ts';
import { parseWarnings, SourcesStore, type SourceRow } from './store/sources-store.ts';
import { webSourceRegistrar } from './citations/web-source-door.ts';
import { createCitationTools, type CitationTools, type CitationToolsOptions } from './citations/citation-tools.ts';
import { WebFetchStore } from './store/web-fetch-store.ts';
import { WebService } from './web/web-service.ts';
import { findInPages } from '../../shared/search/find-in-pages.ts';
import { LibraryService } from './library/library-service.ts';

import packageJson from '../../package.json' with { type: 'json' };

export const APP_VERSION: string = packageJson.version;

export interface ServicesOptions {
  /** Overrides of the workspace's stored settings for this session (tests, benchmarks). */
  ingest?: Partial<IngestSettings>;
  pool?: PoolOptions;
  health?: Partial<HealthSettings>;
  /** The OpenAI-compatible endpoint; unset fields come from EVIDESK_MODEL_* variables. */
  model?: Partial<ModelSettings>;
  /** The citation tools' door: the context a call inherits, the web-source registrar (issue 11). */
  citations?: CitationToolsOptions;
  /** Citations verified per batch in a large answer (issue 16; tests use small batches). */
  verifyBatch?: number;
  /**
   * The engine of the areas moved onto EvidenceStore (search, health, sources, answers, reviews;
   * issue 13); default the workspace's SQLite database. The caller closes a store it passes.
   */
  evidence?: EvidenceStore;
}

export interface Services {
  readonly workspaceDir: string;
  readonly db: Db;
  /** The store interface of the areas moved onto it (search, health, sources, answers, reviews). */
  readonly evidence: EvidenceStore;
  readonly events: EventBus;
  readonly sources: SourcesStore;
  readonly sourceFiles: SourceFiles;
  readonly ingest: IngestService;
  readonly search: SearchService;
  readonly health: HealthService;
  /** Marks moved and changed files as they happen; started by the app (host, shell), not the CLI. */
  readonly watcher: SourceWatcher;
  readonly answers: AnswersService;
  readonly audit: AuditService;
  readonly exports: ExportService;
  /** Review decisions: the append-only trail, the reviewer's name. */
  readonly review: ReviewService;
  readonly citations: CitationTools;
  /** Web sources: `web.register(url, options)` fetches, archives and ingests a page (issue 11). */
  readonly web: WebService;
  readonly handlers: Handlers;
  readonly dispatch: Dispatch;
  /** Stops the extraction workers and closes the database. */
  close(): void;
}

/** `health` is the last known one (HealthService); 'unchecked' until a check has seen the source. */
export function summary(row: SourceRow, health: Health, inboxDir?: string, web?: WebFetchStore): SourceSummary {
  const uploaded = inboxDir !== undefined && row.current_path !== null && row.current_path.startsWith(inboxDir + path.sep);
  const fetched = web?.origin(row.id);
  return {
    ...(uploaded ? { uploaded } : {}),
    ...(fetched ? { archivedFrom: { url: fetched.url, finalUrl: fetched.finalUrl, fetchedAt: fetched.fetchedAt } } : {}),
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
    health,
    hasSnapshot: row.snapshot !== null,
    predecessorId: row.predecessor_id,
    restricted: row.restricted === 1,
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
  const evidence = options.evidence ?? sqliteEvidenceStore(db);
  const search = new SearchService(evidence.search);
  const launch = platform.launchExtractor ? { launch: platform.launchExtractor } : {};
  const pool = new WorkerPool({ ...launch, ...options.pool });
  const settings = new WorkspaceSettingsService(new SettingsStore(db));
  const ingestSettings = () => ({ ...ingestSettingsFrom(settings.get()), ...options.ingest });
  const ingest = new IngestService(evidence.ingest, blobs, events, ingestSettings, pool);
  // The viewer's conversions get a worker of their own: opening a document never waits behind an ingest.
  const viewPool = new WorkerPool({ ...launch, ...options.pool, size: 1 });
  // Listing the library comes before opening a document: the viewer's child starts then, so the
  // first document opens without waiting for a process to start (not for one-shot CLI commands).
  // The viewer's extraction child starts once a list is shown, after the reply is sent: spawning it
  // inside the first page's call would hold the first screen back (issue 16).
  let warming: NodeJS.Timeout | null = null;
  const warmViewer =
    platform.mode === 'cli'
      ? () => undefined
      : () => {
          warming ??= setTimeout(() => {
            warming = null;
            viewPool.warm();
          }, 0);
        };
  // Opening an answer the first time in a session ran 70-95 ms in the host where later ones take
  // 20 ms (its queries, rows and code not yet run; issue 16): once the answers are listed, the
  // newest is read once in the background, its result dropped, so the first one opened is warm.
  let warmedAnswers = platform.mode === 'cli';
  const warmAnswerOpen = (id: number | undefined): void => {
    if (warmedAnswers || id === undefined) return;
    warmedAnswers = true;
    setTimeout(() => void answers.cards.opening(evidence, id, 'all', 50).catch(() => undefined), 0).unref();
  };
  const webFetches = new WebFetchStore(db, sources);
  const content = new SourceContentService(sources, sourceFiles, viewPool, () => ingestSettings().extractionTimeoutMs, (id) => webFetches.origin(id));
  const inbox = inboxDir(workspaceDir);
  const health = new HealthService(evidence.health, events, workspaceDir, options.health);
  const watcher = new SourceWatcher(evidence.health, health, events);
  const anchoring = new AnchoringStore(db);
  const answersStore = new AnswersStore(db);
  const audit = new AuditService(db);
  const review = new ReviewService(evidence, new SettingsStore(db));
  const answers = new AnswersService(answersStore, anchoring, new Verifier(anchoring, new SearchStore(db)), {
    ...(options.model ? { model: options.model } : {}),
    judgeEnabled: () => settings.get().modelJudge,
    events,
    ...(options.verifyBatch !== undefined ? { verifyBatch: options.verifyBatch } : {}),
    evidence,
  });
  const library = new LibraryService(evidence);
  const exportStore = new ExportStore(db);
  const reportReads = localReportReads({ answers, store: exportStore, sources, audit, workspaceDir });
  const exports = new ExportService({ reads: reportReads, health, appVersion: APP_VERSION, workspaceDir, events, pool, check: { sources, store: exportStore, audit } });
  const appExport = new AppExport(platform, exports, reportReads);
  const links = new LinkService({ sources, anchoring, answers, health, events });
  const web = new WebService({
    sources,
    fetches: webFetches,
    blobs,
    pool,
    events,
    settings: ingestSettings,
    summarize: (row) => summary(row, health.healthOf(row.id), inbox, webFetches),
  });
  const citations = createCitationTools({
    db,
    answersStore,
    anchoring,
    sources,
    ingest,
    events,
    workspaceDir,
    live: platform.mode === 'electron' || platform.mode === 'browser',
    registerWeb: webSourceRegistrar(web),
    ...options.citations,
  });

  const sourceList = new SourceList(db, health, (row) => summary(row, health.healthOf(row.id), inbox, webFetches));

  const requireSource = (id: number): SourceRow => {
    const row = sources.get(id);
    if (!row) throw new AppError('SOURCE_NOT_FOUND', `There is no source with id ${id} in this workspace.`);
    return row;
  };

  /** As requireSource, from the engine in use. */
  const storedSource = (id: number): Promise<SourceRow> => storedSourceRow(evidence.sources, id);

  const handlers: Handlers = {
    'workspace.settings': () => settings.get(),
    'workspace.updateSettings': (patch) => settings.update(patch),
    'workspace.info': () => ({
      path: workspaceDir,
      schemaVersion: schemaVersion(db),
      appVersion: APP_VERSION,
      sourceCount: sources.count(),
      mode: platform.mode,
      model: answers.modelName(),
    }),
    'sources.ingest': (input) => ingest.ingest(ingestRequest(input)),
    'sources.cancelIngest': ({ batchId }) => ({ cancelled: ingest.cancel(batchId) }),
    'sources.ocr': ({ id, languages, password }) =>
      rerunOcr(
        { sources, files: sourceFiles, pool, events, timeoutMs: ingestSettings().extractionTimeoutMs },
        { sourceId: id, ...(languages !== undefined ? { languages } : {}), ...(password !== undefined ? { password } : {}) },
      ),
    // sources.list, sources.get and a relink's summary read the engine in use (issue 13): on
    // PostgreSQL a source's path is where this member last saw its file.
    'sources.list': async () => {
      warmViewer();
      return (await library.sourcesInView(await evidence.sources.list())).map((row) => summary(row, health.healthOf(row.id), inbox, webFetches));
    },
    'sources.page': (input) => sourceList.page(input),
    // The library asks for its summary once its first rows are drawn (the first page may be asked
    // for while the page's code still loads, and a child starting then slows that load).
    'sources.listSummary': (input) => {
      warmViewer();
      return sourceList.summary(input);
    },
    'sources.setRestricted': ({ ids, restricted }) => {
      const changed = setRestricted(sources, answersStore, ids, restricted);
      const rows = [...new Set(ids)].map(requireSource);
      return { sources: rows.map((row) => summary(row, health.healthOf(row.id), inbox, webFetches)), changed: changed.length };
    },
    'sources.get': async ({ id }) => {
      const [row, paths] = await Promise.all([storedSource(id), evidence.sources.paths(id)]);
      const servedFrom = await sourceFiles.resolve(id).then(
        (f) => f.origin,
        () => 'unavailable' as const,
      );
      return {
        servedFrom,
        ...summary(row, health.healthOf(id), inbox, webFetches),
        extraction: row.extraction_method,
        knownPaths: paths.map((p) => ({ path: p.path, firstSeenAt: p.first_seen_at, current: p.current === 1 })),
        pages: sources.pageSummaries(id),
      };
    },
    'sources.content': ({ id }) => content.get(id),
    // Through the store interface: on PostgreSQL the shared pool's text (issue 13).
    'sources.pageText': ({ id, page }) => pageTextOf(evidence.sources, id, page),
    'sources.find': ({ id, query, limit }) => {
      requireSource(id);
      return findInPages(sources.pageTexts(id), query, limit);
    },
    'search.query': async ({ query, limit, sourceIds, kinds, snippets }) => ({
      hits: await search.search(query, { limit, snippets, ...(sourceIds === undefined ? {} : { sourceIds }), ...(kinds === undefined ? {} : { kinds }) }),
    }),
    'sources.check': ({ ids }) => health.checkAll(ids),
    'sources.relink': async ({ id, path, searchedDir }) => {
      const done = await health.relink(id, path, searchedDir);
      return { source: summary(await storedSource(id), health.healthOf(id), inbox, webFetches), path: done.path, previousPath: done.previousPath, suggestions: done.suggestions };
    },
    'sources.relinkMany': async ({ items }) => ({ results: await health.relinkMany(items) }),
    'sources.searchFolder': ({ ids, dir }) => health.searchFolderMany(ids, dir),
    'answers.check': (input) => answers.checkJudged(input),
    'answers.list': async () => {
      const listed = await library.answersInView(await answers.listFrom(evidence));
      warmAnswerOpen(listed[0]?.id);
      return listed;
    },
    'answers.detail': async ({ id }) => library.decorate(await answers.detail(evidence, id)),
    'answers.get': async ({ id }) => library.named(await answers.cards.open(evidence, id)),
    'answers.open': async ({ id, filter, pageSize }) => {
      const opening = await library.named(await answers.cards.opening(evidence, id, filter, pageSize));
      return { ...opening, first: await library.rowsInView(opening.first) };
    },
    'answers.cards': async ({ id, filter, limit, after }) => library.rowsInView(await answers.cards.page(evidence, id, filter, limit, after)),
    'answers.cardsSummary': ({ id, filter, pageSize }) => answers.cards.summary(evidence, id, filter, pageSize),
    'answers.ask': ({ question, useModel }) => answers.ask(question, useModel ?? false),
    'answers.review': ({ citationId, decision, note, reviewer }) => review.decide(citationId, decision, note ?? null, reviewer),
    'answers.undoReview': ({ citationId, reviewer }) => review.undo(citationId, reviewer),
    'answers.reviewer': () => ({ name: review.reviewer() }),
    'answers.setReviewer': ({ name }) => ({ name: review.setReviewer(name) }),
    'answers.reanchor': ({ citationId, sourceId }) => answers.reanchor(citationId, sourceId),
    // Off the main thread: the host and the window go on answering while every row is hashed.
    'audit.verify': () => audit.checkInBackground(),
    'links.resolve': ({ link }) => links.resolve(link),
    'links.announce': ({ link }) => links.announce(link),
    'links.citation': ({ answerId, citationId, style }) => links.citation(answerId, citationId, style),
    'links.findByHash': ({ sha256, dir }) => links.findByHash(sha256, dir),
    ...answerWriteHandlers(answers, library),
    ...exportHandlers(exports, appExport),
    ...citations.handlers,
    ...library.handlers(),
    'sources.addUrl': ({ url, options }) => web.register(url, options ?? {}),
    'sources.fetches': ({ id }) => {
      requireSource(id);
      return { fetches: web.fetchesOf(id) };
    },
  };

  return {
    workspaceDir,
    db,
    evidence,
    events,
    sources,
    sourceFiles,
    ingest,
    search,
    health,
    watcher,
    answers,
    audit,
    exports,
    review,
    citations,
    web,
    handlers,
    dispatch: createDispatcher(handlers),
    close: () => {
      citations.close();
      void ingest.close();
      void watcher.stop();
      void pool.close();
      if (warming) clearTimeout(warming);
      void viewPool.close();
      db.close();
    },
  };
}
