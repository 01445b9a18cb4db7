/**
 * Review decisions on PostgreSQL (issue 13): each appended row, with its two audit entries (the
 * row, then the action with SQLite's payload), is one transaction through the retrying
 * runTransaction. Decisions on one citation take turns under PgStore's per-citation lock, so each
 * supersedes the one before it. The row names the member's login as its reviewer: row-level
 * security lets a reviewer record decisions under its own name only.
 */
import { ROW_APPEND } from '../audit-chain-store.ts';
import type { ReviewRow, ReviewsArea } from '../evidence-store.ts';
import { reviewEntryPayload } from '../review-entry.ts';
import { appendEntries } from './pg-audit-chain.ts';
import { DECISION_LOCK_CLASS } from './pg-store.ts';
import { pgRead, pgTransaction, type PgContext } from './pg-tx.ts';

export function pgReviews(ctx: PgContext): ReviewsArea {
  return {
    history: (citationId) => pgRead<ReviewRow>(ctx, "read a citation's review trail", 'SELECT * FROM review_decisions WHERE citation_id = $1 ORDER BY id', [citationId]),

    answerHistory: (answerId) =>
      pgRead<ReviewRow>(
        ctx,
        "read an answer's review trails",
        'SELECT r.* FROM review_decisions r JOIN citations c ON c.id = r.citation_id WHERE c.answer_id = $1 ORDER BY r.id',
        [answerId],
      ),

    async reviewedCounts() {
      const rows = await pgRead<{ answer_id: number; n: number }>(
        ctx,
        'count the reviewed citations',
        `SELECT c.answer_id, count(*) AS n FROM review_decisions r JOIN citations c ON c.id = r.citation_id
         WHERE r.id = (SELECT max(id) FROM review_decisions WHERE citation_id = r.citation_id) AND r.decision <> 'cleared'
         GROUP BY c.answer_id`,
        [],
      );
      return new Map(rows.map((r) => [r.answer_id, r.n]));
    },

    append: (review, answerId, action, now) =>
      pgTransaction(ctx, 'record a review decision', async (c) => {
        await c.query('SELECT pg_advisory_xact_lock($1, $2)', [DECISION_LOCK_CLASS, review.citationId]);
        const row = (
          await c.query<ReviewRow>(
            `INSERT INTO review_decisions (citation_id, decision, note, supersedes_id, created_at, reviewer, undoes_id)
             VALUES ($1, $2, $3, (SELECT max(id) FROM review_decisions WHERE citation_id = $1), $4, current_user, $5) RETURNING *`,
            [review.citationId, review.decision, review.note, now, review.undoesId],
          )
        ).rows[0];
        if (!row) throw new Error('the decision row was not returned');
        await appendEntries(
          c,
          [
            { action: ROW_APPEND, table: 'review_decisions', row: row as unknown as Record<string, unknown> },
            { action, payload: reviewEntryPayload(answerId, row) },
          ],
          now,
        );
        return row;
      }),
  };
}
