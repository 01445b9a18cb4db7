// Developer tool (not a bench, run.ts skips it): the first screen of two builds of the renderer, A
// and B, loaded in turn in fresh Chromium contexts against the same workspace and services, so that
// a busy machine slows both alike (issue 16). Prints, per build, the median of: the first row drawn
// (from navigation start, as the scale bench takes it), when the last first-screen script arrived,
// when the first service call began and ended, and the ratio B/A of each.
// EVIDESK_SCALE_SOURCES=20000 node bench/first-screen-ab.ts DIR_A DIR_B [ROUNDS]
import fs from 'node:fs';
import path from 'node:path';
import { startHost } from '../electron/host/server.ts';
import { createServices } from '../electron/services/create-services.ts';
import { launchChromium } from '../test/support/chromium.ts';
import { addSmallSources } from '../test/support/scale-workspace.ts';
import { testPlatform } from '../test/support/workspace.ts';

const SOURCES = Number(process.env.EVIDESK_SCALE_SOURCES ?? 20_000);
const [dirA, dirB, roundsArg] = process.argv.slice(2);
if (!dirA || !dirB) throw new Error('usage: node bench/first-screen-ab.ts DIR_A DIR_B [ROUNDS]');
const ROUNDS = Number(roundsArg ?? 5);
const DIR = `/tmp/evidesk-ab-${SOURCES}`;
const workspace = path.join(DIR, 'workspace');
if (!fs.existsSync(workspace)) {
  const services = createServices(testPlatform(), workspace);
  addSmallSources(services.sources, path.join(DIR, 'notes'), SOURCES);
  services.close();
}

interface Load {
  firstRow: number;
  scriptsIn: number;
  firstApiStart: number;
  firstApiEnd: number;
  api: string;
  detail: string;
  /** CPU time of the page's main thread from navigation start to the first row (its tasks' thread time). */
  cpu: number;
}

interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  tdur?: number;
  pid: number;
  tid: number;
}

/** The main thread's CPU time in tasks that began between the page's navigation start and its first-row mark, in ms. */
function mainThreadCpu(file: string): number {
  const events = (JSON.parse(fs.readFileSync(file, 'utf8')) as { traceEvents: TraceEvent[] }).traceEvents;
  const mark = events.find((e) => e.name === 'first-row');
  if (!mark) return NaN;
  const nav = events.find((e) => e.name === 'navigationStart' && e.pid === mark.pid);
  const start = nav?.ts ?? 0;
  const tasks = events
    .filter((e) => e.pid === mark.pid && e.tid === mark.tid && e.ph === 'X' && e.ts >= start && e.ts <= mark.ts && e.tdur !== undefined)
    .sort((a, b) => a.ts - b.ts);
  let end = 0;
  let cpu = 0;
  for (const e of tasks) {
    if (e.ts < end) continue; // nested in the task counted already
    cpu += e.tdur ?? 0;
    end = e.ts + (e.dur ?? 0);
  }
  return cpu / 1000;
}

const services = createServices({ ...testPlatform(), mode: 'browser' }, workspace);
const hosts = { A: await startHost({ services, staticDir: path.resolve(dirA) }), B: await startHost({ services, staticDir: path.resolve(dirB) }) };
const browser = await launchChromium();
const loads: Record<'A' | 'B', Load[]> = { A: [], B: [] };

async function load(which: 'A' | 'B'): Promise<Load> {
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  const page = await context.newPage();
  await page.addInitScript(() => {
    const w = window as unknown as { __firstRow?: number };
    let pending = false;
    const check = () => {
      if (w.__firstRow !== undefined || pending || !document.querySelector('tr[data-source-id]')) return;
      pending = true;
      requestAnimationFrame(() =>
        setTimeout(() => {
          w.__firstRow ??= performance.now();
          performance.mark('first-row');
          console.debug('first-row');
        }, 0),
      );
    };
    new MutationObserver(check).observe(document, { childList: true, subtree: true, attributes: true });
  });
  const traceFile = path.join(DIR, `ab-${which}.trace.json`);
  await browser.startTracing(page, { path: traceFile, categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'toplevel', 'blink.user_timing'] });
  // Waited for on the console: Playwright's own waits would run its injected script in the page as it draws.
  const said = page.waitForEvent('console', { predicate: (m) => m.text() === 'first-row', timeout: 120_000 });
  await page.goto(hosts[which].url, { waitUntil: 'commit' });
  await said;
  const result = await page.evaluate(() => {
    const entries = performance.getEntriesByType('resource') as PerformanceResourceTiming[];
    const firstRow = (window as unknown as { __firstRow: number }).__firstRow;
    const before = entries.filter((e) => e.startTime < firstRow);
    const api = before.filter((e) => new URL(e.name).pathname.startsWith('/api/'));
    // The first screen's own code: what was asked for before the first service call.
    const scripts = before.filter((e) => /\.(js|css)$/.test(new URL(e.name).pathname) && e.startTime < Math.min(...api.map((a) => a.startTime)));
    const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
    const detail = [`doc ${Math.round(nav.responseEnd)}`, ...before.map((e) => `${new URL(e.name).pathname.replace(/-[\w-]{8}\./, '.')} ${Math.round(e.startTime)}/${Math.round(e.responseStart)}/${Math.round(e.responseEnd)}`)].join(' ');
    return {
      detail,
      firstRow,
      scriptsIn: Math.max(0, ...scripts.map((e) => e.responseEnd)),
      firstApiStart: Math.min(...api.map((e) => e.startTime)),
      firstApiEnd: Math.min(...api.map((e) => e.responseEnd)),
      api: api.map((e) => `${new URL(e.name).pathname.slice(5)} ${Math.round(e.startTime)}–${Math.round(e.responseEnd)}`).join(', '),
    };
  });
  await browser.stopTracing();
  await context.close();
  return { ...result, cpu: mainThreadCpu(traceFile) };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? NaN;
};

try {
  await load('A'); // warm the host's file cache and Chromium's first start; not counted
  for (let r = 0; r < ROUNDS; r++) {
    for (const which of r % 2 === 0 ? (['A', 'B'] as const) : (['B', 'A'] as const)) {
      const l = await load(which);
      loads[which].push(l);
      if (process.env.AB_DETAIL) process.stdout.write(`${which} ${l.detail}\n`);
      process.stdout.write(`${which} row ${Math.round(l.firstRow)} cpu ${Math.round(l.cpu)} scripts ${Math.round(l.scriptsIn)} api ${l.api}\n`);
    }
  }
  const keys = ['firstRow', 'cpu', 'scriptsIn', 'firstApiStart', 'firstApiEnd'] as const;
  for (const k of keys) {
    const a = median(loads.A.map((l) => l[k]));
    const b = median(loads.B.map((l) => l[k]));
    process.stdout.write(`${k.padEnd(14)} A ${Math.round(a)} ms  B ${Math.round(b)} ms  B/A ${(b / a).toFixed(2)}\n`);
  }
  for (const k of ['firstRow', 'cpu'] as const) {
    const ratios = loads.B.map((l, i) => l[k] / (loads.A[i]?.[k] ?? NaN));
    process.stdout.write(`${k} B/A per round: ${ratios.map((x) => x.toFixed(2)).join(' ')} (median ${median(ratios).toFixed(2)})\n`);
  }
} finally {
  await browser.close();
  await hosts.A.close();
  await hosts.B.close();
  services.close();
}
