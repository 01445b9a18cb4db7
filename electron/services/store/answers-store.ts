import { ChainStore, type AuditEntryRow } from './audit-chain-store.ts';
import type { Db } from './database.ts';
import { StatementCache } from './statement-cache.ts';

export interface AnswerRow {
  id: number;
  format: string;
  question: string | null;
  answer_text: string;
  origin: string;
  raw: string | null;
  created_at: string;
}

export interface AnswerListRow extends AnswerRow {
  citation_count: number;
  run_id: number | null;
  run_created_at: string | null;
  run_summary: string | null;
  run_risk_flags: string | null;
}

export interface CitationRow {
  id: number;
  answer_id: number;
  ordinal: number;
  marker: string;
  claim: string;
  quote: string | null;
  context: string | null;
  source_id: number | null;
  unknown_source_id: number | null;
  claimed_locator: string;
  method: string | null;
  confidence: string | null;
  supersedes_id: number | null;
  created_at: string;
  /** Joined: the unknown source's reference, when the citation points at one. */
  unknown_reference: string | null;
}

/** The answers list's query (both engines), over the answer columns `columns` names (of `a`). */
export function answerListSql(columns: string): string {
  return `SELECT ${columns},
     (SELECT count(*) FROM citations c WHERE c.answer_id = a.id
        AND NOT EXISTS (SELECT 1 FROM citations n WHERE n.supersedes_id = c.id)) AS citation_count,
     r.id AS run_id, r.created_at AS run_created_at, coalesce(e.summary, r.summary) AS run_summary, coalesce(e.risk_flags, r.risk_flags) AS run_risk_flags
   FROM answers a
   LEFT JOIN verification_runs r ON r.id = (SELECT max(id) FROM verification_runs WHERE answer_id = a.id)
   LEFT JOIN verification_run_ends e ON e.run_id = r.id
   ORDER BY a.created_at DESC, a.id DESC`;
}

export interface RunRow {
  id: number;
  answer_id: number;
  verifier: string;
  /** The end row's summary and risk flags when the run was verified in batches (migration 16). */
  summary: string;
  risk_flags: string;
  created_at: string;
  /** Citations a run verified in batches set out to verify; null for a run stored whole. */
  planned: number | null;
  /** Its end ('complete' | 'cancelled'), null while it runs or when it was interrupted. */
  end_state: string | null;
  /** Results it stored: those its end counts, else those committed so far. */
  done: number | null;
}

export interface RunEnd {
  state: 'complete' | 'cancelled';
  done: number;
  summary: unknown;
  riskFlags: unknown;
}

/**
 * A run with its end, if any: a run verified in batches is written before its summary is known,
 * and its end row holds it. For such a run without an end, the results committed so far are counted.
 */
export const RUN_SELECT = `SELECT r.id, r.answer_id, r.verifier, coalesce(e.summary, r.summary) AS summary, coalesce(e.risk_flags, r.risk_flags) AS risk_flags,
    r.created_at, r.planned, e.state AS end_state,
    CASE WHEN r.planned IS NULL THEN NULL ELSE coalesce(e.done, (SELECT count(*) FROM citation_results x WHERE x.run_id = r.id)) END AS done
  FROM verification_runs r LEFT JOIN verification_run_ends e ON e.run_id = r.id`;

export interface ResultRow {
  id: number;
  run_id: number;
  citation_id: number;
  status: string;
  verdict: string;
  score: number;
  confidence: number;
  source_id: number | null;
  segment_id: number | null;
  start_offset: number | null;
  end_segment_id: number | null;
  end_offset: number | null;
  /** For a quote that runs on: the end of its part in segment_id, the start of its part in end_segment_id. */
  first_end: number | null;
  last_start: number | null;
  page: number | null;
  page_label: string | null;
  match_method: string | null;
  matched_text: string | null;
  quote: string | null;
  prefix: string | null;
  suffix: string | null;
  notes: string;
}

