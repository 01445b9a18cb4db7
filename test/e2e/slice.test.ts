import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAppInChromium, SCREENSHOTS, type AppInChromium } from '../support/app-in-chromium.ts';
import { makePdf, threePages, writeFile } from '../support/pdf-fixtures.ts';


describe('the first slice in Chromium: ingest a PDF, list it, open it at page 3', () => {
  let app: AppInChromium;
  let page: AppInChromium['page'];
  let host: AppInChromium['host'];
  let services: AppInChromium['services'];
  let pdfPath: string;

  beforeAll(async () => {
    app = await openAppInChromium();
    ({ page, host, services } = app);
    pdfPath = writeFile(path.join(services.dir, 'docs'), 'three-pages.pdf', await makePdf(threePages()));
  });

  afterAll(async () => {
    await app?.close();
  });

  it('shows the app at the printed URL and drops the token from the address bar', async () => {
    await page.goto(host.url);
    await expect.poll(() => page.url()).toBe(`http://127.0.0.1:${host.port}/`);
    await page.getByRole('heading', { name: 'Evidence Desk' }).waitFor();
    await page.getByText('No sources yet').waitFor();
  });

  it('ingests the PDF by path and lists it with the SHA-256 that sha256sum prints', async () => {
    await page.getByLabel('Add files or folders by path (one per line)').fill(pdfPath);
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    const row = page.locator('tr', { has: page.getByRole('button', { name: 'three-pages.pdf' }) });
    await row.waitFor();
    const listed = await row.locator('code.sha').getAttribute('data-sha256');
    const expected = execFileSync('sha256sum', [pdfPath], { encoding: 'utf8' }).split(' ')[0];
    expect(listed).toBe(expected);
    await expect.poll(() => row.locator('td').nth(1).textContent()).toBe('3 pp.');
    await page.getByText('1 added').waitFor();
  });

  it('opens it, goes to page 3 and renders the page with its text layer', async () => {
    await page.getByRole('button', { name: 'three-pages.pdf' }).click();
    await page.getByRole('navigation', { name: 'Pages' }).getByText('of 3', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Next page' }).click();
    await page.getByRole('button', { name: 'Next page' }).click();
    await expect.poll(() => page.getByLabel('Page number').inputValue()).toBe('3');
    const layer = page.getByTestId('text-layer');
    await layer.getByText('page 3 of 3', { exact: false }).waitFor();
    await expect.poll(() => layer.textContent()).toContain('14 days of annual leave');
    // The viewer checks its text items against the stored page text, character for character.
    await expect.poll(() => page.getByTestId('text-status').textContent()).toContain('Text layer matches the stored text');
    await expect.poll(() => page.locator('.pdf-page-slot[data-page-number="3"] .react-pdf__Page canvas').count()).toBe(1);
    const file = path.join(SCREENSHOTS, 'slice-page-3.png');
    await page.screenshot({ path: file });
    expect(fs.statSync(file).size).toBeGreaterThan(10_000);
  });
});
