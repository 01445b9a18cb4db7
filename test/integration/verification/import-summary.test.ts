/**
 * answers.importSummary (issue 16): a large import replies with the stored answer's summary and
 * its run, never every citation, and what it says equals what answers.detail (the full answer) then reads back.
 * On both engines (issue 13): on PostgreSQL the notes are moved there first, and the answer is
 * imported, verified and read back there as a reviewer.
 */
import path from 'node:path';
import { expect, it } from 'vitest';
import type { AnswerDetail, AnswerImported } from '../../../shared/contract/answer-schemas.ts';
import { auditCheck } from '../../support/engine-rows.ts';
import { describeEngines } from '../../support/engines.ts';
import { addSmallSources, bigAnswer } from '../../support/scale-workspace.ts';
import { callHandler } from '../../support/workspace.ts';

describeEngines('answers.importSummary', (engine) => {
  it('stores a batched answer whole and replies with its counts and run only', async () => {
    const opened = await engine.open(async (t) => addSmallSources(t.sources, path.join(t.dir, 'notes'), 80), { verifyBatch: 50, as: 'reviewer' });
    const s = opened.services;
    const content = bigAnswer(300, 80);

    const summary = await callHandler<AnswerImported>(s, 'answers.importSummary', { content, fileName: 'big.json' });

    expect(Object.keys(summary).sort()).toEqual(['answer', 'citationCount', 'run']);
    expect(summary.answer).not.toHaveProperty('answerText');
    expect(summary.citationCount).toBe(300);
    expect(summary.run?.progress).toEqual({ planned: 300, done: 300, state: 'complete' });
    // Every 7th quote is in no note (bigAnswer): 42 of 300.
    expect(summary.run?.summary.byStatus.not_found).toBe(42);

    const detail = await callHandler<AnswerDetail>(s, 'answers.detail', { id: summary.answer.id });
    expect(detail.citations).toHaveLength(300);
    expect(detail.citations.every((c) => c.result !== null)).toBe(true);
    expect(detail.run).toEqual(summary.run);
    expect(detail.answer).toMatchObject(summary.answer);
    expect(await auditCheck(opened)).toMatchObject({ ok: true });
  });

  it('replies the same way for a small answer verified at once', async () => {
    const { services: s } = await engine.open(async (t) => addSmallSources(t.sources, path.join(t.dir, 'notes'), 10), { as: 'reviewer' });

    const summary = await callHandler<AnswerImported>(s, 'answers.importSummary', { content: bigAnswer(10, 10), fileName: 'small.json' });

    expect(summary.citationCount).toBe(10);
    expect(summary.run?.progress).toBeUndefined();
    expect(summary.run?.summary.byStatus.not_found).toBe(1);
    const listed = await callHandler<{ id: number; citationCount: number }[]>(s, 'answers.list', {});
    expect(listed).toEqual([expect.objectContaining({ id: summary.answer.id, citationCount: 10 })]);
  });
});
