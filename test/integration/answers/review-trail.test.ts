/**
 * The review trail through the real services on a real workspace (issue 9 item 4, issue 12 item 3),
 * on both engines (issue 13, Done-when 1): every decision, clear and undo is a new row with the
 * reviewer's name; accepting a citation whose quote or source was not found, or whose claim is
 * contradicted, needs a note; the chain verifies. On PostgreSQL the answers were imported locally
 * and moved; the reviews are then written to and read back from PostgreSQL, as a reviewer member.
 */
import { randomBytes } from 'node:crypto';
import { expect, it } from 'vitest';
import { readAnswerFile } from '../../../electron/cli/answer-file.ts';
import { createServices } from '../../../electron/services/create-services.ts';
import { pgEvidenceStore } from '../../../electron/services/store/postgres/pg-evidence-store.ts';
import { PgStore } from '../../../electron/services/store/postgres/pg-store.ts';
import { ensureProject, grantInProject } from '../../../electron/services/store/postgres/team.ts';
import { SettingsStore } from '../../../electron/services/store/settings-store.ts';
import { ReviewService } from '../../../electron/services/verification/review-service.ts';
import type { AnswerDetail, AnswerSummaryData, ReviewData } from '../../../shared/contract/answer-schemas.ts';
import { auditCheck, ownerSql } from '../../support/engine-rows.ts';
import { describeEngines, type Opened } from '../../support/engines.ts';
import { writeFile } from '../../support/pdf-fixtures.ts';
import { nativeAnswer, policyWorkspace } from '../../support/policy-workspace.ts';
import { callHandler, testPlatform, type TestServices } from '../../support/workspace.ts';

const CITATIONS = [
  { marker: '1', claim: 'Employees receive 14 days of annual leave per year.', quote: 'Employees receive 14 days of annual leave per calendar year.', source: { file: 'HR_Policy.pdf' }, locator: { page: 3 } },
  { marker: '2', claim: 'Staff may work from home on Fridays.', quote: 'Employees may work from home on Fridays without approval.', source: { file: 'HR_Policy.pdf' }, locator: { page: 3 } },
  { marker: '3', claim: 'Employees receive 15 days of annual leave.', quote: '14 days of annual leave', source: { file: 'HR_Policy.pdf' }, locator: { page: 3 } },
  { marker: '4', claim: 'The 2023 budget was approved.', quote: 'The budget for 2023 was approved by the board.', source: { file: 'Budget_2023.xlsx' } },
];

/** One answer per test: each test reviews its own, in one workspace the suite shares. */
const ANSWERS = ['trail', 'notes', 'names', 'team'] as const;
type Prepared = Record<(typeof ANSWERS)[number], AnswerDetail>;

async function failure(services: TestServices, name: 'answers.review' | 'answers.undoReview', input: unknown): Promise<{ code: string; message: string }> {
  const r = await services.dispatch(name, input);
  if (r.ok) throw new Error(`${name} succeeded: ${JSON.stringify(r.value)}`);
  return r.error;
}

