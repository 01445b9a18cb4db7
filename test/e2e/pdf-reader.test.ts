import fs from 'node:fs';
import path from 'node:path';
import { AxeBuilder } from '@axe-core/playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAppInChromium, SCREENSHOTS, type AppInChromium } from '../support/app-in-chromium.ts';
import { writeFile } from '../support/pdf-fixtures.ts';
import { makeReaderPdf, readerLabel } from '../support/reader-fixtures.ts';
import { importThroughPicker } from '../support/policy-answers-window.ts';

const PAGES = 40;
const FRONT = 4;
const FIND_PAGES = [9, 22, 31];
const QUOTE_PAGE = 33;
const QUOTE = 'Petty cash is counted by two people every Friday.';
const OUTLINE = [
  { title: 'Preface', page: 1 },
  { title: 'Chapter 1: Budgets', page: 5 },
  { title: 'Chapter 2: Payments', page: 18, children: [{ title: '2.1 Petty cash', page: 33 }] },
];

function pageLines(n: number): string[] {
  const lines = [`Reader fixture page ${n}, printed ${readerLabel(n, FRONT)}.`, `Ordinary text on physical page ${n} of the book.`];
  if (FIND_PAGES.includes(n)) lines.push(`Monthly reconciliation of the ledger, item ${n}.`);
  if (n === QUOTE_PAGE) lines.push('Cash rules follow.', QUOTE, 'Receipts are kept for six years.');
  return lines;
}

const ANSWER = `Question: How is petty cash checked?

Petty cash is counted by two people each week [1].

[1]: "${QUOTE}" — reader-book.pdf, p. ${QUOTE_PAGE}
`;

