// Issue 16: the answers list and the relink candidates are drawn virtually, like the library: a
// window of rows in the page, the whole list's size and each row's place for screen readers, and
// the keyboard reaching the last row and back.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAppInChromium, SCREENSHOTS, type AppInChromium } from '../support/app-in-chromium.ts';
import { seriousViolations } from '../support/axe.ts';
import { addSmallSources, bigAnswer } from '../support/scale-workspace.ts';
import { callHandler } from '../support/workspace.ts';

const ANSWERS = 120;
const MISSING = 400;

describe('the answers list and the relink candidates, drawn virtually (issue 16)', () => {
  let app: AppInChromium;
  let page: AppInChromium['page'];
  const answerItems = () => page.getByRole('list', { name: 'Answers' }).getByRole('listitem');
  const focusedAnswer = () => page.evaluate(() => document.activeElement?.closest('li')?.getAttribute('aria-posinset') ?? null);

  beforeAll(async () => {
    app = await openAppInChromium();
    page = await (await app.browser.newContext({ viewport: { width: 1400, height: 900 } })).newPage();
    addSmallSources(app.services.sources, path.join(app.services.dir, 'notes'), MISSING);
    for (let i = 0; i < ANSWERS; i++) {
      const answer = JSON.parse(bigAnswer(2, MISSING)) as { question: string };
      answer.question = `Question number ${i + 1} about the record`;
      await callHandler(app.services, 'answers.import', { content: JSON.stringify(answer), fileName: `answer-${i + 1}.json` });
    }
  }, 240_000);

  afterAll(async () => {
    await app?.close();
  });

  it('lists 120 answers with a window of rows in the page, and the keyboard goes to the last and back', async () => {
    await page.goto(app.host.url);
    await page.getByRole('tab', { name: /Answers/ }).click();
    await answerItems().first().waitFor();
    expect(await answerItems().count()).toBeLessThan(40);
    expect(await answerItems().first().getAttribute('aria-setsize')).toBe(String(ANSWERS));
    expect(await answerItems().first().getAttribute('aria-posinset')).toBe('1');
    // Newest first.
    expect(await answerItems().first().textContent()).toContain(`Question number ${ANSWERS} about the record`);

    await answerItems().first().locator('.answer-item').focus();
    await page.keyboard.press('ArrowDown');
    await expect.poll(focusedAnswer).toBe('2');
    await page.keyboard.press('End');
    await expect.poll(focusedAnswer).toBe(String(ANSWERS));
    const last = page.locator(`.answer-list li[aria-posinset="${ANSWERS}"]`);
    expect(await last.textContent()).toContain('Question number 1 about the record');
    expect(await last.isVisible()).toBe(true);
    expect(await answerItems().count()).toBeLessThan(40);
    await page.screenshot({ path: path.join(SCREENSHOTS, 'scale-answers-list-end.png') });
    expect(await seriousViolations(page, '.answers-home')).toEqual([]);
    await page.keyboard.press('Home');
    await expect.poll(focusedAnswer).toBe('1');
    // Enter opens the focused answer.
    await page.keyboard.press('Enter');
    await page.getByRole('article', { name: 'Citation [1]' }).waitFor();
    await page.getByRole('button', { name: '‹ All answers' }).click();
  });

  it('draws the missing files found in a folder virtually, and relinks them all', async () => {
    // The folder was renamed: every note is missing, and all are found under the new name.
    fs.renameSync(path.join(app.services.dir, 'notes'), path.join(app.services.dir, 'notes-2026'));
    await app.services.health.checkAll();
    await page.goto(app.host.url);
    await page.getByRole('tab', { name: /Sources/ }).click();
    await page.getByRole('button', { name: 'Find missing files in a folder…' }).click();
    const dialog = page.getByRole('dialog', { name: `Find ${MISSING} missing files` });
    await dialog.waitFor();
    await dialog.getByLabel('Folder to search').fill(path.join(app.services.dir, 'notes-2026'));
    await dialog.getByRole('button', { name: 'Search' }).click();
    await dialog.getByRole('button', { name: `Relink ${MISSING} files` }).waitFor({ timeout: 60_000 });
    const found = dialog.getByRole('list', { name: 'Missing files found' }).getByRole('listitem');
    expect(await found.count()).toBeLessThan(60);
    expect(await found.first().getAttribute('aria-setsize')).toBe(String(MISSING));
    // The list's box takes the keyboard: End scrolls to the last file found.
    await dialog.getByRole('region', { name: 'Missing files found' }).focus();
    await page.keyboard.press('End');
    const lastFound = dialog.locator(`.suggestion-list li[aria-posinset="${MISSING}"]`);
    await lastFound.waitFor();
    expect(await lastFound.isVisible()).toBe(true);
    expect(await found.count()).toBeLessThan(60);
    await page.screenshot({ path: path.join(SCREENSHOTS, 'scale-find-missing-end.png') });
    expect(await seriousViolations(page, '.relink-dialog')).toEqual([]);
    await dialog.getByRole('button', { name: `Relink ${MISSING} files` }).click();
    await dialog.getByText(`✓ Relinked ${MISSING} sources.`).waitFor({ timeout: 60_000 });
  });
});
