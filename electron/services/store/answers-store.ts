import { ChainStore, type AuditEntryRow } from './audit-chain-store.ts';
import type { Db } from './database.ts';
import { StatementCache } from './statement-cache.ts';
import { SameTurnCommit } from './same-turn-commit.ts';
import { RUN_SELECT, answerListSql, type AnswerListRow, type AnswerRow, type CitationRow, type NewAnswer, type NewCitation, type NewResult, type NewReview, type ResultRow, type ReviewRow, type RunEnd, type RunRow } from './answer-rows.ts';

// The row types live in answer-rows.ts; importers of this store keep finding them here.
export * from './answer-rows.ts';

/** Turns of the event loop the head file waits at most for queued cites (see headWhenIdle). */
const HEAD_MAX_WAITS = 64;

export class AnswersStore {
  readonly db: Db;
  readonly chain: ChainStore;
  /** The insert statements, prepared once: an agent appends rows one citation at a time. */
  private readonly statements: StatementCache;
  constructor(db: Db) {
    this.db = db;
    this.chain = new ChainStore(db);
    this.statements = new StatementCache(db);
    this.group = new SameTurnCommit(db, () => this.headSoon());
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
    this.headSoon();
    return result;
  }

  private readonly group: SameTurnCommit;

  /**
   * As transactionHeadSoon, but the writes asked for in the same turn of the event loop (several
   * agents citing at once) share one transaction and so one fsync, each in its own savepoint: all
   * of one write lands or none of it. Resolves once committed (same-turn-commit.ts).
   */
  transactionGrouped<T>(fn: () => T): Promise<T> {
    return this.group.run(fn);
  }

  /** Turns the head file has waited for grouped writes to commit first. */
  private headWaits = 0;

  private headSoon(): void {
    if (!this.headPending) {
      this.headPending = true;
      setImmediate(() => this.headWhenIdle());
    }
  }

  /**
   * The head file's fsyncs wait while cites are queued for the next commit (agents citing one
   * after another), so that no reply waits for them; after HEAD_MAX_WAITS turns it is written anyway.
   */
  private headWhenIdle(): void {
    if (this.group.pending && this.headWaits < HEAD_MAX_WAITS) {
      this.headWaits++;
      setImmediate(() => this.headWhenIdle());
      return;
    }
    this.headWaits = 0;
    this.publishPendingHead();
  }

  /** Commits grouped writes still queued, then writes the head file if one is pending (on close). */
  flushHead(): void {
    this.group.flush();
    this.publishPendingHead();
  }

  private publishPendingHead(): void {
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
