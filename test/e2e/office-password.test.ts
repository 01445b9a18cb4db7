// A password-protected PowerPoint file added through the library in Chromium: refused without a
// password (the report says one can be given), refused with a wrong one, read with the right one.
import path from 'node:path';
import officeCrypto from 'officecrypto-tool';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAppInChromium, SCREENSHOTS, type AppInChromium } from '../support/app-in-chromium.ts';
import { buildDeck } from '../support/office-fixtures.ts';
import { writeFile } from '../support/pdf-fixtures.ts';

describe('adding a password-protected Office file in Chromium', () => {
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

  it('says a password is needed, that a wrong one is wrong, and reads the deck with the right one', async () => {
    const locked = new Uint8Array(officeCrypto.encrypt(Buffer.from(await buildDeck()), { password: 'open sesame' }));
    const file = writeFile(path.join(services.dir, 'docs'), 'board.pptx', locked);
    const pathsField = page.getByLabel('Add files or folders by path (one per line)');
    const passwordField = page.getByLabel('Password (only for password-protected PDF, Word, PowerPoint or Excel files)');
    const add = page.getByRole('button', { name: 'Add', exact: true });
    const report = page.getByRole('status', { name: 'Ingest report' });

    await pathsField.fill(file);
    await add.click();
    await expect.poll(() => report.textContent(), { timeout: 30_000 }).toContain('"board.pptx" is protected by a password. Add it again with its password to read it');
    expect(await report.textContent()).not.toContain('--password');

    await pathsField.fill(file);
    await passwordField.fill('wrong');
    await add.click();
    await expect.poll(() => report.textContent(), { timeout: 30_000 }).toContain('"board.pptx": the password given is not the right one');
    expect(services.sources.count()).toBe(0);

    await pathsField.fill(file);
    await passwordField.fill('open sesame');
    await add.click();
    await page.getByRole('button', { name: 'board.pptx' }).waitFor({ timeout: 30_000 });
    const stored = services.sources.list();
    expect(stored.map((s) => [s.file_name, s.kind])).toEqual([['board.pptx', 'pptx']]);
    expect(services.sources.segments(stored[0]?.id ?? 0).map((s) => s.text)).toContain('Hiring stays frozen until March.');
    await page.screenshot({ path: path.join(SCREENSHOTS, 'office-password-added.png') });
  });
});
