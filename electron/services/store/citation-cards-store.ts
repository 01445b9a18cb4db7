import { PROBLEM_STATUSES, PROBLEM_VERDICTS, type CardFilter } from '../../../shared/contract/card-schemas.ts';
import type { AnswerRow, CitationRow, ResultRow, ReviewRow } from './answers-store.ts';
import type { Db } from './database.ts';
import type { ClosestPassageRow, JudgeOpinionRow } from './result-extras-store.ts';
import { decodeCursor, encodeCursor, keysetClause } from './keyset.ts';
import { AppError } from '../../../shared/contract/errors.ts';
import { StatementCache } from './statement-cache.ts';

/** A current citation of an answer with what its card is filtered by. */
export interface CardKeyRow {
  id: number;
  ordinal: number;
  marker: string;
  /** Its newest result (the latest run's, or for an agent session's citation its own last run's). */
  result_id: number | null;
  status: string | null;
  verdict: string | null;
  /** The unit of the segment a quote was found in (for "found in another paragraph"). */
  unit: 'page' | 'block' | 'line' | null;
  /** The decision in force (the newest trail row's, null when none or cleared). */
  decision: 'accepted' | 'rejected' | 'flagged' | null;
}

/** Each citation's newest result (the latest run's, or for an agent session's citation its own last run's). */
const NEWEST_RESULT = 'LEFT JOIN citation_results r ON r.id = (SELECT x.id FROM citation_results x WHERE x.citation_id = c.id ORDER BY x.run_id DESC LIMIT 1)';
/** Each citation's decision in force (the newest trail row's, none when cleared). */
const DECISION_ROW = 'LEFT JOIN review_decisions d ON d.id = (SELECT max(y.id) FROM review_decisions y WHERE y.citation_id = c.id)';
const DECISION = "CASE WHEN d.decision IN ('accepted', 'rejected', 'flagged') THEN d.decision END";
/** An answer's current citations: those no later row supersedes. */
const CURRENT = 'WHERE c.answer_id = ? AND NOT EXISTS (SELECT 1 FROM citations n WHERE n.supersedes_id = c.id)';

/**
 * An answer's current citations, each with its newest result and the decision in force, as one
 * derived table `k`; its `WHERE c.answer_id = ?` seeks citations_answer.
 * PostgreSQL's engine has its own spelling of it for its planner (postgres/pg-cards.ts).
 */
const CARD_KEYS = `SELECT c.id, c.ordinal, c.marker, r.id AS result_id, r.status, r.verdict,
    CASE WHEN r.segment_id IS NULL THEN NULL WHEN sg.page IS NOT NULL THEN 'page' WHEN sg.paragraph IS NOT NULL THEN 'block' WHEN sg.line_start IS NOT NULL THEN 'line' END AS unit,
    ${DECISION} AS decision
  FROM citations c ${NEWEST_RESULT}
  LEFT JOIN segments sg ON sg.id = r.segment_id
  ${DECISION_ROW}
  ${CURRENT}`;
/** What the counts read of `k` alone (no marker's place): SQLite joins every table named, read or not. */
const CARD_STATES = `SELECT c.id, r.status, r.verdict, ${DECISION} AS decision FROM citations c ${NEWEST_RESULT} ${DECISION_ROW} ${CURRENT}`;
/** The current citations' markers alone (what a risk flag names). */
const CARD_MARKERS = `SELECT c.id, c.marker FROM citations c ${CURRENT}`;

const inList = (xs: readonly string[]) => xs.map((x) => `'${x}'`).join(', ');
/** A problem card, over `k` (the same SQL on both engines). */
export const PROBLEM = `(k.decision = 'flagged' OR k.status IS NULL OR k.status IN (${inList(PROBLEM_STATUSES)}) OR k.verdict IN (${inList(PROBLEM_VERDICTS)}))`;
/** The markers a risk flag of the latest run names (its flags given as the run's JSON). */
const FLAGGED = `k.marker IN (SELECT m.value FROM json_each(?) f, json_each(f.value, '$.markers') m WHERE json_extract(f.value, '$.code') = ?)`;

/** A page of key rows, each with the cursor that starts the page after it. */
export interface CardKeyPage {
  rows: { row: CardKeyRow; cursor: string }[];
  next: string | null;
}

