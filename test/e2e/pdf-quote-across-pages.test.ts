import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAppInChromium, SCREENSHOTS, type AppInChromium } from '../support/app-in-chromium.ts';
import { makePdf, writeFile, type PageSpec } from '../support/pdf-fixtures.ts';
import { callHandler } from '../support/workspace.ts';
import type { AnswerDetail, AnswerSummaryData } from '../../shared/contract/answer-schemas.ts';
import type { PageText } from '../../shared/contract/schemas.ts';
import { importThroughPicker } from '../support/policy-answers-window.ts';

/** A sentence broken by the page break: its first words end page 1, the rest opens page 2. */
const BEFORE = 'the old site';
const AFTER = 'will close at the end of the same year.';
const QUOTE = `${BEFORE} ${AFTER}`;
const PAGES: PageSpec[] = [
  { lines: ['Estates plan 2025', 'The canteen moves to the ground floor in May.', `The new building will open in the spring and ${BEFORE}`] },
  { lines: [AFTER, 'Staff will be consulted about the move.', 'Parking stays as it is.'] },
];

/** The same pages with a running foot on p. 1 and a running head on p. 2, which the quote leaves out. */
const FOOTED: PageSpec[] = [
  { lines: [...(PAGES[0]?.lines ?? []), 'Estates plan 2025 · page 1'] },
  { lines: ['2    Estates plan 2025', ...(PAGES[1]?.lines ?? [])] },
];

const markdown = (file: string) => `Question: What happens to the old site?

The old site closes at the end of the year [1].

[1]: "${QUOTE}" — ${file}, p. 1
`;
const MARKDOWN = markdown('estates-plan.pdf');

describe('a PDF quote over a page break, highlighted on both pages in Chromium', () => {
  let app: AppInChromium;
  let page: AppInChromium['page'];
  let docs: string;

  const marks = () => page.getByTestId('text-layer').locator('mark.quote-highlight').allTextContents();
  const shot = async (name: string) => {
    const file = path.join(SCREENSHOTS, name);
    await page.screenshot({ path: file });
    expect(fs.statSync(file).size).toBeGreaterThan(10_000);
  };

  beforeAll(async () => {
    app = await openAppInChromium();
    page = app.page;
    await page.setViewportSize({ width: 1280, height: 800 });
    docs = path.join(app.services.dir, 'docs');
    writeFile(docs, 'estates-plan.pdf', await makePdf(PAGES, 'Estates plan'));
  });

  afterAll(async () => {
    await app?.close();
  });

  it('verifies the quote across pp. 1–2 and opens it on p. 1 with the first part marked', async () => {
    await page.goto(app.host.url);
    await page.getByLabel('Add files or folders by path (one per line)').fill(path.join(docs, 'estates-plan.pdf'));
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await page.getByText('1 added').waitFor();
    await page.getByRole('tab', { name: /Answers/ }).click();
    await importThroughPicker(page, writeFile(docs, 'old-site.md', MARKDOWN));
    const card = page.getByRole('article', { name: 'Citation [1]' });
    await card.waitFor();
    expect(await card.locator('.places').textContent()).toContain('Foundpp. 1–2');

    await card.locator('blockquote').click();
    await expect.poll(() => page.getByLabel('Page number').inputValue()).toBe('1');
    await expect.poll(() => page.getByTestId('text-status').textContent()).toContain('Text layer matches the stored text');
    await expect.poll(async () => (await marks()).join('')).toBe(BEFORE);
    expect(await page.getByTestId('citation-message').textContent()).toBe('Quote highlighted at pp. 1–2. Shown from p. 1; its part on p. 2 is highlighted there too (next page ›).');
    await shot('pdf-quote-across-pages-1.png');
  });

  it('marks the rest on p. 2 when the analyst turns the page: the two parts are the quote', async () => {
    const first = (await marks()).join('');
    await page.getByRole('button', { name: 'Next page' }).click();
    await expect.poll(() => page.getByLabel('Page number').inputValue()).toBe('2');
    await expect.poll(() => page.getByTestId('text-status').textContent()).toContain('Text layer matches the stored text');
    await expect.poll(async () => (await marks()).join('')).toBe(AFTER);
    const second = (await marks()).join('');
    // Each page marks exactly its stored part of the match: p. 1 from `start` to its end, p. 2 up to `end`.
    const [answer] = await callHandler<AnswerSummaryData[]>(app.services, 'answers.list', {});
    const detail = await callHandler<AnswerDetail>(app.services, 'answers.detail', { id: answer?.id });
    const result = detail.citations[0]?.result;
    expect(result?.place).toMatchObject({ unit: 'page', at: 1, endAt: 2 });
    const stored = (n: number) => callHandler<PageText>(app.services, 'sources.pageText', { id: result?.sourceId, page: n });
    const [p1, p2] = [await stored(1), await stored(2)];
    expect([p1.text.slice(result?.place?.start).trimEnd(), p2.text.slice(0, result?.place?.end)]).toEqual([first, second]);
    expect(result?.matchedText).toBe(`${first}\n${second}`);
    // Joined at the break, the two parts are the quote.
    expect(`${first} ${second}`).toBe(QUOTE);
    await shot('pdf-quote-across-pages-2.png');
    // Back on p. 1, its part is marked again; the bar still shows the citation.
    await page.getByRole('button', { name: 'Previous page' }).click();
    await expect.poll(async () => (await marks()).join('')).toBe(BEFORE);
    expect(await page.getByTestId('citation-bar').count()).toBe(1);
  });

  it('leaves a running foot and head between the parts unmarked: each page marks only its part of the quote', async () => {
    // Added through the services: adding by path in the page is the first test's part.
    const added = await app.services.ingest.ingest({ paths: [writeFile(docs, 'estates-plan-footed.pdf', await makePdf(FOOTED, 'Estates plan'))] });
    expect(added.files.map((f) => f.ok)).toEqual([true]);
    await page.getByRole('button', { name: '‹ All answers' }).click();
    await importThroughPicker(page, writeFile(docs, 'old-site-footed.md', markdown('estates-plan-footed.pdf')));
    const card = page.getByRole('article', { name: 'Citation [1]' });
    await expect.poll(async () => (await card.locator('.source-name').textContent()) ?? '').toContain('estates-plan-footed.pdf');
    expect(await card.locator('.places').textContent()).toContain('Foundpp. 1–2');

    await card.locator('blockquote').click();
    // The footed PDF is shown (the first one has no foot), its foot in the text layer but not marked.
    await expect.poll(async () => (await page.getByTestId('text-layer').textContent()) ?? '').toContain('Estates plan 2025 · page 1');
    expect(await page.getByLabel('Page number').inputValue()).toBe('1');
    await expect.poll(() => page.getByTestId('text-status').textContent()).toContain('Text layer matches the stored text');
    await expect.poll(async () => (await marks()).join('')).toBe(BEFORE);
    await shot('pdf-quote-across-pages-footed-1.png');
    await page.getByRole('button', { name: 'Next page' }).click();
    await expect.poll(() => page.getByLabel('Page number').inputValue()).toBe('2');
    await expect.poll(() => page.getByTestId('text-status').textContent()).toContain('Text layer matches the stored text');
    await expect.poll(async () => (await page.getByTestId('text-layer').textContent()) ?? '').toContain('Estates plan 2025');
    await expect.poll(async () => (await marks()).join('')).toBe(AFTER);
    await shot('pdf-quote-across-pages-footed-2.png');
  });
});
