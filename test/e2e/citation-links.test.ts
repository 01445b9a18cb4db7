import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readAnswerFile } from '../../electron/cli/answer-file.ts';
import type { AnswerDetail } from '../../shared/contract/answer-schemas.ts';
import { parseCitationLink } from '../../shared/links/citation-link.ts';
import { openAppInChromium, SCREENSHOTS, type AppInChromium } from '../support/app-in-chromium.ts';
import { makePdf, writeFile } from '../support/pdf-fixtures.ts';
import { ingestAll, nativeAnswer, NOTES_TEXT, POLICY_PAGES } from '../support/policy-workspace.ts';
import { callHandler, workspaceSnapshot } from '../support/workspace.ts';
import { evidesk } from '../support/cli.ts';
import { removeHostFile, writeHostFile } from '../../electron/host/host-file.ts';

const LEAVE = 'Employees receive 14 days of annual leave per calendar year.';
const CITATIONS = [
  { marker: '1', claim: 'Employees get 14 days of annual leave.', quote: LEAVE, source: { file: 'HR_Policy.pdf' }, locator: { page: 3 } },
  { marker: '2', claim: 'Probation lasts six months.', quote: 'The probation period lasts six months for all new starters.', source: { file: 'onboarding-notes.txt' }, locator: { line: 6 } },
];

/**
 * Issue 17 in browser mode: a link in an exported HTML report is clicked; Chromium hands the
 * evidesk:// link to the system, and the test plays the system's part, opening the desk at the
 * host's #/open?… form of the same link (the form `evidesk open` and the browser use).
 */
