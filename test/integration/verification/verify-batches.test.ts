/**
 * A large answer verified in batches (issue 16 item 4): each batch's results are committed and
 * announced in order; the outcome equals a verification of the whole answer at once; a cancel
 * stops between batches, leaving the batches done stored whole and the rest unwritten; the
 * records stay covered by the audit chain; migration 16 holds over an older workspace. The batches
 * run on both engines (issue 13): on PostgreSQL the notes are moved there first and the import,
 * its batches, its end and the re-verification are written there, as a reviewer.
 */
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { AnswerDetail } from '../../../shared/contract/answer-schemas.ts';
import type { AppEvent, VerifyProgress } from '../../../shared/contract/events.ts';
import { summariseLedger } from '../../../shared/verification/index.ts';
import type { VerificationResult } from '../../../shared/verification/result-schema.ts';
import { AuditService } from '../../../electron/services/audit/audit-service.ts';
import { AnswersStore } from '../../../electron/services/store/answers-store.ts';
import { openDatabase, schemaVersion, type Db } from '../../../electron/services/store/database.ts';
import { addSmallSources, bigAnswer } from '../../support/scale-workspace.ts';
import { auditCheck, ownerSql } from '../../support/engine-rows.ts';
import { describeEngines, type Opened } from '../../support/engines.ts';
import { callHandler, tempDir } from '../../support/workspace.ts';

const CITATIONS = 300;
const BATCH = 40;

const opened: Db[] = [];
afterEach(() => {
  for (const db of opened.splice(0)) if (db.open) db.close();
});

/** What a citation's verification says, for comparing two runs. */
function outcomes(v: VerificationResult): unknown[] {
  return v.citations.map((c) => ({ marker: c.marker, status: c.status, verdict: c.verdict, score: c.score, match: c.match, notes: c.notes }));
}