export interface ReviewRow {
  id: number;
  citation_id: number;
  /** The decision in force after this row ('cleared': none). */
  decision: 'accepted' | 'rejected' | 'flagged' | 'cleared';
  note: string | null;
  supersedes_id: number | null;
  created_at: string;
  /** Who decided (null on rows from before migration 8, or when no name was given). */
  reviewer: string | null;
  /** On an undo row: the row it takes back. */
  undoes_id: number | null;
}

export interface NewReview {
  citationId: number;
  decision: ReviewRow['decision'];
  note: string | null;
  reviewer: string | null;
  undoesId: number | null;
}

export interface NewAnswer {
  format: string;
  question: string | null;
  answerText: string;
  origin: string;
  raw: string | null;
}

export interface NewCitation {
  answerId: number;
  ordinal: number;
  marker: string;
  claim: string;
  quote: string | null;
  context: string | null;
  sourceId: number | null;
  unknownReference: string | null;
  claimedLocator: Record<string, unknown>;
  method: string | null;
  confidence: string | null;
  supersedesId: number | null;
}

export interface NewResult {
  citationId: number;
  status: string;
  verdict: string;
  score: number;
  confidence: number;
  sourceId: number | null;
  segmentId: number | null;
  startOffset: number | null;
  endSegmentId: number | null;
  endOffset: number | null;
  firstEnd: number | null;
  lastStart: number | null;
  page: number | null;
  pageLabel: string | null;
  matchMethod: string | null;
  matchedText: string | null;
  quote: string | null;
  prefix: string | null;
  suffix: string | null;
  notes: string[];
}

/**
 * All SQL about answers, citations, verification runs and their results, review decisions and
 * the audit log. Rows are only ever inserted (the schema's triggers refuse UPDATE and DELETE).
 */
export class AnswersStore {
  readonly db: Db;
  readonly chain: ChainStore;
  /** The insert statements, prepared once: an agent appends rows one citation at a time. */
  private readonly statements: StatementCache;
  constructor(db: Db) {
    this.db = db;
    this.chain = new ChainStore(db);
    this.statements = new StatementCache(db);
  }

  private stmt(sql: string): ReturnType<StatementCache['get']> {
    return this.statements.get(sql);
  }

  /**
   * Runs `fn` as one immediate transaction: all of its writes land, or none. The audit head file
   * follows once the transaction has committed (never for one that rolled back).
   */
  transaction<T>(fn: () => T): T {
    const result = this.db.transaction(fn).immediate();
    this.chain.publishHead();
    return result;
  }

  private headPending = false;

  /**
   * As transaction, but the audit head file follows on the next turn of the event loop: a cite
   * replies to its agent without waiting for the head file's fsyncs, and a burst of cites writes
   * the head once. The chain itself is committed before this returns; flushHead() on close.
   */
  transactionHeadSoon<T>(fn: () => T): T {
    const result = this.db.transaction(fn).immediate();
    if (!this.headPending) {
      this.headPending = true;
      setImmediate(() => this.flushHead());
    }
    return result;
  }

  /** Writes the head file now if a transactionHeadSoon left it pending. */
  flushHead(): void {
    if (!this.headPending) return;
    this.headPending = false;
    if (this.db.open) this.chain.publishHead();
  }

  insertAnswer(a: NewAnswer, now: string): number {
    const r = this.stmt('INSERT INTO answers (format, question, answer_text, origin, raw, created_at) VALUES (?, ?, ?, ?, ?, ?)')
      .run(a.format, a.question, a.answerText, a.origin, a.raw, now);
    const id = Number(r.lastInsertRowid);
    this.chain.record('answers', id, now);
    return id;
  }

