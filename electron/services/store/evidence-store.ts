/**
 * The store interface the services depend on (issue 13): one async `EvidenceStore`, split by area,
 * implemented by the SQLite engine (sqlite-evidence-store.ts, today's synchronous stores wrapped)
 * and the PostgreSQL engine (postgres/pg-evidence-store.ts). An area is added here when a service
 * moves onto it and both engines implement it (search, health, sources, answers, reviews, cards, ingest, runs, library); the
 * rest of the services still use the SQLite stores directly (docs/postgres-store.md, "Next steps").
 *
 * Rules every engine keeps: reads return the same plain row types, ids as numbers; refusals are
 * the same AppError codes; each write is one transaction inside the engine (no generic "run this
 * callback in a transaction": better-sqlite3 transactions must stay synchronous).
 */
import type { SourceRefRow } from './anchoring-store.ts';
import type { AnswerListRow, AnswerRow, CitationRow, NewReview, ResultRow, ReviewRow, RunRow } from './answers-store.ts';
import type { CardFilter } from '../../../shared/contract/card-schemas.ts';
import type { CardKeyPage, CardKeyRow } from './citation-cards-store.ts';
import type { CheckSourceRow, CurrentPathRow } from './health-store.ts';
import type { ClosestPassageRow, JudgeOpinionRow } from './result-extras-store.ts';
import type { SearchOptions, SearchRow } from './search-store.ts';
import type { NewAnswer, NewCitation, NewResult, RunEnd } from './answer-rows.ts';
import type { NewClosestPassage, NewJudgeOpinion } from './result-extras-store.ts';
import type { VerificationRiskFlag, VerificationSummary } from '../../../shared/verification/result-schema.ts';
import type { FileStat, PathRow, SegmentRow, SourceRow } from './sources-store.ts';
import type { ExtractedDocument } from '../ingest/extracted.ts';
import type { CustomSourceRow } from './citations-store.ts';
import type { NewCustomSource, RegisteredBy } from './cite-writes.ts';
import type { DocumentProperties } from '../../../shared/domain/document-properties.ts';

export type { AnswerListRow, AnswerRow, CheckSourceRow, CitationRow, ClosestPassageRow, CurrentPathRow, FileStat, JudgeOpinionRow, NewReview, PathRow };
export type { ResultRow, ReviewRow, RunRow, SearchOptions, SearchRow, SegmentRow, SourceRefRow, SourceRow };
export type { CardKeyPage, CardKeyRow };

/** An answer's header and text, without the file it was imported from (which may run to megabytes). */
export type LeanAnswerRow = Omit<AnswerRow, 'raw'>;

export type StoreEngine = 'sqlite' | 'postgres';

/** Who the store acts for: on PostgreSQL a login role and its access level; on SQLite the local user. */
export interface StoreMember {
  login: string;
  level: 'agent' | 'reviewer' | 'auditor' | 'admin' | 'owner' | null;
}

/** Full-text search over segments, in sources still in the library. */
export interface SearchArea {
  /**
   * Ranked hits for what a person typed (words, "phrases", a trailing * for a prefix), best first:
   * `rank` ascending is better in both engines. Snippets and the marked whole text (for the
   * match's offsets) only when asked. An empty query finds nothing.
   */
  search(query: string, options: SearchOptions): Promise<SearchRow[]>;
}

/** Source health and relinking (DESIGN.md §7); on PostgreSQL, paths are the member's own. */
export interface HealthArea {
  /** Every source (or the named ones), in id order. */
  sources(ids?: readonly number[]): Promise<CheckSourceRow[]>;
  /** This member's current paths, newest first within a source. */
  currentPaths(ids?: readonly number[]): Promise<CurrentPathRow[]>;
  /** How many citations point at each source. */
  citationCounts(): Promise<Map<number, number>>;
  /** Touched files with the same bytes: remember their new stat (one transaction). */
  confirmPaths(confirmed: readonly { pathId: number; stat: FileStat }[], now: string): Promise<void>;
  /** A relink in one transaction: `newPath` current, `stalePathIds` no longer; audited. */
  relink(sourceId: number, newPath: string, stat: FileStat, stalePathIds: readonly number[], now: string): Promise<void>;
}

/**
 * Sources and their stored text (reads). `current_path` and `paths` are, on PostgreSQL, the
 * member's own (another member's desk is not this member's); the sources are the shared pool's.
 */
