/**
 * Issue 11, Done-when 4 (the live session): an agent, driven by this test through the MCP SDK's
 * client, cites into the workspace the app has open; its session appears as an answer and its
 * citations arrive as cards while it works, through the event channel; a web page it registers is
 * archived, and its card opens the archived copy with the quote marked.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAppInChromium, SCREENSHOTS, type AppInChromium } from '../support/app-in-chromium.ts';
import { connectMcp, type McpSession } from '../support/mcp-client.ts';
import { makePdf, writeFile } from '../support/pdf-fixtures.ts';
import { POLICY_PAGES } from '../support/policy-workspace.ts';

describe('an agent session in the app: citations arrive as cards while the agent works', () => {
  let app: AppInChromium;
  let page: AppInChromium['page'];
  let agent: McpSession;

  const card = (marker: string) => page.getByRole('article', { name: `Citation [${marker}]` });
  /** The exact status name a card's status carries (its words are for people; the name is in the tooltip). */
  const pill = async (marker: string) => (await card(marker).locator('[data-role=status]').getAttribute('data-code')) ?? '';

  beforeAll(async () => {
    app = await openAppInChromium();
    page = app.page;
    await page.setViewportSize({ width: 1280, height: 800 });
    const pdf = writeFile(path.join(app.services.dir, 'docs'), 'HR_Policy.pdf', await makePdf(POLICY_PAGES, 'HR Policy'));
    const ingested = await app.services.dispatch('sources.ingest', { paths: [pdf] });
    expect(ingested.ok).toBe(true);
    agent = await connectMcp(app.services.workspaceDir, ['--session', 'leave-question', '--agent', 'research-agent'], 'claude-desktop');
  }, 120_000);

  afterAll(async () => {
    await agent?.close();
    await app?.close();
  });

  it('lists the session once the agent has cited, and shows its card', async () => {
    await page.goto(app.host.url);
    await page.getByRole('tab', { name: /Answers/ }).click();
    await page.getByText('No answers yet.').waitFor();
    const first = await agent.call('cite', {
      claim: 'Employees receive 14 days of annual leave.',
      quote_context: 'annual leave',
      verbatim_quote: 'Employees receive 14 days of annual leave per calendar year.',
      source: 'HR_Policy.pdf',
      locator: { page: 3 },
    });
    expect(first.value.status).toBe('verified');
    // No reload, no click: the event brings the session into the list.
    const item = page.getByRole('button', { name: /Agent session leave-question/ });
    await item.waitFor();
    expect(await item.textContent()).toMatch(/agent session · research-agent · 1 citation/);
    await item.click();
    await card('1').waitFor();
    expect(await pill('1')).toBe('verified');
  });

  it('adds each new citation as a card while the review is open', async () => {
    const calls = [
      { claim: 'The working week is 37.5 hours.', quote_context: 'hours', verbatim_quote: 'The standard working week is 37.5 hours.', source: 'HR_Policy.pdf', locator: { page: 4 } },
      { claim: 'Staff get a company car.', quote_context: 'cars', verbatim_quote: 'Staff are entitled to a company car after two years of service.', source: 'HR_Policy.pdf', locator: { page: 2 } },
    ];
    const [elsewhere, fabricated] = [await agent.call('cite', calls[0] ?? {}), await agent.call('cite', calls[1] ?? {})];
    expect(elsewhere.value.status).toBe('verified_elsewhere');
    expect(fabricated.value.status).toBe('not_found');
    await card('2').waitFor();
    await card('3').waitFor();
    expect(await pill('2')).toBe('verified_elsewhere');
    expect(await pill('3')).toBe('not_found');
    await page.getByRole('status').filter({ hasText: '● Live: 3 citations so far' }).waitFor();
    // The agent corrects the wrong page: the superseded card gives way to the correction.
    const fixed = await agent.call('cite', { ...calls[0], locator: { page: 2 }, related: [{ citation_id: elsewhere.value.citation_id, relation: 'supersedes' }] });
    expect(fixed.value.status).toBe('verified');
    await card('4').waitFor();
    await card('2').waitFor({ state: 'detached' });
    const file = path.join(SCREENSHOTS, 'agent-session-live.png');
    await page.screenshot({ path: file });
    expect(fs.statSync(file).size).toBeGreaterThan(10_000);
  });

  it('opens a card the agent made at its quote in the viewer', async () => {
    await card('1').click();
    const marks = page.getByTestId('text-layer').locator('mark.quote-highlight');
    await marks.first().waitFor();
    expect((await marks.allTextContents()).join('')).toContain('14 days of annual leave');
  });

  it('archives a web page the agent registers; its card opens the archived copy with the quote marked and the fetch time', async () => {
    const quote = 'Parental leave is sixteen weeks at full pay for either parent.';
    const server = http.createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(`<!doctype html><html><head><title>Family leave</title></head><body><article><h1>Family leave</h1><p>${quote} It can be taken in up to three blocks within the child's first year.</p><p>Requests go to the line manager eight weeks ahead.</p></article></body></html>`);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/family-leave`;
      const registered = await agent.call('register_source', { url });
      expect(registered.value).toMatchObject({ kind: 'web', outcome: 'added' });
      const cited = await agent.call('cite', { claim: 'Parental leave is sixteen weeks at full pay.', quote_context: quote, verbatim_quote: quote, source: registered.value.source_id });
      expect(cited.value.status).toBe('verified');
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
    // The card arrives live; the page is served from the archive (the server is gone by now).
    await card('5').waitFor();
    await card('5').locator('blockquote').click();
    const note = page.getByTestId('archived-from');
    await note.waitFor();
    expect(await note.textContent()).toMatch(/^Archived from http:\/\/127\.0\.0\.1:\d+\/family-leave on \d{4}-\d{2}-\d{2}/);
    await expect.poll(async () => (await page.locator('.flow-viewer mark.quote-highlight').allTextContents()).join('')).toBe(quote);
    await page.screenshot({ path: path.join(SCREENSHOTS, 'agent-session-web-source.png') });
  });
});