  /** The id of the explicit "unknown source" record for a reference, created on first use. */
  unknownSourceId(reference: string, now: string): number {
    const added = this.stmt('INSERT INTO unknown_sources (reference) VALUES (?) ON CONFLICT (reference) DO NOTHING').run(reference);
    const id = (this.stmt('SELECT id FROM unknown_sources WHERE reference = ?').get(reference) as { id: number }).id;
    if (added.changes > 0) this.chain.record('unknown_sources', id, now);
    return id;
  }

  insertCitation(c: NewCitation, now: string): number {
    const unknownId = c.sourceId === null ? this.unknownSourceId(c.unknownReference ?? '{}', now) : null;
    const r = this.stmt(
        `INSERT INTO citations (answer_id, ordinal, marker, claim, quote, context, source_id, unknown_source_id, claimed_locator, method, confidence, supersedes_id, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        c.answerId,
        c.ordinal,
        c.marker,
        c.claim,
        c.quote,
        c.context,
        c.sourceId,
        unknownId,
        JSON.stringify(c.claimedLocator),
        c.method,
        c.confidence,
        c.supersedesId,
        now,
      );
    const id = Number(r.lastInsertRowid);
    this.chain.record('citations', id, now);
    return id;
  }

  /** `planned`: the citations a run verified in batches sets out to verify (its end comes later). */
  insertRun(answerId: number, verifier: string, summary: unknown, riskFlags: unknown, now: string, planned: number | null = null): number {
    const r = this.stmt('INSERT INTO verification_runs (answer_id, verifier, summary, risk_flags, created_at, planned) VALUES (?, ?, ?, ?, ?, ?)')
      .run(answerId, verifier, JSON.stringify(summary), JSON.stringify(riskFlags), now, planned);
    const id = Number(r.lastInsertRowid);
    this.chain.record('verification_runs', id, now);
    return id;
  }

  /** The end of a run verified in batches: how far it got and the summary of what it stored. */
  insertRunEnd(runId: number, end: RunEnd, now: string): number {
    const r = this.stmt('INSERT INTO verification_run_ends (run_id, state, done, summary, risk_flags, created_at) VALUES (?, ?, ?, ?, ?, ?)')
      .run(runId, end.state, end.done, JSON.stringify(end.summary), JSON.stringify(end.riskFlags), now);
    const id = Number(r.lastInsertRowid);
    this.chain.record('verification_run_ends', id, now);
    return id;
  }

  insertResult(runId: number, r: NewResult, now: string): number {
    const res = this.stmt(
        `INSERT INTO citation_results (run_id, citation_id, status, verdict, score, confidence, source_id, segment_id, start_offset,
           end_segment_id, end_offset, first_end, last_start, page, page_label, match_method, matched_text, quote, prefix, suffix, notes)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        runId,
        r.citationId,
        r.status,
        r.verdict,
        r.score,
        r.confidence,
        r.sourceId,
        r.segmentId,
        r.startOffset,
        r.endSegmentId,
        r.endOffset,
        r.firstEnd,
        r.lastStart,
        r.page,
        r.pageLabel,
        r.matchMethod,
        r.matchedText,
        r.quote,
        r.prefix,
        r.suffix,
        JSON.stringify(r.notes),
      );
    const id = Number(res.lastInsertRowid);
    this.chain.record('citation_results', id, now);
    return id;
  }

  answer(id: number): AnswerRow | undefined {
    return this.db.prepare('SELECT * FROM answers WHERE id = ?').get(id) as AnswerRow | undefined;
  }

  listAnswers(): AnswerListRow[] {
    return this.db.prepare(answerListSql('a.*')).all() as AnswerListRow[];
  }

  /** The answer's current citations: those no later row supersedes, in answer order. */
  citations(answerId: number): CitationRow[] {
    return this.db
      .prepare(
        `SELECT c.*, u.reference AS unknown_reference FROM citations c
         LEFT JOIN unknown_sources u ON u.id = c.unknown_source_id
         WHERE c.answer_id = ? AND NOT EXISTS (SELECT 1 FROM citations n WHERE n.supersedes_id = c.id)
         ORDER BY c.ordinal, c.id`,
      )
      .all(answerId) as CitationRow[];
  }