describe('the PDF reader in Chromium: continuous pages, zoom, find, thumbnails, outline, labels, keys', () => {
  let app: AppInChromium;
  let page: AppInChromium['page'];
  let docs: string;

  const pages = () => page.getByTestId('pdf-pages');
  const layer = () => page.getByTestId('text-layer');
  const pageBox = () => page.getByLabel('Page number');
  const scale = async () => Number(await pages().getAttribute('data-scale'));
  const shot = async (name: string) => {
    const file = path.join(SCREENSHOTS, name);
    await page.screenshot({ path: file });
    expect(fs.statSync(file).size).toBeGreaterThan(10_000);
  };
  /** The current page's text layer holds this physical page's first line. */
  const onPage = async (n: number) => {
    await expect.poll(() => pageBox().inputValue()).toBe(readerLabel(n, FRONT));
    await expect.poll(async () => (await layer().textContent()) ?? '').toContain(`Reader fixture page ${n},`);
  };

  beforeAll(async () => {
    app = await openAppInChromium();
    page = app.page;
    docs = path.join(app.services.dir, 'docs');
    const lines = Array.from({ length: PAGES }, (_, i) => pageLines(i + 1));
    writeFile(docs, 'reader-book.pdf', await makeReaderPdf({ pages: lines, frontMatter: FRONT, outline: OUTLINE }));
  });

  afterAll(async () => {
    await app?.close();
  });

  it('opens the book as one scroll: every page has its box, only those near the view are drawn', async () => {
    await page.goto(app.host.url);
    await page.getByLabel('Add files or folders by path (one per line)').fill(path.join(docs, 'reader-book.pdf'));
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await page.getByText('1 added').waitFor();
    await page.getByRole('button', { name: 'reader-book.pdf' }).click();
    await page.getByRole('navigation', { name: 'Pages' }).getByText(`(1 of ${PAGES})`).waitFor();
    await onPage(1);
    await expect.poll(() => page.getByTestId('text-status').textContent()).toContain('Text layer matches the stored text');
    const drawn = await page.locator('.pdf-page-slot').count();
    expect(drawn).toBeGreaterThan(0);
    expect(drawn).toBeLessThan(8);
    // The scrollbar is the whole book's: 40 page boxes and their gaps.
    const slot = await page.locator('.pdf-page-slot').first().boundingBox();
    const height = await pages().evaluate((el) => el.scrollHeight);
    expect(Math.abs(height - (PAGES * (Math.round(slot?.height ?? 0) + 12) + 24))).toBeLessThan(PAGES);
  });

  it('zooms by steps, to fit page and fit width, and by Ctrl +, Ctrl − and Ctrl 0', async () => {
    const fitWidth = await scale();
    await page.getByRole('button', { name: 'Zoom in' }).click();
    await expect.poll(scale).toBeGreaterThan(fitWidth);
    await page.getByLabel('Zoom level').selectOption('fit-page');
    const view = await pages().boundingBox();
    await expect.poll(async () => (await page.locator('.pdf-page-slot').first().boundingBox())?.height ?? Infinity).toBeLessThanOrEqual(view?.height ?? 0);
    await page.getByLabel('Zoom level').selectOption('0.5');
    await expect.poll(scale).toBe(0.5);
    await pages().focus();
    await page.keyboard.press('Control+Equal');
    await expect.poll(scale).toBe(0.75);
    await page.keyboard.press('Control+Minus');
    await expect.poll(scale).toBe(0.5);
    await page.keyboard.press('Control+0');
    await expect.poll(scale).toBe(fitWidth);
    await onPage(1);
  });

  it('pages by keyboard in the focusable scroll area: PageDown, PageUp, End, Home', async () => {
    await pages().focus();
    await page.keyboard.press('PageDown');
    await onPage(2);
    await page.keyboard.press('PageDown');
    await onPage(3);
    await page.keyboard.press('PageUp');
    await onPage(2);
    await page.keyboard.press('End');
    await onPage(PAGES);
    await page.keyboard.press('Home');
    await onPage(1);
  });

  it('goes to a page by its printed label or its number, and says when there is none', async () => {
    await pageBox().fill('iv');
    await pageBox().press('Enter');
    await onPage(4);
    await pageBox().fill('12');
    await pageBox().press('Enter');
    await onPage(12 + FRONT);
    await pageBox().fill('99');
    await pageBox().press('Enter');
    await page.getByRole('alert').getByText(`No page is numbered or labelled “99” (pages 1–${PAGES}).`).waitFor();
  });

  it('finds words in the stored text: a hit list, and a click marks the hit on its page', async () => {
    await page.getByLabel('Find in document').fill('Monthly  reconciliation');
    await page.getByLabel('Find in document').press('Enter');
    const list = page.getByTestId('find-results');
    await page.getByText('3 matches for “Monthly reconciliation”').waitFor();
    expect(await list.getByRole('button').count()).toBe(3);
    // Enter went to the first hit.
    await onPage(FIND_PAGES[0] ?? 0);
    await list.getByRole('button').nth(1).click();
    await onPage(FIND_PAGES[1] ?? 0);
    await expect.poll(() => layer().locator('mark.find-hit.current').allTextContents()).toEqual(['Monthly reconciliation']);
    await expect.poll(() => page.getByRole('search').getByText('2 of 3').count()).toBe(1);
    await shot('reader-find.png');
    await page.getByRole('button', { name: 'Next match' }).click();
    await onPage(FIND_PAGES[2] ?? 0);
    await expect.poll(() => layer().locator('mark.find-hit.current').count()).toBe(1);
  });

  it('shows thumbnails drawn as they scroll into the sidebar; a click goes to the page', async () => {
    await page.getByRole('tab', { name: 'Thumbnails' }).click();
    const thumbs = page.getByTestId('thumbnails');
    await thumbs.getByRole('button').first().waitFor();
    expect(await thumbs.getByRole('button').count()).toBeLessThan(PAGES);
    await thumbs.evaluate((el) => (el.scrollTop = el.scrollHeight));
    await thumbs.getByRole('button', { name: `Go to page ${PAGES - FRONT} (p. ${PAGES})` }).click();
    await onPage(PAGES);
    await expect.poll(() => thumbs.locator('[aria-current="page"]').count()).toBe(1);
  });

  it('shows the outline; an entry, or a nested one once opened, goes to its page', async () => {
    await page.getByRole('tab', { name: 'Outline' }).click();
    const outline = page.getByTestId('outline');
    await outline.getByRole('button', { name: 'Chapter 1: Budgets' }).click();
    await onPage(5);
    await outline.getByRole('button', { name: 'Sections under Chapter 2: Payments' }).click();
    await outline.getByRole('button', { name: '2.1 Petty cash' }).click();
    await onPage(33);
    await shot('reader-outline.png');
  });

  it('still opens a cited quote at its place, highlighted, after all this, and keeps it through a zoom', async () => {
    await page.getByRole('tab', { name: /Answers/ }).click();
    await importThroughPicker(page, writeFile(docs, 'petty-cash.md', ANSWER));
    const card = page.getByRole('article', { name: 'Citation [1]' });
    await card.waitFor();
    await pageBox().fill('i');
    await pageBox().press('Enter');
    await onPage(1);
    await card.locator('blockquote').click();
    await onPage(QUOTE_PAGE);
    await expect.poll(() => layer().locator('mark.quote-highlight').allTextContents().then((t) => t.join(''))).toBe(QUOTE);
    const inView = async () => {
      const mark = await layer().locator('mark.quote-highlight').first().boundingBox();
      const view = await pages().boundingBox();
      return !!mark && !!view && mark.y >= view.y && mark.y + mark.height <= view.y + view.height;
    };
    await expect.poll(inView).toBe(true);
    await shot('reader-quote.png');
    // At another zoom the mark sits on the same words: its box scales with the page's.
    const before = await markInPage();
    await page.getByLabel('Zoom level').selectOption('2');
    await expect.poll(scale).toBe(2);
    await expect.poll(() => layer().locator('mark.quote-highlight').count()).toBeGreaterThan(0);
    const after = await markInPage();
    expect(Math.abs(after.x - before.x)).toBeLessThan(0.01);
    expect(Math.abs(after.y - before.y)).toBeLessThan(0.01);
    await page.keyboard.press('Control+0');
  });

  it('leaves axe-core no serious or critical violation in the reader, sidebar open', async () => {
    await page.getByRole('tab', { name: 'Thumbnails' }).click();
    await page.getByTestId('thumbnails').getByRole('button').first().waitFor();
    // Legacy mode runs axe in this page: the app's page is not one from browser.newContext().
    const { violations } = await new AxeBuilder({ page }).include('.pdf-viewer').setLegacyMode(true).analyze();
    const serious = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
  });

  /** The quote mark's top-left as fractions of its page's box. */
  async function markInPage(): Promise<{ x: number; y: number }> {
    return layer().evaluate((el) => {
      const slot = el.closest('.pdf-page-slot')?.getBoundingClientRect();
      const mark = el.querySelector('mark.quote-highlight')?.getBoundingClientRect();
      if (!slot || !mark) return { x: -1, y: -1 };
      return { x: (mark.left - slot.left) / slot.width, y: (mark.top - slot.top) / slot.height };
    });
  }
});
