/**
 * The review trail through the real services on a real workspace (issue 9 item 4, issue 12 item 3):
 * every decision, clear and undo is a new row with the reviewer's name; accepting a citation whose
 * quote or source was not found, or whose claim is contradicted, needs a note; the chain verifies.
 */
import { describe, expect, it } from 'vitest';
import { readAnswerFile } from '../../../electron/cli/answer-file.ts';
import type { AnswerDetail, AnswerSummaryData, ReviewData } from '../../../shared/contract/answer-schemas.ts';
import { writeFile } from '../../support/pdf-fixtures.ts';
import { nativeAnswer, type PolicyWorkspace, withPolicyWorkspace } from '../../support/policy-workspace.ts';
import { callHandler, reopenTestServices, type TestServices } from '../../support/workspace.ts';

const CITATIONS = [
  { marker: '1', claim: 'Employees receive 14 days of annual leave per year.', quote: 'Employees receive 14 days of annual leave per calendar year.', source: { file: 'HR_Policy.pdf' }, locator: { page: 3 } },
  { marker: '2', claim: 'Staff may work from home on Fridays.', quote: 'Employees may work from home on Fridays without approval.', source: { file: 'HR_Policy.pdf' }, locator: { page: 3 } },
  { marker: '3', claim: 'Employees receive 15 days of annual leave.', quote: '14 days of annual leave', source: { file: 'HR_Policy.pdf' }, locator: { page: 3 } },
  { marker: '4', claim: 'The 2023 budget was approved.', quote: 'The budget for 2023 was approved by the board.', source: { file: 'Budget_2023.xlsx' } },
];

async function failure(services: TestServices, name: 'answers.review' | 'answers.undoReview', input: unknown): Promise<{ code: string; message: string }> {
  const r = await services.dispatch(name, input);
  if (r.ok) throw new Error(`${name} succeeded: ${JSON.stringify(r.value)}`);
  return r.error;
}

describe('the review trail', () => {
  let services: TestServices;
  let ws: PolicyWorkspace;
  withPolicyWorkspace((opened) => ({ services, ws } = opened));

  async function imported(): Promise<{ detail: AnswerDetail; id: (marker: string) => number }> {
    const file = writeFile(ws.docs, 'trail.json', nativeAnswer(CITATIONS));
    const detail = await callHandler<AnswerDetail>(services, 'answers.import', readAnswerFile(file));
    const id = (marker: string) => detail.citations.find((c) => c.marker === marker)?.id ?? 0;
    return { detail, id };
  }
  const citation = async (answerId: number, citationId: number) =>
    (await callHandler<AnswerDetail>(services, 'answers.detail', { id: answerId })).citations.find((c) => c.id === citationId);

  it('keeps every decision, clear and undo as a row with who, when, what and note; the newest row is in force', async () => {
    const { detail, id } = await imported();
    const c1 = id('1');
    await callHandler(services, 'answers.review', { citationId: c1, decision: 'accepted', reviewer: 'Ann Analyst' });
    await callHandler(services, 'answers.review', { citationId: c1, decision: 'rejected', note: 'Wrong year.' });
    await callHandler(services, 'answers.review', { citationId: c1, decision: 'cleared' });
    let now = await citation(detail.answer.id, c1);
    expect(now?.review).toBeNull();
    expect(now?.history.map((r) => [r.decision, r.note, r.reviewer, r.undoesId])).toEqual([
      ['accepted', null, 'Ann Analyst', null],
      ['rejected', 'Wrong year.', 'Ann Analyst', null],
      ['cleared', null, 'Ann Analyst', null],
    ]);
    for (const r of now?.history ?? []) expect(Number.isNaN(Date.parse(r.createdAt))).toBe(false);
    const [a, b, c] = now?.history ?? [];
    expect([a?.supersedesId, b?.supersedesId, c?.supersedesId]).toEqual([null, a?.id, b?.id]);

    // Undo steps back one row at a time: the clear, then the rejection; each undo is a new row.
    const u1 = await callHandler<ReviewData>(services, 'answers.undoReview', { citationId: c1, reviewer: 'Bo Boss' });
    expect(u1).toMatchObject({ decision: 'rejected', note: 'Wrong year.', undoesId: c?.id, reviewer: 'Bo Boss' });
    const u2 = await callHandler<ReviewData>(services, 'answers.undoReview', { citationId: c1 });
    expect(u2).toMatchObject({ decision: 'accepted', note: null, undoesId: b?.id, reviewer: 'Bo Boss' });
    now = await citation(detail.answer.id, c1);
    expect(now?.review).toMatchObject({ id: u2.id, decision: 'accepted' });
    expect(now?.history).toHaveLength(5);
    const u3 = await callHandler<ReviewData>(services, 'answers.undoReview', { citationId: c1 });
    expect(u3).toMatchObject({ decision: 'cleared', undoesId: a?.id });
    expect((await failure(services, 'answers.undoReview', { citationId: c1 })).code).toBe('REVIEW_NO_DECISION');
    expect((await failure(services, 'answers.review', { citationId: c1, decision: 'cleared' })).code).toBe('REVIEW_NO_DECISION');

    // Nothing was changed in place: six rows, and the chain still verifies.
    expect(services.db.prepare('SELECT count(*) AS n FROM review_decisions WHERE citation_id = ?').get(c1)).toEqual({ n: 6 });
    expect(() => services.db.prepare("UPDATE review_decisions SET reviewer = 'Mallory'").run()).toThrow(/append-only/);
    expect(services.audit.check()).toMatchObject({ ok: true });
    const actions = services.db.prepare("SELECT action FROM audit_log WHERE action LIKE 'citation.review%' ORDER BY id").all() as { action: string }[];
    expect(actions.map((x) => x.action)).toEqual(['citation.review', 'citation.review', 'citation.review', 'citation.review.undo', 'citation.review.undo', 'citation.review.undo']);
  });

  it('refuses to accept a not-found, unknown-source or contradicted citation without a note, and accepts it with one', async () => {
    const { detail, id } = await imported();
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
    expect(services.db.prepare("SELECT count(*) AS n FROM review_decisions WHERE decision = 'accepted'").get()).toEqual({ n: 0 });
    const ok = await callHandler<ReviewData>(services, 'answers.review', { citationId: id('2'), decision: 'accepted', note: '  Confirmed by phone with HR.  ' });
    expect(ok).toMatchObject({ decision: 'accepted', note: 'Confirmed by phone with HR.' });
    // A verified citation is accepted without one.
    await callHandler(services, 'answers.review', { citationId: id('1'), decision: 'accepted' });
    expect(services.audit.check()).toMatchObject({ ok: true });
  });

  it('remembers the reviewer name, records it on each decision, offers it for exports, and counts progress per answer', async () => {
    const { detail, id } = await imported();
    expect(await callHandler(services, 'answers.reviewer', {})).toEqual({ name: null });
    const anonymous = await callHandler<ReviewData>(services, 'answers.review', { citationId: id('1'), decision: 'flagged' });
    expect(anonymous.reviewer).toBeNull();
    expect(await callHandler(services, 'answers.setReviewer', { name: '  Ann Analyst ' })).toEqual({ name: 'Ann Analyst' });
    const named = await callHandler<ReviewData>(services, 'answers.review', { citationId: id('1'), decision: 'accepted' });
    expect(named.reviewer).toBe('Ann Analyst');
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
    // Reopened, the name is still there.
    const again = reopenTestServices(services);
    try {
      expect(await callHandler(again, 'answers.reviewer', {})).toEqual({ name: 'Bo Boss' });
    } finally {
      again.close();
    }
  });
});
