/**
 * A workspace for the export tests: the policy workspace with an imported answer that has one
 * citation of every status and every verdict, and review decisions of every kind (accepted,
 * rejected, flagged, with and without notes, changes of mind, an undo and a clear, by two named
 * reviewers). Built, closed, and handed back
 * as folders, so the command line opens it as a user would.
 */
import { readAnswerFile } from '../../electron/cli/answer-file.ts';
import type { AnswerDetail } from '../../shared/contract/answer-schemas.ts';
import { writeFile } from './pdf-fixtures.ts';
import { nativeAnswer, policyWorkspace } from './policy-workspace.ts';
import { callHandler, openTestServices } from './workspace.ts';

export const EXPORT_CITATIONS = [
  { marker: '1', claim: 'Employees receive 14 days of annual leave per year.', quote: 'Employees receive 14 days of annual leave per calendar year.', source: { file: 'HR_Policy.pdf' }, locator: { page: 3 } },
  { marker: '2', claim: 'Overtime needs written approval from the line manager.', quote: 'Overtime must be approved in writing by the line manager.', source: { file: 'HR_Policy.pdf' }, locator: { page: 1 } },
  { marker: '3', claim: 'Staff may work from home on Fridays.', quote: 'Employees may work from home on Fridays without approval.', source: { file: 'HR_Policy.pdf' }, locator: { page: 3 } },
  { marker: '4', claim: 'Employees receive 15 days of annual leave.', quote: '14 days of annual leave', source: { file: 'HR_Policy.pdf' }, locator: { page: 3 } },
  { marker: '5', claim: 'The 2023 budget was approved.', quote: 'The budget for 2023 was approved by the board.', source: { file: 'Budget_2023.xlsx' }, locator: { page: 2 } },
  { marker: '6', claim: 'Receipts must be kept for six years.', quote: null, source: { file: 'HR_Policy.pdf' }, method: 'paraphrase' },
  { marker: '7', claim: 'Travel costs are paid back within 30 days.', quote: 'Travel expenses are refunded within 30 days of complete claims', source: { file: 'HR_Policy.pdf' }, locator: { page: 4 } },
  { marker: '8', claim: 'The probation period lasts six months.', quote: 'The probation period lasts six months for all new starters.', source: { file: 'onboarding-notes.txt' }, locator: { line: 6 } },
];

export interface ExportWorkspace {
  /** The workspace folder (for --workspace). */
  workspace: string;
  /** The folder holding the ingested documents. */
  docs: string;
  policy: string;
  notes: string;
  answerId: number;
  /** The imported answer, after the reviews. */
  detail: AnswerDetail;
}

export async function exportWorkspace(): Promise<ExportWorkspace> {
  const services = openTestServices();
  try {
    const ws = await policyWorkspace(services);
    const file = writeFile(ws.docs, 'answer.json', nativeAnswer(EXPORT_CITATIONS));
    const imported = await callHandler<AnswerDetail>(services, 'answers.import', readAnswerFile(file));
    const id = (marker: string) => imported.citations.find((c) => c.marker === marker)?.id;
    const review = (marker: string, decision: string, note?: string, reviewer?: string) =>
      callHandler(services, 'answers.review', { citationId: id(marker), decision, ...(note ? { note } : {}), ...(reviewer ? { reviewer } : {}) });
    const undo = (marker: string, reviewer?: string) => callHandler(services, 'answers.undoReview', { citationId: id(marker), ...(reviewer ? { reviewer } : {}) });
    // The first decision names its reviewer; the name is remembered for the next ones.
    await review('1', 'accepted', undefined, 'Dana Reviewer');
    await review('2', 'accepted');
    await review('2', 'rejected', 'Wrong page cited; changed my mind.');
    await review('3', 'flagged', 'Ask the author where this comes from.');
    // A rejection taken back by a second reviewer: the flag is in force again.
    await review('3', 'rejected', undefined, 'Sam Second');
    await undo('3');
    await review('4', 'rejected', 'The policy says 14 days, not 15.');
    await review('5', 'accepted', 'Budget file to be added later; accepted on the author’s word.');
    await review('7', 'flagged');
    await review('7', 'accepted', 'Close enough to the policy’s wording.');
    // A decision cleared: none in force, the trail kept.
    await review('8', 'accepted');
    await review('8', 'cleared');
    const detail = await callHandler<AnswerDetail>(services, 'answers.detail', { id: imported.answer.id });
    return { workspace: services.workspaceDir, docs: ws.docs, policy: ws.policy, notes: ws.notes, answerId: imported.answer.id, detail };
  } finally {
    services.close();
  }
}
