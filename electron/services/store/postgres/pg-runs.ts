/**
 * The writes of answers and verification runs on PostgreSQL (issue 13): the `runs` area. Each call
 * is one transaction through the retrying runTransaction, its rows the ones SQLite's RunWritesStore
 * inserts (the same columns and JSON text, so rows hash alike) but many to a statement (INSERT …
 * SELECT FROM unnest … WITH ORDINALITY, in chunks): an import of 300 citations is a handful of
 * round trips, not one per row. The audit entries are appended last, in one call under the chain's
 * lock, in SQLite's order: each row's entry as SQLite writes them, then the action's
 * (`answer.import`, `answer.verify`, payloads in run-entries.ts).
 *
 * An import lands in the member's project: the first (by key) it reviews in, else the first it is
 * an agent of; the owner, who belongs to none, writes to the first project. Row-level security
 * (migrations 2, 4, 5, 10) decides the rest: reviewers import and record runs in their projects,
 * agents record runs, auditors and admins neither (DATABASE_ROLE_REFUSED, naming the level).
 */
import type pg from 'pg';
import { AppError } from '../../../../shared/contract/errors.ts';
import type { ChainTable } from '../../../../shared/audit/canonical.ts';
import { ROW_APPEND } from '../audit-chain-store.ts';
import type { BatchedRunStart, NewAnswerImport, NewOutcome, RunsArea, StartedRun } from '../evidence-store.ts';
import { importEntryPayload, runEndEntryPayload, runEntryPayload } from '../run-entries.ts';
import { appendEntries, type PgEntry } from './pg-audit-chain.ts';
import { pgTransaction, type PgContext } from './pg-tx.ts';

type Row = Record<string, unknown> & { id: number };

/** Rows per multi-row insert: a few statements for the largest answers, each message a few megabytes at most. */
const CHUNK = 500;

/** The entries a transaction collects as it writes, appended at its end. */
export class Entries {
  readonly list: PgEntry[] = [];
  row(table: ChainTable, row: Row): number {
    this.list.push({ action: ROW_APPEND, table, row });
    return row.id;
  }
  action(action: string, payload: unknown): void {
    this.list.push({ action, payload });
  }
}

async function insertOne(c: pg.ClientBase, sql: string, params: unknown[]): Promise<Row> {
  const row = (await c.query<Row>(sql, params)).rows[0];
  if (!row) throw new Error('an inserted row was not returned');
  return row;
}

/** The project an import by this member lands in. */
async function importProject(c: pg.ClientBase, ctx: PgContext): Promise<string> {
  const r = await c.query<{ key: string | null }>(
    `SELECT coalesce(
       (SELECT project_key FROM project_members WHERE member = current_user AND role IN ('reviewer', 'agent')
         ORDER BY (role = 'reviewer') DESC, project_key LIMIT 1),
       CASE WHEN NOT EXISTS (SELECT 1 FROM project_members WHERE member = current_user) THEN (SELECT key FROM projects ORDER BY key LIMIT 1) END
     ) AS key`,
  );
  const key = r.rows[0]?.key ?? null;
  if (key === null) {
    throw new AppError('DATABASE_ROLE_REFUSED', `The ${ctx.who.level ?? 'no Evidence Desk'} role may not import an answer: ${ctx.who.login} reviews in no project of the shared workspace.`, {
      operation: 'import an answer',
      login: ctx.who.login,
      role: ctx.who.level,
    });
  }
  return key;
}

/**
 * The ids of the "unknown source" records of these references (distinct, in first-use order),
 * the new ones inserted in that order in one statement; the rows made, by reference.
 */
async function unknownSources(c: pg.ClientBase, references: readonly string[]): Promise<{ ids: Map<string, number>; added: Map<string, Row> }> {
  if (references.length === 0) return { ids: new Map(), added: new Map() };
  const added = (
    await c.query<Row & { reference: string }>(
      `INSERT INTO unknown_sources (reference) SELECT t.reference FROM unnest($1::text[]) WITH ORDINALITY AS t(reference, n) ORDER BY t.n
       ON CONFLICT (reference) DO NOTHING RETURNING *`,
      [references],
    )
  ).rows;
  const found = (await c.query<{ id: number; reference: string }>('SELECT id, reference FROM unknown_sources WHERE reference = ANY($1::text[])', [references])).rows;
  return { ids: new Map(found.map((r) => [r.reference, r.id])), added: new Map(added.map((r) => [r.reference, r])) };
}

