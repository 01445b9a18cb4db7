/**
 * The review trail in Chromium (issue 9 item 4, issue 12 item 3): decisions by keyboard and mouse,
 * each confirmed in the card's form; an accept of a not-found quote refused until it has a note;
 * undo and clear as new rows in the card's history; the reviewer's name on every row and offered
 * for the export; filters and progress per answer. Screenshot: docs/review-trail.png.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAppInChromium, SCREENSHOTS, type AppInChromium } from '../support/app-in-chromium.ts';
import { makePdf, writeFile } from '../support/pdf-fixtures.ts';
import { NOTES_TEXT, POLICY_PAGES } from '../support/policy-workspace.ts';
import { importThroughPicker } from '../support/policy-answers-window.ts';

const MARKDOWN = `Question: How much leave do employees get?

Employees receive 14 days of annual leave each year [1]. Staff get a company car after two years [2]. Probation lasts six months [3].

[1]: "Employees receive 14 days of annual leave per calendar year." — HR_Policy.pdf, p. 3
[2]: "Staff are entitled to a company car after two years of service." — HR_Policy.pdf, p. 2
[3]: "The probation period lasts six months for all new starters." — onboarding-notes.txt, line 6
`;

describe('the review trail on the desk, in Chromium', () => {
  let app: AppInChromium;
  let page: AppInChromium['page'];

  const card = (marker: string) => page.getByRole('article', { name: `Citation [${marker}]` });
  const decision = async (marker: string) => {
    const pill = card(marker).locator('[data-role=decision]');
    return (await pill.count()) === 0 ? 'none' : ((await pill.textContent()) ?? '').replace(/^\S+\s/, '');
  };
  const history = (marker: string) => card(marker).getByRole('region', { name: `Review history of [${marker}]` }).locator('li .history-what').allTextContents();
  const shown = () => page.getByRole('list', { name: 'Citations' }).getByRole('article').evaluateAll((cards) => cards.map((c) => c.getAttribute('aria-label')));

  beforeAll(async () => {
    app = await openAppInChromium();
    page = app.page;
    await page.setViewportSize({ width: 1280, height: 860 });
    const docs = path.join(app.services.dir, 'docs');
    const files = [writeFile(docs, 'HR_Policy.pdf', await makePdf(POLICY_PAGES, 'HR Policy')), writeFile(docs, 'onboarding-notes.txt', NOTES_TEXT)];
    await page.goto(app.host.url);
    await page.getByLabel('Add files or folders by path (one per line)').fill(files.join('\n'));
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await page.getByText('2 added').waitFor();
    await page.getByRole('tab', { name: /Answers/ }).click();
    await importThroughPicker(page, writeFile(docs, 'leave.md', MARKDOWN));
    await card('1').waitFor();
  });

  afterAll(async () => {
    await app?.close();
  });

  it('records the reviewer name and asks for a confirm before the a key accepts', async () => {
    const name = page.getByRole('textbox', { name: 'Reviewer' });
    await name.fill('Ann Analyst');
    await name.press('Enter');
    await expect.poll(async () => (await app.services.dispatch('answers.reviewer', {})).ok).toBe(true);
    await expect.poll(async () => {
      const r = await app.services.dispatch('answers.reviewer', {});
      return r.ok ? r.value : null;
    }).toEqual({ name: 'Ann Analyst' });

    await card('1').locator('.claim').click();
    await page.keyboard.press('a');
    const form = card('1').getByRole('form', { name: 'Accept [1]' });
    await form.waitFor();
    expect(await form.textContent()).toContain('Accept [1]? Press Enter to confirm; a note is optional.');
    // The key alone decided nothing.
    expect(await decision('1')).toBe('none');
    await page.keyboard.press('Enter');
    await expect.poll(() => decision('1')).toBe('Accepted');
    // Words on the card; the code, who and when in its tooltip.
    expect(await card('1').locator('[data-role=decision]').getAttribute('title')).toMatch(/^accepted · by Ann Analyst, /);
    expect(await history('1')).toEqual(['Accepted']);
    expect(await card('1').locator('.history-rows li').first().textContent()).toMatch(/^Accepted by Ann Analyst, /);
    // Escape leaves a decision as it was.
    await page.keyboard.press('r');
    await card('1').getByRole('form', { name: 'Reject [1]' }).waitFor();
    await page.keyboard.press('Escape');
    expect(await card('1').getByRole('form').count()).toBe(0);
    expect(await decision('1')).toBe('Accepted');
  });

  it('refuses to accept a quote that is not in the source until a note says why', async () => {
    await card('2').getByRole('button', { name: '✓ Accept…' }).click();
    const form = card('2').getByRole('form', { name: 'Accept [2]' });
    expect(await form.textContent()).toContain('Accepting [2] needs a note: its quote was not found in the source. Why do you accept it anyway?');
    await form.getByRole('button', { name: 'Accept [2]' }).click();
    const alert = card('2').getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toBe('Write a note first: say why you accept [2] although its quote was not found in the source.');
    expect(await decision('2')).toBe('none');
    expect(app.services.db.prepare('SELECT count(*) AS n FROM review_decisions WHERE citation_id = ?').get(Number(await card('2').getAttribute('data-citation-id')))).toEqual({ n: 0 });
    await page.getByLabel('Note for [2]').fill('HR confirmed the car scheme by e-mail; the policy is out of date.');
    await form.getByRole('button', { name: 'Accept [2]' }).click();
    await expect.poll(() => decision('2')).toBe('Accepted');
    expect(await card('2').locator('.history-note').allTextContents()).toEqual(['“HR confirmed the car scheme by e-mail; the policy is out of date.”']);
  });

  it('changes its mind, undoes and clears, each a new row in the card’s history', async () => {
    // A change of mind by keyboard: r, a note, Enter.
    await card('1').locator('.claim').click();
    await page.keyboard.press('r');
    await page.getByLabel('Note for [1]').fill('Wrong year: the answer is about 2023.');
    await page.keyboard.press('Enter');
    await expect.poll(() => decision('1')).toBe('Rejected');
    // Undo by mouse: back to accepted.
    await card('1').getByRole('button', { name: '↶ Undo' }).click();
    await expect.poll(() => decision('1')).toBe('Accepted');
    await card('1').getByRole('button', { name: 'Clear decision' }).click();
    await expect.poll(() => decision('1')).toBe('none');
    expect(await history('1')).toEqual(['Cleared the decision', 'Undid “rejected”: back to accepted', 'Rejected', 'Accepted']);
    expect(await card('1').getByRole('button', { name: 'Clear decision' }).isDisabled()).toBe(true);
    // The current card is marked apart from the focus ring: a tag and a class, not the outline.
    expect(await card('1').getAttribute('aria-current')).toBe('true');
    expect(await card('1').locator('.current-tag').textContent()).toBe('Current');
    await page.getByRole('button', { name: '‹ All answers' }).focus();
    await card('1').scrollIntoViewIfNeeded();
    await card('1').screenshot({ path: path.join(SCREENSHOTS, 'review-trail-card.png') });
    expect(fs.statSync(path.join(SCREENSHOTS, 'review-trail-card.png')).size).toBeGreaterThan(10_000);
    // The desk around it (for the README): reviewer name, filter, the cards with their trails.
    await page.getByRole('region', { name: 'Answer review' }).evaluate((el) => el.scrollTo(0, 0));
    await page.locator('.review').screenshot({ path: path.join(SCREENSHOTS, 'review-trail.png') });
    expect(fs.statSync(path.join(SCREENSHOTS, 'review-trail.png')).size).toBeGreaterThan(10_000);

    // Reloaded, the trail comes back from the workspace.
    await page.reload();
    await page.getByRole('button', { name: /How much leave do employees get/ }).click();
    await card('1').waitFor();
    expect(await history('1')).toEqual(['Cleared the decision', 'Undid “rejected”: back to accepted', 'Rejected', 'Accepted']);
    expect(await decision('2')).toBe('Accepted');
  });

  it('filters the cards, steps through the ones shown, and shows progress in the answer list', async () => {
    const filter = page.getByRole('combobox', { name: 'Show citations' });
    await filter.selectOption('unreviewed');
    await expect.poll(shown).toEqual(['Citation [1]', 'Citation [3]']);
    await filter.selectOption('problems');
    await expect.poll(shown).toEqual(['Citation [2]']);
    await filter.selectOption('status:verified');
    await expect.poll(shown).toEqual(['Citation [1]', 'Citation [3]']);
    await card('3').locator('.claim').click();
    await page.keyboard.press('k');
    await expect.poll(() => card('1').getAttribute('aria-current')).toBe('true');
    await page.getByRole('button', { name: 'Show all' }).click();
    await expect.poll(shown).toEqual(['Citation [1]', 'Citation [2]', 'Citation [3]']);
    await page.getByRole('button', { name: '‹ All answers' }).click();
    expect(await page.getByTestId('answer-progress').textContent()).toBe('1 of 3 reviewed');
  });

  it('offers the reviewer name in the export dialog', async () => {
    await page.getByRole('button', { name: /How much leave do employees get/ }).click();
    await page.getByRole('button', { name: 'Export…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Export report' });
    await expect.poll(() => dialog.getByLabel('Reviewer name').inputValue()).toBe('Ann Analyst');
    await page.keyboard.press('Escape');
  });
});
