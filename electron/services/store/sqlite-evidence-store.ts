/**
 * The SQLite engine of EvidenceStore: today's synchronous stores, unchanged, behind the async
 * interface. Each call runs its statements (and transaction) synchronously and returns a settled
 * promise: one microtask more per call, the same SQL.
 */
import { CitationsStore } from './citations-store.ts';
import { recordFileRegistration, registerCustomSource, SessionLedgers, writeCite } from './cite-writes.ts';
import os from 'node:os';
import { toFtsQuery } from '../../../shared/search/fts-query.ts';
import type { Db } from './database.ts';
import { AnchoringStore } from './anchoring-store.ts';
import { AnswersStore } from './answers-store.ts';
import { CardRowsStore, CitationCardsStore } from './citation-cards-store.ts';
import type { AnswersArea, CardsArea, CitationsArea, EvidenceStore, HealthArea, LibraryArea, ReviewsArea, RunsArea, SearchArea, SourcesArea } from './evidence-store.ts';
import { HealthStore } from './health-store.ts';
import { LibraryChangesStore } from './library-changes-store.ts';
import { ResultExtrasStore } from './result-extras-store.ts';
import { reviewEntryPayload } from './review-entry.ts';
import { RunWritesStore } from './run-writes-store.ts';
import { SearchStore } from './search-store.ts';
import { SourcesStore } from './sources-store.ts';
import { setRestricted } from '../sources/restriction.ts';
import { sqliteIngest } from './sqlite-ingest.ts';

function sqliteSearch(store: SearchStore): SearchArea {
  return {
    search: async (query, options) => {
      const match = toFtsQuery(query);
      return match === null ? [] : store.search(match, options);
    },
  };
}

function sqliteHealth(store: HealthStore): HealthArea {
  return {
    sources: async (ids) => store.sources(ids),
    currentPaths: async (ids) => store.currentPaths(ids),
    citationCounts: async () => store.citationCounts(),
    confirmPaths: async (confirmed, now) => store.confirmPaths(confirmed, now),
    relink: async (sourceId, newPath, stat, stale, now) => store.relink(sourceId, newPath, stat, stale, now),
  };
}

function present<T>(rows: (T | undefined)[]): T[] {
  return rows.filter((r): r is T => r !== undefined);
}

function sqliteSources(sources: SourcesStore, anchoring: AnchoringStore): SourcesArea {
  return {
    list: async () => sources.list(),
    get: async (id) => sources.get(id),
    refs: async (ids) => present([...new Set(ids)].map((id) => anchoring.source(id))),
    paths: async (id) => sources.paths(id),
    segments: async (id) => sources.segments(id),
    anchoringSegments: async (id) => sources.segments(id).map((g) => ({ ...g, item_starts: null, ocr_boxes: null })),
    segmentsById: async (ids) => present([...new Set(ids)].map((id) => anchoring.segment(id))),
    pageSegment: async (id, page) => sources.pageSegment(id, page),
    properties: async (ids) => sources.properties(ids),
  };
}

function sqliteAnswers(store: AnswersStore, extras: ResultExtrasStore): AnswersArea {
  return {
    list: async () => store.listAnswers(),
    answer: async (id) => store.answer(id),
    citations: async (answerId) => store.citations(answerId),
    citation: async (id) => store.citation(id),
    runs: async (answerId) => store.runs(answerId),
    results: async (runId) => store.results(runId),
    latestResult: async (citationId) => store.latestResult(citationId),
    latestResults: async (ids) => present([...new Set(ids)].map((id) => store.latestResult(id))),
    opinions: async (runId) => extras.opinions(runId),
    closest: async (runId) => extras.closest(runId),
  };
}

function sqliteReviews(store: AnswersStore): ReviewsArea {
  return {
    history: async (citationId) => store.reviews(citationId),
    answerHistory: async (answerId) => store.answerReviews(answerId),
    reviewedCounts: async () => store.reviewedCounts(),
    append: async (review, answerId, action, now) =>
      store.transaction(() => {
        const row = store.insertReview(review, now);
        store.appendAudit(action, reviewEntryPayload(answerId, row), now);
        return row;
      }),
  };
}

