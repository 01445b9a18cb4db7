/**
 * Citation cards a page at a time on PostgreSQL (issue 13, the pages of issue 16): the key rows are
 * SQLite's own derived table (`cardKeysSql`), filtered, counted and paged by keyset on the same
 * sort keys (ordinal, id). Where SQLite reads the latest run's risk flags with json_each, this reads
 * them as jsonb. Every read runs as the member, so row-level security shows the cards of the
 * member's projects only: an answer it may not see has no header and no cards.
 */
import type { CardFilter } from '../../../../shared/contract/card-schemas.ts';
import { cardCounts, cardKeyPage, cardPageStarts, decodeCardCursor, PROBLEM, type CardCountGroup } from '../citation-cards-store.ts';
import type { CardKeyRow, CardsArea, CitationRow, ClosestPassageRow, JudgeOpinionRow, LeanAnswerRow, ResultRow, ReviewRow } from '../evidence-store.ts';
import { pgRead, type PgContext } from './pg-tx.ts';

/** A statement's parameters, numbered as they are added ($1 is the answer's id). */
class Params {
  readonly values: unknown[];
  constructor(first: unknown) {
    this.values = [first];
  }
  add(value: unknown): string {
    return `$${this.values.push(value)}`;
  }
}

/** The elements of a jsonb value that should be an array; anything else reads as none, as json_each of a missing path does. */
const arrayOf = (jsonb: string) => `CASE WHEN jsonb_typeof(${jsonb}) = 'array' THEN ${jsonb} ELSE '[]'::jsonb END`;

/** The markers a risk flag of the latest run names (its flags given as the run's JSON text). */
function flagged(p: Params, flags: string, code: string): string {
  const f = arrayOf(`${p.add(flags)}::jsonb`);
  return `k.marker IN (SELECT m FROM jsonb_array_elements(${f}) f, jsonb_array_elements_text(${arrayOf("f->'markers'")}) m WHERE f->>'code' = ${p.add(code)})`;
}

/** The WHERE of a filter over `k`, its parameters added to `p`. */
function where(p: Params, filter: CardFilter, flags: string): string {
  if (filter === 'all') return '';
  if (filter === 'unreviewed') return 'k.decision IS NULL';
  if (filter === 'problems') return PROBLEM;
  const [kind, value] = filter.split(':') as [string, string];
  if (kind === 'status') return `k.status = ${p.add(value)}`;
  if (kind === 'verdict') return `k.verdict = ${p.add(value)}`;
  return flagged(p, flags, value);
}

const NEWEST_RESULT = (cols: string) => `LEFT JOIN LATERAL (SELECT ${cols} FROM citation_results x WHERE x.citation_id = c.id ORDER BY x.run_id DESC LIMIT 1) r ON true`;
const DECISION_ROW = 'LEFT JOIN LATERAL (SELECT y.decision FROM review_decisions y WHERE y.citation_id = c.id ORDER BY y.id DESC LIMIT 1) d ON true';
const DECISION = "CASE WHEN d.decision IN ('accepted', 'rejected', 'flagged') THEN d.decision END";
const CURRENT = 'WHERE c.answer_id = $1 AND c.id NOT IN (SELECT n.supersedes_id FROM citations n WHERE n.supersedes_id IS NOT NULL)';
/**
 * SQLite's key rows (`cardKeysSql`), written for PostgreSQL's planner under row-level security,
 * where every row a plan visits pays its policy's function calls: the newest result and decision
 * of each citation are LATERAL index probes (not a join against every visible result), and the
 * superseded citations are one hashed list (a correlated NOT EXISTS was planned as a nested loop
 * over every citation per citation: 0.9 s for 230 cards). Same columns, same rows.
 */
export const PG_CARD_KEYS = `SELECT c.id, c.ordinal, c.marker, r.id AS result_id, r.status, r.verdict,
    CASE WHEN r.segment_id IS NULL THEN NULL WHEN sg.page IS NOT NULL THEN 'page' WHEN sg.paragraph IS NOT NULL THEN 'block' WHEN sg.line_start IS NOT NULL THEN 'line' END AS unit,
    ${DECISION} AS decision
  FROM citations c
  ${NEWEST_RESULT('x.id, x.status, x.verdict, x.segment_id')}
  LEFT JOIN segments sg ON sg.id = r.segment_id
  ${DECISION_ROW}
  ${CURRENT}`;
const KEYS = `(${PG_CARD_KEYS}) k`;
/** What the counts read of `k` alone, as SQLite's engine counts them (no marker's place). */
const STATES = `(SELECT c.id, r.status, r.verdict, ${DECISION} AS decision FROM citations c ${NEWEST_RESULT('x.status, x.verdict')} ${DECISION_ROW} ${CURRENT}) k`;
/** The current citations' markers alone (what a risk flag names). */
const MARKERS = `(SELECT c.id, c.marker FROM citations c ${CURRENT}) k`;
const CITATION_SELECT = 'SELECT c.*, u.reference AS unknown_reference FROM citations c LEFT JOIN unknown_sources u ON u.id = c.unknown_source_id';

