// Active source health in Chromium: files moved while the app is open are marked without a click
// (the folder watch), files moved while the analyst was away are caught when the window regains
// focus, and the library-wide search finds every missing file in one folder walk and relinks them.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAppInChromium, SCREENSHOTS, type AppInChromium } from '../support/app-in-chromium.ts';
import { writeFile } from '../support/pdf-fixtures.ts';

describe('active source health in Chromium', () => {
  let app: AppInChromium;
  let page: AppInChromium['page'];
  let services: AppInChromium['services'];
  let docs: string;
  let archive: string;
  const health = (name: string) => page.locator('tr', { has: page.getByRole('button', { name, exact: true }) }).locator('[data-health]');

  beforeAll(async () => {
    app = await openAppInChromium();
    ({ page, services } = app);
    docs = path.join(services.dir, 'Matter 12');
    archive = path.join(services.dir, 'Archive', '2024');
    for (const name of ['memo.txt', 'letter.txt', 'notes.txt']) writeFile(docs, name, `The ${name} of matter 12, with its own words.\n`);
    await services.ingest.ingest({ paths: [docs] });
    await services.health.checkAll();
    services.watcher.start();
    await page.goto(app.host.url);
    await health('memo.txt').and(page.locator('[data-health="ok"]')).waitFor();
  });
  afterAll(async () => {
    await app?.close();
  });

  it('marks a file moved while the app is open as missing, with no click', async () => {
    fs.mkdirSync(archive, { recursive: true });
    fs.renameSync(path.join(docs, 'memo.txt'), path.join(archive, 'memo.txt'));
    await expect.poll(() => health('memo.txt').textContent()).toBe('✖ missing');
    expect(await health('letter.txt').textContent()).toBe('✓ ok');
  });

  it('checks again when the window regains focus, catching a move the watch did not see', async () => {
    await services.watcher.stop();
    fs.renameSync(path.join(docs, 'letter.txt'), path.join(archive, 'letter.txt'));
    // Nothing tells the app until the analyst comes back to the window (checks are at most every 5 s).
    await new Promise((r) => setTimeout(r, 5_200));
    expect(await health('letter.txt').textContent()).toBe('✓ ok');
    await page.evaluate(() => window.dispatchEvent(new Event('focus')));
    await expect.poll(() => health('letter.txt').textContent()).toBe('✖ missing');
  });

  it('finds every missing file in one folder and relinks them together', async () => {
    await page.getByRole('button', { name: 'Find missing files in a folder…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Find 2 missing files' });
    await dialog.waitFor();
    // A folder that does not exist: the reason is said, and the field keeps the focus for a correction.
    await dialog.getByLabel('Folder to search').fill(path.join(services.dir, 'Archiv'));
    await dialog.getByRole('button', { name: 'Search' }).click();
    await dialog.getByRole('alert').waitFor();
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('placeholder'))).toBe('/home/me/Documents');

    await dialog.getByLabel('Folder to search').fill(path.join(services.dir, 'Archive'));
    await dialog.getByRole('button', { name: 'Search' }).click();
    await dialog.getByRole('button', { name: 'Relink 2 files' }).waitFor();
    const rows = await dialog.locator('.suggestion-list li').allTextContents();
    expect(rows).toHaveLength(2);
    for (const name of ['letter.txt', 'memo.txt']) expect(rows.some((r) => r.startsWith(name) && r.includes(path.join(archive, name)))).toBe(true);
    await page.screenshot({ path: path.join(SCREENSHOTS, 'find-missing-found.png') });
    await dialog.getByRole('button', { name: 'Relink 2 files' }).click();
    await dialog.getByText('✓ Relinked 2 sources.').waitFor();
    await dialog.getByRole('button', { name: 'Done' }).click();
    for (const name of ['memo.txt', 'letter.txt', 'notes.txt']) await expect.poll(() => health(name).textContent()).toBe('✓ ok');
    expect(await page.getByRole('button', { name: 'Find missing files in a folder…' }).count()).toBe(0);
  });
});
