import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAppInChromium, SCREENSHOTS, type AppInChromium } from '../support/app-in-chromium.ts';
import { writeFile } from '../support/pdf-fixtures.ts';
import { makeScannedPdf } from '../support/scan-fixtures.ts';
import { importThroughPicker } from '../support/policy-answers-window.ts';

const LINES = ['Memorandum of the board meeting held on 12 May 2024.', 'The board approved the purchase of the warehouse', 'for a price of 1.2 million euros, to be paid in June.', 'The chair thanked the staff for their work.'];
const QUOTE = 'approved the purchase of the warehouse for a price of 1.2 million euros';

const MARKDOWN = `Question: What did the board approve?

The board approved buying the warehouse for 1.2 million euros [1].

[1]: "${QUOTE}" — board-minutes-scan.pdf, p. 1
`;

// OCR takes seconds a page, many more on a busy machine.
const OCR_TIMEOUT = 300_000;

describe('a quote on a scanned page, highlighted on the scan in Chromium', () => {
  let app: AppInChromium;
  let page: AppInChromium['page'];
  let docs: string;

  beforeAll(async () => {
    app = await openAppInChromium();
    page = app.page;
    await page.setViewportSize({ width: 1280, height: 860 });
    docs = path.join(app.services.dir, 'docs');
    writeFile(docs, 'board-minutes-scan.pdf', await makeScannedPdf([{ lines: LINES }]));
  }, OCR_TIMEOUT);

  afterAll(async () => {
    await app?.close();
  });

  it('ingests the scan with OCR, verifies the quote on its OCR text and opens it marked word by word over the image', async () => {
    await page.goto(app.host.url);
    await page.getByLabel('Add files or folders by path (one per line)').fill(path.join(docs, 'board-minutes-scan.pdf'));
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await page.getByText('1 added').waitFor({ timeout: OCR_TIMEOUT });

    await page.getByRole('tab', { name: /Answers/ }).click();
    await importThroughPicker(page, writeFile(docs, 'board.md', MARKDOWN));
    const card = page.getByRole('article', { name: 'Citation [1]' });
    await card.waitFor();
    await expect.poll(() => card.locator('.places').textContent()).toContain('Foundp. 1 · on OCR text');
    await card.getByRole('button', { name: 'Details ▾' }).click();
    await expect.poll(() => card.locator('.notes').textContent()).toMatch(/found on OCR text of a scanned page \(recognition confidence \d+%\)/);

    await card.locator('blockquote').click();
    await expect.poll(() => page.getByLabel('Page number').inputValue()).toBe('1');
    const status = page.getByTestId('text-status');
    await expect.poll(() => status.textContent()).toMatch(/Text layer matches the stored text · this page is a scan: its text was recognised by OCR \(confidence \d+%\)/);
    // Every word of the quote is marked, and nothing else: the marks read as the quote.
    const marks = page.getByTestId('text-layer').locator('mark.quote-highlight');
    await expect.poll(async () => (await marks.allTextContents()).join(' ')).toBe(QUOTE);
    // The marks lie over the image where the words were drawn (lines 2 and 3 of the page, from 72 pt in).
    const layer = await page.getByTestId('text-layer').boundingBox();
    const first = await marks.first().boundingBox();
    if (!layer || !first) throw new Error('no boxes');
    expect((first.y - layer.y) / layer.height).toBeGreaterThan((792 - 720) / 792);
    expect((first.y - layer.y) / layer.height).toBeLessThan((792 - 720 + 3 * 18) / 792);
    // Find-in-page and selection work on the invisible words: the layer's text holds the quote's words.
    expect((await page.getByTestId('text-layer').textContent())?.replace(/\s+/g, '')).toContain(QUOTE.replace(/\s+/g, ''));

    // The scan itself is drawn under the words: the page canvas has dark (ink) pixels where the text is.
    const ink = () =>
      page.locator('.react-pdf__Page__canvas').evaluate((canvas: HTMLCanvasElement) => {
        const ctx = canvas.getContext('2d');
        if (!ctx) return 0;
        const { data } = ctx.getImageData(0, 0, canvas.width, Math.round(canvas.height * 0.2));
        let dark = 0;
        for (let i = 0; i < data.length; i += 4) if ((data[i] ?? 255) < 100) dark++;
        return dark;
      });
    await expect.poll(ink, { timeout: 60_000 }).toBeGreaterThan(1000);

    const file = path.join(SCREENSHOTS, 'ocr-highlight.png');
    await page.screenshot({ path: file });
    expect(fs.statSync(file).size).toBeGreaterThan(10_000);
  }, OCR_TIMEOUT);
});
