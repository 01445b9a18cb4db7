// The PDF reader in real Chromium: click on a citation card → its quote highlighted on a page deep
// in a 2,400-page PDF, with the PDF already open (warm) and not yet opened in this page (cold),
// and how soon the reader shows that it is loading. `npm run bench -- reader`.
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { openAppInChromium } from '../test/support/app-in-chromium.ts';
import { writeFile } from '../test/support/pdf-fixtures.ts';
import { makeReaderPdf, readerLabel } from '../test/support/reader-fixtures.ts';
import { callHandler } from '../test/support/workspace.ts';
import type { IngestResult } from '../shared/contract/schemas.ts';
import { percentile, type BenchSection } from './report.ts';

const PAGES = 2_400;
const FRONT = 12;
/** Deep pages cited, each with a sentence found on no other page. */
const DEEP = [2301, 1877, 2390, 1502, 2244, 2013, 2360];
const quoteOn = (n: number) => `The audit of item ${n} found the ledger balanced at the close of the period.`;

function pageLines(n: number): string[] {
  const lines = [`Reference manual page ${n}, printed ${readerLabel(n, FRONT)}.`];
  for (let i = 0; i < 14; i++) lines.push(`Section ${Math.ceil(n / 20)} line ${i + 1}: arguments, values and details of function number ${n * 14 + i}.`);
  if (n === 3 || DEEP.includes(n)) lines.splice(6, 0, quoteOn(n));
  return lines;
}

const ANSWER = `Question: Which audits found the ledger balanced?

The early audit found it balanced [1].
${DEEP.map((n, i) => `Audit ${n} found it balanced [${i + 2}].`).join('\n')}

[1]: "${quoteOn(3)}" — manual.pdf, p. 3
${DEEP.map((n, i) => `[${i + 2}]: "${quoteOn(n)}" — manual.pdf, p. ${n}`).join('\n')}
`;

interface Timing {
  highlight: number;
  /** The first frame showing a loading state (or the highlight itself). */
  feedback: number;
  /** The first frame after the click, whatever it shows: how busy the page (and the machine) is. */
  frame: number;
  /** When the reader's steps for the cited page happened (its performance marks, reader-spans.ts), from the click. */
  steps: Partial<Record<Step, number>>;
}

/** The reader's marks read back, in the order they happen (see renderer/src/features/viewer/reader-spans.ts). */
const STEPS = ['scrolled', 'page-loaded', 'text-layer', 'marked'] as const;
type Step = (typeof STEPS)[number];

/** Clicks card `index`'s quote and waits, frame by frame, for its quote marked and in view. */
async function clickToHighlight(page: Page, index: number, quote: string, pageNumber: number): Promise<Timing> {
  return page.evaluate(
    async ({ index, quote, pageNumber, steps }) => {
      const card = document.querySelectorAll('article[aria-label^="Citation"]')[index];
      const target = card?.querySelector('blockquote') as HTMLElement | null;
      if (!target) throw new Error(`no citation card ${index}`);
      const t0 = performance.now();
      target.click();
      let feedback: number | null = null;
      let frame: number | null = null;
      const stepTimes = () => {
        const out: Record<string, number> = {};
        for (const m of performance.getEntriesByType('mark') as PerformanceMark[]) {
          const step = m.name.replace(/^reader:/, '');
          if (steps.includes(step) && (m.detail as { page?: number } | null)?.page === pageNumber && m.startTime >= t0) out[step] ??= m.startTime - t0;
        }
        return out;
      };
      return new Promise<{ highlight: number; feedback: number; frame: number; steps: Record<string, number> }>((resolve, reject) => {
        const tick = () => {
          const now = performance.now() - t0;
          frame ??= now;
          const marks = [...document.querySelectorAll('[data-testid="text-layer"] mark.quote-highlight')];
          const done = marks.map((m) => m.textContent).join('') === quote;
          if (feedback === null && (done || document.querySelector('[data-testid="reader-busy"], .reader-opening'))) feedback = now;
          const box = marks[0]?.getBoundingClientRect();
          const view = document.querySelector('[data-testid="pdf-pages"]')?.getBoundingClientRect();
          if (done && box && view && box.top >= view.top && box.bottom <= view.bottom) resolve({ highlight: now, feedback: feedback ?? now, frame, steps: stepTimes() });
          else if (now > 30_000) reject(new Error(`no highlight for card ${index} after 30 s`));
          else requestAnimationFrame(tick);
        };
        requestAnimationFrame(tick);
      });
    },
    { index, quote, pageNumber, steps: [...STEPS] as string[] },
  );
}

