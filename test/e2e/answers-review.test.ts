import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAppInChromium, SCREENSHOTS, type AppInChromium } from '../support/app-in-chromium.ts';
import { makePdf, writeFile } from '../support/pdf-fixtures.ts';
import { NOTES_TEXT, POLICY_PAGES } from '../support/policy-workspace.ts';
import { importThroughPicker } from '../support/policy-answers-window.ts';

/** One citation of each kind the review desk must tell apart, in a Markdown answer. */
const CITED = {
  verified: { marker: '1', quote: 'Employees receive 14 days of annual leave per calendar year.', page: 3 },
  elsewhere: { marker: '2', quote: 'The standard working week is 37.5 hours.', claimedPage: 4, page: 2 },
  notFound: { marker: '3', quote: 'Staff are entitled to a company car after two years of service.', claimedPage: 2 },
  contradicted: { marker: '4', quote: 'Travel expenses are reimbursed within 30 days of a complete claim.', page: 4 },
  partial: { marker: '5', quote: 'Overtime should be approved in writing by your line manager.', found: 'Overtime must be approved in writing by the line manager.' },
  text: { marker: '6', quote: 'The probation period lasts six months for all new starters.', line: 6 },
};

const MARKDOWN = `Question: What does the HR policy say about leave, hours and expenses?

Employees receive 14 days of annual leave each year [1]. The standard week is 37.5 hours [2]. Staff get a company car after two years [3]. Travel expenses are repaid within 60 days [4]. Overtime needs the line manager's written approval [5]. Probation lasts six months for new starters [6].

[1]: "${CITED.verified.quote}" — HR_Policy.pdf, p. 3
[2]: "${CITED.elsewhere.quote}" — HR_Policy.pdf, p. 4
[3]: "${CITED.notFound.quote}" — HR_Policy.pdf, p. 2
[4]: "${CITED.contradicted.quote}" — HR_Policy.pdf, p. 4
[5]: "${CITED.partial.quote}" — HR_Policy.pdf, p. 2
[6]: "${CITED.text.quote}" — onboarding-notes.txt, line 6
`;