describeEngines('verification in batches', (engine) => {
  /** Services over 120 notes, verifying in batches of BATCH, with every progress event kept. */
  async function setUp(): Promise<{ s: Opened<unknown>['services']; o: Opened<unknown>; progress: VerifyProgress[] }> {
    const o = await engine.open(async (t) => addSmallSources(t.sources, path.join(t.dir, 'notes'), 120), { verifyBatch: BATCH, as: 'reviewer' });
    const s = o.services;
    const progress: VerifyProgress[] = [];
    s.events.subscribe((e: AppEvent) => {
      if (e.type === 'answers.verifyProgress') progress.push(e);
    });
    return { s, o, progress };
  }

  it('stores and announces each batch in order, and ends as a whole verification would', async () => {
    const { s, o, progress } = await setUp();
    // Every 7th quote is in no note; one citation names a file the workspace does not have.
    const answer = JSON.parse(bigAnswer(CITATIONS, 120)) as { citations: { source: { file: string } }[] };
    (answer.citations[5] as { source: { file: string } }).source = { file: 'missing-memo.pdf' };
    const content = JSON.stringify(answer);

    const whole = await callHandler<VerificationResult>(s, 'answers.check', { content, fileName: 'big.json' });
    const detail = await callHandler<AnswerDetail>(s, 'answers.import', { content, fileName: 'big.json', jobId: 'job-1' });

    // One event per batch, in order, each after its results were stored, then `done`.
    const batches = Math.ceil(CITATIONS / BATCH);
    expect(progress.map((p) => p.phase)).toEqual([...Array<string>(batches).fill('verifying'), 'done']);
    expect(progress.map((p) => p.done)).toEqual([...Array.from({ length: batches }, (_, i) => Math.min(CITATIONS, (i + 1) * BATCH)), CITATIONS]);
    expect(new Set(progress.map((p) => p.runId)).size).toBe(1);
    expect(progress.every((p) => p.jobId === 'job-1' && p.answerId === detail.answer.id && p.total === CITATIONS)).toBe(true);
    const announced = progress.flatMap((p) => p.citationIds);
    expect(announced).toEqual(detail.citations.map((c) => c.id));

    // The same outcome, summary and flags as the whole answer checked at once.
    expect(detail.verification && outcomes(detail.verification)).toEqual(outcomes(whole));
    expect(detail.run?.summary).toEqual(whole.summary);
    expect(detail.run?.riskFlags).toEqual(whole.riskFlags);
    expect(detail.run?.summary.byStatus.not_found).toBeGreaterThan(0);
    expect(detail.run?.summary.byStatus.source_unknown).toBe(1);
    expect(detail.run?.progress).toEqual({ planned: CITATIONS, done: CITATIONS, state: 'complete' });
    const listed = await callHandler<{ id: number; latestRun: { summary: unknown } | null }[]>(s, 'answers.list', {});
    expect(listed.find((a) => a.id === detail.answer.id)?.latestRun?.summary).toEqual(whole.summary);
    expect(await auditCheck(o)).toMatchObject({ ok: true });
  });

  it('stops between batches when cancelled: the batches done are stored whole, the rest not at all', async () => {
    const { s, o, progress } = await setUp();
    const content = bigAnswer(CITATIONS, 120);
    // The analyst cancels as the third batch lands.
    s.events.subscribe((e: AppEvent) => {
      if (e.type === 'answers.verifyProgress' && e.phase === 'verifying' && e.done === 3 * BATCH) void s.dispatch('answers.cancelVerify', { jobId: 'job-2' });
    });
    const detail = await callHandler<AnswerDetail>(s, 'answers.import', { content, fileName: 'big.json', jobId: 'job-2' });

    expect(progress.map((p) => p.phase)).toEqual(['verifying', 'verifying', 'verifying', 'cancelled']);
    expect(progress.at(-1)?.done).toBe(3 * BATCH);
    const runId = progress[0]?.runId ?? 0;
    // Exactly the first three batches' citations have a result of this run: no batch half-written.
    const stored = await ownerSql<{ ordinal: number }>(o, 'SELECT c.ordinal FROM citation_results r JOIN citations c ON c.id = r.citation_id WHERE r.run_id = ? ORDER BY c.ordinal', [runId]);
    expect(stored.map((r) => r.ordinal)).toEqual(Array.from({ length: 3 * BATCH }, (_, i) => i));
    expect(detail.citations.filter((c) => c.result !== null).map((c) => c.ordinal)).toEqual(stored.map((r) => r.ordinal));
    // The answer and all its citations were stored before the first batch.
    expect(detail.citations).toHaveLength(CITATIONS);
    // The run's end says how far it got; its summary counts the citations verified.
    expect(detail.run?.progress).toEqual({ planned: CITATIONS, done: 3 * BATCH, state: 'cancelled' });
    expect(detail.run?.summary.total).toBe(3 * BATCH);
    expect(detail.verification?.citations).toHaveLength(3 * BATCH);
    expect(await auditCheck(o)).toMatchObject({ ok: true });
    // A cancel for a job no longer running finds nothing to stop.
    expect(await callHandler<{ cancelled: boolean }>(s, 'answers.cancelVerify', { jobId: 'job-2' })).toEqual({ cancelled: false });

    // Verifying again completes a new run over every citation; the cancelled run stays as it was.
    progress.length = 0;
    const again = await callHandler<AnswerDetail>(s, 'answers.verify', { id: detail.answer.id });
    expect(again.run?.progress).toEqual({ planned: CITATIONS, done: CITATIONS, state: 'complete' });
    expect(again.citations.every((c) => c.result !== null && c.result.runId === again.run?.id)).toBe(true);
    expect(again.runCount).toBe(2);
    expect((await ownerSql<{ n: number }>(o, 'SELECT count(*) AS n FROM citation_results WHERE run_id = ?', [runId]))[0]?.n).toBe(3 * BATCH);
    expect(progress.at(-1)).toMatchObject({ phase: 'done', done: CITATIONS, jobId: null });
    expect(await auditCheck(o)).toMatchObject({ ok: true });
  });

  it('reads a run left without its end (the app stopped midway) as interrupted, its batches kept', async () => {
    const { s, o } = await setUp();
    const detail = await callHandler<AnswerDetail>(s, 'answers.import', { content: bigAnswer(CITATIONS, 120), fileName: 'big.json' });
    // What an interrupted run looks like: a plan, one batch of results, no end (written through the engine's own writes).
    const ids = detail.citations.map((c) => c.id);
    const now = new Date().toISOString();
    const pending = summariseLedger([]).summary;
    const { runId } = await s.evidence.runs.beginRun({ answerId: detail.answer.id, citationIds: ids }, { verifier: 'evidesk-verifier@1', summary: pending, riskFlags: [], planned: CITATIONS }, now);
    const notFound = { status: 'not_found', verdict: 'not_found', score: 0, confidence: 1, sourceId: null, segmentId: null, startOffset: null, endSegmentId: null, endOffset: null, firstEnd: null, lastStart: null, page: null, pageLabel: null, matchMethod: null, matchedText: null, quote: null, prefix: null, suffix: null, notes: [] };
    await s.evidence.runs.recordBatch(runId, ids.slice(0, BATCH), ids.slice(0, BATCH).map(() => ({ result: notFound, closest: null, opinion: null })), now);
    const after = await callHandler<AnswerDetail>(s, 'answers.detail', { id: detail.answer.id });
    expect(after.run).toMatchObject({ id: runId, progress: { planned: CITATIONS, done: BATCH, state: 'interrupted' } });
    // The citations it did not reach show their result of the complete run before it.
    expect(after.citations.slice(BATCH).every((c) => c.result?.runId === detail.run?.id)).toBe(true);
    expect(after.citations.slice(0, BATCH).every((c) => c.result?.runId === runId)).toBe(true);
    expect(await auditCheck(o)).toMatchObject({ ok: true });
  });
});

