import { describe, expect, it } from 'vitest';
import { runCli, type CliIo } from '../../../electron/cli/main.ts';
import type { AnswerDetail } from '../../../shared/contract/answer-schemas.ts';
import { VerificationResult } from '../../../shared/verification/result-schema.ts';
import { writeFile } from '../../support/pdf-fixtures.ts';
import { nativeAnswer, type PolicyWorkspace, withPolicyWorkspace } from '../../support/policy-workspace.ts';
import { type TestServices, workspaceSnapshot } from '../../support/workspace.ts';

function capture(): CliIo & { stdout: string[]; stderr: string[] } {
  const stdout: string[] = [];
  const stderr: string[] = [];
  return { stdout, stderr, out: (t) => stdout.push(t), err: (t) => stderr.push(t) };
}

describe('evidesk verify and evidesk ask', () => {
  let services: TestServices;
  let ws: PolicyWorkspace;
  withPolicyWorkspace((opened) => ({ services, ws } = opened));

  const good = () =>
    nativeAnswer([
      { marker: '1', claim: 'Employees receive 14 days of annual leave.', quote: '14 days of annual leave per calendar year', source: { file: 'HR_Policy.pdf' }, locator: { page: 3 } },
      { marker: '2', claim: 'New starters receive a laptop on their first day.', quote: 'New starters receive a laptop on their first day.', source: { file: 'onboarding-notes.txt' } },
    ]);

  it('prints a verification@1 document with --json, exits 1 on an unverified citation, and changes nothing', async () => {
    const answer = nativeAnswer([
      { marker: '1', claim: 'Employees receive 14 days of annual leave.', quote: '14 days of annual leave per calendar year', source: { file: 'HR_Policy.pdf' }, locator: { page: 3 } },
      { marker: '2', claim: 'Staff get a company car.', quote: 'Every employee is given a company car.', source: { file: 'HR_Policy.pdf' } },
    ]);
    const file = writeFile(ws.docs, 'answer.json', answer);
    const before = workspaceSnapshot(services);
    const io = capture();
    const code = await runCli(['verify', file, '--json', '--workspace', services.workspaceDir], io);
    expect(io.stderr).toEqual([]);
    expect(code).toBe(1);
    const result = VerificationResult.parse(JSON.parse(io.stdout.join('\n')));
    expect(result.citations.map((c) => c.status)).toEqual(['verified', 'not_found']);
    expect(result.citations[0]?.match).toMatchObject({ file: 'HR_Policy.pdf', page: 3, method: 'exact', text: '14 days of annual leave per calendar year' });
    expect(result.answer.question).toBe('What does the HR policy say?');
    expect(workspaceSnapshot(services)).toBe(before);
  });

  it('exits 0 when every citation is verified and supported; --save stores the answer and its run', async () => {
    const file = writeFile(ws.docs, 'good.json', good());
    const io = capture();
    expect(await runCli(['verify', file, '--workspace', services.workspaceDir], io)).toBe(0);
    const table = io.stdout.join('\n');
    expect(table).toMatch(/marker\s+status\s+verdict\s+score\s+where/);
    expect(table).toMatch(/\[1\]\s+✓ verified\s+supported\s+1\.00\s+HR_Policy\.pdf p\. 3/);
    expect(table).toMatch(/\[2\]\s+✓ verified\s+supported\s+1\.00\s+onboarding-notes\.txt line 3/);
    expect(services.answers.list()).toHaveLength(0);

    const saved = capture();
    expect(await runCli(['verify', file, '--save', '--workspace', services.workspaceDir], saved)).toBe(0);
    expect(saved.stdout.join('\n')).toMatch(/Stored as answer \d+/);
    const list = services.answers.list();
    expect(list).toHaveLength(1);
    expect(list[0]?.latestRun?.summary.byStatus.verified).toBe(2);
  });

  it('reports usage and format errors clearly', async () => {
    const io = capture();
    expect(await runCli(['verify', '--workspace', services.workspaceDir], io)).toBe(2);
    expect(io.stderr.join('\n')).toMatch(/give one answer file/);
    const bad = writeFile(ws.docs, 'notes.txt', 'nothing to see');
    const io2 = capture();
    expect(await runCli(['verify', bad, '--workspace', services.workspaceDir], io2)).toBe(3);
    expect(io2.stderr.join('\n')).toMatch(/notes\.txt is not an answer file.*ANSWER_FORMAT_UNKNOWN/s);
  });

  it('ask answers extractively, or says exactly "Not found in the workspace\'s documents."', async () => {
    const io = capture();
    expect(await runCli(['ask', 'How', 'many', 'days', 'of', 'annual', 'leave', 'do', 'employees', 'receive?', '--json', '--workspace', services.workspaceDir], io)).toBe(0);
    const found = JSON.parse(io.stdout.join('\n')) as AnswerDetail;
    expect(found.answer.format).toBe('evidesk-offline');
    expect(found.citations[0]).toMatchObject({ quote: 'Employees receive 14 days of annual leave per calendar year.', result: { status: 'verified', verdict: 'supported', page: 3, method: 'exact' } });
    expect(found.answer.answerText).toContain('Employees receive 14 days of annual leave per calendar year. [1]');

    const none = capture();
    expect(await runCli(['ask', 'What is the capital of Mongolia?', '--json', '--workspace', services.workspaceDir], none)).toBe(0);
    const notFound = JSON.parse(none.stdout.join('\n')) as AnswerDetail;
    expect(notFound.answer.answerText).toBe("Not found in the workspace's documents.");
    expect(notFound.citations).toEqual([]);
  });
});