/**
 * A card cursor read back: an (ordinal, id) pair of whole numbers. A cursor of another list (a
 * file name or a date as its key) is refused on both engines, not compared across types.
 */
export function decodeCardCursor(after: string): { key: number; id: number } {
  const c = decodeCursor(after);
  if (typeof c.key !== 'number' || !Number.isSafeInteger(c.key)) {
    throw new AppError('INVALID_INPUT', 'The after cursor is not one this list of cards gave out: ask for the first page again.', { field: 'after' });
  }
  return { key: c.key, id: c.id };
}

/** `limit` + 1 rows asked for, cut to a page: the extra row says whether another page follows, without counting. */
export function cardKeyPage(rows: readonly CardKeyRow[], limit: number): CardKeyPage {
  const more = rows.length > limit;
  const page = rows.slice(0, limit).map((row) => ({ row, cursor: encodeCursor(row.ordinal, row.id) }));
  return { rows: page, next: more && page.length > 0 ? (page[page.length - 1]?.cursor ?? null) : null };
}

/** The cursor ending every `pageSize`-th of a filter's rows (in answer order), but the last row's. */
export function cardPageStarts(rows: readonly { id: number; ordinal: number }[], pageSize: number): string[] {
  const pageStarts: string[] = [];
  for (let i = pageSize - 1; i < rows.length - 1; i += pageSize) {
    const r = rows[i];
    if (r) pageStarts.push(encodeCursor(r.ordinal, r.id));
  }
  return pageStarts;
}

/** Citation cards as pages (issue 16): filtered and counted in SQL, in answer order, paged by keyset. */
export class CitationCardsStore {
  private readonly statements: StatementCache;
  constructor(db: Db) {
    this.statements = new StatementCache(db);
  }

  /** The WHERE of a filter over `k`; `flags` is the latest run's risk flags (JSON), for a flag filter. */
  private where(filter: CardFilter, flags: string): { sql: string; params: unknown[] } {
    if (filter === 'all') return { sql: '', params: [] };
    if (filter === 'unreviewed') return { sql: 'k.decision IS NULL', params: [] };
    if (filter === 'problems') return { sql: PROBLEM, params: [] };
    const [kind, value] = filter.split(':') as [string, string];
    if (kind === 'status') return { sql: 'k.status = ?', params: [value] };
    if (kind === 'verdict') return { sql: 'k.verdict = ?', params: [value] };
    return { sql: FLAGGED, params: [flags, value] };
  }

  /** Up to `limit` cards after `after` (a cursor this store gave), each with its own cursor. */
  page(answerId: number, filter: CardFilter, flags: string, limit: number, after?: string): CardKeyPage {
    const f = this.where(filter, flags);
    const seek = keysetClause('k.ordinal', 'k.id', 'asc', after === undefined ? undefined : decodeCardCursor(after));
    const conds = [f.sql, seek.where].filter(Boolean);
    // One row more than asked says whether another page follows, without counting.
    const rows = this.statements
      .get(`SELECT * FROM (${CARD_KEYS}) k ${conds.length ? `WHERE ${conds.join(' AND ')}` : ''} ORDER BY ${seek.orderBy} LIMIT ?`)
      .all(answerId, ...f.params, ...seek.params, limit + 1) as CardKeyRow[];
    return cardKeyPage(rows, limit);
  }

  /** An answer's header and text, without the file it was imported from (which may run to megabytes). */
  answer(id: number): Omit<AnswerRow, 'raw'> | undefined {
    return this.statements.get('SELECT id, format, question, answer_text, origin, created_at FROM answers WHERE id = ?').get(id) as Omit<AnswerRow, 'raw'> | undefined;
  }

  /** Every current citation's key row, in answer order (the answer text's markers). */
  keys(answerId: number): CardKeyRow[] {
    return this.statements.get(`SELECT * FROM (${CARD_KEYS}) k ORDER BY k.ordinal, k.id`).all(answerId) as CardKeyRow[];
  }