  citation(id: number): CitationRow | undefined {
    return this.db
      .prepare('SELECT c.*, u.reference AS unknown_reference FROM citations c LEFT JOIN unknown_sources u ON u.id = c.unknown_source_id WHERE c.id = ?')
      .get(id) as CitationRow | undefined;
  }

  runs(answerId: number): RunRow[] {
    return this.stmt(`${RUN_SELECT} WHERE r.answer_id = ? ORDER BY r.id`).all(answerId) as RunRow[];
  }

  run(id: number): RunRow | undefined {
    return this.stmt(`${RUN_SELECT} WHERE r.id = ?`).get(id) as RunRow | undefined;
  }

  latestRun(answerId: number): RunRow | undefined {
    return this.stmt(`${RUN_SELECT} WHERE r.answer_id = ? ORDER BY r.id DESC LIMIT 1`).get(answerId) as RunRow | undefined;
  }

  results(runId: number): ResultRow[] {
    return this.db.prepare('SELECT * FROM citation_results WHERE run_id = ? ORDER BY id').all(runId) as ResultRow[];
  }

  /** The newest result for a citation, over all runs. */
  latestResult(citationId: number): ResultRow | undefined {
    return this.db.prepare('SELECT * FROM citation_results WHERE citation_id = ? ORDER BY run_id DESC LIMIT 1').get(citationId) as ResultRow | undefined;
  }

  latestReview(citationId: number): ReviewRow | undefined {
    return this.db.prepare('SELECT * FROM review_decisions WHERE citation_id = ? ORDER BY id DESC LIMIT 1').get(citationId) as ReviewRow | undefined;
  }

  /** Every review row of a citation, oldest first: the trail. */
  reviews(citationId: number): ReviewRow[] {
    return this.db.prepare('SELECT * FROM review_decisions WHERE citation_id = ? ORDER BY id').all(citationId) as ReviewRow[];
  }

  /** Every review row of an answer's citations, oldest first. */
  answerReviews(answerId: number): ReviewRow[] {
    return this.db
      .prepare('SELECT r.* FROM review_decisions r JOIN citations c ON c.id = r.citation_id WHERE c.answer_id = ? ORDER BY r.id')
      .all(answerId) as ReviewRow[];
  }

  /** Per answer: citations with a decision in force (the newest row of each is not 'cleared'). */
  reviewedCounts(): Map<number, number> {
    const rows = this.db
      .prepare(
        `SELECT c.answer_id AS answerId, count(*) AS n FROM review_decisions r JOIN citations c ON c.id = r.citation_id
         WHERE r.id = (SELECT max(id) FROM review_decisions WHERE citation_id = r.citation_id) AND r.decision <> 'cleared'
         GROUP BY c.answer_id`,
      )
      .all() as { answerId: number; n: number }[];
    return new Map(rows.map((r) => [r.answerId, r.n]));
  }

  /** A new row supersedes the citation's previous one; the old row stays. */
  insertReview(review: NewReview, now: string): ReviewRow {
    const previous = this.latestReview(review.citationId);
    const r = this.db
      .prepare('INSERT INTO review_decisions (citation_id, decision, note, supersedes_id, created_at, reviewer, undoes_id) VALUES (?, ?, ?, ?, ?, ?, ?)')
      .run(review.citationId, review.decision, review.note, previous?.id ?? null, now, review.reviewer, review.undoesId);
    const id = Number(r.lastInsertRowid);
    this.chain.record('review_decisions', id, now);
    return this.db.prepare('SELECT * FROM review_decisions WHERE id = ?').get(id) as ReviewRow;
  }

  /** Appends an entry for an action to the chain; call inside the transaction of the change it records. */
  appendAudit(action: string, payload: unknown, now: string): AuditEntryRow {
    return this.chain.append({ action, payload }, now);
  }
}
