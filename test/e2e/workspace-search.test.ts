import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAppInChromium, screenshot, type AppInChromium } from '../support/app-in-chromium.ts';
import { makePdf, writeFile } from '../support/pdf-fixtures.ts';
import { ingestAll, NOTES_TEXT, POLICY_PAGES } from '../support/policy-workspace.ts';
import { HANDBOOK, makeHandbookDocx } from '../support/viewer-documents.ts';

describe('search across the workspace in Chromium: a phrase, filters, hits with snippets and places, a click opens the viewer highlighted', () => {
  let app: AppInChromium;
  let page: AppInChromium['page'];

  const hits = () => page.getByTestId('search-hit');
  const hitPlaces = () => page.locator('[data-testid=search-hit] .hit-where').allTextContents();
  const shot = (name: string) => screenshot(page, name);

  beforeAll(async () => {
    app = await openAppInChromium();
    page = app.page;
    await page.setViewportSize({ width: 1280, height: 800 });
    const docs = path.join(app.services.dir, 'docs');
    await ingestAll(app.services, [
      writeFile(docs, 'HR_Policy.pdf', await makePdf(POLICY_PAGES, 'HR Policy')),
      writeFile(docs, 'onboarding-notes.txt', NOTES_TEXT),
      writeFile(docs, HANDBOOK.fileName, await makeHandbookDocx()),
    ]);
    await page.goto(app.host.url);
    await page.getByRole('tab', { name: 'Search' }).click();
  });

  afterAll(async () => {
    await app?.close();
  });

  it('finds a quoted phrase only where the words stand together, with its snippet and place', async () => {
    await page.getByLabel('Words to find (put a phrase in quotes)').fill('"annual leave per calendar year"');
    await expect.poll(() => page.getByRole('status').filter({ hasText: 'passage' }).textContent()).toBe('1 passage matches.');
    expect(await hitPlaces()).toEqual(['HR_Policy.pdf p. 3']);
    expect(await hits().locator('mark').allTextContents()).toEqual(['annual leave per calendar year']);
    // The same words, not as a phrase, match wherever all of them are (the handbook too).
    await page.getByLabel('Words to find (put a phrase in quotes)').fill('annual leave year');
    await expect.poll(async () => (await hitPlaces()).map((p) => p.split(' ')[0]).sort()).toEqual(['HR_Policy.pdf', HANDBOOK.fileName]);
  });

  it('filters by type and by source', async () => {
    await page.getByLabel('Words to find (put a phrase in quotes)').fill('six');
    await expect.poll(async () => (await hitPlaces()).map((p) => p.split(' ')[0]).sort()).toEqual(['HR_Policy.pdf', 'onboarding-notes.txt']);
    await page.getByLabel('Type', { exact: true }).selectOption({ label: 'Text' });
    await expect.poll(hitPlaces).toEqual(['onboarding-notes.txt lines 6–7']);
    await page.getByLabel('Type', { exact: true }).selectOption({ label: 'every type' });
    await page.getByLabel('Source', { exact: true }).selectOption({ label: 'HR_Policy.pdf' });
    await expect.poll(async () => (await hitPlaces()).map((p) => p.split(' ')[0])).toEqual(['HR_Policy.pdf']);
    await page.getByLabel('Source', { exact: true }).selectOption({ label: 'every source' });
    await page.getByLabel('Words to find (put a phrase in quotes)').fill('"company car"');
    await expect.poll(() => page.getByRole('status').filter({ hasText: 'passage' }).textContent()).toBe('No passage matches "company car".');
  });

  it('opens a PDF hit on its page with the phrase highlighted', async () => {
    await page.getByLabel('Words to find (put a phrase in quotes)').fill('"approved in writing"');
    await expect.poll(hitPlaces).toEqual(['HR_Policy.pdf p. 2']);
    await hits().first().click();
    await expect.poll(() => page.getByLabel('Page number').inputValue()).toBe('2');
    await expect.poll(async () => (await page.getByTestId('text-layer').locator('mark.quote-highlight').allTextContents()).join('')).toBe('approved in writing');
    await shot('workspace-search-pdf.png');
  });

  it('opens a text hit at its line and a Word hit in its block, highlighted', async () => {
    await page.getByLabel('Words to find (put a phrase in quotes)').fill('"probation period"');
    await expect.poll(hitPlaces).toEqual(['onboarding-notes.txt lines 6–7']);
    await hits().first().click();
    await expect.poll(() => page.locator('.flow-viewer mark.quote-highlight').allTextContents()).toEqual(['probation period']);
    expect(await page.locator('.flow-viewer mark.quote-highlight').evaluate((m) => m.closest('[data-line]')?.getAttribute('data-line'))).toBe('6');

    await page.getByLabel('Words to find (put a phrase in quotes)').fill(`"${HANDBOOK.quote}"`);
    await expect.poll(async () => (await hitPlaces()).map((p) => p.split(' ')[0])).toEqual([HANDBOOK.fileName]);
    await hits().first().click();
    await expect.poll(() => page.locator('.flow-viewer mark.quote-highlight').allTextContents().then((t) => t.join('').replace(/\u00a0/g, ' '))).toBe(HANDBOOK.quote);
    await shot('workspace-search-docx.png');
  });
});