/** An answer in a project, with its entry. */
async function insertAnswer(c: pg.ClientBase, project: string, a: NewAnswerImport['answer'], entries: Entries, now: string): Promise<number> {
  return entries.row(
    'answers',
    await insertOne(c, 'INSERT INTO answers (project_key, format, question, answer_text, origin, raw, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING *', [
      project,
      a.format,
      a.question,
      a.answerText,
      a.origin,
      a.raw,
      now,
    ]),
  );
}

/** Rows returned by a multi-row insert, in the order of `keys` (each row found by its key column). */
function inOrder<K>(rows: readonly Row[], column: string, keys: readonly K[]): Row[] {
  const byKey = new Map(rows.map((r) => [r[column] as K, r]));
  return keys.map((k) => {
    const row = byKey.get(k);
    if (!row) throw new Error('an inserted row was not returned');
    return row;
  });
}

/**
 * The answer, then its citations in one multi-row insert per chunk; the entries in the order
 * SQLite writes them: an unknown source's entry just before the citation that first names it.
 */
async function insertImport(c: pg.ClientBase, ctx: PgContext, imp: NewAnswerImport, entries: Entries, now: string): Promise<{ answerId: number; citationIds: number[] }> {
  const answerId = await insertAnswer(c, await importProject(c, ctx), imp.answer, entries, now);
  const referenceOf = (x: NewAnswerImport['citations'][number]): string | null => (x.sourceId === null ? (x.unknownReference ?? '{}') : null);
  const references = [...new Set(imp.citations.map(referenceOf).filter((r): r is string => r !== null))];
  const unknown = await unknownSources(c, references);
  const rows: Row[] = [];
  for (let at = 0; at < imp.citations.length; at += CHUNK) {
    const chunk = imp.citations.slice(at, at + CHUNK);
    const col = <T>(f: (x: (typeof chunk)[number]) => T): T[] => chunk.map(f);
    const inserted = await c.query<Row>(
      `INSERT INTO citations (answer_id, ordinal, marker, claim, quote, context, source_id, unknown_source_id, claimed_locator, method, confidence, supersedes_id, created_at)
       SELECT $1, $2 + t.n - 1, t.marker, t.claim, t.quote, t.context, t.source_id, t.unknown_source_id, t.claimed_locator, t.method, t.confidence, NULL, $3
       FROM unnest($4::text[], $5::text[], $6::text[], $7::text[], $8::bigint[], $9::bigint[], $10::text[], $11::text[], $12::text[])
         WITH ORDINALITY AS t(marker, claim, quote, context, source_id, unknown_source_id, claimed_locator, method, confidence, n)
       ORDER BY t.n RETURNING *`,
      [
        answerId,
        at,
        now,
        col((x) => x.marker),
        col((x) => x.claim),
        col((x) => x.quote),
        col((x) => x.context),
        col((x) => x.sourceId),
        col((x) => {
          const r = referenceOf(x);
          return r === null ? null : (unknown.ids.get(r) ?? null);
        }),
        col((x) => JSON.stringify(x.claimedLocator)),
        col((x) => x.method),
        col((x) => x.confidence),
      ],
    );
    rows.push(...inOrder(inserted.rows, 'ordinal', chunk.map((_, k) => at + k)));
  }
  const citationIds = rows.map((row, ordinal) => {
    const r = referenceOf(imp.citations[ordinal] as NewAnswerImport['citations'][number]);
    const made = r === null ? undefined : unknown.added.get(r);
    if (made && r !== null) {
      entries.row('unknown_sources', made);
      unknown.added.delete(r);
    }
    return entries.row('citations', row);
  });
  entries.action('answer.import', importEntryPayload(answerId, imp.answer, citationIds.length));
  return { answerId, citationIds };
}

async function insertRun(c: pg.ClientBase, answerId: number, run: { verifier: string; summary: unknown; riskFlags: unknown }, planned: number | null, entries: Entries, now: string): Promise<number> {
  return entries.row(
    'verification_runs',
    await insertOne(c, 'INSERT INTO verification_runs (answer_id, verifier, summary, risk_flags, created_at, planned) VALUES ($1, $2, $3, $4, $5, $6) RETURNING *', [
      answerId,
      run.verifier,
      JSON.stringify(run.summary),
      JSON.stringify(run.riskFlags),
      now,
      planned,
    ]),
  );
}

