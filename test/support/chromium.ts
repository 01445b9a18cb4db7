import fs from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

const CANDIDATES = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'].filter(
  (p): p is string => Boolean(p),
);

export function findChromium(): string {
  const found = CANDIDATES.find((p) => fs.existsSync(p));
  if (!found) {
    throw new Error(
      'The e2e tests need Chromium and found none. Install it with `sudo apt-get install -y chromium` (Debian/Ubuntu), or set CHROMIUM_PATH to a Chromium or Chrome binary.',
    );
  }
  return found;
}

/**
 * Playwright's ceiling for one action or wait (30 s by default). Two test files run at a time, and
 * the first page load plus an ingest through fresh extractor children can take longer than 30 s
 * on two busy cores. A ceiling only: every wait returns as soon as its condition holds.
 */
export const ACTION_CEILING_MS = 60_000;

/** Debian's Chromium, headless, with background networking off (this machine has no network). */
export async function launchChromium(): Promise<Browser> {
  const browser = await chromium.launch({
    executablePath: findChromium(),
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-dev-shm-usage',
    ],
  });
  // Every context (browser.newPage makes one too) gets the ceiling, however the test opens its page.
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (options) => {
    const context = await newContext(options);
    context.setDefaultTimeout(ACTION_CEILING_MS);
    return context;
  };
  return browser;
}
