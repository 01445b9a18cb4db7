import path from 'node:path';
import { afterEach, beforeEach, expect } from 'vitest';
import type { Services } from '../../electron/services/create-services.ts';
import { makePdf, writeFile, type PageSpec } from './pdf-fixtures.ts';
import { openTestServices, type TestServices } from './workspace.ts';

export const POLICY_PAGES: PageSpec[] = [
  { lines: ['Human Resources Policy', 'Version 3, approved by the board in January 2024.', 'This policy applies to all permanent staff.'] },
  {
    lines: [
      'Section 2: Working time',
      'The standard working week is 37.5 hours.',
      'Overtime must be approved in writing by the line manager.',
      'Staff may not work more than 48 hours in any week.',
    ],
  },
  {
    lines: [
      'Section 3: Leave',
      'Employees receive 14 days of annual leave per calendar year.',
      'Unused leave lapses on 31 March of the following year.',
      'Requests for leave are made through the staff portal.',
    ],
  },
  {
    lines: [
      'Section 4: Expenses',
      'Travel expenses are reimbursed within 30 days of a complete claim.',
      'Receipts must be kept for six years.',
    ],
  },
];

export const NOTES_TEXT = [
  'Onboarding notes',
  '',
  'New starters receive a laptop on their first day.',
  'Access badges are issued by the facilities team.',
  '',
  'The probation period lasts six months for all new starters.',
  'Reviews take place at the end of month three.',
  '',
].join('\n');

/** Ingests files and returns their source ids by base name. */
export async function ingestAll(services: Services, files: string[]): Promise<Record<string, number>> {
  const result = await services.ingest.ingest({ paths: files });
  const ids: Record<string, number> = {};
  for (const f of result.files) {
    expect(f.ok, JSON.stringify(f)).toBe(true);
    if (f.ok) ids[path.basename(f.path)] = f.sourceId;
  }
  return ids;
}

export interface PolicyWorkspace {
  docs: string;
  policy: string;
  notes: string;
  ids: Record<string, number>;
}

/** HR_Policy.pdf (POLICY_PAGES) and onboarding-notes.txt (NOTES_TEXT), written under `docs` and ingested. */
export async function policyWorkspace(services: Services & { dir: string }): Promise<PolicyWorkspace> {
  const docs = path.join(services.dir, 'docs');
  const policy = writeFile(docs, 'HR_Policy.pdf', await makePdf(POLICY_PAGES, 'HR Policy', { author: 'Jane Smith; Human Resources Department', created: new Date('2024-03-15T09:30:00Z') }));
  const notes = writeFile(docs, 'onboarding-notes.txt', NOTES_TEXT);
  const ids = await ingestAll(services, [policy, notes]);
  return { docs, policy, notes, ids };
}

/**
 * For each test of the enclosing describe: fresh services over a new policy workspace, handed to
 * `use`, and closed after the test (a test that reopens the workspace closes what it opened).
 */
export function withPolicyWorkspace(use: (opened: { services: TestServices; ws: PolicyWorkspace }) => void): void {
  let services: TestServices | undefined;
  beforeEach(async () => {
    services = openTestServices();
    use({ services, ws: await policyWorkspace(services) });
  });
  afterEach(() => services?.close());
}

export function nativeAnswer(citations: Record<string, unknown>[], question = 'What does the HR policy say?'): string {
  return JSON.stringify({ format: 'evidence-desk/answer@1', question, answer: citations.map((c) => `${String(c.claim)} [${String(c.marker)}]`).join(' '), citations }, null, 2);
}
