// PowerPoint and Excel in Chromium (issue 14): a deck and a workbook dropped on the window are
// uploaded and ingested; citations of slide text, a slide-table cell and sheet cells verify and
// open at their place: the slide outline with the quote marked, the grid scrolled to the marked cell.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAppInChromium, SCREENSHOTS, type AppInChromium } from '../support/app-in-chromium.ts';
import { buildDeck, buildWorkbook } from '../support/office-fixtures.ts';
import { nativeAnswer } from '../support/policy-workspace.ts';
import { writeFile } from '../support/pdf-fixtures.ts';
import { importThroughPicker } from '../support/policy-answers-window.ts';

type DroppedFile = { name: string; base64: string; type: string };

const ANSWER = nativeAnswer(
  [
    { marker: '1', claim: 'Revenue grew because renewals came in early.', quote: 'enterprise renewals came in early', source: { file: 'quarterly-review.pptx' }, locator: { slide: 2 } },
    { marker: '2', claim: 'North revenue was 1,200 in FY2024.', quote: '1,200', source: { file: 'quarterly-review.pptx' }, locator: { slide: 2 } },
    { marker: '3', claim: 'Total FY2024 revenue was 2,115.', quote: '2,115', source: { file: 'revenue.xlsx' }, locator: { sheet: 'Revenue', cell: 'C4' } },
    { marker: '4', claim: 'North revenue was 1200.', quote: '1200', source: { file: 'revenue.xlsx' }, locator: { sheet: 'Revenue', cell: 'C2' } },
  ],
  'How did revenue develop?',
);

