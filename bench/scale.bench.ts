// The desk at case scale (issue 16): a workspace of 100,000 small sources and an answer of 5,000
// citations, then from real Chromium: time to the first screen, time to open the answer, the page's
// JavaScript heap and the DOM elements of each list; and the verification's time and peak memory
// (in a child process, so its peak is its own). Smaller runs while developing:
// EVIDESK_SCALE_SOURCES=2000 EVIDESK_SCALE_CITATIONS=300 npm run bench -- scale
// (EVIDESK_SCALE_BROWSER=0: the verification figures only, without Chromium.)
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startHost } from '../electron/host/server.ts';
import { createServices } from '../electron/services/create-services.ts';
import { ensureBuilt, RENDERER_DIR } from '../test/support/build.ts';
import { launchChromium } from '../test/support/chromium.ts';
import { addSmallSources, bigAnswer } from '../test/support/scale-workspace.ts';
import { testPlatform } from '../test/support/workspace.ts';
import type { Page } from 'playwright-core';
import type { Bench, Figure } from './report.ts';

const SOURCES = Number(process.env.EVIDESK_SCALE_SOURCES ?? 100_000);
const CITATIONS = Number(process.env.EVIDESK_SCALE_CITATIONS ?? 5_000);
/** The answer's citations quote this many of the notes (a matter's answer cites a few hundred documents). */
const CITED_SOURCES = Math.min(SOURCES, 1_000);

/** One API call the page made: when it started (ms after `t0`), its time in the host and in all. */
interface ApiSpan {
  name: string;
  startMs: number;
  hostMs: number | null;
  totalMs: number;
}

/** Records the page's API calls with their timings (the host's own in its Server-Timing header). */
function recordApi(page: Page): { between(t0: number, t1: number): string[] } {
  const spans: ApiSpan[] = [];
  page.on('requestfinished', (request) => {
    const url = new URL(request.url());
    if (!url.pathname.startsWith('/api/')) return;
    void request.response().then(async (response) => {
      const timing = request.timing();
      const header = (await response?.allHeaders())?.['server-timing'] ?? '';
      const dur = /dur=([\d.]+)/.exec(header)?.[1];
      spans.push({ name: url.pathname.slice(5), startMs: timing.startTime, hostMs: dur ? Number(dur) : null, totalMs: timing.responseEnd });
    });
  });
  return {
    between: (t0, t1) =>
      spans
        .filter((s) => s.startMs >= t0 && s.startMs <= t1)
        .sort((a, b) => a.startMs - b.startMs)
        .map((s) => `${s.name} at +${Math.round(s.startMs - t0)} ms: ${Math.round(s.totalMs)} ms (host ${s.hostMs === null ? '?' : Math.round(s.hostMs)} ms)`),
  };
}

/**
 * In the page, from its first script on: when each selector first matched an element with a box,
 * in ms since the page's navigation started, taken after the frame that drew it (a rAF, then a
 * task). Playwright's own waits poll at up to 500 ms apart, so they only bound the figure.
 * `click` is when the last click reached the page (the event's time).
 */
async function watchInPage(page: Page, selectors: Record<string, string>): Promise<void> {
  await page.addInitScript((wanted: Record<string, string>) => {
    const seen: Record<string, number> = {};
    const pending = new Set<string>();
    (window as unknown as { __scaleSeen: Record<string, number> }).__scaleSeen = seen;
    const afterPaint = (name: string, selector: string) => {
      pending.add(name);
      requestAnimationFrame(() =>
        setTimeout(() => {
          pending.delete(name);
          const el = document.querySelector(selector);
          const box = el?.getBoundingClientRect();
          if (box && box.width > 0 && box.height > 0 && seen[name] === undefined) {
            seen[name] = performance.now();
            // Said on the console too, so the bench can wait for it without evaluating anything in the page.
            console.debug(`evidesk-scale: ${name}`);
          }
        }, 0),
      );
    };
    const check = () => {
      for (const [name, selector] of Object.entries(wanted)) {
        if (seen[name] === undefined && !pending.has(name) && document.querySelector(selector)) afterPaint(name, selector);
      }
    };
    new MutationObserver(check).observe(document, { childList: true, subtree: true, attributes: true });
    document.addEventListener('click', (e) => void (seen.click = e.timeStamp), true);
  }, selectors);
}

