/**
 * Issue 11: a cite call's latency, what an agent waits for each time it cites. 1,000 direct quotes
 * (copied from stored pages, cited with their page) through the dispatcher, as the MCP server and
 * the host call it: resolve the source, anchor the quote, verdict, store the citation with its
 * context, run and result in one transaction, audit chain (the head file follows the reply). Also wrong-page and
 * fabricated quotes, whose extra work is the hint of what to do. On ../shared/corpus when present
 * (a few long real PDFs and a text file), else on generated PDFs.
 * Run: node_modules/.bin/node bench/run.ts cite
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createServices, type Services } from '../electron/services/create-services.ts';
import type { Platform } from '../electron/services/platform.ts';
import { makePdf } from '../test/support/pdf-fixtures.ts';
import { rng } from '../test/support/random.ts';
import { percentile, type Bench, type BenchSection, type Figure } from './report.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const CORPUS = path.resolve(ROOT, '..', 'shared', 'corpus', 'docs');
const CORPUS_FILES = ['freeculture.pdf', 'gnuplot.pdf', 'debian-project-history.en.pdf', 'debian-constitution.txt'];
const DIRECT = 1000;
const OTHERS = 200;

const platform: Platform = {
  mode: 'cli',
  chooseFiles: () => Promise.reject(new Error('no dialogs')),
  chooseSavePath: () => Promise.reject(new Error('no dialogs')),
  revealInFolder: () => Promise.reject(new Error('no dialogs')),
};

async function documents(dir: string): Promise<{ files: string[]; note: string }> {
  const present = CORPUS_FILES.map((f) => path.join(CORPUS, f)).filter((f) => fs.existsSync(f));
  if (present.length === CORPUS_FILES.length) return { files: present, note: `corpus: ${CORPUS_FILES.join(', ')}` };
  const r = rng(11);
  const words = 'policy leave annual staff report board audit finding sample site standard contract clause payment period notice review evidence record'.split(' ');
  const files: string[] = [];
  for (let d = 0; d < 3; d++) {
    const pages = Array.from({ length: 150 }, (_, p) => ({
      lines: Array.from({ length: 30 }, (_, l) => `${Array.from({ length: 9 }, () => words[Math.floor(r() * words.length)]).join(' ')} ${d}-${p}-${l}.`),
    }));
    const file = path.join(dir, `generated-${d}.pdf`);
    fs.writeFileSync(file, await makePdf(pages));
    files.push(file);
  }
  return { files, note: 'the corpus is absent: three generated 150-page PDFs instead' };
}

interface Quote {
  sourceId: number;
  page: number | null;
  line: number | null;
  text: string;
}

/** Passages of 60–160 characters at word boundaries, copied from stored segments with text. */
function sampleQuotes(services: Services, n: number, seed: number): Quote[] {
  const r = rng(seed);
  const segments = services.sources.list().flatMap((s) => services.sources.segments(s.id).filter((g) => g.text.replace(/\s+/g, ' ').trim().length > 300));
  const out: Quote[] = [];
  for (let guard = 0; out.length < n && guard < n * 20; guard++) {
    const seg = segments[Math.floor(r() * segments.length)];
    if (!seg) break;
    const from = seg.text.indexOf(' ', Math.floor(r() * (seg.text.length - 200))) + 1;
    const len = 60 + Math.floor(r() * 100);
    const end = seg.text.lastIndexOf(' ', from + len);
    const text = seg.text.slice(from, end).trim();
    if (from <= 0 || text.length < 50 || !/[a-z]{4}/i.test(text)) continue;
    out.push({ sourceId: seg.source_id, page: seg.page, line: seg.line_start, text });
  }
  return out;
}

async function timeCites(services: Services, calls: Record<string, unknown>[]): Promise<{ ms: number[]; statuses: Map<string, number> }> {
  const ms: number[] = [];
  const statuses = new Map<string, number>();
  for (const args of calls) {
    const t0 = performance.now();
    const r = await services.dispatch('citations.cite', args);
    ms.push(performance.now() - t0);
    const status = r.ok ? String((r.value as { status: string }).status) : `error ${r.error.code}`;
    statuses.set(status, (statuses.get(status) ?? 0) + 1);
    // Between calls the server's event loop turns, as between an agent's calls: the audit head file
    // (written after the reply) lands here, outside the measured reply time.
    await new Promise((resolve) => setImmediate(resolve));
  }
  ms.sort((a, b) => a - b);
  return { ms, statuses };
}

function latency(name: string, ms: number[], goal?: number): Figure[] {
  return [
    { name: `${name}: p50`, value: percentile(ms, 50), unit: 'ms' },
    { name: `${name}: p95`, value: percentile(ms, 95), unit: 'ms', ...(goal !== undefined ? { goal: { op: '<=' as const, value: goal, of: 'value' as const } } : {}) },
  ];
}

const counts = (m: Map<string, number>): string => [...m].map(([k, v]) => `${k} ${v}`).join(', ');

export const bench: Bench = async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'evidesk-cite-bench-'));
  try {
    const { files, note } = await documents(dir);
    const services = createServices(platform, path.join(dir, 'workspace'));
    try {
      const t0 = performance.now();
      const ingested = await services.dispatch('sources.ingest', { paths: files });
      const ingestMs = performance.now() - t0;
      if (!ingested.ok) throw new Error(ingested.error.message);
      const context = { session_id: 'bench', agent_id: 'bench-agent', user_id: 'bench-user', project_id: 'bench' };
      const at = (q: Quote) => (q.page !== null ? { page: q.page } : q.line !== null ? { line: q.line } : {});
      const direct = sampleQuotes(services, DIRECT, 7).map((q) => ({ claim: q.text, quote_context: q.text, verbatim_quote: q.text, source: q.sourceId, locator: at(q), context }));
      const wrongPage = sampleQuotes(services, OTHERS, 8)
        .filter((q) => q.page !== null)
        .map((q) => ({ claim: q.text, quote_context: q.text, verbatim_quote: q.text, source: q.sourceId, locator: { page: (q.page ?? 1) + 7 }, context }));
      const r = rng(9);
      const fabricated = Array.from({ length: OTHERS }, (_, i) => {
        const words = 'the committee approved a budget for seventeen new lighthouses in the desert near a river of glass'.split(' ');
        const text = Array.from({ length: 14 }, () => words[Math.floor(r() * words.length)]).join(' ');
        return { claim: text, quote_context: text, verbatim_quote: `${text} ${i}`, source: direct[i % direct.length]?.source ?? 1, locator: { page: 1 }, context };
      });
      const d = await timeCites(services, direct);
      const w = await timeCites(services, wrongPage);
      const f = await timeCites(services, fabricated);
      const sources = services.sources.list();
      return [
        {
          title: 'cite: an agent waits for verification (in-process dispatch, as MCP and the host call it)',
          figures: [
            ...latency(`direct quote with its page (${d.ms.length} calls)`, d.ms, 50),
            ...latency(`quote cited at the wrong page (${w.ms.length} calls)`, w.ms),
            ...latency(`fabricated quote, with the closest-passage hint (${f.ms.length} calls)`, f.ms),
          ],
          notes: [
            note,
            `${sources.length} sources, ${sources.reduce((n, s) => n + (s.page_count ?? 0), 0)} PDF pages, ingested in ${(ingestMs / 1000).toFixed(1)} s`,
            `statuses: direct ${counts(d.statuses)}; wrong page ${counts(w.statuses)}; fabricated ${counts(f.statuses)}`,
          ],
        } satisfies BenchSection,
      ];
    } finally {
      services.close();
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
};
