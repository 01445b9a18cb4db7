/**
 * Answers, citations and verification runs on PostgreSQL (issue 13), read as SQLite's
 * AnswersStore reads them (the same SQL where the dialects agree). Row-level security shows a
 * member the answers of its projects only; an answer it may not see reads as absent.
 */
import type { AnswerListRow, AnswerRow, AnswersArea, CitationRow, ClosestPassageRow, JudgeOpinionRow, ResultRow, RunRow } from '../evidence-store.ts';
import { answerListSql, RUN_SELECT } from '../answers-store.ts';
import { pgRead, type PgContext } from './pg-tx.ts';

const ANSWER_COLUMNS = 'id, format, question, answer_text, origin, raw, created_at';
const CITATION_SELECT = 'SELECT c.*, u.reference AS unknown_reference FROM citations c LEFT JOIN unknown_sources u ON u.id = c.unknown_source_id';

export function pgAnswers(ctx: PgContext): AnswersArea {
  const byResult = <R extends { result_id: number }>(rows: R[]) => new Map(rows.map((r) => [r.result_id, r]));
  return {
    // Named columns: the answers here also have their project's key.
    list: () => pgRead<AnswerListRow>(ctx, 'list the answers', answerListSql(ANSWER_COLUMNS.split(', ').map((c) => `a.${c}`).join(', ')), []),

    async answer(id) {
      return (await pgRead<AnswerRow>(ctx, 'read an answer', `SELECT ${ANSWER_COLUMNS} FROM answers WHERE id = $1`, [id]))[0];
    },

    citations: (answerId) =>
      pgRead<CitationRow>(
        ctx,
        "read an answer's citations",
        `${CITATION_SELECT} WHERE c.answer_id = $1 AND NOT EXISTS (SELECT 1 FROM citations n WHERE n.supersedes_id = c.id) ORDER BY c.ordinal, c.id`,
        [answerId],
      ),

    async citation(id) {
      return (await pgRead<CitationRow>(ctx, 'read a citation', `${CITATION_SELECT} WHERE c.id = $1`, [id]))[0];
    },

    runs: (answerId) => pgRead<RunRow>(ctx, "read an answer's verification runs", `${RUN_SELECT} WHERE r.answer_id = $1 ORDER BY r.id`, [answerId]),

    results: (runId) => pgRead<ResultRow>(ctx, "read a run's results", 'SELECT * FROM citation_results WHERE run_id = $1 ORDER BY id', [runId]),

    async latestResult(citationId) {
      const rows = await pgRead<ResultRow>(ctx, "read a citation's result", 'SELECT * FROM citation_results WHERE citation_id = $1 ORDER BY run_id DESC LIMIT 1', [citationId]);
      return rows[0];
    },

    async latestResults(citationIds) {
      if (citationIds.length === 0) return [];
      return pgRead<ResultRow>(
        ctx,
        "read the citations' results",
        'SELECT DISTINCT ON (citation_id) * FROM citation_results WHERE citation_id = ANY ($1) ORDER BY citation_id, run_id DESC',
        [[...new Set(citationIds)]],
      );
    },

    opinions: async (runId) =>
      byResult(await pgRead<JudgeOpinionRow>(ctx, "read a run's judge opinions", 'SELECT j.* FROM judge_opinions j JOIN citation_results r ON r.id = j.result_id WHERE r.run_id = $1', [runId])),

    closest: async (runId) =>
      byResult(await pgRead<ClosestPassageRow>(ctx, "read a run's closest passages", 'SELECT p.* FROM closest_passages p JOIN citation_results r ON r.id = p.result_id WHERE r.run_id = $1', [runId])),
  };
}
