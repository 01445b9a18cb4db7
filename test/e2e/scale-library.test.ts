import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAppInChromium, SCREENSHOTS, type AppInChromium } from '../support/app-in-chromium.ts';
import { seriousViolations } from '../support/axe.ts';
import { addSmallSources } from '../support/scale-workspace.ts';

const COUNT = 10_000;
const name = (i: number) => (i === 4321 ? 'quarterly-board-minutes.txt' : `note-${String(i).padStart(6, '0')}.txt`);

describe('a library of 10,000 sources in Chromium (issue 16)', () => {
  let app: AppInChromium;
  let page: AppInChromium['page'];
  const table = () => page.getByRole('grid', { name: 'Sources' });
  const activeRow = async () => {
    const id = await table().getAttribute('aria-activedescendant');
    return page.locator(`#${id}`);
  };
  /**
   * The active row's text, or null while the table names none: while the list scrolls to the
   * active row it is not yet drawn, and the table then names no row. Asked of an absent row, a
   * poll would wait on "#null" for the whole action time-out and never ask again.
   */
  const activeText = async () => {
    const id = await table().getAttribute('aria-activedescendant');
    return id ? page.locator(`#${id}`).textContent({ timeout: 1_000 }).catch(() => null) : null;
  };

  beforeAll(async () => {
    app = await openAppInChromium();
    // A page of its own context: axe opens a blank page beside it to run its checks.
    page = await (await app.browser.newContext({ viewport: { width: 1400, height: 900 } })).newPage();
    addSmallSources(app.services.sources, path.join(app.services.dir, 'notes'), COUNT, { name });
  }, 120_000);

  afterAll(async () => {
    await app?.close();
  });

  it('opens with the count and only the rows near the viewport in the page', async () => {
    await page.goto(app.host.url);
    await page.getByRole('tab', { name: /Sources/ }).click();
    await expect.poll(() => page.getByTestId('source-count').textContent()).toBe('10,000 sources');
    expect(await table().getAttribute('aria-rowcount')).toBe(String(COUNT + 1));
    // Newest first: the last one added heads the list.
    await expect.poll(() => page.locator('tr[data-source-id]').first().textContent()).toContain('note-009999.txt');
    const rows = await page.locator('[data-testid=source-table] tbody tr').count();
    expect(rows).toBeLessThan(60);
    await page.screenshot({ path: path.join(SCREENSHOTS, 'scale-library-top.png') });
  });

  it('goes to the last row by keyboard and back to the first', async () => {
    await table().focus();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => table().getAttribute('aria-activedescendant')).toBe('source-row-2');
    await expect.poll(activeText).toContain('note-009997.txt');

    await page.keyboard.press('End');
    await expect.poll(() => table().getAttribute('aria-activedescendant')).toBe(`source-row-${COUNT - 1}`);
    await expect.poll(activeText, { timeout: 60_000 }).toContain('note-000000.txt');
    expect(await (await activeRow()).getAttribute('aria-rowindex')).toBe(String(COUNT + 1));
    expect(await (await activeRow()).isVisible()).toBe(true);
    // Focus stayed on the table all along, and the page still holds only a window of rows.
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('source-table');
    expect(await page.locator('[data-testid=source-table] tbody tr').count()).toBeLessThan(60);
    await page.screenshot({ path: path.join(SCREENSHOTS, 'scale-library-end.png') });

    await page.keyboard.press('PageUp');
    await page.keyboard.press('Home');
    await expect.poll(() => table().getAttribute('aria-activedescendant')).toBe('source-row-0');
    await expect.poll(activeText).toContain('note-009999.txt');
  });

  it('finds one source among 10,000 by a word of its name', async () => {
    await page.getByRole('searchbox', { name: /Find sources/ }).fill('quarterly');
    await expect.poll(() => page.getByTestId('source-count').textContent()).toBe('1 of 10,000 sources match');
    await expect.poll(() => page.locator('tr[data-source-id]').count()).toBe(1);
    expect(await page.locator('tr[data-source-id]').textContent()).toContain('quarterly-board-minutes.txt');
    await page.screenshot({ path: path.join(SCREENSHOTS, 'scale-library-filter.png') });
    expect(await seriousViolations(page, 'section.library')).toEqual([]);

    await page.getByRole('button', { name: 'Show all' }).click();
    await expect.poll(() => page.getByTestId('source-count').textContent()).toBe('10,000 sources');
  });

  it('sorts by name in the database: A to Z starts at the first name', async () => {
    await page.getByRole('combobox', { name: 'Sort sources' }).selectOption({ label: 'Name A–Z' });
    await expect.poll(() => page.locator('tr[data-source-id]').first().textContent()).toContain('note-000000.txt');
    await table().focus();
    await page.keyboard.press('End');
    await expect.poll(activeText, { timeout: 60_000 }).toContain('quarterly-board-minutes.txt');
    expect(await seriousViolations(page, 'section.library')).toEqual([]);
  });

  it('goes on to the last row when End was pressed on the first screen before the count came', async () => {
    // The first screen draws the first page before the library's count: the count is held back
    // until End has been pressed on that page.
    const first = await (await app.browser.newContext({ viewport: { width: 1400, height: 900 } })).newPage();
    let release = (): void => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await first.route('**/api/sources.listSummary', async (route) => {
      await held;
      await route.continue().catch(() => undefined);
    });
    try {
      await first.goto(app.host.url);
      const grid = first.getByRole('grid', { name: 'Sources' });
      await expect.poll(() => first.locator('tr[data-source-id]').first().textContent()).toContain('note-009999.txt');
      expect(Number(await grid.getAttribute('aria-rowcount'))).toBeLessThan(COUNT + 1);
      await grid.focus();
      await first.keyboard.press('End');
      release();
      await expect.poll(() => grid.getAttribute('aria-rowcount')).toBe(String(COUNT + 1));
      const active = async () => {
        const id = await grid.getAttribute('aria-activedescendant');
        return id ? first.locator(`#${id}`).textContent({ timeout: 1_000 }).catch(() => null) : null;
      };
      await expect.poll(active, { timeout: 60_000 }).toContain('note-000000.txt');
    } finally {
      release();
      await first.context().close();
    }
  });
});