describe('citation links in Chromium: from a report back to the evidence (issue 17)', () => {
  let app: AppInChromium;
  let page: AppInChromium['page'];
  let docs: string;
  let report: string;
  let detail: AnswerDetail;

  const shot = async (name: string) => {
    const file = path.join(SCREENSHOTS, name);
    await page.screenshot({ path: file });
    expect(fs.statSync(file).size).toBeGreaterThan(10_000);
  };
  const pdfMarks = () => page.getByTestId('text-layer').locator('mark.quote-highlight').allTextContents();
  /** The evidesk:// link a click on a report's link would hand to the system. */
  const clickedLink = async (reportFile: string, footnote: number): Promise<string> => {
    const reader = await app.browser.newPage();
    await reader.goto(pathToFileURL(reportFile).href);
    // The report has no script (its CSP forbids it); the test listens for the click from outside.
    await reader.evaluate(() => {
      document.addEventListener('click', (e) => {
        const a = (e.target as Element).closest('a');
        if (a) {
          e.preventDefault();
          document.body.dataset.clicked = a.href;
        }
      }, true);
    });
    await reader.locator(`#note-${footnote} a.desk-link`).click();
    const href = (await reader.locator('body').getAttribute('data-clicked')) ?? '';
    await reader.close();
    return href;
  };
  const openInDesk = async (link: string) => {
    // The host's form: the same query after #/open?, the session token in the URL as the host printed it.
    await page.goto(`${app.host.url}#/open?${link.slice(link.indexOf('?') + 1)}`);
  };

  beforeAll(async () => {
    app = await openAppInChromium();
    page = app.page;
    docs = path.join(app.services.dir, 'docs');
    const policy = writeFile(docs, 'HR_Policy.pdf', await makePdf(POLICY_PAGES, 'HR Policy'));
    writeFile(docs, 'onboarding-notes.txt', NOTES_TEXT);
    await ingestAll(app.services, [policy, path.join(docs, 'onboarding-notes.txt')]);
    detail = await callHandler<AnswerDetail>(app.services, 'answers.import', readAnswerFile(writeFile(docs, 'answer.json', nativeAnswer(CITATIONS))));
    report = path.join(app.services.dir, 'report.html');
    await callHandler(app.services, 'answers.export', { id: detail.answer.id, format: 'html', path: report });
  });

  afterAll(async () => {
    await app?.close();
  });

  it('opens the cited page with the quote marked from a footnote link of the HTML report, and writes nothing', async () => {
    const link = await clickedLink(report, 1);
    expect(link).toMatch(/^evidesk:\/\/open\?sha256=[0-9a-f]{64}&page=3&/);
    expect(parseCitationLink(link)).toMatchObject({ ok: true, link: { answer: detail.answer.id, marker: '1' } });
    // The token is still required: the same address without it is refused.
    const bare = await fetch(`http://127.0.0.1:${app.host.port}/#/open?x`);
    expect(bare.status).toBe(403);
    const before = workspaceSnapshot(app.services);
    await openInDesk(link);
    await page.getByTestId('link-notice').getByText('HR_Policy.pdf, p. 3: the cited quote is marked.').waitFor();
    await expect.poll(async () => (await pdfMarks()).join('')).toContain('14 days of annual leave');
    expect(await page.getByLabel('Page number').inputValue()).toBe('3');
    expect(page.url()).not.toContain('#/open');
    await shot('link-opened.png');
    expect(workspaceSnapshot(app.services)).toBe(before);
  });

  it('finds the quote by its fragment when a new version of the source moved it', async () => {
    const link = await clickedLink(report, 1);
    const pages = [POLICY_PAGES[0]!, { lines: ['Section 1a: Definitions', 'A year means a calendar year.'] }, ...POLICY_PAGES.slice(1)];
    pages[3] = { lines: ['Section 3: Leave (revised)', 'This section was revised in 2025.', ...POLICY_PAGES[2]!.lines.slice(1)] };
    fs.writeFileSync(path.join(docs, 'HR_Policy.pdf'), await makePdf(pages, 'HR Policy'));
    await ingestAll(app.services, [path.join(docs, 'HR_Policy.pdf')]);
    await openInDesk(link);
    await page.getByTestId('link-notice').getByText(/earlier version of HR_Policy\.pdf; its quote was found in the newest version at p\. 4/).waitFor();
    await expect.poll(async () => (await pdfMarks()).join('')).toContain('14 days of annual leave');
    expect(await page.getByLabel('Page number').inputValue()).toBe('4');
    await shot('link-stale-offsets.png');
  });

  it('says when the workspace lacks the hash, and finds the file by hash in a folder', async () => {
    const elsewhere = path.join(app.services.dir, 'elsewhere');
    const bytes = await makePdf([{ lines: ['Minutes of the board meeting, March 2024.'] }]);
    writeFile(path.join(elsewhere, 'archive'), 'minutes.pdf', bytes);
    const sha = createHash('sha256').update(bytes).digest('hex');
    await openInDesk(`evidesk://open?sha256=${sha}&page=1&start=0&end=20&text=Minutes+of+the+board`);
    const notice = page.getByTestId('link-notice');
    await notice.getByText(/This workspace has no document with SHA-256/).waitFor();
    // Nothing is on show that the link did not find.
    expect(await page.getByTestId('text-layer').count()).toBe(0);
    await notice.getByLabel('Folder to search for the file').fill(elsewhere);
    await notice.getByRole('button', { name: 'Search folder' }).click();
    await notice.getByText(`Found it: ${path.join(elsewhere, 'archive', 'minutes.pdf')} has this SHA-256.`, { exact: false }).waitFor();
    await shot('link-missing-hash.png');
    // Adding the file found is the analyst's choice; then the link opens.
    await notice.getByRole('button', { name: 'Add it and open the link' }).click();
    await notice.getByText('minutes.pdf, p. 1: the cited quote is marked.').waitFor();
    await expect.poll(async () => (await pdfMarks()).join('')).toContain('Minutes of the board');
  });

  it('evidesk open LINK opens the page already showing the desk at the link', async () => {
    const link = await clickedLink(report, 2);
    await page.goto(app.host.url);
    await page.getByRole('tab', { name: /Sources/ }).waitFor();
    writeHostFile(app.services.workspaceDir, app.host);
    try {
      const run = await evidesk(app.services.workspaceDir, 'open', link);
      expect(run.out).toBe('Opened in the desk: onboarding-notes.txt, line 6: the cited quote is marked.');
      await page.getByTestId('link-notice').getByText('onboarding-notes.txt, line 6: the cited quote is marked.').waitFor();
      await expect.poll(() => page.locator('mark').allTextContents()).toContain('The probation period lasts six months for all new starters.');
      await shot('link-cli-open.png');
    } finally {
      removeHostFile(app.services.workspaceDir);
    }
  });

  it('refuses a hostile link in plain words and opens nothing', async () => {
    await openInDesk(`evidesk://open?sha256=${'a'.repeat(64)}&page=1&start=0&end=5&text=x&path=%2Fetc%2Fpasswd`);
    await page.getByTestId('link-notice').getByText('This link cannot be opened: the link has a field Evidence Desk does not know: "path".').waitFor();
    expect(await page.getByTestId('text-layer').count()).toBe(0);
    await page.goto(`${app.host.url}#/open?sha256=${'a'.repeat(64)}&page=1&start=0&end=5&text=%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E`);
    await page.getByTestId('link-notice').getByText(/carries markup or a script address/).waitFor();
    expect(await page.locator('img[src="x"]').count()).toBe(0);
  });
});
