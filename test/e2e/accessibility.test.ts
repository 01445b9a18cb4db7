import AxeBuilder from '@axe-core/playwright';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAppInChromium, screenshot, type AppInChromium } from '../support/app-in-chromium.ts';
import { makePdf, writeFile } from '../support/pdf-fixtures.ts';
import { ingestAll, nativeAnswer, NOTES_TEXT, POLICY_PAGES } from '../support/policy-workspace.ts';
import { HANDBOOK, makeHandbookDocx } from '../support/viewer-documents.ts';

const ANSWER = nativeAnswer([
  { marker: '1', claim: 'Staff get 14 days of leave.', quote: 'Employees receive 14 days of annual leave per calendar year.', source: { file: 'HR_Policy.pdf' }, locator: { page: 3 } },
  { marker: '2', claim: 'The week is 37.5 hours.', quote: 'The standard working week is 37.5 hours.', source: { file: 'HR_Policy.pdf' }, locator: { page: 4 } },
  { marker: '3', claim: 'Staff get a company car.', quote: 'Staff are entitled to a company car after two years of service.', source: { file: 'HR_Policy.pdf' } },
  { marker: '4', claim: 'The board met in May.', quote: 'The board met on 4 May.', source: { file: 'Board_Minutes.pdf' } },
]);

/** Serious and critical violations of WCAG 2.1 A and AA, as "rule: target" lines (empty when none). */
async function seriousViolations(page: AppInChromium['page']): Promise<string[]> {
  const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(' ')} — ${n.failureSummary?.split('\n')[1]?.trim() ?? ''}`));
}

describe('accessibility (axe-core): no serious or critical violation on Sources, Answers, the viewers and the relink dialog, in light and dark mode', () => {
  let app: AppInChromium;
  let page: AppInChromium['page'];
  let moved: string;

  beforeAll(async () => {
    app = await openAppInChromium();
    // axe finishes its run in a page of its own, which needs a context the test made (not browser.newPage's).
    page = await (await app.browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
    const docs = path.join(app.services.dir, 'docs');
    moved = writeFile(docs, 'moved-notes.txt', 'A file that will be moved away.\n');
    await ingestAll(app.services, [
      writeFile(docs, 'HR_Policy.pdf', await makePdf(POLICY_PAGES, 'HR Policy')),
      writeFile(docs, 'onboarding-notes.txt', NOTES_TEXT),
      writeFile(docs, HANDBOOK.fileName, await makeHandbookDocx()),
      moved,
    ]);
    const imported = await app.services.dispatch('answers.import', { content: ANSWER, fileName: 'hr-answer.json' });
    expect(imported.ok).toBe(true);
    fs.renameSync(moved, `${moved}.gone`);
  });

  afterAll(async () => {
    await app?.close();
  });

  for (const scheme of ['light', 'dark'] as const) {
    it(`${scheme}: Sources, Answers, the PDF, DOCX and text viewers, the relink dialog`, async () => {
      await page.emulateMedia({ colorScheme: scheme });
      await page.goto(app.host.url);
      const found: Record<string, string[]> = {};
      const check = async (screen: string) => {
        found[screen] = await seriousViolations(page);
      };

      await page.getByRole('tab', { name: /Sources/ }).click();
      await page.getByRole('button', { name: 'HR_Policy.pdf', exact: true }).waitFor();
      await check('sources');

      await page.getByRole('tab', { name: /Answers/ }).click();
      await page.getByRole('button', { name: /What does the HR policy say/ }).first().click();
      await page.getByRole('article', { name: 'Citation [1]' }).locator('blockquote').click();
      await page.getByTestId('text-layer').locator('mark.quote-highlight').first().waitFor();
      await check('answers and the PDF viewer');

      await page.getByRole('tab', { name: /Sources/ }).click();
      await page.getByRole('button', { name: HANDBOOK.fileName, exact: true }).click();
      await page.locator('.flow-viewer .docx-doc, .flow-viewer .blocks-doc').first().waitFor();
      await check('DOCX viewer');

      await page.getByRole('button', { name: 'onboarding-notes.txt', exact: true }).click();
      await page.locator('.flow-viewer .lines-doc').waitFor();
      await check('text viewer');

      await page.getByRole('tab', { name: 'Search' }).click();
      await page.getByLabel('Words to find (put a phrase in quotes)').fill('leave');
      await page.getByTestId('search-hit').first().waitFor();
      await check('search');

      await page.getByRole('tab', { name: /Sources/ }).click();
      await page.getByRole('button', { name: 'Check files' }).click();
      await page.getByRole('button', { name: 'Relink moved-notes.txt' }).click();
      await page.getByRole('dialog').waitFor();
      await check('relink dialog');
      await screenshot(page, `accessibility-relink-${scheme}.png`);
      await page.keyboard.press('Escape');

      expect(found).toEqual({ sources: [], 'answers and the PDF viewer': [], 'DOCX viewer': [], 'text viewer': [], search: [], 'relink dialog': [] });
    });
  }
});
