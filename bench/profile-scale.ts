// Developer tool (not a bench, run.ts skips it): a CPU profile and a trace of the first screen and of
// opening the big answer, in Chromium, against an unminified build of the renderer, with the
// workspace kept between runs in /tmp (issue 16). Prints the functions by self and total time, the
// main thread's events by name, its long tasks, and the page's marks (first row, click, first card);
// writes the .cpuprofile and trace files beside the workspace for DevTools.
// EVIDESK_SCALE_SOURCES=20000 EVIDESK_SCALE_CITATIONS=5000 node bench/profile-scale.ts [--rebuild]
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { build as viteBuild } from 'vite';
import { startHost } from '../electron/host/server.ts';
import { createServices } from '../electron/services/create-services.ts';
import { ROOT } from '../test/support/build.ts';
import { launchChromium } from '../test/support/chromium.ts';
import { addSmallSources, bigAnswer } from '../test/support/scale-workspace.ts';
import { testPlatform } from '../test/support/workspace.ts';

const SOURCES = Number(process.env.EVIDESK_SCALE_SOURCES ?? 20_000);
const CITATIONS = Number(process.env.EVIDESK_SCALE_CITATIONS ?? 5_000);
const DIR = `/tmp/evidesk-prof-${SOURCES}-${CITATIONS}`;
const workspace = path.join(DIR, 'workspace');
const rendererDir = path.join(DIR, 'renderer');

if (!fs.existsSync(workspace)) {
  const services = createServices(testPlatform(), workspace);
  addSmallSources(services.sources, path.join(DIR, 'notes'), SOURCES);
  services.close();
  const answerFile = path.join(DIR, 'answer.json');
  fs.writeFileSync(answerFile, bigAnswer(CITATIONS, Math.min(SOURCES, 1000)));
  execFileSync(process.execPath, [path.join(import.meta.dirname, 'scale-verify-child.ts'), workspace, answerFile], { stdio: 'inherit' });
}
if (process.argv.includes('--rebuild') || !fs.existsSync(rendererDir)) {
  await viteBuild({ configFile: path.join(ROOT, 'vite.config.ts'), logLevel: 'warn', build: { outDir: rendererDir, minify: false, emptyOutDir: true } });
}

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  children?: number[];
}
interface Profile {
  nodes: Node[];
  samples: number[];
  timeDeltas: number[];
}

function summarise(profile: Profile, label: string): void {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const name = (n: Node) => `${n.callFrame.functionName || '(anon)'} ${path.basename(n.callFrame.url)}:${n.callFrame.lineNumber + 1}`;
  const self = new Map<string, number>();
  const total = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const dt = (profile.timeDeltas[i + 1] ?? 0) / 1000;
    const n = byId.get(id);
    if (!n) return;
    self.set(name(n), (self.get(name(n)) ?? 0) + dt);
    const seen = new Set<string>();
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const k = name(byId.get(cur)!);
      if (seen.has(k)) continue;
      seen.add(k);
      total.set(k, (total.get(k) ?? 0) + dt);
    }
  });
  const top = (m: Map<string, number>) => [...m].sort((a, b) => b[1] - a[1]).slice(0, 35).map(([k, v]) => `  ${v.toFixed(0).padStart(6)} ms  ${k}`).join('\n');
  const all = profile.timeDeltas.reduce((a, b) => a + b, 0) / 1000;
  process.stdout.write(`\n### ${label}: ${all.toFixed(0)} ms sampled\nself:\n${top(self)}\ntotal:\n${top(total)}\n`);
}

interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  tid: number;
  args?: { data?: { functionName?: string; url?: string } };
}

/** Top-level main-thread events of the renderer between its first and last, by name, with a timeline of the long ones. */
function marks(file: string): Map<string, number> {
  const events = (JSON.parse(fs.readFileSync(file, 'utf8')) as { traceEvents: TraceEvent[] }).traceEvents;
  return new Map(events.filter((e) => e.ph === 'R' || (e as unknown as { cat: string }).cat?.includes('user_timing')).map((e) => [e.name, e.ts]));
}

function summariseTrace(file: string, label: string): void {
  const events = (JSON.parse(fs.readFileSync(file, 'utf8')) as { traceEvents: TraceEvent[] }).traceEvents;
  const main = events.find((e) => e.name === 'thread_name' && (e as unknown as { args: { name: string } }).args.name === 'CrRendererMain');
  const tid = main?.tid;
  const complete = events.filter((e) => e.tid === tid && e.ph === 'X' && e.dur !== undefined).sort((a, b) => a.ts - b.ts);
  const t0 = complete[0]?.ts ?? 0;
  const byName = new Map<string, number>();
  const top: TraceEvent[] = [];
  let end = 0;
  for (const e of complete) {
    if (e.ts >= end) {
      top.push(e);
      end = e.ts + (e.dur ?? 0);
    }
  }
  // Sum the children of the top-level tasks by name.
  for (const e of complete) if (e.name !== 'RunTask' && e.name !== 'ThreadControllerImpl::RunTask') byName.set(e.name, (byName.get(e.name) ?? 0) + (e.dur ?? 0) / 1000);
  process.stdout.write(`\n### trace ${label}\n`);
  process.stdout.write([...byName].sort((a, b) => b[1] - a[1]).slice(0, 25).map(([k, v]) => `  ${v.toFixed(0).padStart(6)} ms  ${k}`).join('\n'));
  const m = marks(file);
  process.stdout.write(`\nmarks: ${[...m].map(([k, v]) => `${k} +${((v - t0) / 1000).toFixed(0)}`).join(', ')}`);
  process.stdout.write('\nlong tasks:\n');
  for (const e of top.filter((e) => (e.dur ?? 0) > 30_000)) {
    const kids = complete.filter((k) => k.ts >= e.ts && k.ts + (k.dur ?? 0) <= e.ts + (e.dur ?? 0) && k !== e && (k.dur ?? 0) > 15_000);
    process.stdout.write(`  +${((e.ts - t0) / 1000).toFixed(0)} ms ${e.name} ${((e.dur ?? 0) / 1000).toFixed(0)} ms: ${kids.map((k) => `${k.name}${k.args?.data?.functionName ? `(${k.args.data.functionName})` : ''} ${((k.dur ?? 0) / 1000).toFixed(0)}`).join(', ')}\n`);
  }
}