export interface SourcesArea {
  /** Every source, newest first (as SourcesStore.list). */
  list(): Promise<SourceRow[]>;
  get(id: number): Promise<SourceRow | undefined>;
  /** The columns resolving and showing a citation's source needs, of the named sources that exist. */
  refs(ids: readonly number[]): Promise<SourceRefRow[]>;
  /** A source's known paths, oldest first. */
  paths(sourceId: number): Promise<PathRow[]>;
  /** A source's segments in order. */
  segments(sourceId: number): Promise<SegmentRow[]>;
  /**
   * A source's segments in order for anchoring a quote: every column but the text layer's geometry
   * (item_starts and ocr_boxes null), which only the viewer and excerpts draw with and which is a
   * third again of a PDF's text (issue 13: what a member's copy of a shared source reads).
   */
  anchoringSegments(sourceId: number): Promise<SegmentRow[]>;
  /** The named segments that exist (any order). */
  segmentsById(ids: readonly number[]): Promise<SegmentRow[]>;
  /** A PDF page's first segment. */
  pageSegment(sourceId: number, page: number): Promise<SegmentRow | undefined>;
  /** Authors and date each named source's file gave of itself (a report's bibliography); sources without any are absent. */
  properties(ids: readonly number[]): Promise<Map<number, DocumentProperties>>;
}

/** Answers, their citations and verification runs, as stored (reads; the rows are append-only). */
export interface AnswersArea {
  /** Every answer (this member may see), newest first, with its current citations counted and its latest run. */
  list(): Promise<AnswerListRow[]>;
  answer(id: number): Promise<AnswerRow | undefined>;
  /** The answer's current citations (those no later row supersedes), in answer order. */
  citations(answerId: number): Promise<CitationRow[]>;
  citation(id: number): Promise<CitationRow | undefined>;
  /** The answer's runs, oldest first, each with its end when verified in batches. */
  runs(answerId: number): Promise<RunRow[]>;
  /** A run's results, in id order. */
  results(runId: number): Promise<ResultRow[]>;
  /** The newest result of a citation over all runs. */
  latestResult(citationId: number): Promise<ResultRow | undefined>;
  /** The newest result of each named citation that has one (any order): one query on PostgreSQL. */
  latestResults(citationIds: readonly number[]): Promise<ResultRow[]>;
  /** The judge's opinions and the closest passages of a run's results, by result id. */
  opinions(runId: number): Promise<Map<number, JudgeOpinionRow>>;
  closest(runId: number): Promise<Map<number, ClosestPassageRow>>;
}

/**
 * An answer's citation cards a page at a time (issue 16): filtered, counted and paged by keyset on
 * (ordinal, id) in each engine's SQL. `flags` is the latest run's risk flags as stored (JSON
 * text), which a flag filter reads its markers from. Cursors are this area's own: one of another
 * list is refused (INVALID_INPUT, field 'after'). On PostgreSQL row-level security applies as to
 * the other answer reads: an answer the member may not see has no cards and no header.
 */
export interface CardsArea {
  answer(id: number): Promise<LeanAnswerRow | undefined>;
  /** The latest run's risk flags as stored ('[]' when the answer has no run). */
  flags(answerId: number): Promise<string>;
  /** Every current citation's key row, in answer order. */
  keys(answerId: number): Promise<CardKeyRow[]>;
  /** Up to `limit` key rows a filter shows after the cursor `after`, each with its own cursor. */
  page(answerId: number, filter: CardFilter, flags: string, limit: number, after?: string): Promise<CardKeyPage>;
  /** The ids a filter shows, in answer order, and the cursor ending every `pageSize`-th of them. */
  shape(answerId: number, filter: CardFilter, flags: string, pageSize: number): Promise<{ ids: number[]; pageStarts: string[] }>;
  /** How many cards each filter shows (filters showing none left out; 'all' always there). */
  counts(answerId: number, flags: string): Promise<Record<string, number>>;
  /** What a page's cards are drawn from, for those cards only (any order; trails oldest first). */
  citations(ids: readonly number[]): Promise<CitationRow[]>;
  results(ids: readonly number[]): Promise<ResultRow[]>;
  reviews(citationIds: readonly number[]): Promise<ReviewRow[]>;
  opinions(resultIds: readonly number[]): Promise<JudgeOpinionRow[]>;
  closest(resultIds: readonly number[]): Promise<ClosestPassageRow[]>;
}

/** What a review row's audit entry records (both engines write the same entry). */
export type ReviewAction = 'citation.review' | 'citation.review.undo';

/** Review decisions: the append-only trail of each citation. */
export interface ReviewsArea {
  /** A citation's rows, oldest first. */
  history(citationId: number): Promise<ReviewRow[]>;
  /** The rows of an answer's citations, oldest first. */
  answerHistory(answerId: number): Promise<ReviewRow[]>;
  /** Per answer: citations with a decision in force (the newest row of each is not 'cleared'). */
  reviewedCounts(): Promise<Map<number, number>>;
  /**
   * Appends a row superseding the citation's newest one, with its audit entry, in one
   * transaction. On PostgreSQL the row names the member's login as its reviewer whatever name
   * is given: row-level security holds a reviewer to its own name.
   */
  append(review: NewReview, answerId: number, action: ReviewAction, now: string): Promise<ReviewRow>;
}

