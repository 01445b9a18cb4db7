/**
 * The export dialog on a long answer, in Chromium (issue 9): the preview of the report's first
 * page, progress while it writes, Cancel export (nothing saved), then a finished export and
 * "Open folder".
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAppInChromium, SCREENSHOTS, type AppInChromium } from '../support/app-in-chromium.ts';
import { makePdf, writeFile } from '../support/pdf-fixtures.ts';
import { nativeAnswer } from '../support/policy-workspace.ts';
import { importThroughPicker } from '../support/policy-answers-window.ts';

const PAGES = 60;
const LINES = 12;
const CITATIONS = PAGES * LINES;
const line = (p: number, l: number) => `Rule ${p}.${l}: a record of class ${p * 100 + l} is kept for ${l + 1} years after it closes.`;

describe('the export dialog on a 720-citation answer: preview, progress, cancel, done', () => {
  let app: AppInChromium;
  let page: AppInChromium['page'];
  let docs: string;
  let out: string;
  const dialog = () => page.getByRole('dialog', { name: 'Export report' });

  beforeAll(async () => {
    app = await openAppInChromium();
    page = app.page;
    await page.setViewportSize({ width: 1280, height: 800 });
    docs = path.join(app.services.dir, 'docs');
    out = path.join(app.services.dir, 'reports');
    fs.mkdirSync(out);
    const pages = Array.from({ length: PAGES }, (_, p) => ({ lines: Array.from({ length: LINES }, (_, l) => line(p + 1, l + 1)) }));
    writeFile(docs, 'Records.pdf', await makePdf(pages, 'Records'));
  }, 120_000);

  afterAll(async () => {
    await app?.close();
  });

  it('imports the answer and opens the dialog with a preview of the first page', async () => {
    await page.goto(app.host.url);
    await page.getByLabel('Add files or folders by path (one per line)').fill(path.join(docs, 'Records.pdf'));
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await page.getByText('1 added').waitFor({ timeout: 120_000 });
    await page.getByRole('tab', { name: /Answers/ }).click();
    const citations = Array.from({ length: CITATIONS }, (_, i) => {
      const p = (i % PAGES) + 1;
      const l = Math.floor(i / PAGES) + 1;
      return { marker: String(i + 1), claim: `Class ${p * 100 + l} records are kept ${l + 1} years.`, quote: line(p, l), source: { file: 'Records.pdf' }, locator: { page: p } };
    });
    await importThroughPicker(page, [writeFile(docs, 'records-answer.json', nativeAnswer(citations, 'How long are records kept?'))]);
    await page.getByRole('article', { name: 'Citation [1]' }).waitFor({ timeout: 300_000 });

    await page.getByRole('button', { name: 'Export…' }).click();
    await dialog().waitFor();
    // The preview: the report's own first page, in a frame with no scripts, its first excerpt image loaded.
    const frame = dialog().getByTitle("Preview of the report's first page");
    await frame.waitFor({ timeout: 120_000 });
    expect(await frame.getAttribute('sandbox')).toBe('');
    const report = page.frameLocator('iframe[title="Preview of the report\'s first page"]');
    await report.getByText('How long are records kept?').first().waitFor();
    await expect.poll(() => report.locator('img').first().evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBeGreaterThan(100);
    await dialog().getByText('The HTML report starts like this.').waitFor();
    await page.screenshot({ path: path.join(SCREENSHOTS, 'export-dialog-preview.png') });

    // Choices that change the first page update it: the reviewer's name appears in it.
    await dialog().getByLabel('Reviewer name').fill('Rae Reviewer');
    await report.getByText('Rae Reviewer').first().waitFor({ timeout: 60_000 });
  }, 600_000);

  it('shows progress while it writes; Cancel export stops it and nothing is saved', async () => {
    app.services.platform.saveAnswers.push(path.join(out, 'records.html'));
    await dialog().getByRole('button', { name: 'Export…' }).click();
    const progress = dialog().getByRole('status').filter({ hasText: 'Making the evidence excerpts' });
    await progress.waitFor({ timeout: 120_000 });
    expect(await progress.textContent()).toMatch(new RegExp(`of ${CITATIONS} citations done`));
    expect(await dialog().getByRole('progressbar', { name: 'Export progress' }).getAttribute('max')).toBe(String(CITATIONS));
    await page.screenshot({ path: path.join(SCREENSHOTS, 'export-dialog-progress.png') });
    await dialog().getByRole('button', { name: 'Cancel export' }).click();
    await dialog().getByText('The export was cancelled. Nothing was saved.').waitFor({ timeout: 60_000 });
    expect(fs.readdirSync(out)).toEqual([]);
    // The options are back for another try.
    expect(await dialog().getByRole('button', { name: 'Export…' }).isEnabled()).toBe(true);
  }, 300_000);

  it('a finished export, without excerpts, says what it saved and opens its folder', async () => {
    const target = path.join(out, 'records.html');
    await dialog().getByLabel('Include evidence excerpts (the page around each quote)').uncheck();
    app.services.platform.saveAnswers.push(target);
    await dialog().getByRole('button', { name: 'Export…' }).click();
    const done = dialog().getByRole('status').filter({ hasText: 'Saved' });
    await done.waitFor({ timeout: 300_000 });
    expect(await done.textContent()).toMatch(new RegExp(`Saved records\\.html \\(.+\\) with ${CITATIONS} of ${CITATIONS} citations\\.`));
    await page.screenshot({ path: path.join(SCREENSHOTS, 'export-dialog-done.png') });
    await dialog().getByRole('button', { name: 'Open folder' }).click();
    await expect.poll(() => app.services.platform.revealed).toEqual([target]);
    expect(fs.readdirSync(out)).toEqual(['records.html']);
    const html = fs.readFileSync(target, 'utf8');
    expect(html).toContain('Rae Reviewer');
    expect(html).not.toContain('data:image/jpeg');
  }, 600_000);
});
