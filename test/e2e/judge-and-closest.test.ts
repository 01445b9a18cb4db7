import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAppInChromium, SCREENSHOTS, type AppInChromium } from '../support/app-in-chromium.ts';
import { judgeAnswer, judgePrompt, startModelEndpoint } from '../support/model-endpoint.ts';
import { makePdf, writeFile } from '../support/pdf-fixtures.ts';
import { POLICY_PAGES } from '../support/policy-workspace.ts';
import { importThroughPicker } from '../support/policy-answers-window.ts';

const TYPO = { marker: '1', quote: 'Employees recieve 14 days of annual leave per calender year.' };
const MISSING = { marker: '2', quote: 'Unused leave is carried over to the following year.', closest: 'Unused leave lapses on 31 March of the following year.', page: 3 };
const JUDGED = { marker: '3', reason: 'Written approval by the line manager is what the claim calls sign-off.' };

const ANSWER = JSON.stringify({
  format: 'evidence-desk/answer@1',
  question: 'What does the HR policy say about leave and overtime?',
  answer: 'Employees receive 14 days of leave a year [1]. Unused leave carries over [2]. Overtime needs the line manager’s written approval [3].',
  citations: [
    { marker: TYPO.marker, claim: 'Employees receive 14 days of leave a year.', quote: TYPO.quote, source: { file: 'HR_Policy.pdf' }, locator: { page: 3 } },
    { marker: MISSING.marker, claim: 'Unused leave carries over to the next year.', quote: MISSING.quote, source: { file: 'HR_Policy.pdf' }, locator: { page: 2 } },
    { marker: JUDGED.marker, claim: 'Overtime needs the line manager’s written approval.', quote: 'Overtime must be approved in writing by the line manager.', source: { file: 'HR_Policy.pdf' }, locator: { page: 2 } },
  ],
});

describe('the card shows how a quote was found and what the judge thinks; a quote not found opens at its closest passage, labelled as such', () => {
  let app: AppInChromium;
  let page: AppInChromium['page'];
  let server: Awaited<ReturnType<typeof startModelEndpoint>>;
  let docs: string;

  const card = (marker: string) => page.getByRole('article', { name: `Citation [${marker}]` });
  const pdfMarks = () => page.getByTestId('text-layer').locator('mark.quote-highlight');
  const shot = async (name: string) => {
    const file = path.join(SCREENSHOTS, name);
    await page.screenshot({ path: file });
    expect(fs.statSync(file).size).toBeGreaterThan(10_000);
  };

  beforeAll(async () => {
    server = await startModelEndpoint((req) => {
      const p = judgePrompt(req);
      if (!p) return { status: 400, body: 'not a judge prompt' };
      return judgeAnswer('supported', p.claim.startsWith('Overtime') ? JUDGED.reason : 'The evidence states it.');
    });
    app = await openAppInChromium({ model: { baseUrl: server.baseUrl, model: 'stub-judge', timeoutMs: 20_000 } });
    page = app.page;
    await page.setViewportSize({ width: 1280, height: 800 });
    docs = path.join(app.services.dir, 'docs');
    writeFile(docs, 'HR_Policy.pdf', await makePdf(POLICY_PAGES, 'HR Policy'));
  });

  afterAll(async () => {
    await app?.close();
    await server?.close();
  });

  it('turns the model judge on and imports an answer', async () => {
    await page.goto(app.host.url);
    await page.getByLabel('Add files or folders by path (one per line)').fill(path.join(docs, 'HR_Policy.pdf'));
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await page.getByText('1 added').waitFor();
    await page.getByRole('tab', { name: /Answers/ }).click();
    const judge = page.getByLabel(/Ask the model judge \(stub-judge\)/);
    // The box follows the saved setting (it is checked once the workspace has stored it), so click and wait.
    await judge.click();
    await expect.poll(() => judge.isChecked()).toBe(true);
    const stored = await app.services.dispatch('workspace.settings', {});
    expect(stored.ok && (stored.value as { modelJudge: boolean }).modelJudge).toBe(true);
    await importThroughPicker(page, [writeFile(docs, 'leave.json', ANSWER)]);
    await card(TYPO.marker).waitFor();
    expect(server.received.length).toBeGreaterThan(0);
  });

  it('a quote with a typo is verified, and its card shows the fuzzy match and the word difference without opening anything', async () => {
    const c = card(TYPO.marker);
    expect(await c.locator('[data-role=status]').getAttribute('data-code')).toBe('verified');
    expect(await c.getByTestId('match-method').getAttribute('data-code')).toBe('fuzzy');
    const diff = c.getByTestId('word-diff');
    expect(await diff.locator('del').allTextContents()).toEqual(['recieve', 'calender']);
    expect(await diff.locator('ins').allTextContents()).toEqual(['receive', 'calendar']);
    await c.scrollIntoViewIfNeeded();
    await shot('judge-typo-diff.png');
  });

  it('shows the model judge’s opinion apart from the verdict', async () => {
    const opinion = card(JUDGED.marker).getByTestId('judge-opinion');
    expect(await opinion.textContent()).toBe(`Model judge’s opinion ✓ supported ${JUDGED.reason}`);
    expect(await card(JUDGED.marker).locator('[data-role=verdict]').getAttribute('data-code')).toBe('supported');
  });

  it('a quote not found offers its closest passage, and the viewer outlines it there as "closest passage, not a match"', async () => {
    const c = card(MISSING.marker);
    expect(await c.locator('[data-role=status]').getAttribute('data-code')).toBe('not_found');
    const line = c.getByTestId('closest-line');
    expect(await line.textContent()).toContain(`closest passage, not a match`);
    expect(await line.textContent()).toContain(MISSING.closest);
    expect(await line.textContent()).toContain(`p. ${MISSING.page}`);
    // Open still shows the claimed page with nothing highlighted.
    await c.getByRole('button', { name: 'Open' }).click();
    await expect.poll(() => page.getByLabel('Page number').inputValue()).toBe('2');
    expect(await page.getByTestId('closest-banner').count()).toBe(0);
    // The closest passage, on another page, outlined and labelled.
    await line.getByRole('button', { name: 'Show closest passage' }).click();
    await expect.poll(() => page.getByLabel('Page number').inputValue()).toBe(String(MISSING.page));
    await expect.poll(async () => (await pdfMarks().allTextContents()).join('')).toBe(MISSING.closest);
    expect(await pdfMarks().first().getAttribute('data-kind')).toBe('closest');
    expect(await pdfMarks().first().getAttribute('title')).toBe('closest passage, not a match');
    expect(await page.getByTestId('closest-banner').textContent()).toMatch(/^closest passage, not a match/);
    expect(await page.getByTestId('citation-message').textContent()).toMatch(/^⚠? ?Closest passage, not a match: the quote is not in HR_Policy\.pdf/);
    await shot('judge-closest-passage.png');
    // Opening a found quote afterwards draws an ordinary highlight again.
    await card(TYPO.marker).getByRole('button', { name: 'Open' }).click();
    await expect.poll(() => page.getByTestId('closest-banner').count()).toBe(0);
  });
});
