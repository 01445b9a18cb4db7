import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readAnswerFile } from '../../electron/cli/answer-file.ts';
import type { AnswerDetail } from '../../shared/contract/answer-schemas.ts';
import { parseCitationLink } from '../../shared/links/citation-link.ts';
import { openAppInChromium, SCREENSHOTS, type AppInChromium } from '../support/app-in-chromium.ts';
import { makePdf, writeFile } from '../support/pdf-fixtures.ts';
import { ingestAll, nativeAnswer, NOTES_TEXT, POLICY_PAGES } from '../support/policy-workspace.ts';
import { callHandler } from '../support/workspace.ts';

const CITATIONS = [
  { marker: '1', claim: 'Employees get 14 days of annual leave.', quote: 'Employees receive 14 days of annual leave per calendar year.', source: { file: 'HR_Policy.pdf' }, locator: { page: 3 } },
  { marker: '2', claim: 'Overtime needs written approval.', quote: 'Overtime should be approved in writing by your line manager.', source: { file: 'HR_Policy.pdf' }, locator: { page: 2 } },
  { marker: '3', claim: 'Probation lasts six months.', quote: 'The probation period lasts six months for all new starters.', source: { file: 'onboarding-notes.txt' }, locator: { line: 6 } },
];

type Box = { x: number; y: number; width: number; height: number };
const overlaps = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

describe('hover and focus preview on citation markers, and Copy citation (issue 17)', () => {
  let app: AppInChromium;
  let page: AppInChromium['page'];

  const marker = (label: string) => page.getByTestId('answer-text').getByRole('button', { name: new RegExp(`^Citation \\[${label}\\]`) });
  const preview = () => page.getByTestId('citation-preview');
  const card = (label: string) => page.getByRole('article', { name: `Citation [${label}]` });
  const clipboard = () =>
    page.evaluate(async () => {
      const [item] = await navigator.clipboard.read();
      const read = async (type: string) => (item && item.types.includes(type) ? await (await item.getType(type)).text() : null);
      return { text: await read('text/plain'), html: await read('text/html') };
    });

  beforeAll(async () => {
    app = await openAppInChromium();
    page = app.page;
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: `http://127.0.0.1:${app.host.port}` });
    const docs = path.join(app.services.dir, 'docs');
    const policy = writeFile(docs, 'HR_Policy.pdf', await makePdf(POLICY_PAGES, 'HR Policy'));
    const notes = writeFile(docs, 'onboarding-notes.txt', NOTES_TEXT);
    await ingestAll(app.services, [policy, notes]);
    const detail = await callHandler<AnswerDetail>(app.services, 'answers.import', readAnswerFile(writeFile(docs, 'answer.json', nativeAnswer(CITATIONS))));
    await page.goto(app.host.url);
    await page.getByRole('tab', { name: /Answers/ }).click();
    await page.locator(`[data-answer-id="${detail.answer.id}"]`).click();
    await card('1').waitFor();
  });

  afterAll(async () => {
    await app?.close();
  });

  it('shows the preview when the pointer rests on a marker, never over the card being read, and Escape closes it', async () => {
    await card('1').click();
    await marker('2').hover();
    await preview().waitFor();
    const p = preview();
    expect(await p.getAttribute('aria-label')).toBe('Preview of citation [2]');
    // The quote with the words the source has marked, and the ones it lacks not.
    const marked = await p.getByTestId('preview-quote').locator('mark').allTextContents();
    expect(marked).toEqual(expect.arrayContaining(['Overtime', 'approved', 'writing', 'line', 'manager.']));
    expect(marked).not.toContain('should');
    expect(await p.getByTestId('preview-quote').locator('.unmatched').allTextContents()).toEqual(['should', 'your']);
    const text = (await p.textContent()) ?? '';
    expect(text).toContain('Only a close match: Only a close match was found');
    expect(text).toContain('Backs it only in part: The evidence only partly backs the claim.');
    expect(text).toContain('p. 2');
    const previewBox = (await p.boundingBox())!;
    const current = page.locator('article[aria-current="true"]');
    expect(await current.getAttribute('aria-label')).toBe('Citation [1]');
    expect(overlaps(previewBox, (await current.boundingBox())!)).toBe(false);
    expect(overlaps(previewBox, (await marker('2').boundingBox())!)).toBe(false);
    await page.screenshot({ path: path.join(SCREENSHOTS, 'hover-preview.png') });
    // The README's picture (docs/hover-preview.png) is this crop, copied there by hand when the look changes.
    await page.screenshot({ path: path.join(SCREENSHOTS, 'hover-preview-readme.png'), clip: { x: 0, y: 0, width: 1400, height: 620 } });
    expect(fs.statSync(path.join(SCREENSHOTS, 'hover-preview-readme.png')).size).toBeGreaterThan(10_000);
    await page.keyboard.press('Escape');
    await expect.poll(() => preview().count()).toBe(0);
  });

  it('shows the preview on keyboard focus; Tab reaches its buttons; Escape closes it and returns to the marker', async () => {
    const focused = () => page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? document.activeElement?.textContent ?? '');
    await marker('1').focus();
    await preview().waitFor();
    expect(await preview().getAttribute('aria-label')).toBe('Preview of citation [1]');
    expect(await marker('1').getAttribute('aria-describedby')).toBe(await preview().getAttribute('id'));
    // Tab goes on into the preview (its Open button) and the preview stays.
    await page.keyboard.press('Tab');
    await expect.poll(focused).toBe('Open');
    expect(await preview().count()).toBe(1);
    await page.keyboard.press('Escape');
    await expect.poll(() => preview().count()).toBe(0);
    expect(await focused()).toMatch(/^Citation \[1\]/);
    // The next marker by keyboard gets its own preview.
    await page.keyboard.press('Tab');
    await expect.poll(focused).toMatch(/^Citation \[2\]/);
    await expect.poll(() => preview().getAttribute('aria-label')).toBe('Preview of citation [2]');
    await page.screenshot({ path: path.join(SCREENSHOTS, 'focus-preview.png') });
    // Open in the preview opens the citation in the viewer.
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByLabel('Page number').inputValue()).toBe('2');
    await expect.poll(() => preview().count()).toBe(0);
  });

  it('copies a citation from the preview and from a card as plain text and HTML, with its link', async () => {
    await marker('1').hover();
    await preview().waitFor();
    await preview().getByLabel('Citation style for [1]').selectOption('apa');
    await preview().getByRole('button', { name: 'Copy citation' }).click();
    await preview().getByText('Copied [1] as APA, with its link.').waitFor();
    const apa = await clipboard();
    expect(apa.text).toMatch(/^HR Policy\. \(n\.d\.\)\. p\. 3\. evidesk:\/\/open\?sha256=/);
    const link = /evidesk:\/\/\S+/.exec(apa.text ?? '')?.[0] ?? '';
    expect(parseCitationLink(link)).toMatchObject({ ok: true, link: { page: 3, marker: '1' } });
    expect(apa.html).toContain('<a href="evidesk://open?');
    expect(apa.html).toContain('Open in Evidence Desk</a>');
    await page.keyboard.press('Escape');

    await card('3').getByLabel('Citation style for [3]').selectOption('bibtex');
    await card('3').getByRole('button', { name: 'Copy citation' }).click();
    await card('3').getByText('Copied [3] as BibTeX, with its link.').waitFor();
    const bib = await clipboard();
    expect(bib.text).toMatch(/^@misc\{S1,[\s\S]*url = \{evidesk:\/\/open\?sha256=[0-9a-f]{64}&line=6&/);
    expect(bib.html).toMatch(/^<pre>@misc\{S1,/);
  });
});