/**
 * A batch's results, then their closest passages, then their judge opinions: one multi-row insert
 * per table and chunk (ids in the batch's order, as row by row). The entries are interleaved as
 * SQLite writes them: each result's, then its passage's, then its opinion's.
 */
async function insertOutcomes(c: pg.ClientBase, runId: number, citationIds: readonly number[], outcomes: readonly NewOutcome[], entries: Entries, now: string): Promise<void> {
  for (let at = 0; at < outcomes.length; at += CHUNK) {
    const chunk = outcomes.slice(at, at + CHUNK);
    const ids = chunk.map((_, k) => citationIds[at + k] ?? 0);
    const col = <T>(f: (r: NewOutcome['result']) => T): T[] => chunk.map((o) => f(o.result));
    const results = inOrder(
      (
        await c.query<Row>(
          `INSERT INTO citation_results (run_id, citation_id, status, verdict, score, confidence, source_id, segment_id, start_offset,
             end_segment_id, end_offset, first_end, last_start, page, page_label, match_method, matched_text, quote, prefix, suffix, notes)
           SELECT $1, t.citation_id, t.status, t.verdict, t.score, t.confidence, t.source_id, t.segment_id, t.start_offset, t.end_segment_id, t.end_offset,
             t.first_end, t.last_start, t.page, t.page_label, t.match_method, t.matched_text, t.quote, t.prefix, t.suffix, t.notes
           FROM unnest($2::bigint[], $3::text[], $4::text[], $5::float8[], $6::float8[], $7::bigint[], $8::bigint[], $9::int[], $10::bigint[], $11::int[],
             $12::int[], $13::int[], $14::int[], $15::text[], $16::text[], $17::text[], $18::text[], $19::text[], $20::text[], $21::text[])
             WITH ORDINALITY AS t(citation_id, status, verdict, score, confidence, source_id, segment_id, start_offset, end_segment_id, end_offset,
               first_end, last_start, page, page_label, match_method, matched_text, quote, prefix, suffix, notes, n)
           ORDER BY t.n RETURNING *`,
          [
            runId, ids, col((r) => r.status), col((r) => r.verdict), col((r) => r.score), col((r) => r.confidence), col((r) => r.sourceId), col((r) => r.segmentId),
            col((r) => r.startOffset), col((r) => r.endSegmentId), col((r) => r.endOffset), col((r) => r.firstEnd), col((r) => r.lastStart), col((r) => r.page),
            col((r) => r.pageLabel), col((r) => r.matchMethod), col((r) => r.matchedText), col((r) => r.quote), col((r) => r.prefix), col((r) => r.suffix),
            col((r) => JSON.stringify(r.notes)),
          ],
        )
      ).rows,
      'citation_id',
      ids,
    );
    const resultIds = results.map((r) => r.id);
    const withClosest = chunk.flatMap((o, k) => (o.closest ? [{ resultId: resultIds[k] ?? 0, p: o.closest }] : []));
    const withOpinion = chunk.flatMap((o, k) => (o.opinion ? [{ resultId: resultIds[k] ?? 0, j: o.opinion }] : []));
    const closest = new Map<number, Row>();
    if (withClosest.length > 0) {
      // The score clamped into [0, 1] as SQLite's ResultExtrasStore stores it.
      const rows = (
        await c.query<Row>(
          `INSERT INTO closest_passages (result_id, source_id, segment_id, start_offset, end_offset, score, text, created_at)
           SELECT t.result_id, t.source_id, t.segment_id, t.start_offset, t.end_offset, t.score, t.text, $1
           FROM unnest($2::bigint[], $3::bigint[], $4::bigint[], $5::int[], $6::int[], $7::float8[], $8::text[])
             WITH ORDINALITY AS t(result_id, source_id, segment_id, start_offset, end_offset, score, text, n)
           ORDER BY t.n RETURNING *`,
          [
            now,
            withClosest.map((x) => x.resultId),
            withClosest.map((x) => x.p.sourceId),
            withClosest.map((x) => x.p.segmentId),
            withClosest.map((x) => x.p.start),
            withClosest.map((x) => x.p.end),
            withClosest.map((x) => Math.max(0, Math.min(1, x.p.score))),
            withClosest.map((x) => x.p.text),
          ],
        )
      ).rows;
      for (const r of rows) closest.set(Number(r.result_id), r);
    }
    const opinions = new Map<number, Row>();
    if (withOpinion.length > 0) {
      const rows = (
        await c.query<Row>(
          `INSERT INTO judge_opinions (result_id, model, outcome, verdict, reason, created_at)
           SELECT t.result_id, t.model, t.outcome, t.verdict, t.reason, $1
           FROM unnest($2::bigint[], $3::text[], $4::text[], $5::text[], $6::text[]) WITH ORDINALITY AS t(result_id, model, outcome, verdict, reason, n)
           ORDER BY t.n RETURNING *`,
          [now, withOpinion.map((x) => x.resultId), withOpinion.map((x) => x.j.model), withOpinion.map((x) => x.j.outcome), withOpinion.map((x) => x.j.verdict), withOpinion.map((x) => x.j.reason)],
        )
      ).rows;
      for (const r of rows) opinions.set(Number(r.result_id), r);
    }
    for (const result of results) {
      entries.row('citation_results', result);
      const p = closest.get(result.id);
      if (p) entries.row('closest_passages', p);
      const j = opinions.get(result.id);
      if (j) entries.row('judge_opinions', j);
    }
  }
}

