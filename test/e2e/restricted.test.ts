import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAppInChromium, SCREENSHOTS, type AppInChromium } from '../support/app-in-chromium.ts';
import { writeFile } from '../support/pdf-fixtures.ts';

describe('restricting a source in Chromium: the lock toggle in the library', () => {
  let app: AppInChromium;
  let page: AppInChromium['page'];
  let minutesId = 0;

  const lock = (name: string) => page.getByRole('switch', { name: `Restricted: ${name}` });
  const row = (name: string) => page.locator('tr', { has: page.getByRole('button', { name, exact: true }) });
  const storedFlag = () => app.services.sources.get(minutesId)?.restricted;

  beforeAll(async () => {
    app = await openAppInChromium();
    ({ page } = app);
    const docs = path.join(app.services.dir, 'docs');
    writeFile(docs, 'handbook.txt', 'Employees receive 14 days of annual leave per calendar year.\n');
    writeFile(docs, 'board-minutes.txt', 'Directors receive 40 days of annual leave under the executive plan.\n');
    const result = await app.services.ingest.ingest({ paths: [docs] });
    const minutes = result.files.find((f) => f.path.endsWith('board-minutes.txt'));
    minutesId = minutes?.ok ? minutes.sourceId : 0;
  });

  afterAll(async () => {
    await app?.close();
  });

  it('shows every source unrestricted at first', async () => {
    await page.goto(app.host.url);
    for (const name of ['handbook.txt', 'board-minutes.txt']) {
      await expect.poll(() => lock(name).getAttribute('aria-checked')).toBe('false');
      expect((await lock(name).textContent())?.trim()).toBe('Not restricted');
    }
  });

  it('restricts one source with a click, marks its row, and keeps it after a reload', async () => {
    await lock('board-minutes.txt').click();
    await expect.poll(() => lock('board-minutes.txt').getAttribute('aria-checked')).toBe('true');
    expect((await lock('board-minutes.txt').textContent())?.trim()).toBe('Restricted');
    expect(await row('board-minutes.txt').getAttribute('class')).toContain('restricted');
    expect(storedFlag()).toBe(1);

    await page.reload();
    await expect.poll(() => lock('board-minutes.txt').getAttribute('aria-checked')).toBe('true');
    expect((await lock('board-minutes.txt').textContent())?.trim()).toBe('Restricted');
    expect(await lock('handbook.txt').getAttribute('aria-checked')).toBe('false');
    await page.locator('.library').screenshot({ path: path.join(SCREENSHOTS, 'restricted-source.png') });
  });

  it('lifts the restriction with a second click (keyboard), and that persists too', async () => {
    await lock('board-minutes.txt').focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => lock('board-minutes.txt').getAttribute('aria-checked')).toBe('false');
    expect(storedFlag()).toBe(0);
    await page.reload();
    await expect.poll(() => lock('board-minutes.txt').getAttribute('aria-checked')).toBe('false');
    expect(await row('board-minutes.txt').getAttribute('class') ?? '').not.toContain('restricted');
  });
});
