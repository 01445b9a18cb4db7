// Access levels enforced by PostgreSQL itself (issue 13, Done-when 3): each member connects as its
// own login role; grants and row-level security refuse what its level may not do, and the store
// turns the refusal into a coded error naming the level.
import { beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../../shared/contract/errors.ts';
import { PgStore, type PgSession } from '../../../electron/services/store/postgres/pg-store.ts';
import type { NewAnswerImport } from '../../../electron/services/store/evidence-store.ts';
import { pgEvidenceStore } from '../../../electron/services/store/postgres/pg-evidence-store.ts';
import { pgDocument, withPgTeam } from '../../support/pg-team.ts';

const ctx = withPgTeam();
let sourceId: number;
let sessionA: PgSession;
let sessionB: PgSession;
let citationA: number;
let citationB: number;

beforeAll(async () => {
  const doc = pgDocument('annual-report');
  sourceId = (await ctx.team.admin.addSource(doc.src, doc.pieces())).id;
  sessionA = await ctx.team.agentA.openSession({ sessionKey: 'a-1', projectKey: 'alpha', userId: 'ana' });
  sessionB = await ctx.team.agentB.openSession({ sessionKey: 'b-1', projectKey: 'beta', userId: 'ben' });
  const cite = { marker: '[1]', claim: 'Revenue grew.', quote: 'revenue grew by 3 percent', sourceId, locator: { kind: 'text', paragraph: 4 } };
  citationA = (await ctx.team.agentA.addCitation({ answerId: sessionA.answerId, ...cite })).id;
  citationB = (await ctx.team.agentB.addCitation({ answerId: sessionB.answerId, ...cite })).id;
});

async function refusal(p: Promise<unknown>): Promise<AppError> {
  const e = await p.then(
    () => undefined,
    (x: unknown) => x,
  );
  if (!(e instanceof AppError)) throw new Error(`expected a coded refusal, got ${String(e)}`);
  return e;
}

describe('the auditor', () => {
  it('reads every project and the audit chain', async () => {
    expect((await ctx.team.auditor.citationsOfProject('alpha')).map((c) => c.id)).toEqual([citationA]);
    expect((await ctx.team.auditor.citationsOfProject('beta')).map((c) => c.id)).toEqual([citationB]);
    const report = await ctx.team.auditor.verifyChain();
    expect(report.ok).toBe(true);
  });

  it("has its INSERT and UPDATE refused by PostgreSQL itself, whatever table", async () => {
    const sql = ctx.team.auditor.pool;
    // Thunks: each statement is sent only when its refusal is awaited.
    const attempts = [
      () => sql.query("INSERT INTO review_decisions (citation_id, decision, created_at, reviewer) VALUES ($1, 'accepted', 'now', current_user)", [citationA]),
      () => sql.query("INSERT INTO citations (answer_id, ordinal, marker, claim, source_id, claimed_locator, created_at) VALUES ($1, 9, '[9]', 'x', $2, '{}', 'now')", [sessionA.answerId, sourceId]),
      () => sql.query("UPDATE sources SET title = 'changed' WHERE id = $1", [sourceId]),
      () => sql.query("UPDATE settings SET value = '1'"),
      () => sql.query("INSERT INTO audit_log (action, payload, created_at, prev_hash, hash) VALUES ('x', '{}', 'now', repeat('0', 64), repeat('1', 64))"),
      () => sql.query("SELECT evidesk_audit_head()"),
    ];
    for (const attempt of attempts) await expect(attempt()).rejects.toMatchObject({ code: '42501' });
  });

  it('gets a coded error naming its role from the store', async () => {
    const e = await refusal(ctx.team.auditor.addDecision({ citationId: citationA, decision: 'accepted' }));
    expect(e.code).toBe('DATABASE_ROLE_REFUSED');
    expect(e.details).toMatchObject({ role: 'auditor', sqlstate: '42501' });
    expect(e.message).toContain('The auditor role may not record a review decision');
    const doc = pgDocument('auditor-upload');
    const s = await refusal(ctx.team.auditor.addSource(doc.src, doc.pieces()));
    expect(s.code).toBe('DATABASE_ROLE_REFUSED');
    expect(s.details).toMatchObject({ role: 'auditor' });
  });
});

describe('agents', () => {
  it("cannot read another project's citations, answers or sessions", async () => {
    expect(await ctx.team.agentB.citationsOfProject('alpha')).toEqual([]);
    expect((await ctx.team.agentA.citationsOfProject('alpha')).map((c) => c.id)).toEqual([citationA]);
    const seen = await ctx.team.agentB.pool.query<{ id: number }>('SELECT id FROM citations ORDER BY id');
    expect(seen.rows.map((r) => r.id)).toEqual([citationB]);
    const answers = await ctx.team.agentB.pool.query<{ project_key: string }>('SELECT DISTINCT project_key FROM answers');
    expect(answers.rows).toEqual([{ project_key: 'beta' }]);
    const contexts = await ctx.team.agentB.pool.query('SELECT * FROM citation_contexts WHERE project_id = $1', ['alpha']);
    expect(contexts.rowCount).toBe(0);
  });

  it('read the shared pool of sources and their snapshots', async () => {
    const r = await ctx.team.agentB.pool.query<{ id: number }>('SELECT id FROM sources');
    expect(r.rows.map((x) => x.id)).toEqual([sourceId]);
  });

  it("cite only in their own sessions and projects, and add no source", async () => {
    const cite = { marker: '[2]', claim: 'x', quote: null, sourceId, locator: { kind: 'text', paragraph: 1 } };
    const intoOther = await refusal(ctx.team.agentB.addCitation({ answerId: sessionA.answerId, ...cite }));
    expect(intoOther.code).toBe('DATABASE_ROLE_REFUSED');
    expect(intoOther.details).toMatchObject({ role: 'agent', sqlstate: '42501' });
    // Another agent of the same project may read the session's citations but not cite into it.
    const colleague = await ctx.team.member('agent_a_colleague', 'agent', ['alpha']);
    expect((await colleague.citationsOfProject('alpha')).map((c) => c.id)).toEqual([citationA]);
    const intoColleague = await refusal(colleague.addCitation({ answerId: sessionA.answerId, ...cite }));
    expect(intoColleague.details).toMatchObject({ role: 'agent', sqlstate: '42501' });
    await expect(ctx.team.agentB.openSession({ sessionKey: 'b-in-alpha', projectKey: 'alpha', userId: 'ben' })).rejects.toMatchObject({ code: 'DATABASE_ROLE_REFUSED' });
    const doc = pgDocument('agent-upload');
    const s = await refusal(ctx.team.agentA.addSource(doc.src, doc.pieces()));
    expect(s.details).toMatchObject({ role: 'agent' });
    expect(s.message).toContain('The agent role may not add a source');
  });

  it('may not review, nor read the audit log', async () => {
    const e = await refusal(ctx.team.agentA.addDecision({ citationId: citationA, decision: 'accepted' }));
    expect(e.details).toMatchObject({ role: 'agent', sqlstate: '42501' });
    await expect(ctx.team.agentA.pool.query('SELECT * FROM audit_log')).rejects.toMatchObject({ code: '42501' });
  });
});

describe('reviewers and admins', () => {
  it('a reviewer decides on citations of its projects only', async () => {
    const ok = await ctx.team.reviewerA.addDecision({ citationId: citationA, decision: 'accepted', note: 'Checked on page 1.' });
    expect(ok.id).toBeGreaterThan(0);
    const other = await refusal(ctx.team.reviewerA.addDecision({ citationId: citationB, decision: 'rejected' }));
    expect(other.details).toMatchObject({ role: 'reviewer', sqlstate: '42501' });
    const forged = ctx.team.reviewerA.pool.query("INSERT INTO review_decisions (citation_id, decision, created_at, reviewer) VALUES ($1, 'accepted', 'now', 'someone-else')", [citationA]);
    await expect(forged).rejects.toMatchObject({ code: '42501' });
  });

  it('an admin adds sources and manages settings; the chain records every write', async () => {
    const doc = pgDocument('policy-memo');
    const added = await ctx.team.admin.addSource(doc.src, doc.pieces());
    expect(added.created).toBe(true);
    await ctx.team.admin.pool.query("INSERT INTO settings (key, value, updated_at) VALUES ('maxPdfPages', '2000', 'now')");
    await expect(ctx.team.reviewerA.pool.query("INSERT INTO settings (key, value, updated_at) VALUES ('x', '1', 'now')")).rejects.toMatchObject({ code: '42501' });
    const report = await ctx.team.auditor.verifyChain();
    // Its end held to the head the database records (audit_head, migration 13).
    expect(report).toMatchObject({ ok: true, anchored: true });
    expect(report.recordedHead?.count).toBe(report.entries);
    expect(report.entries).toBe(report.evidenceRows);
  });
});

describe('connecting', () => {
  it('reports a refused login and an unreachable server as coded errors', async () => {
    const wrong = await refusal(PgStore.connect(ctx.server.urlFor(`${ctx.server.loginPrefix}agent_a`, 'not-the-password')));
    expect(wrong.code).toBe('DATABASE_ROLE_REFUSED');
    expect(wrong.details).toMatchObject({ sqlstate: '28P01', login: `${ctx.server.loginPrefix}agent_a` });
    // Port 1 on loopback: nothing listens there.
    const gone = await refusal(PgStore.connect('postgres://someone:pw@127.0.0.1:1/evidesk'));
    expect(gone.code).toBe('DATABASE_UNREACHABLE');
  });
});

describe('live updates', () => {
  it("bring a teammate's decision to every open app, which reads it only as its level may", async () => {
    const agentFeed = await ctx.team.agentA.changes();
    const outsiderFeed = await ctx.team.agentB.changes();
    try {
      // A refused write is rolled back and notifies no one: the first change each feed sees is the decision.
      await refusal(ctx.team.auditor.addDecision({ citationId: citationA, decision: 'rejected' }));
      const decided = await ctx.team.reviewerA.addDecision({ citationId: citationA, decision: 'flagged', note: 'Page number looks wrong.' });
      const seen = await agentFeed.next();
      expect(seen.value).toEqual({ table: 'review_decisions', id: decided.id });
      const row = await ctx.team.agentA.pool.query<{ decision: string; reviewer: string }>('SELECT decision, reviewer FROM review_decisions WHERE id = $1', [seen.value?.id]);
      expect(row.rows).toEqual([{ decision: 'flagged', reviewer: ctx.team.reviewerA.who.login }]);
      // Notifications are not filtered by row-level security: they carry no content, and the
      // outsider, told of the row, cannot read it.
      const told = await outsiderFeed.next();
      expect(told.value).toEqual({ table: 'review_decisions', id: decided.id });
      expect((await ctx.team.agentB.pool.query('SELECT 1 FROM review_decisions WHERE id = $1', [decided.id])).rowCount).toBe(0);
    } finally {
      await agentFeed.close();
      await outsiderFeed.close();
    }
    expect((await agentFeed.next()).done).toBe(true);
  });
});

describe('verification runs and results (migration 4)', () => {
  /** Runs `fn` on a connection of `store` inside a transaction that is always rolled back (the chain stays as it was). */
  async function rolledBack<T>(store: PgStore, fn: (c: import('pg').PoolClient) => Promise<T>): Promise<T> {
    const c = await store.pool.connect();
    try {
      await c.query('BEGIN');
      return await fn(c);
    } finally {
      await c.query('ROLLBACK');
      c.release();
    }
  }
  const run = "INSERT INTO verification_runs (answer_id, verifier, summary, risk_flags, created_at) VALUES ($1, 'anchoring', '{}', '[]', 'now') RETURNING id";

  it("are written by the project's reviewers, refused to an outsider and an auditor, and append-only even to the owner", async () => {
    const id = await rolledBack(ctx.team.reviewerA, async (c) => (await c.query<{ id: number }>(run, [sessionA.answerId])).rows[0]?.id);
    expect(id).toBeGreaterThan(0);
    await expect(rolledBack(ctx.team.agentB, (c) => c.query(run, [sessionA.answerId]))).rejects.toMatchObject({ code: '42501' });
    await expect(rolledBack(ctx.team.auditor, (c) => c.query(run, [sessionA.answerId]))).rejects.toMatchObject({ code: '42501' });
    // Even the owner, who owns the table, cannot change a run: the trigger refuses it.
    const owner = ctx.team.owner;
    await owner.query('BEGIN');
    try {
      const made = (await owner.query<{ id: number }>(run, [sessionA.answerId])).rows[0]?.id;
      await expect(owner.query("UPDATE verification_runs SET verifier = 'changed' WHERE id = $1", [made])).rejects.toMatchObject({ code: 'EV001' });
    } finally {
      await owner.query('ROLLBACK');
    }
  });
});

describe('imports and verification runs (the runs area)', () => {
  const leave = { marker: '1', claim: 'Revenue grew.', quote: 'revenue grew by 3 percent', context: null, unknownReference: null, claimedLocator: {}, method: null, confidence: null };
  const anImport = (sourceIdOf: number): NewAnswerImport => ({
    answer: { format: 'evidence-desk/answer@1', question: 'Q?', answerText: 'Revenue grew [1].', origin: 'import:a.json', raw: '{}' },
    citations: [{ ...leave, sourceId: sourceIdOf }, { ...leave, marker: '2', sourceId: null, unknownReference: '{"file":"memo.pdf"}' }],
  });
  const summary = { total: 2, byStatus: { verified: 0, verified_elsewhere: 0, partial: 0, not_found: 2, source_unknown: 0, no_quote: 0 }, byVerdict: { supported: 0, weak: 0, contradicted: 0, not_found: 2 } };
  const notFound = { status: 'not_found', verdict: 'not_found', score: 0, confidence: 1, sourceId: null, segmentId: null, startOffset: null, endSegmentId: null, endOffset: null, firstEnd: null, lastStart: null, page: null, pageLabel: null, matchMethod: null, matchedText: null, quote: null, prefix: null, suffix: null, notes: [] };
  const run = { verifier: 'evidesk-verifier@1', summary: summary as never, riskFlags: [], outcomes: [0, 1].map(() => ({ result: notFound, closest: null, opinion: null })) };
  const answers = async () => (await ctx.team.owner.query<{ n: number }>('SELECT count(*)::integer AS n FROM answers')).rows[0]?.n;

  it("a reviewer imports into its project, which another project's agent cannot see; that project's agent records a run", async () => {
    const stored = await pgEvidenceStore(ctx.team.reviewerA).runs.importAnswer(anImport(sourceId), run, new Date().toISOString());
    expect((await ctx.team.owner.query<{ project_key: string }>('SELECT project_key FROM answers WHERE id = $1', [stored.answerId])).rows[0]?.project_key).toBe('alpha');
    expect(await pgEvidenceStore(ctx.team.agentB).answers.answer(stored.answerId)).toBeUndefined();
    const runId = await pgEvidenceStore(ctx.team.agentA).runs.recordRun(stored.answerId, stored.citationIds, run, new Date().toISOString());
    expect((await pgEvidenceStore(ctx.team.reviewerA).answers.runs(stored.answerId)).map((r) => r.id)).toEqual([stored.runId, runId]);
    expect((await ctx.team.auditor.verifyChain()).ok).toBe(true);
  });

  it("an auditor's or an agent's import is refused by PostgreSQL, naming the role, and nothing of it is kept", async () => {
    const before = await answers();
    const byAuditor = await refusal(pgEvidenceStore(ctx.team.auditor).runs.importAnswer(anImport(sourceId), run, new Date().toISOString()));
    expect(byAuditor).toMatchObject({ code: 'DATABASE_ROLE_REFUSED', details: { role: 'auditor' } });
    expect(byAuditor.message).toContain('The auditor role may not import an answer');
    // An agent may open sessions, not import: its answer row is allowed, its citations are not, and the whole import rolls back.
    const byAgent = await refusal(pgEvidenceStore(ctx.team.agentA).runs.importAnswer(anImport(sourceId), run, new Date().toISOString()));
    expect(byAgent).toMatchObject({ code: 'DATABASE_ROLE_REFUSED', details: { role: 'agent', sqlstate: '42501' } });
    expect(await answers()).toBe(before);
    // A reviewer adds no citation to an agent's session.
    await expect(
      ctx.team.reviewerA.pool.query("INSERT INTO citations (answer_id, ordinal, marker, claim, source_id, claimed_locator, created_at) VALUES ($1, 9, '[9]', 'x', $2, '{}', 'now')", [sessionA.answerId, sourceId]),
    ).rejects.toMatchObject({ code: '42501' });
  });
});
