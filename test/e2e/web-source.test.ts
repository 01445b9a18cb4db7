// Issue 11 in Chromium: add a web page served by a local server, cite it, open the citation: the
// archived page opens with the quote marked and the time it was fetched.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAppInChromium, SCREENSHOTS, type AppInChromium } from '../support/app-in-chromium.ts';
import { writeFile } from '../support/pdf-fixtures.ts';
import { articlePage, HTML, startWebServer, type TestWebServer } from '../support/web-server.ts';
import { importThroughPicker } from '../support/policy-answers-window.ts';

const PARAS = [
  'Revenue grew by twelve percent in the third quarter, driven by strong demand for analytics services across Europe and Asia.',
  'Operating costs fell as the company consolidated two offices and renegotiated its cloud contracts with its main suppliers.',
  'The board expects growth to continue next year, subject to market conditions, currency movements and the pace of hiring.',
];
const TABLE = `<table><caption>Key figures</caption><thead><tr><th>Item</th><th>FY2023</th><th>FY2024</th></tr></thead>
<tbody><tr><th>REVENUE</th><td>10.1 million</td><td>12.4 million</td></tr><tr><th>COSTS</th><td>8.0 million</td><td>7.5 million</td></tr></tbody></table>`;
const PAGE = articlePage('Quarterly results', PARAS, TABLE);
const QUOTE = 'renegotiated its cloud contracts with its main suppliers';

describe('an archived web page in Chromium', () => {
  let app: AppInChromium;
  let page: AppInChromium['page'];
  let server: TestWebServer;

  beforeAll(async () => {
    server = await startWebServer();
    server.routes.set('/q3.html', { headers: HTML, body: PAGE });
    app = await openAppInChromium();
    page = app.page;
  });

  afterAll(async () => {
    await app?.close();
    await server?.close();
  });

  it('adds a web page from the library: fetched by the services, listed with its title', async () => {
    await page.goto(app.host.url);
    await page.getByRole('button', { name: 'Add web page…' }).click();
    await page.getByLabel(/Web page address/).fill(server.url('/q3.html'));
    await page.getByRole('button', { name: 'Archive page' }).click();
    const status = page.getByRole('status').filter({ hasText: 'Archived Quarterly results on' });
    await status.waitFor();
    expect(await status.textContent()).toMatch(/^Archived Quarterly results on \d{4}-\d\d-\d\d at \d\d:\d\d UTC\.$/);
    await page.getByRole('button', { name: `${new URL(server.url('/')).host}/q3.html` }).waitFor();
    expect(server.hits.get('/q3.html')).toBe(1);

    // A failure says why, in words, with its code in the tooltip; nothing is added.
    await page.getByLabel(/Web page address/).fill(server.url('/missing.html'));
    await page.getByRole('button', { name: 'Archive page' }).click();
    const alert = page.getByRole('alert').filter({ hasText: '404' });
    await alert.waitFor();
    expect(await alert.getAttribute('title')).toBe('WEB_HTTP_STATUS');
  });

  it('imports an answer that quotes it; the citation opens the archived page with the quote marked and the fetch time', async () => {
    const sha256 = createHash('sha256').update(PAGE).digest('hex');
    const answer = JSON.stringify({
      format: 'evidence-desk/answer@1',
      question: 'Why did costs fall?',
      answer: 'Costs fell because contracts were renegotiated [1]. Revenue reached 12.4 million in FY2024 [2].',
      citations: [
        { marker: '1', claim: 'Costs fell because contracts were renegotiated.', quote: QUOTE, source: { sha256 } },
        { marker: '2', claim: 'Revenue reached 12.4 million in FY2024.', quote: '12.4 million', source: { sha256 } },
      ],
    });
    const file = writeFile(path.join(app.services.dir, 'answers'), 'web-answer.json', answer);
    await page.getByRole('tab', { name: /Answers/ }).click();
    await importThroughPicker(page, [file]);
    const card = page.getByRole('article', { name: 'Citation [1]' });
    await card.waitFor();
    await card.locator('blockquote').click();

    const note = page.getByTestId('archived-from');
    await note.waitFor();
    expect(await note.textContent()).toMatch(new RegExp(`^Archived from ${server.url('/q3.html').replace(/[.]/g, '\\.')} on \\d{4}-\\d\\d-\\d\\d at \\d\\d:\\d\\d UTC\\.`));
    await expect.poll(() => page.getByTestId('text-status').textContent()).toBe('Text matches the stored text');
    await expect.poll(async () => (await page.locator('.flow-viewer mark.quote-highlight').allTextContents()).join('')).toBe(QUOTE);
    // The reader view: the article, not the site's navigation.
    expect(await page.locator('.flow-viewer').textContent()).not.toContain('About us');
    const shot = path.join(SCREENSHOTS, 'web-source-archived.png');
    await page.screenshot({ path: shot });
    expect(fs.statSync(shot).size).toBeGreaterThan(10_000);
    // Opening it fetched nothing: the viewer reads the archive.
    expect(server.hits.get('/q3.html')).toBe(1);
  });

  it('a quote from a table cell is found in that cell, said in words on the card, and marked in the cell', async () => {
    const card = page.getByRole('article', { name: 'Citation [2]' });
    expect(await card.locator('.places').textContent()).toContain('table 1, row REVENUE, column FY2024');
    await card.locator('blockquote').click();
    await expect.poll(async () => (await page.locator('.flow-viewer mark.quote-highlight').allTextContents()).join('')).toBe('12.4 million');
    const cell = page.locator('.flow-viewer .hb.current');
    expect(await cell.getAttribute('data-cell')).toBe('table 1, row REVENUE, column FY2024');
    expect(await cell.textContent()).toBe('12.4 million');
    const shot = path.join(SCREENSHOTS, 'web-source-table-cell.png');
    await page.screenshot({ path: shot });
    expect(fs.statSync(shot).size).toBeGreaterThan(10_000);
  });
});
