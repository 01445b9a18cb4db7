import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAppInChromium, SCREENSHOTS, type AppInChromium } from '../support/app-in-chromium.ts';
import { seriousViolations } from '../support/axe.ts';
import { addSmallSources, bigAnswer } from '../support/scale-workspace.ts';
import { callHandler } from '../support/workspace.ts';

// Verification runs in the test's setup: 2,000 citations keep it under a minute on a shared machine.
const CITATIONS = 2_000;
const NOT_FOUND = Math.floor(CITATIONS / 7);

describe('an answer of 2,000 citations on the desk (issue 16)', () => {
  let app: AppInChromium;
  let page: AppInChromium['page'];
  const card = (marker: string) => page.getByRole('article', { name: `Citation [${marker}]` });
  const items = () => page.getByRole('list', { name: 'Citations' }).getByRole('listitem');
  const scroller = () => page.getByRole('region', { name: 'Answer review' });

  beforeAll(async () => {
    app = await openAppInChromium();
    page = await (await app.browser.newContext({ viewport: { width: 1400, height: 900 } })).newPage();
    addSmallSources(app.services.sources, path.join(app.services.dir, 'notes'), 300);
    await callHandler(app.services, 'answers.import', { content: bigAnswer(CITATIONS, 300), fileName: 'items.json' });
  }, 240_000);

  afterAll(async () => {
    await app?.close();
  });

  it('opens the answer with a screenful of cards in the page and the list’s size for screen readers', async () => {
    await page.goto(app.host.url);
    await page.getByRole('tab', { name: /Answers/ }).click();
    await page.getByRole('button', { name: /Where are the 2000 items kept/ }).click();
    await card('1').waitFor({ timeout: 30_000 });
    expect(await items().count()).toBeLessThan(40);
    expect(await items().first().getAttribute('aria-setsize')).toBe(String(CITATIONS));
    expect(await items().first().getAttribute('aria-posinset')).toBe('1');
    // The risk flag is a group with its count, not a wall of markers.
    const flag = page.locator('[data-flag=missing_evidence]');
    expect(await flag.textContent()).toContain(`${NOT_FOUND} citations have no evidence`);
    expect((await flag.textContent())?.length ?? 0).toBeLessThan(200);
    await page.screenshot({ path: path.join(SCREENSHOTS, 'scale-cards-open.png') });
  });

  it('keeps the current card while it is scrolled out of the page and back', async () => {
    await card('3').locator('blockquote').click();
    await expect.poll(() => card('3').getAttribute('aria-current')).toBe('true');
    await scroller().evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
    await expect.poll(() => card('3').count()).toBe(0);
    await expect.poll(() => page.locator(`[role=listitem][aria-posinset="${CITATIONS}"]`).count()).toBe(1);
    await scroller().evaluate((el) => el.scrollTo({ top: 0 }));
    await expect.poll(() => card('3').getAttribute('aria-current')).toBe('true');
    // The keyboard goes on from the current card, and the list draws the next one in view.
    await scroller().focus();
    await page.keyboard.press('j');
    await expect.poll(() => card('4').getAttribute('aria-current')).toBe('true');
    expect(await card('4').isVisible()).toBe(true);
  });

  it('shows only the cards of a risk flag when its group is clicked', async () => {
    await page.getByRole('button', { name: new RegExp(`^Show the ${NOT_FOUND} citations: ${NOT_FOUND} citations have no evidence`) }).click();
    await expect.poll(() => page.locator('.flag-filter').textContent()).toContain(`Showing ${NOT_FOUND} citations`);
    await expect.poll(() => items().first().getAttribute('aria-setsize')).toBe(String(NOT_FOUND));
    expect(await items().first().locator('article').getAttribute('aria-label')).toBe('Citation [7]');
    await page.screenshot({ path: path.join(SCREENSHOTS, 'scale-cards-flag-filter.png') });
    // The filtered cards themselves, below the answer text: only the flag's citations, counted in SQL.
    await page.locator('.flag-filter').evaluate((el) => el.scrollIntoView({ block: 'start' }));
    await expect.poll(() => card('14').isVisible()).toBe(true);
    expect(await card('8').count()).toBe(0);
    await page.screenshot({ path: path.join(SCREENSHOTS, 'scale-cards-flag-filter-cards.png') });
    // The ledger, the filter line and the cards (the answer text's 2,000 markers make axe take minutes).
    expect(await seriousViolations(page, ['.review-head', '.flag-filter', '.cards'])).toEqual([]);
    await page.locator('.flag-filter').getByRole('button', { name: 'Show all' }).click();
    await expect.poll(() => items().first().getAttribute('aria-setsize')).toBe(String(CITATIONS));
  });
});
