/**
 * Importing answers in the window (issue 16): the import replies with a summary only, and the
 * window opens the new answer through answers.get; importing a file again as a new answer does
 * the same. Both open at their first card, with their run.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenshot, type AppInChromium } from '../support/app-in-chromium.ts';
import { importThroughPicker, openPolicyAnswersWindow } from '../support/policy-answers-window.ts';
import { nativeAnswer } from '../support/policy-workspace.ts';

const ANSWER = nativeAnswer([
  { marker: '1', claim: 'Staff get 14 days of leave.', quote: 'Employees receive 14 days of annual leave per calendar year.', source: { file: 'HR_Policy.pdf' }, locator: { page: 3 } },
  { marker: '2', claim: 'Probation lasts six months.', quote: 'The probation period lasts six months for all new starters.', source: { file: 'onboarding-notes.txt' } },
]);

describe('importing answers in Chromium: a summary back, the answer opened', () => {
  let app: AppInChromium;
  let page: AppInChromium['page'];
  let answerFile: string;

  const card = (marker: string) => page.getByRole('article', { name: `Citation [${marker}]` });
  const answerItems = () => page.locator('.answer-list .answer-title').allTextContents();

  beforeAll(async () => {
    ({ app, answerFile } = await openPolicyAnswersWindow(ANSWER));
    page = app.page;
  });

  afterAll(async () => {
    await app?.close();
  });

  it('imports a file, says what it holds and opens it; imported again as a new answer, that one opens', async () => {
    await importThroughPicker(page, [answerFile]);
    await page.getByText('Imported hr-answer.json: evidence-desk/answer@1, 2 citations, coverage 100%.').waitFor();
    await card('2').waitFor();
    expect(await card('1').locator('[data-role=status]').textContent()).toBe('✓ Found where cited');
    await expect.poll(() => page.locator('.run-info').textContent()).toMatch(/^Run 1 · /);
    expect(await page.locator('.review-title').textContent()).toBe('What does the HR policy say?');
    // Named, the first answer is told apart from the one imported next.
    const first = app.services.answers.list()[0]?.id ?? 0;
    expect(await app.services.dispatch('answers.rename', { id: first, name: 'First import' })).toMatchObject({ ok: true });

    await page.getByRole('button', { name: '‹ All answers' }).first().click();
    await importThroughPicker(page, [answerFile]);
    const offer = page.getByRole('group', { name: 'hr-answer.json was imported before' });
    await offer.getByRole('button', { name: 'Import as a new answer' }).click();
    await card('2').waitFor();
    await expect.poll(() => app.services.answers.list().length).toBe(2);
    // The answer open is the new one (not the renamed first), at its first run.
    expect(await page.locator('.review-title').textContent()).toBe('What does the HR policy say?');
    await expect.poll(() => page.locator('.run-info').textContent()).toMatch(/^Run 1 · /);
    await screenshot(page, 'import-again-opened.png');
    await page.getByRole('button', { name: '‹ All answers' }).first().click();
    await expect.poll(answerItems).toEqual(expect.arrayContaining(['First import', 'What does the HR policy say?']));
  });
});
