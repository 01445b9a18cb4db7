import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAppInChromium, SCREENSHOTS, type AppInChromium } from '../support/app-in-chromium.ts';
import { makePdf, writeFile } from '../support/pdf-fixtures.ts';
import { NOTES_TEXT, POLICY_PAGES } from '../support/policy-workspace.ts';
import { importThroughPicker } from '../support/policy-answers-window.ts';

const QUOTES = {
  leave: 'Employees receive 14 days of annual leave per calendar year.',
  car: 'Staff are entitled to a company car after two years of service.',
  probation: 'The probation period lasts six months for all new starters.',
};
const FLAG_NOTE = 'Ask the author where the car policy comes from.';

const MARKDOWN = `Question: What does the HR policy say about leave, cars and probation?

Employees receive 14 days of annual leave each year [1]. Staff get a company car after two years [2]. Probation lasts six months for new starters [3].

[1]: "${QUOTES.leave}" — HR_Policy.pdf, p. 3
[2]: "${QUOTES.car}" — HR_Policy.pdf, p. 2
[3]: "${QUOTES.probation}" — onboarding-notes.txt, line 6
`;

describe('exporting a reviewed answer from the dialog in Chromium at 1280×800 (issue 9)', () => {
  let app: AppInChromium;
  let page: AppInChromium['page'];
  let docs: string;
  let out: string;

  const card = (marker: string) => page.getByRole('article', { name: `Citation [${marker}]` });
  const dialog = () => page.getByRole('dialog', { name: 'Export report' });
  const shot = async (p: AppInChromium['page'], name: string) => {
    const file = path.join(SCREENSHOTS, name);
    await p.screenshot({ path: file });
    expect(fs.statSync(file).size).toBeGreaterThan(10_000);
    return file;
  };
  /** Chooses a format and exports, the scripted save dialog answering `target`; returns the saved file's summary. */
  const exportAs = async (label: string, target: string) => {
    app.services.platform.saveAnswers.push(target);
    await dialog().getByRole('radio', { name: label, exact: true }).check();
    await dialog().getByRole('button', { name: 'Export…' }).click();
    const done = dialog().getByRole('status').filter({ hasText: 'Saved' });
    await done.waitFor({ timeout: 90_000 });
    return (await done.textContent()) ?? '';
  };

  beforeAll(async () => {
    app = await openAppInChromium();
    page = app.page;
    await page.setViewportSize({ width: 1280, height: 800 });
    docs = path.join(app.services.dir, 'docs');
    out = path.join(app.services.dir, 'reports');
    fs.mkdirSync(out);
    writeFile(docs, 'HR_Policy.pdf', await makePdf(POLICY_PAGES, 'HR Policy'));
    writeFile(docs, 'onboarding-notes.txt', NOTES_TEXT);
  });

  afterAll(async () => {
    await app?.close();
  });

  it('reviews two citations of an imported answer: one accepted, one flagged with a note', async () => {
    await page.goto(app.host.url);
    await page.getByLabel('Add files or folders by path (one per line)').fill([path.join(docs, 'HR_Policy.pdf'), path.join(docs, 'onboarding-notes.txt')].join('\n'));
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await page.getByText('2 added').waitFor();
    await page.getByRole('tab', { name: /Answers/ }).click();
    await importThroughPicker(page, [writeFile(docs, 'hr-answer.md', MARKDOWN)]);
    await card('1').waitFor();
    await card('1').getByRole('button', { name: '✓ Accept…' }).click();
    await card('1').getByRole('button', { name: 'Accept [1]' }).click();
    await card('2').getByRole('button', { name: '⚑ Flag…' }).click();
    await page.getByLabel('Note for [2]').fill(FLAG_NOTE);
    await page.getByRole('button', { name: 'Flag [2]' }).click();
    await expect.poll(async () => (await card('2').locator('[data-role=decision]').textContent()) ?? '').toMatch(/Flagged$/);
    expect(await card('1').locator('[data-role=decision]').textContent()).toMatch(/Accepted$/);
  });

  it('opens a labelled dialog with focus inside; Escape closes it and focus returns to the button', async () => {
    const button = page.getByRole('button', { name: 'Export…' });
    await shot(page, 'export-button.png');
    await button.click();
    await dialog().waitFor();
    expect(await dialog().evaluate((d) => d.contains(document.activeElement))).toBe(true);
    expect(await dialog().getByRole('radio', { name: 'HTML', exact: true }).isChecked()).toBe(true);
    // The preview of the first page, with its first evidence excerpt loaded, before the picture.
    const preview = page.frameLocator('iframe[title="Preview of the report\'s first page"]');
    await preview.getByText(QUOTES.leave).first().waitFor({ timeout: 60_000 });
    await expect.poll(() => preview.locator('img').first().evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBeGreaterThan(100);
    await shot(page, 'export-dialog.png');
    await page.keyboard.press('Escape');
    await dialog().waitFor({ state: 'detached' });
    expect(await button.evaluate((b) => b === document.activeElement)).toBe(true);
  });

  it('a closed save dialog saves nothing and says so', async () => {
    await page.getByRole('button', { name: 'Export…' }).click();
    app.services.platform.saveAnswers.push(null);
    await dialog().getByRole('button', { name: 'Export…' }).click();
    await dialog().getByText('Nothing was saved: the save dialog was closed.').waitFor();
    expect(fs.readdirSync(out)).toEqual([]);
  });

  it('exports HTML with the reviewer name, shows the saved file and reveals it in its folder', async () => {
    await dialog().getByLabel('Reviewer name').fill('Dana Analyst');
    const html = path.join(out, 'hr-report.html');
    const summary = await exportAs('HTML', html);
    expect(summary).toMatch(/^✓ Saved hr-report\.html \(.+\) with 3 of 3 citations\./);
    await shot(page, 'export-done.png');
    await dialog().getByRole('button', { name: 'Open folder' }).click();
    await expect.poll(() => app.services.platform.revealed).toEqual([html]);

    const text = fs.readFileSync(html, 'utf8');
    for (const quote of Object.values(QUOTES)) expect(text).toContain(quote);
    expect(text).toMatch(/data-decision="accepted"/);
    expect(text).toMatch(/data-decision="flagged"/);
    expect(text).toContain('Flagged for follow-up');
    expect(text).toContain(FLAG_NOTE);
    expect(text).toContain('Dana Analyst');
  });

  it('exports PDF from the same dialog: a real PDF file', async () => {
    const pdf = path.join(out, 'hr-report.pdf');
    const summary = await exportAs('PDF', pdf);
    expect(summary).toContain('Saved hr-report.pdf');
    expect(fs.readFileSync(pdf).subarray(0, 5).toString('latin1')).toBe('%PDF-');
    await dialog().getByRole('button', { name: 'Done' }).click();
    await dialog().waitFor({ state: 'detached' });
  });

  it('remembers the reviewer name for the next export', async () => {
    await page.getByRole('button', { name: 'Export…' }).click();
    await expect.poll(() => dialog().getByLabel('Reviewer name').inputValue()).toBe('Dana Analyst');
  });

  it('where there is no save dialog, says so and takes a typed path instead', async () => {
    // The scripted platform has no answer queued: it answers as browser mode does, DIALOG_UNAVAILABLE.
    await dialog().getByRole('radio', { name: 'Bibliography', exact: true }).check();
    await dialog().getByLabel('Citation style').selectOption('apa');
    await dialog().getByRole('button', { name: 'Export…' }).click();
    const alert = dialog().getByRole('alert');
    await alert.waitFor();
    expect(await alert.getAttribute('title')).toBe('DIALOG_UNAVAILABLE');
    const typed = path.join(out, 'sources.txt');
    await dialog().getByLabel('Save to (full path, including the file name)').fill(typed);
    await dialog().getByRole('button', { name: 'Export', exact: true }).click();
    await dialog().getByRole('status').filter({ hasText: 'Saved sources.txt' }).waitFor();
    expect(fs.readFileSync(typed, 'utf8')).toContain('HR Policy');
    await page.keyboard.press('Escape');
    await dialog().waitFor({ state: 'detached' });
  });

  it('the exported HTML opens in the browser and shows both decisions', async () => {
    const report = await app.browser.newPage({ viewport: { width: 1280, height: 800 } });
    try {
      await report.goto(pathToFileURL(path.join(out, 'hr-report.html')).href);
      await report.getByText(QUOTES.leave).first().waitFor();
      expect(await report.locator('[data-decision="accepted"]').count()).toBe(1);
      expect(await report.locator('[data-decision="flagged"]').count()).toBe(1);
      await shot(report, 'report-html.png');
      await report.locator('[data-decision="flagged"]').scrollIntoViewIfNeeded();
      await shot(report, 'report-html-flagged.png');
    } finally {
      await report.close();
    }
  });
});