describe('the review desk in Chromium at 1280×800: import an answer, read each citation, open it in the viewer, decide', () => {
  let app: AppInChromium;
  let page: AppInChromium['page'];
  let docs: string;

  const card = (marker: string) => page.getByRole('article', { name: `Citation [${marker}]` });
  /** A pill's words without its icon (a decision), or the exact status or verdict name it carries for tooltips and exports. */
  const pill = async (marker: string, role: 'status' | 'verdict' | 'decision') => {
    const p = card(marker).locator(`[data-role=${role}]`);
    return role === 'decision' ? ((await p.textContent()) ?? '').replace(/^\S+\s/, '') : ((await p.getAttribute('data-code')) ?? '');
  };
  const pdfMarks = () => page.getByTestId('text-layer').locator('mark.quote-highlight').allTextContents();
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
    writeFile(docs, 'HR_Policy.pdf', await makePdf(POLICY_PAGES, 'HR Policy'));
    writeFile(docs, 'onboarding-notes.txt', NOTES_TEXT);
  });

  afterAll(async () => {
    await app?.close();
  });

  it('ingests the documents under Sources, then shows an empty Answers tab', async () => {
    await page.goto(app.host.url);
    await page.getByLabel('Add files or folders by path (one per line)').fill([path.join(docs, 'HR_Policy.pdf'), path.join(docs, 'onboarding-notes.txt')].join('\n'));
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await page.getByText('2 added').waitFor();
    await page.getByRole('tab', { name: /Answers/ }).click();
    await page.getByText('No answers yet.').waitFor();
    // The library stays mounted behind its tab: switching back shows the same list.
    expect(await page.getByRole('tabpanel', { name: /Sources/, includeHidden: true }).getByRole('button', { name: 'HR_Policy.pdf', includeHidden: true }).count()).toBe(1);
  });

  it('refuses a file in no known format, naming the file and the code', async () => {
    const bad = writeFile(docs, 'shopping-list.txt', 'eggs\nmilk\n');
    await importThroughPicker(page, [bad]);
    const alert = page.getByRole('alert').filter({ hasText: 'shopping-list.txt' });
    await alert.waitFor();
    expect(await alert.textContent()).toMatch(/^✖ Could not import shopping-list\.txt: .+\.$/);
    // The sentence for the analyst; the code in the tooltip.
    expect(await alert.textContent()).not.toContain('ANSWER_FORMAT_UNKNOWN');
    expect(await alert.getAttribute('title')).toBe('ANSWER_FORMAT_UNKNOWN');
  });

  it('imports a Markdown answer through the file picker and lists it with its ledger', async () => {
    await importThroughPicker(page, [writeFile(docs, 'hr-answer.md', MARKDOWN)]);
    await page.getByText('Imported hr-answer.md: markdown, 6 citations').waitFor();
    // The imported answer opens for review at once.
    await card('1').waitFor();
    const ledger = page.getByTestId('ledger').first();
    expect(await ledger.textContent()).toContain('Coverage');
    expect(await page.getByRole('list', { name: 'Risk flags' }).locator('[data-code]').evaluateAll((flags) => flags.map((f) => f.getAttribute('data-code')))).toEqual(expect.arrayContaining(['missing_evidence', 'contradiction']));
    expect(await page.getByRole('list', { name: 'Risk flags' }).textContent()).toMatch(/Evidence missing.*Contradicted/s);
  });

  it('shows each citation’s status and verdict in words, their exact names in tooltips', async () => {
    const expected: [string, string, string][] = [
      [CITED.verified.marker, 'verified', 'supported'],
      [CITED.elsewhere.marker, 'verified_elsewhere', 'supported'],
      [CITED.notFound.marker, 'not_found', 'not_found'],
      [CITED.contradicted.marker, 'verified', 'contradicted'],
      [CITED.partial.marker, 'partial', 'weak'],
      [CITED.text.marker, 'verified', 'supported'],
    ];
    for (const [marker, status, verdict] of expected) {
      expect([marker, await pill(marker, 'status'), await pill(marker, 'verdict')]).toEqual([marker, status, verdict]);
    }
    // In words on the card; the code only in the tooltip.
    const moved = card(CITED.elsewhere.marker).locator('[data-role=status]');
    expect(await moved.textContent()).toBe('↪ Found on another page');
    expect(await moved.getAttribute('title')).toMatch(/\(verified_elsewhere\)$/);
    expect(await card(CITED.notFound.marker).locator('[data-role=status]').textContent()).toBe('✖ Not in the source');
    // Claimed and found places: the moved quote says where it really is.
    const places = await card(CITED.elsewhere.marker).locator('.places').textContent();
    expect(places).toContain(`Claimedp. ${CITED.elsewhere.claimedPage}`);
    expect(places).toContain(`Foundp. ${CITED.elsewhere.page}`);
    expect(await card(CITED.verified.marker).locator('.places').textContent()).toContain('HR_Policy.pdf✓ ok');
  });

  it('opens a verified citation on its page with exactly the quote highlighted', async () => {
    await card(CITED.verified.marker).locator('blockquote').click();
    await expect.poll(() => page.getByLabel('Page number').inputValue()).toBe(String(CITED.verified.page));
    await expect.poll(() => page.getByTestId('text-status').textContent()).toContain('Text layer matches the stored text');
    await expect.poll(async () => (await pdfMarks()).join('')).toBe(CITED.verified.quote);
    expect(await page.getByTestId('citation-message').textContent()).toBe(`Quote highlighted at p. ${CITED.verified.page}.`);
    await shot('answers-review-verified.png');
  });

  it('opens a quote that was found elsewhere where it is, and says so', async () => {
    await page.getByRole('button', { name: `Citation [${CITED.elsewhere.marker}], Found on another page` }).click();
    await expect.poll(() => page.getByLabel('Page number').inputValue()).toBe(String(CITED.elsewhere.page));
    await expect.poll(async () => (await pdfMarks()).join('')).toBe(CITED.elsewhere.quote);
    expect(await page.getByTestId('citation-message').textContent()).toContain(`not at the claimed p. ${CITED.elsewhere.claimedPage}`);
  });

  it('opens a quote that is not in the source at the claimed page, highlighting nothing', async () => {
    await card(CITED.notFound.marker).getByRole('button', { name: 'Open' }).click();
    await expect.poll(() => page.getByLabel('Page number').inputValue()).toBe(String(CITED.notFound.claimedPage));
    await expect.poll(() => page.getByTestId('text-status').textContent()).toContain('Text layer matches the stored text');
    expect(await pdfMarks()).toEqual([]);
    expect(await page.getByTestId('citation-message').textContent()).toBe(
      `⚠ The quote was not found in HR_Policy.pdf. Showing the claimed p. ${CITED.notFound.claimedPage}; nothing is highlighted.`,
    );
    await shot('answers-review-not-found.png');
  });

  it('moves between cards with j and k, the viewer following, and shows a partial match’s word diff', async () => {
    await card(CITED.notFound.marker).click();
    await page.keyboard.press('j');
    await expect.poll(() => card(CITED.contradicted.marker).getAttribute('aria-current')).toBe('true');
    await expect.poll(async () => (await pdfMarks()).join('')).toBe(CITED.contradicted.quote);
    await page.keyboard.press('j');
    await expect.poll(() => card(CITED.partial.marker).getAttribute('aria-current')).toBe('true');
    await page.keyboard.press('x');
    const diff = card(CITED.partial.marker).getByTestId('word-diff');
    await diff.waitFor();
    expect(await diff.locator('del').allTextContents()).toEqual(['should', 'your']);
    expect(await diff.locator('ins').allTextContents()).toEqual(['must', 'the']);
    // A partial match is highlighted as found, and labelled as differing from the quote.
    await expect.poll(async () => (await pdfMarks()).join('')).toBe(CITED.partial.found);
    expect(await page.getByTestId('citation-message').textContent()).toMatch(/^Closest text \(85%\) highlighted at p\. 2/);
    await shot('answers-review-partial-diff.png');
    await page.keyboard.press('k');
    await expect.poll(() => card(CITED.contradicted.marker).getAttribute('aria-current')).toBe('true');
  });

  it('opens a citation of a text file at its line with the quote highlighted', async () => {
    await card(CITED.text.marker).locator('blockquote').click();
    await expect.poll(() => page.locator('.flow-viewer mark.quote-highlight').allTextContents()).toEqual([CITED.text.quote]);
    expect(await page.locator('.flow-viewer mark.quote-highlight').evaluate((m) => m.closest('[data-line]')?.getAttribute('data-line'))).toBe(String(CITED.text.line));
    expect(await page.getByTestId('citation-message').textContent()).toBe(`Quote highlighted at line ${CITED.text.line}.`);
  });

  it('records accept and flag-with-a-note, and they are still there after a reload', async () => {
    // Accepting takes a confirm: the button opens the card's form, its own button records it.
    await card(CITED.verified.marker).getByRole('button', { name: '✓ Accept…' }).click();
    await card(CITED.verified.marker).getByRole('button', { name: `Accept [${CITED.verified.marker}]` }).click();
    await expect.poll(() => pill(CITED.verified.marker, 'decision')).toBe('Accepted');
    await card(CITED.notFound.marker).getByRole('button', { name: '⚑ Flag…' }).click();
    await page.getByLabel(`Note for [${CITED.notFound.marker}]`).fill('Ask the author where the car policy comes from.');
    await page.getByRole('button', { name: `Flag [${CITED.notFound.marker}]` }).click();
    await expect.poll(() => pill(CITED.notFound.marker, 'decision')).toBe('Flagged');
    // The keyboard records decisions too: r opens the note, Enter saves it.
    await card(CITED.contradicted.marker).click();
    await page.keyboard.press('r');
    await page.getByLabel(`Note for [${CITED.contradicted.marker}]`).fill('The policy says 30 days.');
    await page.keyboard.press('Enter');
    await expect.poll(() => pill(CITED.contradicted.marker, 'decision')).toBe('Rejected');

    await page.reload();
    // The tab is remembered; the decisions come back from the workspace.
    await page.getByRole('button', { name: /What does the HR policy say/ }).click();
    await expect.poll(() => pill(CITED.verified.marker, 'decision')).toBe('Accepted');
    expect(await pill(CITED.notFound.marker, 'decision')).toBe('Flagged');
    expect(await card(CITED.notFound.marker).locator('.review-note').textContent()).toBe('Note: Ask the author where the car policy comes from.');
    expect(await card(CITED.contradicted.marker).locator('.review-note').textContent()).toBe('Note: The policy says 30 days.');
    expect(await page.getByText('3 of 6 reviewed').count()).toBe(1);
    // Re-verifying adds a run; the decisions belong to the citations and stay.
    await page.getByRole('button', { name: 'Re-verify' }).click();
    await expect.poll(() => page.locator('.run-info').textContent()).toMatch(/^Run 2 · /);
    expect(await pill(CITED.verified.marker, 'decision')).toBe('Accepted');
    await card(CITED.notFound.marker).getByRole('button', { name: 'Open' }).click();
    await page.getByTestId('citation-bar').waitFor();
    await shot('answers-review-decisions.png');
  });

  it('asks the offline answerer and shows its cited answer', async () => {
    await page.getByRole('button', { name: '‹ All answers' }).click();
    await page.getByLabel(/Ask your documents/).fill('How many days of annual leave do employees receive?');
    await page.getByRole('button', { name: 'Ask' }).click();
    await page.getByText(/The offline answerer cited \d+ citations?\./).waitFor();
    expect(await page.getByTestId('answer-text').textContent()).toContain(CITED.verified.quote);
    expect(await pill('1', 'status')).toBe('verified');
    expect(await pill('1', 'verdict')).toBe('supported');
    await page.getByRole('button', { name: 'Citation [1], Found where cited' }).click();
    await expect.poll(async () => (await pdfMarks()).join('')).toBe(CITED.verified.quote);
    await shot('answers-ask.png');
  });

  it('imports a file dropped on the pane, read in the page', async () => {
    await page.getByRole('button', { name: '‹ All answers' }).click();
    const native = JSON.stringify({
      format: 'evidence-desk/answer@1',
      question: 'When does unused leave lapse?',
      answer: 'Unused leave lapses on 31 March [1].',
      citations: [{ marker: '1', claim: 'Unused leave lapses on 31 March.', quote: 'Unused leave lapses on 31 March of the following year.', source: { file: 'HR_Policy.pdf' }, locator: { page: 3 } }],
    });
    const drop = await page.evaluateHandle((text) => {
      const dt = new DataTransfer();
      dt.items.add(new File([text], 'lapse.json', { type: 'application/json' }));
      return dt;
    }, native);
    const pane = page.getByRole('region', { name: 'Answers' });
    await pane.dispatchEvent('dragenter', { dataTransfer: drop });
    await page.getByText('Drop answer files to import and verify them').waitFor();
    await pane.dispatchEvent('drop', { dataTransfer: drop });
    await page.getByText('Imported lapse.json: evidence-desk/answer@1, 1 citation').waitFor();
    expect(await pill('1', 'status')).toBe('verified');
    await page.getByRole('button', { name: '‹ All answers' }).click();
    expect(await page.getByRole('list', { name: 'Answers' }).getByRole('listitem').count()).toBe(3);
    await shot('answers-list.png');
  });
});
