/**
 * The writes of answers and verification runs on PostgreSQL (issue 13): the `runs` area. Each call
 * is one transaction through the retrying runTransaction, its rows inserted as SQLite's
 * RunWritesStore inserts them (the same columns and JSON text, so rows hash alike) and their audit
 * entries appended last, under the chain's lock, in SQLite's order: each row's entry as it was
 * written, then the action's (`answer.import`, `answer.verify`, payloads in run-entries.ts).
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

export async function insertOne(c: pg.ClientBase, sql: string, params: unknown[]): Promise<Row> {
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

/** The id of the "unknown source" record of a reference, made on first use (its entry then). */
export async function unknownSourceId(c: pg.ClientBase, reference: string, entries: Entries): Promise<number> {
  const added = (await c.query<Row>('INSERT INTO unknown_sources (reference) VALUES ($1) ON CONFLICT (reference) DO NOTHING RETURNING *', [reference])).rows[0];
  if (added) return entries.row('unknown_sources', added);
  const found = (await c.query<{ id: number }>('SELECT id FROM unknown_sources WHERE reference = $1', [reference])).rows[0];
  if (!found) throw new Error('the unknown source was not found');
  return found.id;
}

/** An answer in a project, with its entry. */
export async function insertAnswer(c: pg.ClientBase, project: string, a: NewAnswerImport['answer'], entries: Entries, now: string): Promise<number> {
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

async function insertImport(c: pg.ClientBase, ctx: PgContext, imp: NewAnswerImport, entries: Entries, now: string): Promise<{ answerId: number; citationIds: number[] }> {
  const answerId = await insertAnswer(c, await importProject(c, ctx), imp.answer, entries, now);
  const a = imp.answer;
  const citationIds: number[] = [];
  for (const [ordinal, x] of imp.citations.entries()) {
    const unknownId = x.sourceId === null ? await unknownSourceId(c, x.unknownReference ?? '{}', entries) : null;
    const row = await insertOne(
      c,
      `INSERT INTO citations (answer_id, ordinal, marker, claim, quote, context, source_id, unknown_source_id, claimed_locator, method, confidence, supersedes_id, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, NULL, $12) RETURNING *`,
      [answerId, ordinal, x.marker, x.claim, x.quote, x.context, x.sourceId, unknownId, JSON.stringify(x.claimedLocator), x.method, x.confidence, now],
    );
    citationIds.push(entries.row('citations', row));
  }
  entries.action('answer.import', importEntryPayload(answerId, a, citationIds.length));
  return { answerId, citationIds };
}

export async function insertRun(c: pg.ClientBase, answerId: number, run: { verifier: string; summary: unknown; riskFlags: unknown }, planned: number | null, entries: Entries, now: string): Promise<number> {
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

export async function insertOutcomes(c: pg.ClientBase, runId: number, citationIds: readonly number[], outcomes: readonly NewOutcome[], entries: Entries, now: string): Promise<void> {
  for (const [i, o] of outcomes.entries()) {
    const r = o.result;
    const resultId = entries.row(
      'citation_results',
      await insertOne(
        c,
        `INSERT INTO citation_results (run_id, citation_id, status, verdict, score, confidence, source_id, segment_id, start_offset,
           end_segment_id, end_offset, first_end, last_start, page, page_label, match_method, matched_text, quote, prefix, suffix, notes)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21) RETURNING *`,
        [runId, citationIds[i] ?? 0, r.status, r.verdict, r.score, r.confidence, r.sourceId, r.segmentId, r.startOffset, r.endSegmentId, r.endOffset, r.firstEnd, r.lastStart, r.page, r.pageLabel, r.matchMethod, r.matchedText, r.quote, r.prefix, r.suffix, JSON.stringify(r.notes)],
      ),
    );
    const p = o.closest;
    if (p) {
      // The score clamped into [0, 1] as SQLite's ResultExtrasStore stores it.
      const row = await insertOne(
        c,
        'INSERT INTO closest_passages (result_id, source_id, segment_id, start_offset, end_offset, score, text, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING *',
        [resultId, p.sourceId, p.segmentId, p.start, p.end, Math.max(0, Math.min(1, p.score)), p.text, now],
      );
      entries.row('closest_passages', row);
    }
    const j = o.opinion;
    if (j) {
      const row = await insertOne(c, 'INSERT INTO judge_opinions (result_id, model, outcome, verdict, reason, created_at) VALUES ($1, $2, $3, $4, $5, $6) RETURNING *', [
        resultId,
        j.model,
        j.outcome,
        j.verdict,
        j.reason,
        now,
      ]);
      entries.row('judge_opinions', row);
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
