/**
 * The export service through the contract ('answers.export'), on a live workspace: an answer with
 * no verification run is verified first; a source file gone at export is reported missing, with its
 * snapshot standing in; the workspace id is made once and kept.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { AnswersStore } from '../../../electron/services/store/answers-store.ts';
import type { AnswerDetail } from '../../../shared/contract/answer-schemas.ts';
import type { ExportResult } from '../../../shared/contract/export-schemas.ts';
import { reportFromJson } from '../../../shared/report/json.ts';
import { nativeAnswer, type PolicyWorkspace, withPolicyWorkspace } from '../../support/policy-workspace.ts';
import { callHandler, type TestServices } from '../../support/workspace.ts';

describe("answers.export: what the report is built from", () => {
  let services: TestServices;
  let ws: PolicyWorkspace;
  withPolicyWorkspace((opened) => ({ services, ws } = opened));

  it('verifies an answer that has no run first, and says so', async () => {
    // An answer stored without a run (as an older version could leave one), through the store so the chain records it.
    const store = new AnswersStore(services.db);
    const now = new Date().toISOString();
    const answerId = store.transaction(() => {
      const id = store.insertAnswer({ format: 'native', question: 'Leave?', answerText: 'Leave is 14 days [1].', origin: 'import:old.json', raw: null }, now);
      store.insertCitation(
        { answerId: id, ordinal: 0, marker: '1', claim: 'Leave is 14 days.', quote: 'Employees receive 14 days of annual leave per calendar year.', context: null, sourceId: ws.ids['HR_Policy.pdf'] ?? null, unknownReference: null, claimedLocator: { page: 3 }, method: null, confidence: null, supersedesId: null },
        now,
      );
      return id;
    });
    expect(services.answers.runs(answerId)).toEqual([]);
    const target = path.join(services.dir, 'out', 'report.json');
    fs.mkdirSync(path.dirname(target));
    const result = await callHandler<ExportResult>(services, 'answers.export', { id: answerId, format: 'json', path: target });
    expect(result).toMatchObject({ path: target, format: 'json', verifiedFirst: true, summary: { total: 1, included: 1, unresolved: 0, missingSources: 0 } });
    expect(services.answers.runs(answerId).map((r) => r.id)).toEqual([result.runId]);
    const report = reportFromJson(fs.readFileSync(target, 'utf8'));
    expect(report.citations[0]).toMatchObject({ status: 'verified', verdict: 'supported', match: { unit: 'page', page: 3 } });
    expect(report.contentHash).toBe(result.contentHash);
    expect(fs.statSync(target).size).toBe(result.bytes);
    // A second export uses the same run and the same workspace id.
    const again = await callHandler<ExportResult>(services, 'answers.export', { id: answerId, format: 'json', path: target });
    expect(again).toMatchObject({ verifiedFirst: false, runId: result.runId });
    expect(reportFromJson(fs.readFileSync(target, 'utf8')).provenance.workspaceId).toBe(report.provenance.workspaceId);
  });

  it('a source file gone at export: health missing, the snapshot stands in, and the citation says so', async () => {
    const detail = await callHandler<AnswerDetail>(services, 'answers.import', {
      fileName: 'notes.json',
      content: nativeAnswer([{ marker: '1', claim: 'Probation lasts six months.', quote: 'The probation period lasts six months for all new starters.', source: { file: 'onboarding-notes.txt' } }]),
    });
    fs.rmSync(ws.notes);
    const target = path.join(services.dir, 'report.md');
    const result = await callHandler<ExportResult>(services, 'answers.export', { id: detail.answer.id, format: 'json', path: `${target}.json` });
    expect(result.summary.missingSources).toBe(1);
    const report = reportFromJson(fs.readFileSync(`${target}.json`, 'utf8'));
    expect(report.sources[0]).toMatchObject({ fileName: 'onboarding-notes.txt', health: 'missing', snapshot: true });
    expect(report.citations[0]?.notes.join(' ')).toMatch(/onboarding-notes\.txt was missing at export; the report relies on the workspace's snapshot/);
    await callHandler(services, 'answers.export', { id: detail.answer.id, format: 'md', path: target });
    expect(fs.readFileSync(target, 'utf8')).toMatch(/onboarding-notes.*missing/i);
  });

  it('remembers the reviewer name from one export to the next, and clears it when given empty', async () => {
    const detail = await callHandler<AnswerDetail>(services, 'answers.import', {
      fileName: 'leave.json',
      content: nativeAnswer([{ marker: '1', claim: 'Leave is 14 days.', quote: 'Employees receive 14 days of annual leave per calendar year.', source: { file: 'HR_Policy.pdf' } }]),
    });
    const target = path.join(services.dir, 'r.json');
    const reviewerOf = async (input: Record<string, unknown>) => {
      await callHandler(services, 'answers.export', { id: detail.answer.id, format: 'json', path: target, ...input });
      return reportFromJson(fs.readFileSync(target, 'utf8')).provenance.options.reviewer;
    };
    expect(await reviewerOf({})).toBeNull();
    expect(await reviewerOf({ reviewer: '  A. Analyst ' })).toBe('A. Analyst');
    expect(await reviewerOf({})).toBe('A. Analyst');
    expect(await reviewerOf({ reviewer: '' })).toBeNull();
    expect(await reviewerOf({})).toBeNull();
  });

  it('an unknown answer id: ANSWER_NOT_FOUND, and nothing written', async () => {
    const target = path.join(services.dir, 'nothing.html');
    const reply = await services.dispatch('answers.export', { id: 999, format: 'html', path: target });
    expect(reply.ok).toBe(false);
    if (!reply.ok) expect(reply.error.code).toBe('ANSWER_NOT_FOUND');
    expect(fs.existsSync(target)).toBe(false);
  });
});
