import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAppInChromium, screenshot, type AppInChromium } from '../support/app-in-chromium.ts';
import { makePdf, writeFile } from '../support/pdf-fixtures.ts';
import { ingestAll, POLICY_PAGES } from '../support/policy-workspace.ts';

describe('the PDF viewer when the host has stopped (browser mode)', () => {
  let app: AppInChromium;

  beforeAll(async () => {
    app = await openAppInChromium();
    await app.page.setViewportSize({ width: 1280, height: 800 });
    await ingestAll(app.services, [writeFile(path.join(app.services.dir, 'docs'), 'HR_Policy.pdf', await makePdf(POLICY_PAGES, 'HR Policy'))]);
    await app.page.goto(app.host.url);
  });

  afterAll(async () => {
    await app?.close();
  });

  it('says only our sentence: no line of pdf.js under the banner, no relink offer', async () => {
    const { page } = app;
    await page.getByRole('button', { name: 'HR_Policy.pdf', exact: true }).waitFor();
    await app.host.close();
    await page.getByRole('button', { name: 'HR_Policy.pdf', exact: true }).click();
    await page.getByTestId('host-down').waitFor();
    const viewer = page.getByRole('region', { name: 'Viewer' });
    const alert = viewer.getByRole('alert');
    // One alert: the sentence the banner says too, and the button to try again.
    await expect.poll(() => alert.textContent()).toMatch(/^Evidence Desk is not answering: .* Your workspace is unchanged\.Open again$/);
    // pdf.js's own words (its error text, a URL, a status) stay out of the viewer; the tooltip may carry them.
    const said = (await viewer.textContent()) ?? '';
    expect(said).not.toMatch(/could not be opened|Failed to load|PDF file|Unexpected|fetch|\/source\//i);
    expect(await page.getByRole('dialog').count()).toBe(0);
    await screenshot(page, 'pdf-viewer-host-down.png');
  });
});