function sqliteCards(keys: CitationCardsStore, rows: CardRowsStore, answers: AnswersStore): CardsArea {
  return {
    answer: async (id) => keys.answer(id),
    flags: async (answerId) => answers.latestRun(answerId)?.risk_flags ?? '[]',
    keys: async (answerId) => keys.keys(answerId),
    page: async (answerId, filter, flags, limit, after) => keys.page(answerId, filter, flags, limit, after),
    shape: async (answerId, filter, flags, pageSize) => keys.shape(answerId, filter, flags, pageSize),
    counts: async (answerId, flags) => keys.counts(answerId, flags),
    citations: async (ids) => rows.citations(ids),
    results: async (ids) => rows.results(ids),
    reviews: async (ids) => rows.reviews(ids),
    opinions: async (ids) => rows.opinions(ids),
    closest: async (ids) => rows.closest(ids),
  };
}

// ---- Writes of answers and verification runs (issue 13) ----
function sqliteRuns(writes: RunWritesStore): RunsArea {
  return {
    importAnswer: async (imp, run, now) => writes.importAnswer(imp, run, now),
    recordRun: async (answerId, citationIds, run, now) => writes.recordRun(answerId, citationIds, run, now),
    beginRun: async (start, run, now) => writes.beginRun(start, run, now),
    recordBatch: async (runId, citationIds, outcomes, now) => writes.recordBatch(runId, citationIds, outcomes, now),
    endRun: async (answerId, runId, end, now) => writes.endRun(answerId, runId, end, now),
  };
}
// ----

function sqliteLibrary(store: LibraryChangesStore, sources: SourcesStore, answers: AnswersStore): LibraryArea {
  return {
    restrict: async (ids, restricted, now) => setRestricted(sources, answers, ids, restricted, now),
    append: async (subject, subjectId, action, value, now) => store.append(subject, subjectId, action, value, now),
    hidden: async (subject) => store.hidden(subject),
    isHidden: async (subject, id) => store.isHidden(subject, id),
    names: async (subject) => store.names(subject),
    answersWithRaw: async (raw) => store.answersWithRaw(raw),
  };
}
// ---- Agents' citations (issue 13) ----
function sqliteCitations(answers: AnswersStore, citations: CitationsStore, sources: SourcesStore): CitationsArea {
  const ledgers = new SessionLedgers();
  return {
    isCitation: async (id) => citations.isCitation(id),
    cite: async (cite, now) => writeCite(answers, citations, ledgers, cite, now),
    sourcesAfter: async (afterId) => sources.storedAfter(afterId),
    restrictedIds: async () => sources.restrictedIds(),
    defaultProject: async () => null,
    registerCustom: async (c, by, now) => registerCustomSource(answers, citations, c, by, now),
    recordFileRegistration: async (sourceId, by, now) => recordFileRegistration(answers, sourceId, by, now),
  };
}
// ----

function localLogin(): string {
  try {
    return os.userInfo().username;
  } catch {
    return '';
  }
}

/** Over an open workspace database; `ownsDb` closes it with the store. */
export function sqliteEvidenceStore(db: Db, ownsDb = false): EvidenceStore {
  const answers = new AnswersStore(db);
  const extras = new ResultExtrasStore(answers);
  const sourcesStore = new SourcesStore(db);
  return {
    engine: 'sqlite',
    // One person's workspace: the local user may do everything.
    member: { login: localLogin(), level: 'owner' },
    search: sqliteSearch(new SearchStore(db)),
    health: sqliteHealth(new HealthStore(db)),
    sources: sqliteSources(sourcesStore, new AnchoringStore(db)),
    answers: sqliteAnswers(answers, extras),
    reviews: sqliteReviews(answers),
    cards: sqliteCards(new CitationCardsStore(db), new CardRowsStore(db), answers),
    ingest: sqliteIngest(db),
    runs: sqliteRuns(new RunWritesStore(answers, extras)),
    library: sqliteLibrary(new LibraryChangesStore(db), sourcesStore, answers),
    citations: sqliteCitations(answers, new CitationsStore(db, answers.chain), new SourcesStore(db)),
    close: async () => {
      if (ownsDb) db.close();
    },
  };
}
