/**
 * A local workspace worth moving to PostgreSQL (issue 13): sources of four kinds (PDF, text,
 * Markdown, HTML), an imported answer verified citation by citation (results, an unknown source),
 * review decisions of every kind (accepted, rejected, flagged, cleared, an undo), a renamed and a
 * hidden answer, and an agent's session in a project with a custom source and a verified citation.
 */
import { readAnswerFile } from '../../electron/cli/answer-file.ts';
import type { AnswerDetail } from '../../shared/contract/answer-schemas.ts';
import { writeFile } from './pdf-fixtures.ts';
import { ingestAll, nativeAnswer, policyWorkspace } from './policy-workspace.ts';
import { callHandler, openTestServices } from './workspace.ts';

/** Builds the workspace, closes it, and returns its folder. */
export async function workspaceToMigrate(): Promise<string> {
  const services = openTestServices();
  try {
    const ws = await policyWorkspace(services);
    const md = writeFile(ws.docs, 'handbook.md', '# Handbook\n\nStaff travel is booked through the travel desk.\n\n## Expenses\n\nReceipts are kept for seven years.\n');
    const html = writeFile(ws.docs, 'notice.html', '<html><head><title>Notice</title></head><body><h1>Notice</h1><p>The office closes at six on Fridays.</p></body></html>');
    await ingestAll(services, [md, html]);
    const answerFile = writeFile(
      ws.docs,
      'answer.json',
      nativeAnswer([
        { marker: '1', claim: 'Leave is 14 days.', quote: '14 days of annual leave', source: { file: 'HR_Policy.pdf' } },
        { marker: '2', claim: 'Leave is 20 days.', quote: 'Employees receive 20 days of leave', source: { file: 'HR_Policy.pdf' } },
        { marker: '3', claim: 'Receipts are kept.', quote: 'Receipts are kept for seven years.', source: { file: 'handbook.md' } },
        { marker: '4', claim: 'The budget was approved.', quote: 'The budget was approved.', source: { file: 'Budget.xlsx' } },
      ]),
    );
    const detail = await callHandler<AnswerDetail>(services, 'answers.import', readAnswerFile(answerFile));
    const id = (i: number): number => detail.citations[i]?.id ?? 0;
    await callHandler(services, 'answers.review', { citationId: id(0), decision: 'accepted', reviewer: 'Ana' });
    await callHandler(services, 'answers.review', { citationId: id(1), decision: 'rejected', note: 'not in the policy', reviewer: 'Ana' });
    await callHandler(services, 'answers.review', { citationId: id(2), decision: 'flagged', reviewer: 'Ben' });
    await callHandler(services, 'answers.review', { citationId: id(2), decision: 'cleared', reviewer: 'Ben' });
    await callHandler(services, 'answers.undoReview', { citationId: id(2), reviewer: 'Ben' });
    await callHandler(services, 'answers.rename', { id: detail.answer.id, name: 'Leave policy check' });
    const second = await callHandler<AnswerDetail>(services, 'answers.import', readAnswerFile(writeFile(ws.docs, 'second.json', nativeAnswer([{ marker: '1', claim: 'Offices close at six.', quote: 'The office closes at six on Fridays.', source: { file: 'notice.html' } }]))));
    await callHandler(services, 'answers.remove', { id: second.answer.id });
    const context = { session_id: 'agent-run-1', agent_id: 'nightly-agent', user_id: 'ops', project_id: 'audit-2026' };
    await callHandler(services, 'citations.registerSource', { custom: { identifier: 'db:payroll', description: 'The payroll database', kind: 'database' }, context });
    await callHandler(services, 'citations.cite', { claim: 'Leave is 14 days.', quote_context: 'leave', verbatim_quote: '14 days of annual leave', source: 'HR_Policy.pdf', locator: { page: 3 }, context });
    await callHandler(services, 'citations.cite', { claim: 'Payroll lists 40 staff.', quote_context: 'payroll', source: 'db:payroll', extraction_method: 'aggregation', context });
    return services.workspaceDir;
  } finally {
    services.close();
  }
}