describeEngines('the review trail', (engine) => {
  let shared: Promise<Opened<Prepared>> | undefined;
  const open = () =>
    (shared ??= engine.open(
      async (s) => {
        const ws = await policyWorkspace(s);
        const out: Partial<Prepared> = {};
        for (const name of ANSWERS) out[name] = await callHandler<AnswerDetail>(s, 'answers.import', readAnswerFile(writeFile(ws.docs, `${name}.json`, nativeAnswer(CITATIONS))));
        return out as Prepared;
      },
      { as: 'reviewer', scope: 'suite' },
    ));
  async function imported(name: (typeof ANSWERS)[number]) {
    const opened = await open();
    const detail = opened.prepared[name];
    const id = (marker: string) => detail.citations.find((c) => c.marker === marker)?.id ?? 0;
    return { opened, services: opened.services, detail, id };
  }
  const citation = async (services: TestServices, answerId: number, citationId: number) =>
    (await callHandler<AnswerDetail>(services, 'answers.detail', { id: answerId })).citations.find((c) => c.id === citationId);

  it('keeps every decision, clear and undo as a row with who, when, what and note; the newest row is in force', async () => {
    const { opened, services, detail, id } = await imported('trail');
    expect(services.evidence.engine).toBe(engine.name);
    // On PostgreSQL a row names the member who wrote it (row-level security holds a reviewer to its
    // own login), whatever name is given; on SQLite, the name given or remembered.
    const login = services.evidence.member.login;
    const ann = engine.name === 'sqlite' ? 'Ann Analyst' : login;
    const bo = engine.name === 'sqlite' ? 'Bo Boss' : login;
    const c1 = id('1');
    await callHandler(services, 'answers.review', { citationId: c1, decision: 'accepted', reviewer: 'Ann Analyst' });
    await callHandler(services, 'answers.review', { citationId: c1, decision: 'rejected', note: 'Wrong year.' });
    await callHandler(services, 'answers.review', { citationId: c1, decision: 'cleared' });
    let now = await citation(services, detail.answer.id, c1);
    expect(now?.review).toBeNull();
    expect(now?.history.map((r) => [r.decision, r.note, r.reviewer, r.undoesId])).toEqual([
      ['accepted', null, ann, null],
      ['rejected', 'Wrong year.', ann, null],
      ['cleared', null, ann, null],
    ]);
    for (const r of now?.history ?? []) expect(Number.isNaN(Date.parse(r.createdAt))).toBe(false);
    const [a, b, c] = now?.history ?? [];
    expect([a?.supersedesId, b?.supersedesId, c?.supersedesId]).toEqual([null, a?.id, b?.id]);

    // Undo steps back one row at a time: the clear, then the rejection; each undo is a new row.
    const u1 = await callHandler<ReviewData>(services, 'answers.undoReview', { citationId: c1, reviewer: 'Bo Boss' });
    expect(u1).toMatchObject({ decision: 'rejected', note: 'Wrong year.', undoesId: c?.id, reviewer: bo });
    const u2 = await callHandler<ReviewData>(services, 'answers.undoReview', { citationId: c1 });
    expect(u2).toMatchObject({ decision: 'accepted', note: null, undoesId: b?.id, reviewer: bo });
    now = await citation(services, detail.answer.id, c1);
    expect(now?.review).toMatchObject({ id: u2.id, decision: 'accepted' });
    expect(now?.history).toHaveLength(5);
    const u3 = await callHandler<ReviewData>(services, 'answers.undoReview', { citationId: c1 });
    expect(u3).toMatchObject({ decision: 'cleared', undoesId: a?.id });
    expect((await failure(services, 'answers.undoReview', { citationId: c1 })).code).toBe('REVIEW_NO_DECISION');
    expect((await failure(services, 'answers.review', { citationId: c1, decision: 'cleared' })).code).toBe('REVIEW_NO_DECISION');

    // Nothing was changed in place: six rows, and the chain still verifies.
    expect(await ownerSql(opened, 'SELECT count(*) AS n FROM review_decisions WHERE citation_id = ?', [c1])).toEqual([{ n: 6 }]);
    await expect(ownerSql(opened, "UPDATE review_decisions SET reviewer = 'Mallory'")).rejects.toThrow(/append-only/);
    expect(await auditCheck(opened)).toMatchObject({ ok: true });
    const entries = await ownerSql<{ action: string; payload: string }>(opened, "SELECT action, payload FROM audit_log WHERE action LIKE 'citation.review%' ORDER BY id");
    const mine = entries.filter((e) => (JSON.parse(e.payload) as { answerId: number }).answerId === detail.answer.id);
    expect(mine.map((x) => x.action)).toEqual(['citation.review', 'citation.review', 'citation.review', 'citation.review.undo', 'citation.review.undo', 'citation.review.undo']);
  });

  it('refuses to accept a not-found, unknown-source or contradicted citation without a note, and accepts it with one', async () => {
    const { opened, services, detail, id } = await imported('notes');
    const statuses = Object.fromEntries(detail.citations.map((c) => [c.marker, [c.result?.status, c.result?.verdict]]));
    expect(statuses['2']?.[0]).toBe('not_found');
    expect(statuses['3']?.[1]).toBe('contradicted');
    expect(statuses['4']?.[0]).toBe('source_unknown');
    for (const marker of ['2', '3', '4']) {
      const err = await failure(services, 'answers.review', { citationId: id(marker), decision: 'accepted' });
      expect(err.code, marker).toBe('REVIEW_NOTE_REQUIRED');
      expect(err.message).toContain(`[${marker}]`);
      // A blank note is no note.
      expect((await failure(services, 'answers.review', { citationId: id(marker), decision: 'accepted', note: '   ' })).code).toBe('REVIEW_NOTE_REQUIRED');
      // Rejecting or flagging needs none.
      await callHandler(services, 'answers.review', { citationId: id(marker), decision: 'flagged' });
    }
    const accepted = "SELECT count(*) AS n FROM review_decisions r JOIN citations c ON c.id = r.citation_id WHERE c.answer_id = ? AND r.decision = 'accepted'";
    expect(await ownerSql(opened, accepted, [detail.answer.id])).toEqual([{ n: 0 }]);
    const ok = await callHandler<ReviewData>(services, 'answers.review', { citationId: id('2'), decision: 'accepted', note: '  Confirmed by phone with HR.  ' });
    expect(ok).toMatchObject({ decision: 'accepted', note: 'Confirmed by phone with HR.' });
    // A verified citation is accepted without one.
    await callHandler(services, 'answers.review', { citationId: id('1'), decision: 'accepted' });
    expect(await ownerSql(opened, accepted, [detail.answer.id])).toEqual([{ n: 2 }]);
    expect(await auditCheck(opened)).toMatchObject({ ok: true });
  });

  it('remembers the reviewer name, records it on each decision, offers it for exports, and counts progress per answer', async () => {
    const { services, detail, id } = await imported('names');
    const login = services.evidence.member.login;
    // The remembered name is the local workspace's setting on both engines; the row records it on
    // SQLite, and the member's login on PostgreSQL (see the first test). The suite's workspace is
    // shared and its first test named reviewers: forget the name first.
    services.review.setReviewer(null);
    expect(await callHandler(services, 'answers.reviewer', {})).toEqual({ name: null });
    const anonymous = await callHandler<ReviewData>(services, 'answers.review', { citationId: id('1'), decision: 'flagged' });
    expect(anonymous.reviewer).toBe(engine.name === 'sqlite' ? null : login);
    expect(await callHandler(services, 'answers.setReviewer', { name: '  Ann Analyst ' })).toEqual({ name: 'Ann Analyst' });
    const named = await callHandler<ReviewData>(services, 'answers.review', { citationId: id('1'), decision: 'accepted' });
    expect(named.reviewer).toBe(engine.name === 'sqlite' ? 'Ann Analyst' : login);
    expect(await callHandler(services, 'answers.exportDefaults', {})).toEqual({ reviewer: 'Ann Analyst' });
    // A name given with a decision is recorded and remembered.
    await callHandler(services, 'answers.review', { citationId: id('2'), decision: 'rejected', reviewer: 'Bo Boss' });
    expect(await callHandler(services, 'answers.reviewer', {})).toEqual({ name: 'Bo Boss' });
    const invalid = await services.dispatch('answers.setReviewer', { name: '' });
    expect(invalid.ok ? null : invalid.error.code).toBe('INVALID_INPUT');

    let list = await callHandler<AnswerSummaryData[]>(services, 'answers.list', {});
    expect(list.find((a) => a.id === detail.answer.id)).toMatchObject({ citationCount: 4, reviewedCount: 2 });
    await callHandler(services, 'answers.review', { citationId: id('1'), decision: 'cleared' });
    list = await callHandler<AnswerSummaryData[]>(services, 'answers.list', {});
    expect(list.find((a) => a.id === detail.answer.id)).toMatchObject({ reviewedCount: 1 });
    // Opened again (as a restart of the app does), the name is still there.
    const again = Object.assign(createServices(testPlatform(), services.workspaceDir, { evidence: services.evidence }), { dir: services.dir });
    try {
      expect(await callHandler(again, 'answers.reviewer', {})).toEqual({ name: 'Bo Boss' });
    } finally {
      again.close();
    }
  });

  if (engine.name === 'postgres') {
    it('on a shared workspace, decisions at once on one citation take turns; an auditor may not decide, and nothing of a refused decision is kept', async () => {
      const { opened, services, id } = await imported('team');
      const c3 = id('3');
      // Five decisions at once through the service: each supersedes the one before it, none forks the line.
      const made = await Promise.all(['A', 'B', 'C', 'D', 'E'].map((n) => callHandler<ReviewData>(services, 'answers.review', { citationId: c3, decision: 'flagged', note: `Look again (${n}).` })));
      const trail = await ownerSql<{ id: number; supersedes_id: number | null }>(opened, 'SELECT id, supersedes_id FROM review_decisions WHERE citation_id = ? ORDER BY id', [c3]);
      expect(trail.map((r) => r.supersedes_id)).toEqual([null, ...trail.slice(0, -1).map((r) => r.id)]);
      expect(new Set(made.map((r) => r.id))).toEqual(new Set(trail.map((r) => r.id)));

      // An auditor reads the trail but PostgreSQL refuses its decision, naming the level.
      const auditor = await engine.connectAs(opened.database!, 'auditor');
      const theirs = new ReviewService(auditor, new SettingsStore(services.db));
      await expect(theirs.decide(c3, 'rejected', 'Audit says no.')).rejects.toMatchObject({
        code: 'DATABASE_ROLE_REFUSED',
        message: expect.stringContaining('auditor role may not record a review decision'),
      });
      expect(await auditor.reviews.history(c3)).toHaveLength(5);
      expect(await ownerSql(opened, 'SELECT count(*) AS n FROM review_decisions WHERE citation_id = ?', [c3])).toEqual([{ n: 5 }]);
      expect(await auditCheck(opened)).toMatchObject({ ok: true });
    });

    it("on a shared workspace, a reviewer of another project neither sees this project's answers nor decides on them", async () => {
      const { opened, services, detail, id } = await imported('team');
      const c4 = id('4');
      await callHandler(services, 'answers.review', { citationId: c4, decision: 'flagged', note: 'Ask finance.' });
      const database = opened.database!;
      const login = `${database.loginPrefix}outsider`;
      const password = randomBytes(9).toString('hex');
      const owner = await database.owner();
      try {
        await ensureProject(owner, 'other', 'Another engagement');
        await grantInProject(owner, { login, level: 'reviewer', project: 'other', password });
      } finally {
        await owner.end();
      }
      const outsider = pgEvidenceStore(await PgStore.connect(database.urlFor(login, password)));
      const desk = Object.assign(createServices(testPlatform(), services.workspaceDir, { evidence: outsider }), { dir: services.dir });
      try {
        // Row-level security hides the answer, its citations and their trail: they read as absent.
        expect(await callHandler<AnswerSummaryData[]>(desk, 'answers.list', {})).toEqual([]);
        const read = await desk.dispatch('answers.detail', { id: detail.answer.id });
        expect(read.ok ? null : read.error.code).toBe('ANSWER_NOT_FOUND');
        expect((await failure(desk, 'answers.review', { citationId: id('1'), decision: 'rejected', note: 'Not mine to judge.' })).code).toBe('CITATION_NOT_FOUND');
        expect(await outsider.reviews.history(c4)).toEqual([]);
        // The shared pool of sources is everyone's.
        expect((await callHandler<{ fileName: string }[]>(desk, 'sources.list', {})).map((s) => s.fileName).sort()).toEqual(['HR_Policy.pdf', 'onboarding-notes.txt']);
      } finally {
        desk.close();
        await outsider.close();
      }
      // The project's own reviewer sees the decision it recorded.
      expect((await services.evidence.reviews.history(c4)).map((r) => r.note)).toEqual(['Ask finance.']);
    });
  }
});
