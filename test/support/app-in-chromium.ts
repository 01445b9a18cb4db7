import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { startHost, type Host } from '../../electron/host/server.ts';
import type { ServicesOptions } from '../../electron/services/create-services.ts';
import { ensureBuilt, RENDERER_DIR, ROOT } from './build.ts';
import { launchChromium } from './chromium.ts';
import { openScriptedServices } from './workspace.ts';

export const SCREENSHOTS = path.join(ROOT, 'test-results', 'e2e');

export interface AppInChromium {
  services: ReturnType<typeof openScriptedServices>;
  host: Host;
  browser: Browser;
  page: Page;
  close(): Promise<void>;
}

/**
 * The real renderer, built, served by the loopback host over a fresh test workspace, in headless
 * Chromium. `page` has not navigated yet: tests open `host.url` when they are ready.
 */
export async function openAppInChromium(options: ServicesOptions = {}): Promise<AppInChromium> {
  ensureBuilt();
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  const services = openScriptedServices(options);
  const host = await startHost({ services, staticDir: RENDERER_DIR });
  const browser = await launchChromium();
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  return {
    services,
    host,
    browser,
    page,
    close: async () => {
      await browser.close();
      await host.close();
      services.close();
    },
  };
}

/** Saves a screenshot under test-results/e2e (to be looked at) and returns its path; a blank page is too small to pass. */
export async function screenshot(page: Page, name: string): Promise<string> {
  const file = path.join(SCREENSHOTS, name);
  await page.screenshot({ path: file });
  if (fs.statSync(file).size <= 10_000) throw new Error(`${name} is nearly empty: the page drew almost nothing.`);
  return file;
}