export function pgCards(ctx: PgContext): CardsArea {
  const byIds = async <R extends object>(what: string, sql: string, ids: readonly number[]): Promise<R[]> =>
    ids.length === 0 ? [] : pgRead<R & Record<string, unknown>>(ctx, what, sql, [[...new Set(ids)]]);
  return {
    async answer(id) {
      const rows = await pgRead<LeanAnswerRow>(ctx, 'read an answer', 'SELECT id, format, question, answer_text, origin, created_at FROM answers WHERE id = $1', [id]);
      return rows[0];
    },

    async flags(answerId) {
      const rows = await pgRead<{ risk_flags: string }>(
        ctx,
        "read an answer's risk flags",
        'SELECT coalesce(e.risk_flags, r.risk_flags) AS risk_flags FROM verification_runs r LEFT JOIN verification_run_ends e ON e.run_id = r.id WHERE r.answer_id = $1 ORDER BY r.id DESC LIMIT 1',
        [answerId],
      );
      return rows[0]?.risk_flags ?? '[]';
    },

    keys: (answerId) => pgRead<CardKeyRow>(ctx, "read an answer's cards", `SELECT * FROM ${KEYS} ORDER BY k.ordinal, k.id`, [answerId]),

    async page(answerId, filter, flags, limit, after) {
      const p = new Params(answerId);
      const conds = [where(p, filter, flags)];
      if (after !== undefined) {
        const c = decodeCardCursor(after);
        conds.push(`(k.ordinal, k.id) > (${p.add(c.key)}, ${p.add(c.id)})`);
      }
      const cond = conds.filter(Boolean).join(' AND ');
      // One row more than asked says whether another page follows, without counting.
      const rows = await pgRead<CardKeyRow>(ctx, 'read a page of cards', `SELECT * FROM ${KEYS} ${cond ? `WHERE ${cond}` : ''} ORDER BY k.ordinal, k.id LIMIT ${p.add(limit + 1)}`, p.values);
      return cardKeyPage(rows, limit);
    },

    async shape(answerId, filter, flags, pageSize) {
      const p = new Params(answerId);
      const cond = where(p, filter, flags);
      const rows = await pgRead<{ id: number; ordinal: number }>(ctx, "read a filter's cards", `SELECT k.id, k.ordinal FROM ${KEYS} ${cond ? `WHERE ${cond}` : ''} ORDER BY k.ordinal, k.id`, p.values);
      return { ids: rows.map((r) => r.id), pageStarts: cardPageStarts(rows, pageSize) };
    },

    async counts(answerId, flags) {
      const fm = `SELECT DISTINCT f->>'code' AS code, m AS marker FROM jsonb_array_elements(${arrayOf('$2::jsonb')}) f, jsonb_array_elements_text(${arrayOf("f->'markers'")}) m`;
      const [groups, byFlag] = await Promise.all([
        pgRead<CardCountGroup>(ctx, "count an answer's cards", `SELECT k.status, k.verdict, k.decision IS NULL AS unreviewed, ${PROBLEM} AS problem, count(*) AS n FROM ${STATES} GROUP BY 1, 2, 3, 4`, [answerId]),
        pgRead<{ code: string; n: number }>(
          ctx,
          "count an answer's flagged cards",
          `WITH fm AS MATERIALIZED (${fm}) SELECT fm.code, count(DISTINCT k.id) AS n FROM ${MARKERS} JOIN fm ON fm.marker = k.marker GROUP BY fm.code`,
          [answerId, flags],
        ),
      ]);
      return cardCounts(groups, byFlag);
    },

    citations: (ids) => byIds<CitationRow>("read a page's citations", `${CITATION_SELECT} WHERE c.id = ANY ($1)`, ids),
    results: (ids) => byIds<ResultRow>("read a page's results", 'SELECT * FROM citation_results WHERE id = ANY ($1)', ids),
    reviews: (ids) => byIds<ReviewRow>("read a page's review trails", 'SELECT * FROM review_decisions WHERE citation_id = ANY ($1) ORDER BY id', ids),
    opinions: (ids) => byIds<JudgeOpinionRow>("read a page's judge opinions", 'SELECT * FROM judge_opinions WHERE result_id = ANY ($1)', ids),
    closest: (ids) => byIds<ClosestPassageRow>("read a page's closest passages", 'SELECT * FROM closest_passages WHERE result_id = ANY ($1)', ids),
  };
}