describe('PowerPoint and Excel sources in Chromium', () => {
  let app: AppInChromium;
  let page: AppInChromium['page'];
  const card = (marker: string) => page.getByRole('article', { name: `Citation [${marker}]` });

  /** Dispatches a real drop event carrying these (binary) files on the element. */
  async function drop(selector: string, files: DroppedFile[]): Promise<void> {
    const dataTransfer = await page.evaluateHandle((list: DroppedFile[]) => {
      const dt = new DataTransfer();
      for (const f of list) dt.items.add(new File([Uint8Array.from(atob(f.base64), (c) => c.charCodeAt(0))], f.name, { type: f.type }));
      return dt;
    }, files);
    await page.dispatchEvent(selector, 'dragenter', { dataTransfer });
    await page.dispatchEvent(selector, 'drop', { dataTransfer });
  }

  beforeAll(async () => {
    app = await openAppInChromium();
    page = app.page;
    await page.setViewportSize({ width: 1360, height: 860 });
    await page.goto(app.host.url);
  });
  afterAll(async () => {
    await app?.close();
  });

  it('takes a dropped deck and workbook as documents, whichever panel they land on', async () => {
    await page.getByRole('tab', { name: /Answers/ }).click();
    const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');
    await drop('section[aria-label="Answers"]', [
      { name: 'quarterly-review.pptx', base64: b64(await buildDeck()), type: 'application/vnd.openxmlformats-officedocument.presentationml.presentation' },
      { name: 'revenue.xlsx', base64: b64(await buildWorkbook()), type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' },
    ]);
    await page.getByText('“quarterly-review.pptx” and “revenue.xlsx” are documents: added to Sources.').waitFor();
    await expect.poll(() => page.getByRole('tab', { name: /Sources/ }).textContent()).toBe('Sources 2');
    await page.getByRole('tab', { name: /Sources/ }).click();
    const deckRow = page.locator('tr', { has: page.getByRole('button', { name: 'quarterly-review.pptx', exact: true }) });
    await deckRow.getByText('3 slides').waitFor();
    const bookRow = page.locator('tr', { has: page.getByRole('button', { name: 'revenue.xlsx', exact: true }) });
    await bookRow.getByText('17 cells').waitFor();
  });

  it('verifies the citations and opens a slide-table cell on its slide, marked', async () => {
    await page.getByRole('tab', { name: /Answers/ }).click();
    await importThroughPicker(page, writeFile(path.join(app.services.dir, 'answers'), 'revenue-answer.json', ANSWER));
    await card('4').waitFor();
    for (const m of ['1', '2', '3', '4']) await expect.poll(() => card(m).locator('[data-role=status]').getAttribute('data-code')).toBe('verified');
    await expect.poll(() => card('2').locator('.places').textContent()).toContain('slide 2 · table 1, row North, column FY2024');
    await expect.poll(() => card('3').locator('.places').textContent()).toContain('sheet Revenue · C4 (row Total, column FY2024)');

    await card('2').locator('blockquote').click();
    const viewer = page.getByRole('region', { name: 'Viewer' });
    await expect.poll(() => page.getByTestId('text-status').textContent()).toBe('Text matches the stored text');
    await expect.poll(() => page.getByTestId('target-status').textContent()).toBe('Highlighted 5 characters at slide 2 · table 1, row North, column FY2024');
    const slide2 = viewer.getByRole('region', { name: 'Slide 2' });
    await slide2.getByRole('heading', { name: 'Revenue by region' }).waitFor();
    // The mark is in the table's cell at row 2, column 3, and nowhere else.
    await expect.poll(() => viewer.locator('mark.quote-highlight').allTextContents()).toEqual(['1,200']);
    const cell = slide2.locator('table.slide-table tr').nth(1).locator('td').nth(2);
    expect(await cell.locator('mark.quote-highlight').count()).toBe(1);
    await slide2.getByText('Speaker notes').waitFor();
    const shot = path.join(SCREENSHOTS, 'pptx-slide-cell-highlight.png');
    await page.screenshot({ path: shot });
    expect(fs.statSync(shot).size).toBeGreaterThan(10_000);

    await card('1').locator('blockquote').click();
    await expect.poll(() => page.getByTestId('target-status').textContent()).toBe('Highlighted 33 characters at slide 2');
    await expect.poll(() => viewer.locator('mark.quote-highlight').allTextContents()).toEqual(['enterprise renewals came in early']);
    await page.screenshot({ path: path.join(SCREENSHOTS, 'pptx-slide-text-highlight.png') });

    // Go to a slide by its number.
    await page.getByLabel('Go to slide').fill('slide 3');
    await page.getByLabel('Go to slide').press('Enter');
    await expect.poll(() => page.getByTestId('target-status').textContent()).toBe('Showing slide 3');
    await page.getByLabel('Go to slide').fill('9');
    await page.getByLabel('Go to slide').press('Enter');
    await page.getByRole('alert').getByText('This deck has no slide 9 (it has 3)').waitFor();
  });

  it('opens a sheet cell in the grid, scrolled to and marked, with its labels and formula in the bar', async () => {
    await card('3').locator('blockquote').click();
    const viewer = page.getByRole('region', { name: 'Viewer' });
    await expect.poll(() => page.getByTestId('target-status').textContent()).toBe('Highlighted 5 characters at sheet Revenue · C4 (row Total, column FY2024)');
    await expect.poll(() => page.getByTestId('cell-bar').textContent()).toBe('C4 · row Total, column FY2024 · ƒx =SUM(C2:C3)');
    await expect.poll(() => viewer.locator('td[data-address="C4"] mark.quote-highlight').textContent()).toBe('2,115');
    expect(await viewer.locator('td.current').count()).toBe(1);
    expect(await viewer.getByRole('tab', { name: 'Revenue' }).getAttribute('aria-selected')).toBe('true');
    const shot = path.join(SCREENSHOTS, 'xlsx-cell-highlight.png');
    await page.screenshot({ path: shot });
    expect(fs.statSync(shot).size).toBeGreaterThan(10_000);

    // "1200" is the cell shown "1,200": the grid marks that cell's text.
    await card('4').locator('blockquote').click();
    await expect.poll(() => viewer.locator('td[data-address="C2"] mark.quote-highlight').textContent()).toBe('1,200');
    await expect.poll(() => page.getByTestId('cell-bar').textContent()).toBe('C2 · row North, column FY2024 · 1,200');

    // The other sheets are a tab away, or a cell address away.
    await viewer.getByRole('tab', { name: 'Notes' }).click();
    await viewer.locator('td[data-address="B3"]').getByText('Audited by Smith & Partners on 12 March.').waitFor();
    await viewer.getByRole('tab', { name: 'Revenue' }).click();
    await page.getByLabel('Go to cell').fill('notes!b3');
    await page.getByLabel('Go to cell').press('Enter');
    await expect.poll(() => page.getByTestId('target-status').textContent()).toBe('Showing sheet Notes · B3');
    await expect.poll(() => viewer.getByRole('tab', { name: 'Notes' }).getAttribute('aria-selected')).toBe('true');
    await expect.poll(() => viewer.locator('td[data-address="B3"]').getAttribute('class')).toBe('current');
    await page.getByLabel('Go to cell').fill('Z99');
    await page.getByLabel('Go to cell').press('Enter');
    await page.getByRole('alert').getByText('No sheet has a filled cell Z99').waitFor();
  });
});
