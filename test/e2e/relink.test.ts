import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAppInChromium, SCREENSHOTS, type AppInChromium } from '../support/app-in-chromium.ts';
import { makePdf, writeFile } from '../support/pdf-fixtures.ts';


describe('source health and relinking in Chromium: a renamed folder, one relink, one confirmation', () => {
  let app: AppInChromium;
  let page: AppInChromium['page'];
  let host: AppInChromium['host'];
  let services: AppInChromium['services'];
  let oldDir: string;
  let newDir: string;
  let other: string;

  const row = (name: string) => page.locator('tr', { has: page.getByRole('button', { name, exact: true }) });

  beforeAll(async () => {
    app = await openAppInChromium();
    ({ page, host, services } = app);
    oldDir = path.join(services.dir, 'Case 2024');
    newDir = path.join(services.dir, 'Case 2024 (closed)');
    writeFile(oldDir, 'contract.pdf', await makePdf([{ lines: ['The contract, signed on 3 May 2024.'] }], 'Contract'));
    writeFile(oldDir, 'invoice.pdf', await makePdf([{ lines: ['Invoice 17: 1,200 EUR, due in 30 days.'] }, { lines: ['Page two of the invoice.'] }], 'Invoice'));
    // A file with the same name and other bytes, which a relink must refuse.
    other = writeFile(path.join(services.dir, 'elsewhere'), 'contract.pdf', await makePdf([{ lines: ['A different contract.'] }], 'Other'));
  });

  afterAll(async () => {
    await app?.close();
  });

  it('ingests a folder of two PDFs and shows both files ok', async () => {
    await page.goto(host.url);
    await page.getByLabel('Add files or folders by path (one per line)').fill(oldDir);
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await page.getByText('2 added').waitFor();
    for (const name of ['contract.pdf', 'invoice.pdf']) {
      await expect.poll(() => row(name).locator('[data-health]').textContent()).toBe('✓ ok');
    }
  });

  it('reports both missing after the folder is renamed and "Check files" is clicked', async () => {
    fs.renameSync(oldDir, newDir);
    await page.getByRole('button', { name: 'Check files' }).click();
    await page.getByText('Checked 2 files: 0 ok, 2 missing.').waitFor();
    for (const name of ['contract.pdf', 'invoice.pdf']) {
      await expect.poll(() => row(name).locator('[data-health]').textContent()).toBe('✖ missing');
      await expect.poll(() => row(name).locator('[data-health]').getAttribute('data-health')).toBe('missing');
    }
  });

  it('opens an accessible relink dialog: labelled, focus inside, Escape closes it', async () => {
    await page.getByRole('button', { name: 'Relink contract.pdf' }).click();
    const dialog = page.getByRole('dialog', { name: 'Relink contract.pdf' });
    await dialog.waitFor();
    expect(await dialog.getAttribute('aria-modal')).toBe('true');
    await expect.poll(() => page.evaluate(() => document.activeElement?.closest('[role="dialog"]') !== null)).toBe(true);
    const field = dialog.getByLabel('New location of the file (full path)');
    expect(await field.inputValue()).toBe(path.join(oldDir, 'contract.pdf'));
    await page.screenshot({ path: path.join(SCREENSHOTS, 'relink-dialog-open.png') });
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.count()).toBe(0);
    // Focus goes back to the button that opened it.
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Relink contract.pdf');
  });

  it('refuses a same-named file with other bytes, and says it could be added as a new source', async () => {
    await page.getByRole('button', { name: 'Relink contract.pdf' }).click();
    const dialog = page.getByRole('dialog', { name: 'Relink contract.pdf' });
    await dialog.getByLabel('New location of the file (full path)').fill(other);
    await dialog.getByRole('button', { name: 'Relink', exact: true }).click();
    const alert = dialog.getByRole('alert');
    await alert.getByText('bytes differ', { exact: false }).waitFor();
    await alert.getByRole('button', { name: 'Add contract.pdf as a new source' }).waitFor();
  });

  it('relinks one file, offers the other one under the renamed folder, and relinks it with "Relink all"', async () => {
    const dialog = page.getByRole('dialog', { name: 'Relink contract.pdf' });
    await dialog.getByLabel('New location of the file (full path)').fill(path.join(newDir, 'contract.pdf'));
    await dialog.getByRole('button', { name: 'Relink', exact: true }).click();
    await dialog.getByText('Relinked to').waitFor();
    const suggestions = dialog.getByRole('region', { name: /1 other missing source found under/ });
    await suggestions.getByText(path.join(newDir, 'invoice.pdf')).waitFor();
    const relinkAll = suggestions.getByRole('button', { name: 'Relink all 1' });
    await relinkAll.waitFor();
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Relink all 1');

    const file = path.join(SCREENSHOTS, 'relink-dialog.png');
    await page.screenshot({ path: file });
    expect(fs.statSync(file).size).toBeGreaterThan(10_000);

    await relinkAll.click();
    await suggestions.getByText('✓ Relinked 1 more source.').waitFor();
    await dialog.getByRole('button', { name: 'Done' }).click();
    await expect.poll(() => dialog.count()).toBe(0);
    for (const name of ['contract.pdf', 'invoice.pdf']) {
      await expect.poll(() => row(name).locator('[data-health]').textContent()).toBe('✓ ok');
    }
    await page.getByRole('button', { name: 'Check files' }).click();
    await page.getByText('Checked 2 files: 2 ok.').waitFor();
    const report = await services.health.checkAll();
    expect(report.sources.map((s) => s.path).sort()).toEqual([path.join(newDir, 'contract.pdf'), path.join(newDir, 'invoice.pdf')]);
  });

  it('opens the relink dialog when the viewer cannot open a moved source that has no snapshot (FILE_MISSING)', async () => {
    const invoice = services.sources.list().find((s) => s.file_name === 'invoice.pdf');
    expect(invoice?.snapshot).toBeTruthy();
    fs.rmSync(path.join(services.workspaceDir, invoice?.snapshot ?? ''));
    fs.renameSync(path.join(newDir, 'invoice.pdf'), path.join(services.dir, 'invoice-moved.pdf'));
    await page.getByRole('button', { name: 'invoice.pdf', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Relink invoice.pdf' });
    await dialog.waitFor();
    await dialog.getByText('The viewer could not open this source').waitFor();
    // The failure stays inside the viewer: the rest of the window keeps working.
    await page.getByRole('region', { name: 'Viewer' }).getByRole('alert').getByText('This document could not be opened', { exact: false }).waitFor();
    await expect.poll(() => row('invoice.pdf').locator('[data-health]').textContent()).toBe('✖ missing');
    await page.screenshot({ path: path.join(SCREENSHOTS, 'relink-from-viewer.png') });
    await dialog.getByLabel('Or search a folder for it (subfolders included)').fill(services.dir);
    await dialog.getByRole('button', { name: 'Search' }).click();
    await dialog.getByText(/with the same bytes:/).waitFor();
    await dialog.getByRole('button', { name: 'Relink to this' }).click();
    await dialog.getByText('Relinked to').waitFor();
    await expect.poll(() => row('invoice.pdf').locator('[data-health]').textContent()).toBe('✓ ok');
    await dialog.getByRole('button', { name: 'Done' }).click();
    // Relinked, the same source now opens in the viewer.
    await page.getByRole('region', { name: 'Viewer' }).getByRole('button', { name: 'Open again' }).click();
    await page.getByRole('navigation', { name: 'Pages' }).getByText('of 2', { exact: true }).waitFor();
  });
});
