import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenshot, type AppInChromium } from '../support/app-in-chromium.ts';
import { importThroughPicker, openPolicyAnswersWindow } from '../support/policy-answers-window.ts';
import { nativeAnswer } from '../support/policy-workspace.ts';

const ANSWER = nativeAnswer([
  { marker: '1', claim: 'Staff get 14 days of leave.', quote: 'Employees receive 14 days of annual leave per calendar year.', source: { file: 'HR_Policy.pdf' }, locator: { page: 3 } },
  { marker: '2', claim: 'The week is 37.5 hours.', quote: 'The standard working week is 37.5 hours.', source: { file: 'HR_Policy.pdf' }, locator: { page: 4 } },
  { marker: '3', claim: 'Staff get a company car.', quote: 'Staff are entitled to a company car after two years of service.', source: { file: 'HR_Policy.pdf' }, locator: { page: 2 } },
  { marker: '4', claim: 'The board met in May.', quote: 'The board met on 4 May.', source: { file: 'Board_Minutes.pdf' } },
  { marker: '5', claim: 'Probation lasts six months.', quote: 'The probation period lasts six months for all new starters.', source: { file: 'onboarding-notes.txt' } },
]);

describe('housekeeping and words for people in Chromium: statuses in sentences, rename, remove, re-import, remove a source, dark mode, a stopped host', () => {
  let app: AppInChromium;
  let page: AppInChromium['page'];
  let answerFile: string;

  const card = (marker: string) => page.getByRole('article', { name: `Citation [${marker}]` });
  const status = (marker: string) => card(marker).locator('[data-role=status]');
  const answerItems = () => page.locator('.answer-list .answer-title').allTextContents();
  const shot = (name: string) => screenshot(page, name);
  /** What the window says, in every panel (hidden tabs included): no command-line advice, no raw codes. */
  const allText = () => page.evaluate(() => document.body.textContent ?? '');

  beforeAll(async () => {
    ({ app, answerFile } = await openPolicyAnswersWindow(ANSWER));
    page = app.page;
  });

  afterAll(async () => {
    await app?.close();
  });

  it('says statuses and verdicts in sentences, codes only in tooltips; an unknown source by the name it was cited by', async () => {
    await importThroughPicker(page, [answerFile]);
    await card('1').waitFor();
    expect(await status('1').textContent()).toBe('✓ Found where cited');
    expect(await status('2').textContent()).toBe('↪ Found on another page');
    expect(await status('2').getAttribute('title')).toMatch(/\(verified_elsewhere\)$/);
    expect(await status('3').textContent()).toBe('✖ Not in the source');
    expect(await status('4').textContent()).toBe('? Source not in the workspace');
    expect(await card('4').locator('.source-name').textContent()).toBe('Board_Minutes.pdf');
    expect(await status('5').textContent()).toBe('✓ Found where cited');
    const text = await allText();
    for (const code of ['verified_elsewhere', 'not_found', 'source_unknown', 'missing_evidence', '{"file"']) expect(text).not.toContain(code);
    expect(text).not.toMatch(/evidesk |\s--[a-z]/);
    await shot('words-for-people.png');
  });

  it('offers to re-verify an answer file imported before, instead of a duplicate', async () => {
    await page.getByRole('button', { name: '‹ All answers' }).first().click();
    await importThroughPicker(page, [answerFile]);
    const offer = page.getByRole('group', { name: 'hr-answer.json was imported before' });
    await offer.waitFor();
    expect(await offer.textContent()).toContain('as “What does the HR policy say?”');
    await shot('reimport-offer.png');
    await offer.getByRole('button', { name: 'Re-verify “What does the HR policy say?”' }).click();
    await expect.poll(() => page.locator('.run-info').textContent()).toMatch(/^Run 2 · /);
    await page.getByRole('button', { name: '‹ All answers' }).first().click();
    expect(await answerItems()).toEqual(['What does the HR policy say?']);
  });

  it('renames an answer, removes it (the record keeps it) and brings it back', async () => {
    const item = page.locator('.answer-list li').first();
    await item.getByRole('button', { name: 'Rename…' }).click();
    await page.getByLabel('New name').fill('Leave and hours, March review');
    await page.getByRole('button', { name: 'Save name' }).click();
    await expect.poll(answerItems).toEqual(['Leave and hours, March review']);
    await item.getByRole('button', { name: 'Remove…' }).click();
    expect(await item.getByRole('group', { name: 'Remove the answer' }).textContent()).toContain('Remove “Leave and hours, March review” from the list?');
    await item.getByRole('button', { name: 'Remove answer' }).click();
    await expect.poll(answerItems).toEqual([]);
    expect(await page.getByRole('status').filter({ hasText: 'Removed Leave and hours' }).textContent()).toContain('Nothing was deleted from the workspace’s record.');
    const rows = app.services.db.prepare('SELECT count(*) AS n FROM citations').get() as { n: number };
    expect(rows.n).toBe(5);
    await page.getByRole('button', { name: 'Undo' }).click();
    await expect.poll(answerItems).toEqual(['Leave and hours, March review']);
  });

  it('removes a source from the library: its citations then say so, and search no longer finds it', async () => {
    await page.getByRole('tab', { name: /Sources/ }).click();
    await page.locator('tr', { has: page.getByRole('button', { name: 'onboarding-notes.txt', exact: true }) }).getByRole('button', { name: 'Remove…' }).click();
    await page.getByRole('button', { name: 'Remove source' }).click();
    await expect.poll(() => page.locator('table.sources button.link[title]:not(.remove-source)').allTextContents()).toEqual(['HR_Policy.pdf']);
    await page.getByRole('tab', { name: /Answers/ }).click();
    await page.getByRole('button', { name: /Leave and hours, March review/ }).first().click();
    await expect.poll(() => card('5').getByTestId('source-removed').textContent()).toBe('removed from the library');
    expect(await card('5').locator('.source-name').textContent()).toBe('onboarding-notes.txt');
    await page.getByRole('tab', { name: 'Search' }).click();
    await page.getByLabel('Words to find (put a phrase in quotes)').fill('probation');
    await expect.poll(() => page.getByRole('status').filter({ hasText: 'passage' }).textContent()).toBe('No passage matches probation.');
  });

  it('follows the system’s dark mode', async () => {
    const background = () => page.evaluate(() => getComputedStyle(document.querySelector('.side') as Element).backgroundColor);
    expect(await background()).toBe('rgb(255, 255, 255)');
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.getByRole('tab', { name: /Answers/ }).click();
    await expect.poll(background).toBe('rgb(23, 23, 23)');
    await card('1').locator('blockquote').click();
    await page.getByTestId('text-layer').locator('mark.quote-highlight').first().waitFor();
    await shot('dark-mode.png');
    await page.emulateMedia({ colorScheme: 'light' });
  });

  it('says a stopped host is stopped, never that a file moved', async () => {
    await app.host.close();
    await page.getByRole('tab', { name: /Sources/ }).click();
    await page.getByRole('button', { name: 'Check files' }).click();
    const banner = page.getByTestId('host-down');
    await banner.waitFor();
    expect(await banner.textContent()).toContain('Evidence Desk is not answering');
    expect(await page.getByRole('dialog').count()).toBe(0);
    expect(await allText()).not.toMatch(/\bmoved\b|relink it/i);
    await shot('host-down.png');
  });
});