// --- ingest (source writes) -------------------------------------------------------------------

/** One extracted document to store as a source, with the bytes it was read from. */
export interface NewIngest {
  sha256: string;
  fileName: string;
  /** The file's bytes (the snapshot): already in memory, as ingestion reads a file whole to hash it. */
  bytes: Uint8Array;
  /** Where the file was read (the member's own path on PostgreSQL). */
  path: string;
  stat: FileStat;
  doc: ExtractedDocument;
  /**
   * Keep a snapshot (the workspace setting, on SQLite). PostgreSQL always keeps one: the snapshot
   * is how every member opens a source whose file is on someone else's disk.
   */
  snapshot: boolean;
}

/** How a document was stored: 'duplicate' when the same bytes were already a source (even one stored a moment before). */
export interface StoredSource {
  sourceId: number;
  outcome: 'added' | 'new_version' | 'duplicate';
  segmentCount: number;
}

/**
 * Source ingest writes (issue 13). Each document is one transaction: the source, its segments,
 * its file's properties, its snapshot, its path and their audit entries are stored whole or not at
 * all; a file at the path of a current source is its new version. The same bytes stored twice,
 * even at the same moment (two batches, two members), are one source: the second is a duplicate
 * whose path is recorded on the first.
 */
export interface IngestArea {
  /** The source holding these bytes already (a duplicate is not extracted again). */
  findBySha(sha256: string): Promise<SourceRow | undefined>;
  /** A known source's bytes were seen at `path`: remembered (audited the first time). */
  seen(sourceId: number, path: string, stat: FileStat): Promise<void>;
  /**
   * Hands a document to the engine; resolves once it is taken (on SQLite its snapshot written to
   * a temporary file, the worker then going on while its group gathers), with `committed`
   * settling once its transaction has.
   */
  add(doc: NewIngest): Promise<{ committed: Promise<StoredSource> }>;
  /** Ends what the engine runs for ingest (SQLite's writer thread, after the group it is writing). */
  close(): Promise<void>;
}

// --- end ingest ----------------------------------------------------------------------------------
// ---- Writes of answers and verification runs (issue 13) ----------------------------------------

/** An answer to import and its citations in answer order (a citation's ordinal is its index). */
export interface NewAnswerImport {
  answer: NewAnswer;
  citations: readonly Omit<NewCitation, 'answerId' | 'ordinal' | 'supersedesId'>[];
}

/** One citation's verification as stored: its result, and the closest passage and judge opinion when there are. */
export interface NewOutcome {
  result: Omit<NewResult, 'citationId'>;
  closest: NewClosestPassage | null;
  opinion: NewJudgeOpinion | null;
}

/** What a run records about itself: who verified, and the summary and risk flags of its results. */
export interface NewRunHeader {
  verifier: string;
  summary: VerificationSummary;
  riskFlags: readonly VerificationRiskFlag[];
}

/** A run stored whole: `outcomes[i]` is of the run's i-th citation. */
export interface NewRun extends NewRunHeader {
  outcomes: readonly NewOutcome[];
}

/** Where a run verified in batches starts: with an import (written in the run's first transaction), or over stored citations. */
export type BatchedRunStart = { import: NewAnswerImport } | { answerId: number; citationIds: readonly number[] };

export interface StartedRun {
  answerId: number;
  citationIds: number[];
  runId: number;
}

/**
 * The writes of answers and verification runs, append-only: each call one transaction with its
 * audit entries (the rows', then the action's: `answer.import`, `answer.verify`; payloads in
 * run-entries.ts, the same on both engines). A run verified in batches is `beginRun`, a
 * `recordBatch` per batch, then `endRun`: the batches committed stay if a later one fails. On
 * PostgreSQL an import lands in the member's project (pg-runs.ts) and row-level security decides
 * who may write (reviewers and agents of the answer's project record runs; reviewers import).
 */
export interface RunsArea {
  /** The answer, its citations (an unknown source recorded on first use) and its first run. */
  importAnswer(answer: NewAnswerImport, run: NewRun, now: string): Promise<StartedRun>;
  /** A new run over stored citations (`citationIds[i]` has `run.outcomes[i]`). */
  recordRun(answerId: number, citationIds: readonly number[], run: NewRun, now: string): Promise<number>;
  /** A run's start, planning `planned` citations (its summary is the empty one until its end). */
  beginRun(start: BatchedRunStart, run: NewRunHeader & { planned: number }, now: string): Promise<StartedRun>;
  /** One batch's results (`citationIds[i]` has `outcomes[i]`). */
  recordBatch(runId: number, citationIds: readonly number[], outcomes: readonly NewOutcome[], now: string): Promise<void>;
  /** The run's end (complete or cancelled) with the summary of what it stored, and its `answer.verify` entry. */
  endRun(answerId: number, runId: number, end: RunEnd & { verifier: string; planned: number; summary: VerificationSummary }, now: string): Promise<void>;
}

