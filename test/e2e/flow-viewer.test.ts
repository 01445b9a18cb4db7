import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAppInChromium, SCREENSHOTS, type AppInChromium } from '../support/app-in-chromium.ts';
import { writeFile } from '../support/pdf-fixtures.ts';
import { HANDBOOK, HANDBOOK_HTML, REPORT, makeHandbookDocx, makeReportText } from '../support/viewer-documents.ts';

describe('the DOCX and text viewers in Chromium: open from the library, go to a block or line, highlight a quote exactly', () => {
  let app: AppInChromium;
  let page: AppInChromium['page'];
  let docxPath: string;
  let textPath: string;
  let htmlPath: string;

  /** The highlighted characters, per block or line, in document order. */
  const marked = () =>
    page.locator('.flow-viewer mark.quote-highlight').evaluateAll((marks) =>
      marks.map((m) => ({ text: m.textContent, block: m.closest('[data-ed-block]')?.getAttribute('data-ed-block') ?? null, line: m.closest('[data-line]')?.getAttribute('data-line') ?? null })),
    );

  /** The element is inside the scroller's visible part. */
  const inView = (selector: string) =>
    page.evaluate((sel) => {
      const el = document.querySelector(sel);
      const scroller = el?.closest('.flow-scroll');
      if (!el || !scroller) return false;
      const a = el.getBoundingClientRect();
      const b = scroller.getBoundingClientRect();
      return a.top >= b.top && a.bottom <= b.bottom;
    }, selector);

  beforeAll(async () => {
    app = await openAppInChromium();
    page = app.page;
    const dir = path.join(app.services.dir, 'docs');
    docxPath = writeFile(dir, HANDBOOK.fileName, await makeHandbookDocx());
    textPath = writeFile(dir, REPORT.fileName, makeReportText());
    htmlPath = writeFile(dir, 'leave-policy.html', HANDBOOK_HTML);
  });

  afterAll(async () => {
    await app?.close();
  });

  it('ingests a DOCX, a 5,000-line text file and an HTML page', async () => {
    await page.goto(app.host.url);
    await page.getByLabel('Add files or folders by path (one per line)').fill([docxPath, textPath, htmlPath].join('\n'));
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await page.getByText('3 added').waitFor();
  });

  it('opens the DOCX with numbered blocks whose text is checked against the stored text', async () => {
    await page.getByRole('button', { name: HANDBOOK.fileName }).click();
    await expect.poll(() => page.getByTestId('text-status').textContent()).toBe('Text matches the stored text');
    const viewer = page.getByRole('region', { name: 'Viewer' });
    await viewer.getByRole('heading', { name: 'Staff Handbook' }).waitFor();
    await viewer.locator('table').waitFor();
    expect(await viewer.locator('[data-ed-block]').count()).toBe(23);
    // The inline image survives sanitising as a data: URI; nothing remote, no script.
    expect(await viewer.locator('img').getAttribute('src')).toMatch(/^data:image\/png;base64,/);
    expect(await viewer.locator('script, style, [href]').count()).toBe(0);
  });

  it('goes to a block: it scrolls there and marks it', async () => {
    await page.getByLabel('Go to block').fill('¶ 20');
    await page.getByLabel('Go to block').press('Enter');
    await expect.poll(() => page.getByTestId('target-status').textContent()).toBe('Showing ¶ 20');
    await expect.poll(() => page.locator('[data-ed-block="20"]').getAttribute('class')).toContain('ed-current');
    await expect.poll(() => inView('[data-ed-block="20"]')).toBe(true);
  });

  it('finds a quote and highlights exactly its characters inside its block', async () => {
    await page.getByLabel('Find in document').fill(HANDBOOK.quote);
    await page.getByLabel('Find in document').press('Enter');
    await expect.poll(() => page.getByTestId('target-status').textContent()).toBe(`Highlighted ${HANDBOOK.quote.length} characters at ¶ 1`);
    await expect.poll(marked).toEqual([
      { text: '14 days', block: '1', line: null },
      { text: ' of annual leave per year', block: '1', line: null },
    ]);
    expect((await marked()).map((m) => m.text).join('')).toBe(HANDBOOK.quote);
    await page.screenshot({ path: path.join(SCREENSHOTS, 'docx-viewer-highlight.png') });
  });

  it('highlights a quote that runs from one block into the next', async () => {
    await page.getByLabel('Find in document').fill(HANDBOOK.spanning.join(' '));
    await page.getByLabel('Find in document').press('Enter');
    await expect.poll(() => page.getByTestId('target-status').textContent()).toContain('at ¶ 20–21');
    await expect.poll(marked).toEqual([
      { text: HANDBOOK.spanning[0], block: '20', line: null },
      { text: HANDBOOK.spanning[1], block: '21', line: null },
    ]);
  });

  it('opens the text file with numbered lines and goes to a line far down', async () => {
    await page.getByRole('button', { name: REPORT.fileName }).click();
    await expect.poll(() => page.getByTestId('text-status').textContent()).toBe('Text matches the stored text');
    await page.getByText('· Text · 5,000 lines').waitFor();
    // Lines are mounted in chunks as they near the viewport: the end of the file is not in the page yet.
    expect(await page.locator('[data-line="4990"]').count()).toBe(0);
    await page.getByLabel('Go to line').fill(String(REPORT.quoteLine));
    await page.getByLabel('Go to line').press('Enter');
    await expect.poll(() => page.getByTestId('target-status').textContent()).toBe(`Showing line ${REPORT.quoteLine}`);
    await expect.poll(() => inView(`[data-line="${REPORT.quoteLine}"]`)).toBe(true);
    expect(await page.locator(`[data-line="${REPORT.quoteLine}"]`).textContent()).toBe(REPORT.quote[0]);
  });

  it('highlights a quote across two lines exactly', async () => {
    const [first = '', second = ''] = REPORT.quote;
    const quote = `${first.slice(14)} ${second.slice(0, 27)}`;
    await page.getByLabel('Find in document').fill(quote);
    await page.getByLabel('Find in document').press('Enter');
    await expect.poll(() => page.getByTestId('target-status').textContent()).toContain(`lines ${REPORT.quoteLine}–${REPORT.quoteLine + 1}`);
    await expect.poll(marked).toEqual([
      { text: first.slice(14), block: null, line: String(REPORT.quoteLine) },
      { text: second.slice(0, 27), block: null, line: String(REPORT.quoteLine + 1) },
    ]);
    await expect.poll(() => inView('.flow-viewer mark.quote-highlight')).toBe(true);
    await page.screenshot({ path: path.join(SCREENSHOTS, 'text-viewer-highlight.png') });
  });

  it('says so, and highlights nothing, when a target lies outside the document', async () => {
    await page.getByLabel('Go to line').fill('7000');
    await page.getByLabel('Go to line').press('Enter');
    await expect.poll(() => page.getByTestId('target-status').textContent()).toContain('this file has no line 7000 (it has 5000)');
    expect(await page.locator('.flow-viewer mark.quote-highlight').count()).toBe(0);
  });

  it('shows an HTML page as its blocks with their headings, and finds a quote across a no-break space', async () => {
    await page.getByRole('button', { name: 'leave-policy.html' }).click();
    await expect.poll(() => page.getByTestId('text-status').textContent()).toBe('Text matches the stored text');
    const viewer = page.getByRole('region', { name: 'Viewer' });
    await viewer.getByRole('heading', { name: 'Leave policy', level: 1 }).waitFor();
    await viewer.getByRole('heading', { name: 'Requests', level: 2 }).waitFor();
    expect(await viewer.getByText('SCRIPT').count()).toBe(0);
    await page.getByLabel('Find in document').fill('14 days of annual leave');
    await page.getByLabel('Find in document').press('Enter');
    await expect.poll(() => page.locator('[data-block="1"] mark.quote-highlight').textContent()).toBe('14\u00a0days of annual leave');
    await page.screenshot({ path: path.join(SCREENSHOTS, 'html-viewer-highlight.png') });
  });

  it('shows the snapshot, labelled, once the original DOCX has changed, and still highlights exactly', async () => {
    fs.writeFileSync(docxPath, 'these are no longer the ingested bytes');
    await page.getByRole('button', { name: HANDBOOK.fileName }).click();
    await page.getByRole('note').getByText('Showing the workspace’s snapshot of this file').waitFor();
    await expect.poll(() => page.getByTestId('text-status').textContent()).toBe('Text matches the stored text');
    await page.getByLabel('Find in document').fill('paid at full salary');
    await page.getByLabel('Find in document').press('Enter');
    await expect.poll(marked).toEqual([{ text: 'paid at full salary', block: '16', line: null }]);
    // The banner leads back to the original: Relink… opens the relink dialog for this source.
    await page.getByRole('note').getByRole('button', { name: 'Relink…' }).click();
    const dialog = page.getByRole('dialog', { name: `Relink ${HANDBOOK.fileName}` });
    await dialog.waitFor();
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.count()).toBe(0);
  });
});