const services = createServices({ ...testPlatform(), mode: 'browser' }, workspace);
const host = await startHost({ services, staticDir: rendererDir });
const browser = await launchChromium();
try {
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  page.on('console', (m) => process.stdout.write(`console: ${m.text()}\n`));
  const tStart = Date.now();
  page.on('requestfinished', (request) => {
    const url = new URL(request.url());
    void request.response().then(async (response) => {
      const timing = request.timing();
      const header = (await response?.allHeaders())?.['server-timing'] ?? '';
      process.stdout.write(`api ${url.pathname} at +${Math.round(timing.startTime - tStart)} ms: ${Math.round(timing.responseEnd)} ms (${header})\n`);
    });
  });
  await page.addInitScript(() => {
    const want: [string, string][] = [['first-row', 'tr[data-source-id]'], ['first-card', 'article[aria-label="Citation [1]"]']];
    const seen = new Set<string>();
    const check = () => {
      for (const [mark, sel] of want) if (!seen.has(mark) && document.querySelector(sel)) {
        seen.add(mark);
        performance.mark(mark);
        console.log(`${mark} in DOM at ${performance.now().toFixed(0)}`);
      }
    };
    new MutationObserver(check).observe(document, { childList: true, subtree: true });
    document.addEventListener('click', () => { performance.mark('click'); console.log(`click at ${performance.now().toFixed(0)}`); }, true);
  });
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
  const categories = ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8.execute', 'blink.user_timing'];

  await browser.startTracing(page, { path: path.join(DIR, 'first.trace.json'), categories });
  await cdp.send('Profiler.start');
  let t = performance.now();
  await page.goto(host.url);
  await page.locator('tr[data-source-id]').first().waitFor({ timeout: 120_000 });
  process.stdout.write(`first screen: ${(performance.now() - t).toFixed(0)} ms\n`);
  const p1 = (await cdp.send('Profiler.stop')) as { profile: Profile };
  await browser.stopTracing();
  fs.writeFileSync(path.join(DIR, 'first.cpuprofile'), JSON.stringify(p1.profile));
  summarise(p1.profile, 'first screen (the whole recording)');
  summariseTrace(path.join(DIR, 'first.trace.json'), 'first screen');

  await page.getByRole('tab', { name: /Answers/ }).click();
  await page.locator('.answer-list').waitFor();
  await page.waitForTimeout(1500);
  await browser.startTracing(page, { path: path.join(DIR, 'open.trace.json'), categories });
  await cdp.send('Profiler.start');
  t = performance.now();
  process.stdout.write(`click at +${Date.now() - tStart}\n`);
  await page.locator('[data-answer-id]').first().click();
  await page.getByRole('article', { name: 'Citation [1]' }).waitFor({ timeout: 120_000 });
  process.stdout.write(`answer open: ${(performance.now() - t).toFixed(0)} ms\n`);
  await page.waitForTimeout(1500);
  process.stdout.write(`geometry: ${JSON.stringify(await page.evaluate(() => ({
    blocks: [...document.querySelectorAll('.answer-text .text-block')].slice(0, 4).map((b) => [b.getBoundingClientRect().height, (b as HTMLElement).style.containIntrinsicBlockSize, b.textContent?.length]),
    width: document.querySelector('.answer-text')?.getBoundingClientRect().width,
    cards: [...document.querySelectorAll('.cards [role=listitem]')].slice(0, 6).map((c) => c.getBoundingClientRect().height),
    rows: [...document.querySelectorAll('tr[data-source-id]')].slice(0, 3).map((c) => c.getBoundingClientRect().height),
  })))}\n`);
  await page.screenshot({ path: path.join(DIR, 'open.png') });
  const p2 = (await cdp.send('Profiler.stop')) as { profile: Profile };
  await browser.stopTracing();
  fs.writeFileSync(path.join(DIR, 'open.cpuprofile'), JSON.stringify(p2.profile));
  summarise(p2.profile, 'answer open (the whole recording)');
  summariseTrace(path.join(DIR, 'open.trace.json'), 'answer open');
} finally {
  await browser.close();
  await host.close();
  services.close();
}
