import { describe, expect, it } from 'vitest';
import type { AnswerDetail, AnswerSummaryData } from '../../../shared/contract/answer-schemas.ts';
import type { LibraryChangeResult, PreviousImport } from '../../../shared/contract/library-schemas.ts';
import type { SearchHit, SourceSummary } from '../../../shared/contract/schemas.ts';
import { nativeAnswer, withPolicyWorkspace, type PolicyWorkspace } from '../../support/policy-workspace.ts';
import { callHandler, reopenTestServices, type TestServices } from '../../support/workspace.ts';

const ANSWER = nativeAnswer([
  { marker: '1', claim: 'Staff get 14 days of leave.', quote: 'Employees receive 14 days of annual leave per calendar year.', source: { file: 'HR_Policy.pdf' }, locator: { page: 3 } },
  { marker: '2', claim: 'Probation lasts six months.', quote: 'The probation period lasts six months for all new starters.', source: { file: 'onboarding-notes.txt' } },
]);

// Search itself runs on both engines: test/integration/search/search.test.ts.
describe('housekeeping: rename and remove answers, remove sources', () => {
  let services: TestServices;
  let ws: PolicyWorkspace;
  withPolicyWorkspace((opened) => ({ services, ws } = opened));

  it('renames and removes an answer by appended rows: the list hides it, its trail stays, the audit chain verifies; it survives a restart', async () => {
    const imported = await callHandler<AnswerDetail>(services, 'answers.import', { content: ANSWER, fileName: 'leave.json' });
    const id = imported.answer.id;
    const renamed = await callHandler<LibraryChangeResult>(services, 'answers.rename', { id, name: 'Leave question, March' });
    expect(renamed).toEqual({ id, hidden: false, name: 'Leave question, March' });
    expect((await callHandler<AnswerSummaryData[]>(services, 'answers.list', {})).map((a) => a.name)).toEqual(['Leave question, March']);
    expect((await callHandler<AnswerDetail>(services, 'answers.detail', { id })).answer.name).toBe('Leave question, March');

    await callHandler(services, 'answers.review', { citationId: imported.citations[0]!.id, decision: 'accepted' });
    expect(await callHandler<LibraryChangeResult>(services, 'answers.remove', { id })).toMatchObject({ hidden: true });
    expect(await callHandler<AnswerSummaryData[]>(services, 'answers.list', {})).toEqual([]);
    // Nothing was deleted: the answer, its citations and its review row are still in the record.
    const count = (sql: string) => (services.db.prepare(sql).get() as { n: number }).n;
    expect(count('SELECT count(*) AS n FROM citations')).toBe(2);
    expect(count('SELECT count(*) AS n FROM review_decisions')).toBe(1);
    expect(count("SELECT count(*) AS n FROM library_changes WHERE subject = 'answer'")).toBe(2);
    expect(() => services.db.prepare('DELETE FROM library_changes').run()).toThrow(/append-only/);
    const audit = await callHandler<{ ok: boolean }>(services, 'audit.verify', {});
    expect(audit.ok).toBe(true);

    services = reopenTestServices(services);
    expect(await callHandler<AnswerSummaryData[]>(services, 'answers.list', {})).toEqual([]);
    await callHandler(services, 'answers.restore', { id });
    expect((await callHandler<AnswerSummaryData[]>(services, 'answers.list', {})).map((a) => [a.id, a.name])).toEqual([[id, 'Leave question, March']]);
  });

  it('finds an earlier import of the same file (not of another), and forgets it once that answer is removed', async () => {
    expect(await callHandler(services, 'answers.findImported', { content: ANSWER })).toEqual({ previous: null });
    const imported = await callHandler<AnswerDetail>(services, 'answers.import', { content: ANSWER, fileName: 'leave.json' });
    const found = await callHandler<{ previous: PreviousImport | null }>(services, 'answers.findImported', { content: ANSWER });
    expect(found.previous).toMatchObject({ id: imported.answer.id, name: 'What does the HR policy say?' });
    expect(await callHandler(services, 'answers.findImported', { content: `${ANSWER}\n` })).toEqual({ previous: null });
    await callHandler(services, 'answers.remove', { id: imported.answer.id });
    expect(await callHandler(services, 'answers.findImported', { content: ANSWER })).toEqual({ previous: null });
  });

  it('removes a source from the library and search; citations of it say it was removed; an unknown id is refused', async () => {
    const imported = await callHandler<AnswerDetail>(services, 'answers.import', { content: ANSWER, fileName: 'leave.json' });
    const notes = ws.ids['onboarding-notes.txt']!;
    await callHandler(services, 'sources.remove', { id: notes });
    expect((await callHandler<SourceSummary[]>(services, 'sources.list', {})).map((s) => s.fileName)).toEqual(['HR_Policy.pdf']);
    expect((await callHandler<{ hits: SearchHit[] }>(services, 'search.query', { query: 'probation' })).hits).toEqual([]);
    const detail = await callHandler<AnswerDetail>(services, 'answers.detail', { id: imported.answer.id });
    expect(detail.citations.map((c) => c.source?.removed ?? false)).toEqual([false, true]);
    const refused = await services.dispatch('sources.remove', { id: 9999 });
    expect(refused.ok ? null : refused.error.code).toBe('SOURCE_NOT_FOUND');
    expect((await callHandler<{ ok: boolean }>(services, 'audit.verify', {})).ok).toBe(true);
  });
});