/**
 * Resolves once `watchInPage` has taken the mark `name`, told by the page's console: waiting this way
 * runs nothing in the page, where Playwright's own waits first evaluate its injected script on the
 * page's main thread, as the page draws its first screen (a task of 40 to 200 ms in the figure).
 */
function markSaid(page: Page, name: string): Promise<unknown> {
  return page.waitForEvent('console', { predicate: (m) => m.text() === `evidesk-scale: ${name}`, timeout: 120_000 });
}

/** A mark `watchInPage` took, once it is there. */
async function seenAt(page: Page, name: string): Promise<number> {
  const handle = await page.waitForFunction((n) => (window as unknown as { __scaleSeen: Record<string, number> }).__scaleSeen[n], name, { timeout: 120_000 });
  return (await handle.jsonValue()) as number;
}

/** Forgets a mark, so that it is taken again (the next click). */
async function forget(page: Page, names: string[]): Promise<void> {
  await page.evaluate((ns) => ns.forEach((n) => delete (window as unknown as { __scaleSeen: Record<string, number> }).__scaleSeen[n]), names);
}

export const bench: Bench = async () => {
  if (process.env.EVIDESK_SCALE_BROWSER !== '0') ensureBuilt();
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'evidesk-scale-'));
  const workspace = path.join(root, 'workspace');
  const t0 = performance.now();
  {
    const services = createServices(testPlatform(), workspace);
    addSmallSources(services.sources, path.join(root, 'notes'), SOURCES);
    services.close();
  }
  const generateS = (performance.now() - t0) / 1000;
  const answerFile = path.join(root, 'answer.json');
  fs.writeFileSync(answerFile, bigAnswer(CITATIONS, CITED_SOURCES));
  const out = execFileSync(process.execPath, [path.join(import.meta.dirname, 'scale-verify-child.ts'), workspace, answerFile], { encoding: 'utf8', maxBuffer: 1 << 24 });
  const verify = JSON.parse(out.slice(out.lastIndexOf('@@VERIFY@@') + '@@VERIFY@@'.length)) as { ms: number; firstBatchMs: number | null; batches: number; maxRssMb: number };
  const verifyFigures: Figure[] = [
    { name: `verify time for ${CITATIONS.toLocaleString('en-US')} citations (import and verification)`, value: verify.ms / 1000, unit: 's', goal: { op: '<=', value: 15, of: 'value' } },
    { name: `time to the first batch stored (${verify.batches} batches)`, value: (verify.firstBatchMs ?? verify.ms) / 1000, unit: 's' },
    { name: 'peak memory of the verification process', value: verify.maxRssMb, unit: 'MB', goal: { op: '<=', value: 300, of: 'value' } },
  ];
  const notes = [
    `Workspace generated in ${generateS.toFixed(1)} s (small text notes stored through the sources store, without extraction).`,
    'Ingest speed beside pdftotext (issue 16 item 5) is not measured here: see the ingest bench.',
  ];
  if (process.env.EVIDESK_SCALE_BROWSER === '0') {
    fs.rmSync(root, { recursive: true, force: true });
    return [{ title: `Case scale: ${SOURCES.toLocaleString('en-US')} sources, an answer of ${CITATIONS.toLocaleString('en-US')} citations verified (no browser)`, figures: verifyFigures, notes }];
  }

  const services = createServices({ ...testPlatform(), mode: 'browser' }, workspace);
  const host = await startHost({ services, staticDir: RENDERER_DIR });
  const browser = await launchChromium();
  const figures: Figure[] = [];
  try {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await watchInPage(page, { firstRow: 'tr[data-source-id]', firstCard: 'article[aria-label="Citation [1]"]' });
    const api = recordApi(page);
    const elements = (selector: string) => page.evaluate((s) => document.querySelectorAll(`${s}, ${s} *`).length, selector);
    const heapMb = async () => {
      const cdp = await page.context().newCDPSession(page);
      await cdp.send('HeapProfiler.collectGarbage');
      const { usedSize } = (await cdp.send('Runtime.getHeapUsage')) as { usedSize: number };
      return usedSize / 2 ** 20;
    };
    const t1 = performance.now();
    const wall1 = Date.now();
    const firstRowSaid = markSaid(page, 'firstRow');
    await page.goto(host.url, { waitUntil: 'commit' });
    await firstRowSaid;
    const firstScreenAt = Date.now();
    const firstScreenWaited = performance.now() - t1;
    figures.push({ name: `time to the first screen (${SOURCES.toLocaleString('en-US')} sources listed; from navigation start to the first row drawn)`, value: await seenAt(page, 'firstRow'), unit: 'ms', goal: { op: '<=', value: 1000, of: 'value' } });
    notes.push(`First screen as the bench waited for it (from page.goto to the page's console saying so): ${Math.round(firstScreenWaited)} ms.`);
    figures.push({ name: 'DOM elements in the library list', value: await elements('[data-testid=source-table]'), unit: '', goal: { op: '<=', value: 3000, of: 'value' } });
    // The last row, by keyboard: a page fetched by its key, deep in the list.
    await page.getByRole('grid', { name: 'Sources' }).focus();
    const t2 = performance.now();
    await page.keyboard.press('End');
    await page.locator(`tr[aria-rowindex="${SOURCES + 1}"][data-source-id]`).waitFor({ timeout: 60_000 });
    notes.push(`Calls begun before the first screen: ${api.between(wall1, firstScreenAt).join('; ')}.`);
    figures.push({ name: 'time to the last source by the End key', value: performance.now() - t2, unit: 'ms' });
    figures.push({ name: 'JavaScript heap with the library open', value: await heapMb(), unit: 'MB', goal: { op: '<=', value: 150, of: 'value' } });

    await page.getByRole('tab', { name: /Answers/ }).click();
    await page.locator('.answer-list').waitFor();
    figures.push({ name: 'DOM elements in the answers list', value: await elements('.answer-list'), unit: '', goal: { op: '<=', value: 3000, of: 'value' } });
    await forget(page, ['click', 'firstCard']);
    const t3 = performance.now();
    const wall3 = Date.now();
    await page.locator('[data-answer-id]').first().click();
    await page.getByRole('article', { name: 'Citation [1]' }).waitFor({ timeout: 120_000 });
    const openedAt = Date.now();
    const openWaited = performance.now() - t3;
    notes.push(`Calls begun to open the answer: ${api.between(wall3, openedAt).join('; ')}.`);
    notes.push(`Answer open as Playwright waited for it (click with its checks, then polling): ${Math.round(openWaited)} ms.`);
    figures.push({ name: `time to open the answer of ${CITATIONS.toLocaleString('en-US')} citations (from the click to its first card drawn)`, value: (await seenAt(page, 'firstCard')) - (await seenAt(page, 'click')), unit: 'ms', goal: { op: '<=', value: 300, of: 'value' } });
    figures.push({ name: 'DOM elements in the citation cards list', value: await elements('.cards'), unit: '', goal: { op: '<=', value: 3000, of: 'value' } });
    // A long answer's markers are drawn in the background after its first cards: counted once they are.
    await page.locator('.answer-text .inline-marker').first().waitFor({ timeout: 60_000 });
    figures.push({ name: 'DOM elements in the answer text (its markers near the screen)', value: await elements('.answer-text'), unit: '' });
    figures.push({ name: 'DOM elements in the whole page', value: await page.evaluate(() => document.querySelectorAll('*').length), unit: '' });
    figures.push({ name: 'JavaScript heap with the answer open', value: await heapMb(), unit: 'MB', goal: { op: '<=', value: 150, of: 'value' } });
  } finally {
    await browser.close();
    await host.close();
    services.close();
    fs.rmSync(root, { recursive: true, force: true });
  }
  figures.push(...verifyFigures);
  return [{ title: `Case scale: ${SOURCES.toLocaleString('en-US')} sources, an answer of ${CITATIONS.toLocaleString('en-US')} citations, in Chromium`, figures, notes }];
};

