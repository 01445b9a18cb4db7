/**
 * What the desk (the app and the host) reads and does on a shared workspace (issue 13), over the
 * store interface of the member's connection: the workspace line, the library and its pages, a
 * source and its page text, the answers list, an answer's cards, review decisions, and library
 * changes (answers renamed, answers and sources removed from view, sources restricted), the
 * viewer's find, importing and verifying answers, and exporting reports. The replies are built by the same code as the local desk's; what the shared store
 * does not hold yet (page summaries' local cache) is left out rather than read from a local database.
 */
import { DEFAULT_WORKSPACE_SETTINGS, type WorkspaceInfo } from '../../shared/contract/schemas.ts';
import type { HandlerName } from '../../shared/contract/contract.ts';
import { AppError } from '../../shared/contract/errors.ts';
import type { Handlers } from '../../shared/contract/dispatcher.ts';
import { APP_VERSION, summary } from './create-services.ts';
import type { HealthService } from './health/health-service.ts';
import { notOnSharedDatabase } from './shared-services.ts';
import { findInSourceOf, pageTextOf, storedSourceRow } from './sources/page-text.ts';
import type { SharedSourceFiles } from './sources/shared-source-files.ts';
import type { SourceContentService } from './sources/source-content.ts';
import { sourceListSummaryOf, sourcePageOf } from './sources/source-list-rows.ts';
import type { EvidenceStore, SourceRow } from './store/evidence-store.ts';
import { PG_LATEST_SCHEMA_VERSION } from './store/postgres/migrate.ts';
import type { AnswersService } from './verification/answers-service.ts';
import type { AppExport } from './export/app-export.ts';
import type { ExportService } from './export/export-service.ts';
import { answerWriteHandlers, exportHandlers } from './desk-answer-handlers.ts';
import { ReviewService } from './verification/review-service.ts';
import { LibraryService } from './library/library-service.ts';

/** Where the desk works: the server and database of the URL, and the member it connected as. */
export type SharedPlace = NonNullable<WorkspaceInfo['shared']>;

