/**
 * The start-up check of the audit chain in Chromium: an untouched workspace shows no banner; once
 * a review decision is changed through a connection of an outsider's (guards dropped), the app
 * shows a red banner that says what broke and where, with the code in its tooltip.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readAnswerFile } from '../../electron/cli/answer-file.ts';
import { headFilePath } from '../../electron/services/store/audit-head-file.ts';
import type { AnswerDetail } from '../../shared/contract/answer-schemas.ts';
import { openAppInChromium, SCREENSHOTS, type AppInChromium } from '../support/app-in-chromium.ts';
import { tamperer } from '../support/audit-workspace.ts';
import { writeFile } from '../support/pdf-fixtures.ts';
import { callHandler } from '../support/workspace.ts';

describe('the audit banner in Chromium', () => {
  let app: AppInChromium;
  let page: AppInChromium['page'];
  let decisionId = 0;

  const banner = () => page.locator('.audit-banner');
  /** Opens the app and waits until its background check has answered. */
  const openAndCheck = async () => {
    const checked = page.waitForResponse((r) => r.url().includes('/api/audit.verify'));
    await page.goto(app.host.url);
    const reply = await checked;
    expect(reply.status()).toBe(200);
    await expect.poll(() => page.getByRole('tab', { name: /Sources/ }).isVisible()).toBe(true);
  };

  beforeAll(async () => {
    app = await openAppInChromium();
    ({ page } = app);
    const docs = path.join(app.services.dir, 'docs');
    writeFile(docs, 'handbook.txt', 'Leave\n\nEmployees receive 14 days of annual leave per calendar year.\n');
    await app.services.ingest.ingest({ paths: [docs] });
    const answer = writeFile(
      docs,
      'answer.json',
      JSON.stringify({
        format: 'evidence-desk/answer@1',
        question: 'How much leave?',
        answer: 'Fourteen days [1].',
        citations: [{ marker: '1', claim: 'Employees receive 14 days of leave.', quote: 'Employees receive 14 days of annual leave', source: { file: 'handbook.txt' } }],
      }),
    );
    const detail = await callHandler<AnswerDetail>(app.services, 'answers.import', readAnswerFile(answer));
    const review = await callHandler<{ id: number }>(app.services, 'answers.review', { citationId: detail.citations[0]?.id, decision: 'accepted' });
    decisionId = review.id;
  });

  afterAll(async () => {
    await app?.close();
  });

  it('shows no banner over an untouched workspace', async () => {
    await openAndCheck();
    // The check has answered and the app has rendered its result: no banner.
    await expect.poll(() => page.getByTestId('audit-intact').count()).toBe(1);
    expect(await page.getByTestId('audit-intact').textContent()).toMatch(/checks out \(\d+ entries\)/);
    expect(await banner().count()).toBe(0);
    expect(await page.getByRole('alert').count()).toBe(0);
  });

  it('shows a red banner naming the changed decision when the record was edited outside the app', async () => {
    const db = tamperer(app.services.workspaceDir);
    db.prepare("UPDATE review_decisions SET decision = 'rejected' WHERE id = ?").run(decisionId);
    db.close();
    await openAndCheck();
    await expect.poll(() => banner().count()).toBe(1);
    const text = (await banner().textContent()) ?? '';
    expect(text).toContain(`The record was changed outside Evidence Desk: Review decision ${decisionId} was changed after it was recorded`);
    expect(text).toMatch(/Restore the workspace from a backup you trust/);
    expect(await banner().getAttribute('role')).toBe('alert');
    expect(await banner().getAttribute('title')).toMatch(new RegExp(`^AUDIT_EDITED · entry \\d+ · audit_log \\d+ · review_decisions ${decisionId}`));
    const color = await banner().evaluate((el) => getComputedStyle(el).backgroundColor);
    expect(color).toBe('rgb(179, 38, 30)');
    // The window is not blocked: the panels under the banner still answer.
    await page.getByRole('tab', { name: /Answers/ }).click();
    await expect.poll(() => page.getByRole('tab', { name: /Answers/ }).getAttribute('aria-selected')).toBe('true');
    const file = path.join(SCREENSHOTS, 'audit-banner.png');
    await page.screenshot({ path: file });
    expect(fs.statSync(file).size).toBeGreaterThan(10_000);
  });

  it('says the anchor was changed when the head file is deleted', async () => {
    const db = tamperer(app.services.workspaceDir);
    db.prepare("UPDATE review_decisions SET decision = 'accepted' WHERE id = ?").run(decisionId);
    db.close();
    fs.rmSync(headFilePath(app.services.workspaceDir));
    await openAndCheck();
    await expect.poll(() => banner().count()).toBe(1);
    expect(await banner().textContent()).toContain("The record's anchor was changed outside Evidence Desk: The head file beside the database is missing");
    expect(await banner().getAttribute('title')).toMatch(/^AUDIT_HEAD_MISSING/);
  });
});
