import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAppInChromium, SCREENSHOTS, type AppInChromium } from '../support/app-in-chromium.ts';
import { makePdf, writeFile } from '../support/pdf-fixtures.ts';
import { POLICY_PAGES } from '../support/policy-workspace.ts';
import { importThroughPicker } from '../support/policy-answers-window.ts';

/**
 * One sentence, two markers: each citation's card shows the clause its marker closes, and each is
 * judged on its own clause (the negation and the number of the other clause no longer weaken it).
 */
const MARKDOWN = `Employees receive 14 days of annual leave each year [1], but staff may not work more than 48 hours in any week [2].

[1]: "Employees receive 14 days of annual leave per calendar year." — HR_Policy.pdf, p. 3
[2]: "Staff may not work more than 48 hours in any week." — HR_Policy.pdf, p. 2
`;

describe('a sentence with two markers in Chromium: each card shows its own clause', () => {
  let app: AppInChromium;
  let page: AppInChromium['page'];
  let docs: string;
  const card = (marker: string) => page.getByRole('article', { name: `Citation [${marker}]` });
  /** The exact status or verdict name a pill carries (its words are for people; the name is in the tooltip). */
  const pill = async (marker: string, role: 'status' | 'verdict') => (await card(marker).locator(`[data-role=${role}]`).getAttribute('data-code')) ?? '';

  beforeAll(async () => {
    app = await openAppInChromium();
    page = app.page;
    await page.setViewportSize({ width: 1280, height: 800 });
    docs = path.join(app.services.dir, 'docs');
    writeFile(docs, 'HR_Policy.pdf', await makePdf(POLICY_PAGES, 'HR Policy'));
  });

  afterAll(async () => {
    await app?.close();
  });

  it('imports the answer and gives each marker the clause it closes, judged on that clause alone', async () => {
    await page.goto(app.host.url);
    await page.getByLabel('Add files or folders by path (one per line)').fill(path.join(docs, 'HR_Policy.pdf'));
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await page.getByText('1 added').waitFor();
    await page.getByRole('tab', { name: /Answers/ }).click();
    await importThroughPicker(page, writeFile(docs, 'two-markers.md', MARKDOWN));
    await page.getByText('Imported two-markers.md: markdown, 2 citations').waitFor();
    await card('1').waitFor();

    expect(await card('1').locator('.claim').textContent()).toBe('Employees receive 14 days of annual leave each year.');
    expect(await card('2').locator('.claim').textContent()).toBe('Staff may not work more than 48 hours in any week.');
    expect([await pill('1', 'status'), await pill('1', 'verdict')]).toEqual(['verified', 'supported']);
    expect([await pill('2', 'status'), await pill('2', 'verdict')]).toEqual(['verified', 'supported']);
    // The other clause's words are no reason against a card: no negation or 48 held against [1].
    expect(await card('1').textContent()).not.toMatch(/negated|not in the evidence: 48/);

    const file = path.join(SCREENSHOTS, 'claim-clauses-two-markers.png');
    await page.screenshot({ path: file });
    expect(fs.statSync(file).size).toBeGreaterThan(10_000);
  });
});