/** `fn` in one transaction whose collected entries are appended at its end. */
function write<T>(ctx: PgContext, operation: string, now: string, fn: (c: pg.ClientBase, entries: Entries) => Promise<T>): Promise<T> {
  return pgTransaction(ctx, operation, async (c) => {
    const entries = new Entries();
    const value = await fn(c, entries);
    await appendEntries(c, entries.list, now);
    return value;
  });
}

export function pgRuns(ctx: PgContext): RunsArea {
  return {
    importAnswer: (imp, run, now) =>
      write(ctx, 'import an answer', now, async (c, entries): Promise<StartedRun> => {
        const { answerId, citationIds } = await insertImport(c, ctx, imp, entries, now);
        const runId = await insertRun(c, answerId, run, null, entries, now);
        await insertOutcomes(c, runId, citationIds, run.outcomes, entries, now);
        entries.action('answer.verify', runEntryPayload(answerId, runId, run.verifier, run.summary.byStatus));
        return { answerId, citationIds, runId };
      }),

    recordRun: (answerId, citationIds, run, now) =>
      write(ctx, 'record a verification run', now, async (c, entries) => {
        const runId = await insertRun(c, answerId, run, null, entries, now);
        await insertOutcomes(c, runId, citationIds, run.outcomes, entries, now);
        entries.action('answer.verify', runEntryPayload(answerId, runId, run.verifier, run.summary.byStatus));
        return runId;
      }),

    beginRun: (start: BatchedRunStart, run, now) =>
      write(ctx, 'start a verification run', now, async (c, entries): Promise<StartedRun> => {
        const begun = 'import' in start ? await insertImport(c, ctx, start.import, entries, now) : { answerId: start.answerId, citationIds: [...start.citationIds] };
        return { ...begun, runId: await insertRun(c, begun.answerId, run, run.planned, entries, now) };
      }),

    recordBatch: (runId, citationIds, outcomes, now) =>
      write(ctx, "record a batch of a run's results", now, (c, entries) => insertOutcomes(c, runId, citationIds, outcomes, entries, now)),

    endRun: (answerId, runId, end, now) =>
      write(ctx, 'end a verification run', now, async (c, entries) => {
        entries.row(
          'verification_run_ends',
          await insertOne(c, 'INSERT INTO verification_run_ends (run_id, state, done, summary, risk_flags, created_at) VALUES ($1, $2, $3, $4, $5, $6) RETURNING *', [
            runId,
            end.state,
            end.done,
            JSON.stringify(end.summary),
            JSON.stringify(end.riskFlags),
            now,
          ]),
        );
        entries.action('answer.verify', runEndEntryPayload(answerId, runId, end.verifier, end.summary.byStatus, end.planned, end.done, end.state));
      }),
  };
}