/** The median time of each step after the click, "scrolled 12 → page loaded 60 → …" (ms). */
function stepsNote(label: string, timings: Timing[]): string {
  const parts = STEPS.map((s) => {
    const xs = timings.map((t) => t.steps[s]).filter((x): x is number => x !== undefined);
    return `${s.replace('-', ' ')} ${xs.length ? median(xs).toFixed(0) : '–'}`;
  });
  return `${label}: medians after the click (ms): ${parts.join(' → ')} → highlight in view ${median(timings.map((t) => t.highlight)).toFixed(0)}`;
}

async function openAnswer(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await page.getByRole('tab', { name: /Answers/ }).click();
  await page.getByRole('button', { name: /Which audits found the ledger balanced/ }).click();
  await page.getByRole('article', { name: 'Citation [1]' }).waitFor();
}

const median = (xs: number[]) => percentile([...xs].sort((a, b) => a - b), 50);

export async function bench(): Promise<BenchSection[]> {
  const app = await openAppInChromium();
  try {
    const t0 = performance.now();
    const file = writeFile(path.join(app.services.dir, 'docs'), 'manual.pdf', await makeReaderPdf({ pages: Array.from({ length: PAGES }, (_, i) => pageLines(i + 1)), frontMatter: FRONT }));
    const ingested = await callHandler<IngestResult>(app.services, 'sources.ingest', { paths: [file] });
    const added = ingested.files[0];
    if (!added?.ok) throw new Error(`the manual was not ingested: ${JSON.stringify(added)}`);
    await callHandler(app.services, 'answers.import', { content: ANSWER, fileName: 'audits.md' });
    const setupS = (performance.now() - t0) / 1000;

    // Warm: the manual is open at p. 3; each deep card is clicked in turn.
    await openAnswer(app.page, app.host.url);
    await clickToHighlight(app.page, 0, quoteOn(3), 3);
    const warm: Timing[] = [];
    for (const [i, n] of DEEP.entries()) warm.push(await clickToHighlight(app.page, i + 1, quoteOn(n), n));

    // Cold: a fresh page each time (new pdf.js document and worker), straight to a deep card.
    const cold: Timing[] = [];
    for (const [i, n] of DEEP.slice(0, 5).entries()) {
      await openAnswer(app.page, app.host.url);
      cold.push(await clickToHighlight(app.page, i + 1, quoteOn(n), n));
    }

    // Find over the stored text of all 2,400 pages, through the services as the reader asks.
    const findMs: number[] = [];
    for (const q of ['ledger balanced', 'function number 30001', 'arguments']) {
      const f0 = performance.now();
      await callHandler(app.services, 'sources.find', { id: added.sourceId, query: q });
      findMs.push(performance.now() - f0);
    }

    return [
      {
        title: `PDF reader: click → highlight in a ${PAGES.toLocaleString('en')}-page PDF (Chromium)`,
        figures: [
          { name: `warm: click → quote highlighted and in view, deep page, median of ${warm.length}`, value: median(warm.map((t) => t.highlight)), unit: 'ms', goal: { op: '<=', value: 300, of: 'value' } },
          { name: 'warm: slowest', value: Math.max(...warm.map((t) => t.highlight)), unit: 'ms' },
          { name: `cold: click → quote highlighted (PDF not yet open in the page), median of ${cold.length}`, value: median(cold.map((t) => t.highlight)), unit: 'ms', goal: { op: '<=', value: 800, of: 'value' } },
          { name: 'cold: slowest', value: Math.max(...cold.map((t) => t.highlight)), unit: 'ms' },
          { name: 'warm: click → first frame showing a loading state or the highlight, slowest', value: Math.max(...warm.map((t) => t.feedback)), unit: 'ms', goal: { op: '<=', value: 100, of: 'value' } },
          { name: 'cold: click → first frame showing a loading state or the highlight, slowest', value: Math.max(...cold.map((t) => t.feedback)), unit: 'ms', goal: { op: '<=', value: 100, of: 'value' } },
          { name: 'click → first frame of any kind, slowest of all clicks (the page’s and the machine’s load)', value: Math.max(...[...warm, ...cold].map((t) => t.frame)), unit: 'ms' },
          { name: 'find over the stored text (sources.find), median of 3 queries', value: median(findMs), unit: 'ms' },
        ],
        notes: [
          `load average at the end: ${os.loadavg().map((l) => l.toFixed(1)).join(', ')} on ${os.cpus().length} cores (timings grow with it)`,`setup (generate the PDF, ingest ${PAGES} pages, import and verify ${DEEP.length + 1} citations): ${setupS.toFixed(1)} s`, `deep pages: ${DEEP.join(', ')}`,
          stepsNote('warm', warm),
          stepsNote('cold', cold),
        ],
      },
    ];
  } finally {
    await app.close();
  }
}