  /** The ids a filter shows, in answer order, and the cursor ending every `pageSize`-th of them. */
  shape(answerId: number, filter: CardFilter, flags: string, pageSize: number): { ids: number[]; pageStarts: string[] } {
    const f = this.where(filter, flags);
    const rows = this.statements
      .get(`SELECT k.id, k.ordinal FROM (${CARD_KEYS}) k ${f.sql ? `WHERE ${f.sql}` : ''} ORDER BY k.ordinal, k.id`)
      .all(answerId, ...f.params) as { id: number; ordinal: number }[];
    return { ids: rows.map((r) => r.id), pageStarts: cardPageStarts(rows, pageSize) };
  }

  /** How many cards each filter shows (filters showing none are left out): grouped in SQL, the groups summed. */
  counts(answerId: number, flags: string): Record<string, number> {
    // One pass over the answer's cards, grouped by all that a filter reads (a few dozen groups at most).
    const groups = this.statements
      .get(`SELECT k.status, k.verdict, k.decision IS NULL AS unreviewed, ${PROBLEM} AS problem, count(*) AS n FROM (${CARD_STATES}) k GROUP BY 1, 2, 3, 4`)
      .all(answerId) as CardCountGroup[];
    // The flags' markers read once into a table of their own, then joined (not re-read per card).
    const flagged = this.statements
      .get(
        `WITH fm AS MATERIALIZED (SELECT DISTINCT json_extract(f.value, '$.code') AS code, m.value AS marker FROM json_each(?) f, json_each(f.value, '$.markers') m)
         SELECT fm.code, count(DISTINCT k.id) AS n FROM (${CARD_MARKERS}) k JOIN fm ON fm.marker = k.marker GROUP BY fm.code`,
      )
      .all(flags, answerId) as { code: string; n: number }[];
    return cardCounts(groups, flagged);
  }
}

/** The cards of one group of the counts: what every filter but a flag's reads, and how many (0/1 flags on SQLite). */
export interface CardCountGroup {
  status: string | null;
  verdict: string | null;
  unreviewed: number | boolean;
  problem: number | boolean;
  n: number;
}

/** The groups summed into each filter's count, with the cards each risk flag names; filters showing none left out. */
export function cardCounts(groups: readonly CardCountGroup[], flagged: readonly { code: string; n: number }[]): Record<string, number> {
  const out: Record<string, number> = {};
  const add = (key: string, n: number) => {
    if (n > 0) out[key] = (out[key] ?? 0) + n;
  };
  out.all = groups.reduce((sum, g) => sum + g.n, 0);
  for (const g of groups) {
    if (g.unreviewed) add('unreviewed', g.n);
    if (g.problem) add('problems', g.n);
    if (g.status !== null) add(`status:${g.status}`, g.n);
    if (g.verdict !== null) add(`verdict:${g.verdict}`, g.n);
  }
  for (const r of flagged) add(`flag:${r.code}`, r.n);
  return out;
}

/** What a page's cards are drawn from, fetched for those cards only. */
export class CardRowsStore {
  private readonly statements: StatementCache;
  constructor(db: Db) {
    this.statements = new StatementCache(db);
  }

  private byIds<T>(sql: string, ids: readonly number[]): T[] {
    // json_each keeps one statement whatever the number of ids.
    return this.statements.get(sql).all(JSON.stringify(ids)) as T[];
  }

  citations(ids: readonly number[]): CitationRow[] {
    return this.byIds('SELECT c.*, u.reference AS unknown_reference FROM citations c LEFT JOIN unknown_sources u ON u.id = c.unknown_source_id WHERE c.id IN (SELECT value FROM json_each(?))', ids);
  }

  results(ids: readonly number[]): ResultRow[] {
    return this.byIds('SELECT * FROM citation_results WHERE id IN (SELECT value FROM json_each(?))', ids);
  }

  reviews(citationIds: readonly number[]): ReviewRow[] {
    return this.byIds('SELECT * FROM review_decisions WHERE citation_id IN (SELECT value FROM json_each(?)) ORDER BY id', citationIds);
  }

  opinions(resultIds: readonly number[]): JudgeOpinionRow[] {
    return this.byIds('SELECT * FROM judge_opinions WHERE result_id IN (SELECT value FROM json_each(?))', resultIds);
  }

  closest(resultIds: readonly number[]): ClosestPassageRow[] {
    return this.byIds('SELECT * FROM closest_passages WHERE result_id IN (SELECT value FROM json_each(?))', resultIds);
  }
}
