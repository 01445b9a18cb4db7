/**
 * The PDF report: the HTML report printed by Chromium (command line and browser mode; the app
 * would use Electron's printToPDF). Chromium is found as the tests find it: CHROMIUM_PATH, else
 * the usual install paths. The page runs offline with scripts off; the report's own CSP forbids
 * every request anyway. Headings become the PDF's outline (bookmarks) and the text stays selectable.
 */
import fs from 'node:fs';
import { AppError } from '../../../shared/contract/errors.ts';

const CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];

/** Prints; when `signal` fires, Chromium is closed and the promise rejects with EXPORT_CANCELLED. */
export type PdfPrinter = (html: string, signal?: AbortSignal) => Promise<Uint8Array>;

export function findChromium(env: NodeJS.ProcessEnv = process.env): string {
  const fromEnv = env.CHROMIUM_PATH;
  if (fromEnv) {
    if (fs.existsSync(fromEnv)) return fromEnv;
    throw new AppError('CHROMIUM_NOT_FOUND', `CHROMIUM_PATH is set to ${fromEnv}, but there is no file there. Point CHROMIUM_PATH at a Chromium or Chrome binary to export PDF reports.`, { CHROMIUM_PATH: fromEnv });
  }
  const found = CANDIDATES.find((p) => fs.existsSync(p));
  if (!found) {
    throw new AppError('CHROMIUM_NOT_FOUND', `A PDF report is printed by Chromium, and none was found (looked at ${CANDIDATES.join(', ')}). Install Chromium or set CHROMIUM_PATH to a Chromium or Chrome binary.`, { looked: CANDIDATES });
  }
  return found;
}

/** Prints HTML to PDF bytes with headless Chromium: A4, backgrounds, tagged, with an outline. */
export function chromiumPrinter(env: NodeJS.ProcessEnv = process.env): PdfPrinter {
  return async (html, signal) => {
    const executablePath = findChromium(env);
    let playwright: typeof import('playwright-core');
    try {
      playwright = await import('playwright-core');
    } catch {
      throw new AppError('CHROMIUM_NOT_FOUND', 'PDF reports are printed through playwright-core, which this installation lacks; export HTML and print it from a browser.', {});
    }
    const browser = await playwright.chromium.launch({
      executablePath,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'],
    });
    const stop = () => void browser.close().catch(() => undefined);
    signal?.addEventListener('abort', stop, { once: true });
    try {
      const context = await browser.newContext({ offline: true, javaScriptEnabled: false });
      const page = await context.newPage();
      // Nothing leaves the page: the report is self-contained, and anything else is refused.
      await page.route('**/*', (route) => route.abort());
      // A long report with excerpt images (hundreds of PNG data URIs) takes Chromium well over
      // Playwright's default 30 s to load on a busy machine.
      await page.setContent(html, { waitUntil: 'load', timeout: 300_000 });
      const pdf = await page.pdf({ format: 'A4', printBackground: true, outline: true, tagged: true, margin: { top: '16mm', bottom: '16mm', left: '14mm', right: '14mm' } });
      if (signal?.aborted) throw new AppError('EXPORT_CANCELLED', 'The export was cancelled; nothing was written.');
      return new Uint8Array(pdf);
    } catch (e) {
      if (signal?.aborted) throw new AppError('EXPORT_CANCELLED', 'The export was cancelled; nothing was written.');
      throw e;
    } finally {
      signal?.removeEventListener('abort', stop);
      await browser.close();
    }
  };
}