describe('migration 16', () => {
  it('adds run plans and ends over a v15 workspace with a run, append-only and in the audit chain', () => {
    const dir = tempDir();
    const before = openDatabase(dir, { targetVersion: 15 });
    const old = new AnswersStore(before);
    old.transaction(() => {
      const answerId = old.insertAnswer({ format: 'native', question: 'q', answerText: 'a', origin: 'test', raw: null }, 'then');
      before.prepare("INSERT INTO verification_runs (answer_id, verifier, summary, risk_flags, created_at) VALUES (?, 'v', '{}', '[]', 'then')").run(answerId);
      old.chain.record('verification_runs', 1, 'then');
    });
    before.close();

    const db = openDatabase(dir, { targetVersion: 16 });
    opened.push(db);
    expect(schemaVersion(db)).toBe(16);
    const store = new AnswersStore(db);
    // The old run reads as one stored whole; its audit entry still matches its row.
    expect(store.run(1)).toMatchObject({ planned: null, end_state: null, done: null, summary: '{}' });
    store.transaction(() => {
      const runId = store.insertRun(1, 'v', { total: 0 }, [], 'now', 10);
      store.insertRunEnd(runId, { state: 'cancelled', done: 0, summary: { total: 0, x: 1 }, riskFlags: [] }, 'now');
    });
    expect(store.run(2)).toMatchObject({ planned: 10, end_state: 'cancelled', done: 0, summary: '{"total":0,"x":1}' });
    expect(() => db.prepare("UPDATE verification_run_ends SET state = 'complete'").run()).toThrow(/append-only/);
    expect(() => db.prepare('DELETE FROM verification_run_ends').run()).toThrow(/append-only/);
    expect(() => db.prepare("INSERT INTO verification_run_ends (run_id, state, done, summary, risk_flags, created_at) VALUES (2, 'complete', 1, '{}', '[]', 'now')").run()).toThrow(/append-only/);
    expect(() => db.prepare('UPDATE verification_runs SET planned = 3').run()).toThrow(/append-only/);
    expect(() => db.prepare("INSERT INTO verification_run_ends (run_id, state, done, summary, risk_flags, created_at) VALUES (1, 'finished', 1, '{}', '[]', 'now')").run()).toThrow(/CHECK/);
    expect(new AuditService(db).check()).toMatchObject({ ok: true });
    // A run's plan changed behind the stores' back is caught.
    db.prepare('DROP TRIGGER verification_runs_no_update').run();
    db.prepare('UPDATE verification_runs SET planned = 11 WHERE id = 2').run();
    expect(new AuditService(db).check()).toMatchObject({ ok: false });
  });
});
