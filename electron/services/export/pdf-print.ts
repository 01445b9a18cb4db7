/**
 * The PDF report: the HTML report printed by Chromium (command line and browser mode; the app
 * would use Electron's printToPDF). Chromium is found as the tests find it: CHROMIUM_PATH, else
 * the usual install paths. The page runs offline with scripts off; the report's own CSP forbids
 * every request anyway. The text stays selectable; the PDF is untagged, and the export writes its
 * outline (bookmarks) afterwards (pdf-outline.ts), which costs far less than Chromium's tagging.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
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

/** Prints HTML to PDF bytes with headless Chromium: A4, backgrounds, untagged, with the named destinations of its links. */
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
    let tmp: string | null = null;
    signal?.addEventListener('abort', stop, { once: true });
    try {
      const context = await browser.newContext({ offline: true, javaScriptEnabled: false });
      const page = await context.newPage();
      // Chromium reads the report from a private temporary file: handing a report of many MB to
      // setContent sends it through the DevTools protocol as one escaped string, which took as
      // long as the printing itself. Nothing else loads: the report is self-contained, and any
      // other request (the report's own CSP forbids them anyway) is refused.
      tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'evidesk-print-'));
      const file = path.join(tmp, 'report.html');
      fs.writeFileSync(file, html, { mode: 0o600 });
      const url = pathToFileURL(file).href;
      await page.route('**/*', (route) => (route.request().url() === url ? route.continue() : route.abort()));
      // A long report with hundreds of excerpt images takes Chromium well over Playwright's
      // default 30 s to load on a busy machine.
      await page.goto(url, { waitUntil: 'load', timeout: 300_000 });
      const pdf = await page.pdf({ format: 'A4', printBackground: true, outline: false, tagged: false, margin: { top: '16mm', bottom: '16mm', left: '14mm', right: '14mm' } });
      if (signal?.aborted) throw new AppError('EXPORT_CANCELLED', 'The export was cancelled; nothing was written.');
      return new Uint8Array(pdf);
    } catch (e) {
      if (signal?.aborted) throw new AppError('EXPORT_CANCELLED', 'The export was cancelled; nothing was written.');
      throw e;
    } finally {
      signal?.removeEventListener('abort', stop);
      await browser.close();
      if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
    }
  };
}