// ---- Agents' citations (issue 13) ----------------------------------------------------------------

/** Who cites, and where: the session a citation lands in (made with its live answer on first use). */
export interface CiteSession {
  sessionKey: string;
  agentId: string;
  userId: string;
  projectId: string;
}

/** One agent citation, verified before it is written: its row, context and result. */
export interface NewCite {
  session: CiteSession;
  citation: Omit<NewCitation, 'answerId' | 'ordinal' | 'marker'>;
  customSourceId: number | null;
  details: Record<string, unknown>;
  result: Omit<NewResult, 'citationId'>;
}

export interface CiteWritten {
  answerId: number;
  citationId: number;
  /** The citation's marker in its session ("1", "2", …). */
  marker: string;
  runId: number;
}

/**
 * Agents' citation writes: a cite is one transaction on each engine (the session and its answer on
 * first use, the citation, its context, a run summarising the session with the citation's result,
 * every row's audit entry and the `citation.cite` entry). On PostgreSQL row-level security holds an
 * agent to its own sessions in its projects (the context names the member's login as the agent);
 * any other level is refused (DATABASE_ROLE_REFUSED, naming the level).
 */
export interface CitationsArea {
  /** Whether a citation exists (that this member may see). */
  isCitation(id: number): Promise<boolean>;
  cite(cite: NewCite, now: string): Promise<CiteWritten>;
  /**
   * What a cite's anchoring reads besides a source's segments (SourcesArea.segments): the sources
   * stored after `afterId`, as stored, in id order, and the ids of the restricted ones now.
   */
  sourcesAfter(afterId: number): Promise<StoredSourceRow[]>;
  restrictedIds(): Promise<number[]>;
  /** The project this member's cites land in when none is named (PostgreSQL: its first as an agent; SQLite: none). */
  defaultProject(): Promise<string | null>;
  /**
   * register_source's writes, each one transaction audited as `source.register` with who
   * registered: a custom source found by its identifier or made (with its row's entry); a file's
   * source, stored by ingest, recorded as registered. On PostgreSQL the grants decide who may
   * (agents make custom sources; any other level is refused, naming it).
   */
  registerCustom(c: NewCustomSource, by: RegisteredBy, now: string): Promise<{ row: CustomSourceRow; added: boolean }>;
  recordFileRegistration(sourceId: number, by: RegisteredBy, now: string): Promise<void>;
}

/** A source's row as stored (no counts, no paths). */
export type StoredSourceRow = Omit<SourceRow, 'segment_count' | 'current_path'>;

// ------------------------------------------------------------------------------------------------

/** An answer imported from exactly a given text (to say it was imported before). */
export interface ImportedAnswerRow {
  id: number;
  origin: string;
  question: string | null;
  created_at: string;
}

/**
 * Library changes (SQLite migration 15; PostgreSQL migration 4): answers renamed, answers and
 * sources removed from view and shown again. Each change is an appended row with its audit entry;
 * the newest row of a kind decides.
 */
export interface LibraryArea {
  append(subject: 'answer' | 'source', subjectId: number, action: 'rename' | 'hide' | 'show', value: string | null, now: string): Promise<number>;
  /** Ids of the subjects of one kind hidden now. */
  hidden(subject: 'answer' | 'source'): Promise<Set<number>>;
  isHidden(subject: 'answer' | 'source', id: number): Promise<boolean>;
  /** The names given to subjects of one kind, by id (only those renamed). */
  names(subject: 'answer' | 'source'): Promise<Map<number, string>>;
  /** Answers imported from exactly this text, newest first, hidden ones left out. */
  answersWithRaw(raw: string): Promise<ImportedAnswerRow[]>;
  /**
   * Marks sources restricted or lifts it, all or none, audited in the same transaction; the ids
   * whose flag changed. SOURCE_NOT_FOUND (nothing changed) when one does not exist.
   */
  restrict(ids: readonly number[], restricted: boolean, now: string): Promise<number[]>;
}

export interface EvidenceStore {
  readonly engine: StoreEngine;
  readonly member: StoreMember;
  readonly search: SearchArea;
  readonly health: HealthArea;
  readonly sources: SourcesArea;
  readonly answers: AnswersArea;
  readonly reviews: ReviewsArea;
  readonly cards: CardsArea;
  readonly ingest: IngestArea;
  /** Writes of answers and verification runs. */
  readonly runs: RunsArea;
  /** Answers renamed, answers and sources removed from view. */
  readonly library: LibraryArea;
  /** Agents' citations (the cite tool's write). */
  readonly citations: CitationsArea;
  /** Releases the engine's connections (the SQLite engine closes its database only if it opened it). */
  close(): Promise<void>;
}
