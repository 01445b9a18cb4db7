import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAppInChromium, screenshot, type AppInChromium } from '../support/app-in-chromium.ts';
import { RENDERER_DIR } from '../support/build.ts';
import { makePdf, writeFile } from '../support/pdf-fixtures.ts';
import { ingestAll, POLICY_PAGES } from '../support/policy-workspace.ts';

/** The scripts the page loads before anything else: its entry and the modules it preloads. */
function firstScreenScripts(): string[] {
  const html = fs.readFileSync(path.join(RENDERER_DIR, 'index.html'), 'utf8');
  const refs = [...html.matchAll(/<(?:script type="module"[^>]*src|link rel="modulepreload"[^>]*href)="\/([^"]+\.js)"/g)].map((m) => m[1] ?? '');
  return refs.map((ref) => path.join(RENDERER_DIR, ref));
}

describe('the first screen loads only its own code (issue 16)', () => {
  let app: AppInChromium;

  beforeAll(async () => {
    app = await openAppInChromium();
    await ingestAll(app.services, [writeFile(path.join(app.services.dir, 'docs'), 'HR_Policy.pdf', await makePdf(POLICY_PAGES, 'HR Policy'))]);
  });

  afterAll(async () => {
    await app?.close();
  });

  it('keeps pdf.js, the DOCX sanitiser, the export dialog and zod out of the scripts the page starts with', () => {
    const scripts = firstScreenScripts();
    expect(scripts.length).toBeGreaterThan(0);
    const code = scripts.map((f) => fs.readFileSync(f, 'utf8')).join('\n');
    // pdf.js names its worker options; DOMPurify its version; the export dialog its heading.
    expect(code).not.toContain('GlobalWorkerOptions');
    expect(code).not.toContain('DOMPurify');
    expect(code).not.toContain('Export report');
    // Nor zod: the contract's schemas are built when first needed (an event, a link), not before the first rows.
    expect(code).not.toContain('$ZodType');
    // The whole bundle was 1.2 MB with pdf.js in it.
    expect(code.length).toBeLessThan(600_000);
  });

  it("asks for the library's first page from the page's first script, before the app's code has arrived, and draws it without asking again", async () => {
    const page = await app.browser.newPage();
    const calls: { name: string; input: { after?: string } }[] = [];
    let pageAsked!: () => void;
    const asked = new Promise<void>((resolve) => (pageAsked = resolve));
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (!url.pathname.startsWith('/api/')) return;
      calls.push({ name: url.pathname.slice(5), input: JSON.parse(request.postData() ?? '{}') as { after?: string } });
      if (url.pathname === '/api/sources.page') pageAsked();
    });
    // The app's own script is held back until the first page has been asked for: only the page's
    // first script can ask by then (without it, the list would never be drawn and the wait fail).
    await page.route(/\/assets\/index-[^/]*\.js$/, async (route) => {
      await asked;
      await route.continue();
    });
    await page.goto(app.host.url);
    await page.locator('tr[data-source-id]').first().waitFor();
    expect(await page.locator('tr[data-source-id]').first().textContent()).toContain('HR_Policy.pdf');
    // The library took that reply: one first page (no cursor) in all, asked before any other call.
    expect(calls[0]?.name).toBe('sources.page');
    expect(calls.filter((c) => c.name === 'sources.page' && !c.input.after)).toHaveLength(1);
    await page.close();
  });

  it("draws the first page when the page's first script cannot be fetched (the library asks itself)", async () => {
    const page = await app.browser.newPage();
    await page.route('**/first-page.js', (route) => route.abort());
    const pages: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/api/sources.page') pages.push(request.postData() ?? '');
    });
    await page.goto(app.host.url);
    await page.locator('tr[data-source-id]').first().waitFor();
    expect(await page.locator('tr[data-source-id]').first().textContent()).toContain('HR_Policy.pdf');
    expect(pages.length).toBeGreaterThanOrEqual(1);
    await page.close();
  });

  it('opens a PDF whose reader code arrives late; when it cannot arrive, says so and fetches it again on "Open again"', async () => {
    const { page } = app;
    const reader = /\/assets\/(PdfViewer|pdfjs-setup)-[^/]*\.js$/;
    await page.route(reader, (route) => route.abort());
    await page.goto(app.host.url);
    await page.getByRole('button', { name: 'HR_Policy.pdf', exact: true }).click();
    const viewer = page.getByRole('region', { name: 'Viewer' });
    await expect.poll(() => viewer.getByRole('alert').textContent()).toContain('This document could not be opened.');
    await screenshot(page, 'first-screen-reader-code-missing.png');
    await page.unroute(reader);
    await viewer.getByRole('button', { name: 'Open again' }).click();
    await page.getByTestId('text-layer').first().waitFor();
    expect(await viewer.getByRole('alert').count()).toBe(0);
  });
});
