import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAppInChromium, SCREENSHOTS, type AppInChromium } from '../support/app-in-chromium.ts';
import { makePdf, threePages, writeFile } from '../support/pdf-fixtures.ts';


describe('ingest progress, cancellation and the snapshot label in Chromium', () => {
  let app: AppInChromium;
  let page: AppInChromium['page'];
  let host: AppInChromium['host'];
  let services: AppInChromium['services'];

  beforeAll(async () => {
    app = await openAppInChromium();
    ({ page, host, services } = app);
    await page.goto(host.url);
    await page.getByText('No sources yet').waitFor();
  });
  afterAll(async () => {
    await app?.close();
  });

  it('shows file and page progress and cancels a running batch, keeping what was stored', async () => {
    const folder = path.join(services.dir, 'long');
    for (let i = 0; i < 6; i++) {
      const pages = Array.from({ length: 250 }, (_, p) => ({ lines: [`Long file ${i}, page ${p + 1}.`, 'Filler line of ordinary text for the extractor to read.'] }));
      writeFile(folder, `long-${i}.pdf`, await makePdf(pages));
    }
    await page.getByLabel('Add files or folders by path (one per line)').fill(folder);
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    const progress = page.locator('p.progress');
    await expect.poll(() => progress.textContent(), { timeout: 30_000 }).toMatch(/File \d of 6: extracting page \d+ of 250/);
    // The button keeps its place while the line beside it changes page by page.
    const cancel = page.getByRole('button', { name: 'Cancel' });
    const before = await cancel.boundingBox();
    const firstLine = await progress.textContent();
    await expect.poll(() => progress.textContent(), { timeout: 30_000 }).not.toBe(firstLine);
    expect(await cancel.boundingBox()).toEqual(before);
    await cancel.click();
    const report = page.getByRole('status', { name: 'Ingest report' });
    await expect.poll(() => report.textContent(), { timeout: 60_000 }).toContain('Cancelled:');
    expect(services.sources.count()).toBeLessThan(6);
    // Whatever was stored is complete.
    for (const s of services.sources.list()) expect(s.segment_count).toBe(250);
  });

  it('lists what a folder skipped, in sentences: links out of the folder and a FIFO, none of them read', async () => {
    const root = path.join(services.dir, 'intake');
    writeFile(path.join(root, 'outside'), 'secret.md', '# Secret\n\nPayroll of the director.\n');
    const chosen = path.join(root, 'chosen');
    writeFile(chosen, 'good.md', '# Good\n\nAnnual leave is 14 days.\n');
    fs.symlinkSync('/etc/passwd', path.join(chosen, 'evil.txt'));
    fs.symlinkSync(path.join(root, 'outside'), path.join(chosen, 'elsewhere'));
    execFileSync('mkfifo', [path.join(chosen, 'pipe.txt')]);
    await page.getByLabel('Add files or folders by path (one per line)').fill(chosen);
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    const report = page.getByRole('status', { name: 'Ingest report' });
    await expect.poll(() => report.textContent(), { timeout: 30_000 }).toContain('1 added, 3 skipped');
    const skipped = report.getByRole('list', { name: 'Skipped' }).getByRole('listitem');
    expect(await skipped.allTextContents()).toEqual([
      'Skipped elsewhere: it links to a folder outside the folder you chose.',
      'Skipped evil.txt: it links to a file outside the folder you chose.',
      'Skipped pipe.txt: it is a named pipe (FIFO), not a regular file, so it was not opened.',
    ]);
    // The code and the real target are in the tooltip.
    expect(await skipped.nth(1).getAttribute('title')).toBe(`${path.join(chosen, 'evil.txt')} → /etc/passwd [link_outside]`);
    await page.getByRole('button', { name: 'good.md' }).waitFor();
    expect(services.sources.list().map((s) => s.file_name)).not.toContain('evil.txt');
    await report.screenshot({ path: path.join(SCREENSHOTS, 'ingest-skipped.png') });
    await page.screenshot({ path: path.join(SCREENSHOTS, 'ingest-skipped-page.png') });
  });

  it('with "Follow links outside" ticked, a link out of the folder is followed, a FIFO still refused', async () => {
    const root = path.join(services.dir, 'intake-follow');
    writeFile(path.join(root, 'outside'), 'annex.md', '# Annex\n\nKept beside the folder, linked into it.\n');
    const chosen = path.join(root, 'chosen');
    fs.mkdirSync(chosen, { recursive: true });
    fs.symlinkSync(path.join(root, 'outside', 'annex.md'), path.join(chosen, 'annex.md'));
    execFileSync('mkfifo', [path.join(chosen, 'pipe.md')]);
    await page.getByLabel('Follow links that lead outside the chosen folders').check();
    await page.getByLabel('Add files or folders by path (one per line)').fill(chosen);
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    const report = page.getByRole('status', { name: 'Ingest report' });
    await expect.poll(() => report.textContent(), { timeout: 30_000 }).toContain('1 added, 1 skipped');
    expect(await report.getByRole('list', { name: 'Skipped' }).getByRole('listitem').allTextContents()).toEqual([
      'Skipped pipe.md: it is a named pipe (FIFO), not a regular file, so it was not opened.',
    ]);
    await page.getByRole('button', { name: 'annex.md' }).waitFor();
    await page.getByLabel('Follow links that lead outside the chosen folders').uncheck();
  });

  it('labels the snapshot when the original file has changed since it was ingested', async () => {
    const file = writeFile(path.join(services.dir, 'docs'), 'memo.pdf', await makePdf(threePages()));
    await page.getByLabel('Add files or folders by path (one per line)').fill(file);
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await page.getByRole('button', { name: 'memo.pdf' }).waitFor();
    fs.writeFileSync(file, await makePdf([{ lines: ['Someone edited this file after it was ingested.'] }]));
    await page.getByRole('button', { name: 'memo.pdf' }).click();
    await page.getByRole('note').getByText('Showing the workspace’s snapshot of this file').waitFor();
    // The snapshot is the ingested bytes: its text layer still matches the stored text.
    await expect.poll(() => page.getByTestId('text-status').textContent()).toContain('Text layer matches the stored text');
    // Opening it found the change: the library's health column says so too.
    await expect.poll(() => page.locator('tr', { has: page.getByRole('button', { name: 'memo.pdf' }) }).textContent()).toContain('modified');
    await page.screenshot({ path: path.join(SCREENSHOTS, 'viewer-snapshot-label.png') });
  });
});