/** The server, database and login a postgres:// URL names (never its password). */
export function sharedPlaceOf(url: string, member: EvidenceStore['member']): SharedPlace {
  const u = new URL(url);
  return {
    server: `${u.hostname || 'localhost'}:${u.port || '5432'}`,
    database: decodeURIComponent(u.pathname.replace(/^\//, '')) || decodeURIComponent(u.username),
    login: member.login,
    level: member.level,
  };
}

/**
 * The desk's actions not on the shared store yet, named as an analyst would say them: the page
 * shows "Asking the offline answerer is not available on a shared database yet; …" with the code
 * in its tooltip, where the fallback would name the operation. Why each waits: web pages, a scan
 * read again and a quote found in another version write through local-only stores (web fetches,
 * OCR pages, the re-anchor's SQLite reads); the offline answerer retrieves passages from the local
 * FTS5 index; the workspace settings are not on the store interface.
 */
const NOT_YET: Partial<Record<HandlerName, string>> = {
  'sources.addUrl': 'Adding a web page',
  'sources.ocr': 'Reading a scan again',
  'answers.ask': 'Asking the offline answerer',
  'answers.reanchor': 'Finding a quote in another version of its source',
  'workspace.updateSettings': 'Changing the workspace settings',
};

function refusals(): Partial<Handlers> {
  return Object.fromEntries(
    Object.entries(NOT_YET).map(([operation, what]) => [
      operation,
      () => {
        throw notOnSharedDatabase(what, { operation }, 'open Evidence Desk without --database');
      },
    ]),
  ) as Partial<Handlers>;
}

export interface SharedDeskDeps {
  evidence: EvidenceStore;
  /** Documents shown by the viewer's conversion (DOCX, text, Markdown, HTML, slides, sheets). */
  content: Pick<SourceContentService, 'get'>;
  health: HealthService;
  files: SharedSourceFiles;
  place: SharedPlace;
  mode: WorkspaceInfo['mode'];
  /** Imports and verifications on the shared store, as this member (shared-answers.ts). */
  answers: AnswersService;
  /** Reports built from the shared store (shared-report-reads.ts) and where they were written. */
  exports: ExportService;
  appExport: AppExport;
}

export function sharedDeskHandlers({ evidence, content, health, files, place, mode, answers, exports, appExport }: SharedDeskDeps): Partial<Handlers> {
  // The answers service's cards: a card says so while its answer is being verified.
  const { cards } = answers;
  // On PostgreSQL a decision row records the member's login whatever name is typed (row-level security).
  const review = new ReviewService(evidence, { reviewerName: () => place.login, setReviewerName: () => undefined });
  const summarize = (row: SourceRow) => summary(row, health.healthOf(row.id));
  // Answers renamed, answers and sources removed from view: the shared workspace's library changes.
  const library = new LibraryService(evidence);
  const inView = async () => library.sourcesInView(await evidence.sources.list());
  return {
    ...library.handlers(),
    // Imported and verified as the member (an auditor's import is refused by PostgreSQL itself).
    ...answerWriteHandlers(answers, library),
    ...exportHandlers(exports, appExport),
    ...refusals(),
    'workspace.info': async () => ({
      path: `${place.server}/${place.database}`,
      schemaVersion: PG_LATEST_SCHEMA_VERSION,
      appVersion: APP_VERSION,
      sourceCount: (await evidence.sources.list()).length,
      mode,
      model: null,
      shared: place,
    }),
    // The shared workspace's settings are not on the store interface yet: the desk shows the defaults.
    'workspace.settings': () => DEFAULT_WORKSPACE_SETTINGS,
    'sources.list': async () => (await inView()).map(summarize),
    'sources.page': async (input) => sourcePageOf(await inView(), input, summarize),
    'sources.listSummary': async (input) => sourceListSummaryOf(await inView(), input, (id) => health.healthOf(id)),
    'sources.get': async ({ id }) => {
      const [row, paths, segments] = await Promise.all([storedSourceRow(evidence.sources, id), evidence.sources.paths(id), evidence.sources.segments(id)]);
      const servedFrom = await files.resolve(id).then(
        (f) => f.origin,
        () => 'unavailable' as const,
      );
      return {
        servedFrom,
        ...summarize(row),
        extraction: row.extraction_method,
        knownPaths: paths.map((p) => ({ path: p.path, firstSeenAt: p.first_seen_at, current: p.current === 1 })),
        pages: segments
          .filter((s) => s.page !== null)
          .map((s) => ({ page: s.page as number, label: s.page_label, chars: s.text.length, noTextLayer: s.no_text_layer === 1, ocrConfidence: s.ocr_method === null ? null : (s.ocr_confidence ?? 0) })),
      };
    },
    // Relinking records this member's own path (the health area's, on the shared store).
    'sources.relink': async ({ id, path, searchedDir }) => {
      const done = await health.relink(id, path, searchedDir);
      return { source: summarize(await storedSourceRow(evidence.sources, id)), path: done.path, previousPath: done.previousPath, suggestions: done.suggestions };
    },
    'sources.relinkMany': async ({ items }) => ({ results: await health.relinkMany(items) }),
    'sources.searchFolder': ({ ids, dir }) => health.searchFolderMany(ids, dir),
    'sources.pageText': ({ id, page }) => pageTextOf(evidence.sources, id, page),
    // An admin's change to the pool, audited in the shared chain; a reviewer is told only an admin may.
    'sources.setRestricted': async ({ ids, restricted }) => {
      const changed = await evidence.library.restrict(ids, restricted, new Date().toISOString());
      const rows = await Promise.all([...new Set(ids)].map((id) => storedSourceRow(evidence.sources, id)));
      return { sources: rows.map(summarize), changed: changed.length };
    },
    'sources.find': ({ id, query, limit }) => findInSourceOf(evidence.sources, id, query, limit),
    'sources.content': ({ id }) => content.get(id),
    'answers.list': async () => library.answersInView(await answers.listFrom(evidence)),
    'answers.detail': async ({ id }) => library.decorate(await answers.detail(evidence, id)),
    'answers.get': async ({ id }) => library.named(await cards.open(evidence, id)),
    'answers.open': async ({ id, filter, pageSize }) => {
      const opening = await library.named(await cards.opening(evidence, id, filter, pageSize));
      return { ...opening, first: await library.rowsInView(opening.first) };
    },
    'answers.cards': async ({ id, filter, limit, after }) => library.rowsInView(await cards.page(evidence, id, filter, limit, after)),
    'answers.cardsSummary': ({ id, filter, pageSize }) => cards.summary(evidence, id, filter, pageSize),
    'answers.review': ({ citationId, decision, note }) => review.decide(citationId, decision, note ?? null),
    'answers.undoReview': ({ citationId }) => review.undo(citationId),
    'answers.reviewer': () => ({ name: place.login }),
    'answers.setReviewer': () => {
      throw new AppError('SHARED_DATABASE_UNSUPPORTED', `On a shared database your decisions are recorded under your login ${place.login}: another reviewer name cannot be set.`, {
        operation: 'answers.setReviewer',
        login: place.login,
      });
    },
  };
}
