// Ingestion, hashing and full-text search figures, each beside a reference tool run on the same
// input in the same run (issue 3). Uses ../shared/corpus when present, generated files otherwise.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sha256File } from '../electron/services/hashing/sha256.ts';
import { SearchService } from '../electron/services/search/search-service.ts';
import { openDatabase } from '../electron/services/store/database.ts';
import { SearchStore } from '../electron/services/store/search-store.ts';
import { SourcesStore } from '../electron/services/store/sources-store.ts';
import { makePdf } from '../test/support/pdf-fixtures.ts';
import { rng } from '../test/support/random.ts';
import { percentile, timeCommand, which, type BenchSection, type Figure } from './report.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const CORPUS = path.resolve(ROOT, '..', 'shared', 'corpus', 'docs');
const LARGE = ['r-fullrefman.pdf', 'octave.pdf', 'freeculture.pdf', 'gnuplot.pdf'];

function runChild(files: string[]): { pages: number; ms: number; maxRssMb: number; failed: string[] } {
  const out = execFileSync(process.execPath, [path.join(ROOT, 'bench', 'ingest-child.ts'), ...files], { encoding: 'utf8', maxBuffer: 1 << 24 });
  return JSON.parse(out.trim().split('\n').pop() ?? '{}') as { pages: number; ms: number; maxRssMb: number; failed: string[] };
}

async function largePdfs(): Promise<{ files: string[]; note: string }> {
  const present = LARGE.map((f) => path.join(CORPUS, f)).filter((f) => fs.existsSync(f));
  if (present.length === LARGE.length) return { files: present, note: `corpus: ${LARGE.join(', ')}` };
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'evidesk-bench-pdf-'));
  const file = path.join(dir, 'generated-600.pdf');
  const words = 'evidence policy leave annual report quarter audit retention records claim source page'.split(' ');
  const pages = Array.from({ length: 600 }, (_, p) => ({
    lines: Array.from({ length: 40 }, (_, l) => Array.from({ length: 12 }, (_, w) => words[(p * 31 + l * 7 + w * 3) % words.length]).join(' ')),
  }));
  fs.writeFileSync(file, await makePdf(pages));
  return { files: [file], note: 'the corpus is absent: one generated 600-page PDF instead' };
}

function pagesPerSecond(pages: number, ms: number): number {
  return pages / (ms / 1000);
}

async function ingestSection(): Promise<BenchSection> {
  // The figures are for the built app (bundles and the worker bundle), as users run it.
  execFileSync(process.execPath, [path.join(ROOT, 'scripts', 'build.ts'), '--quiet'], { stdio: 'inherit' });
  const { files, note } = await largePdfs();
  runChild([files[files.length - 1] ?? '']); // warm the file cache and the module cache
  const ours = runChild(files);
  const figures: Figure[] = [];
  const poppler = files.reduce<number | null>((sum, f) => {
    const t = timeCommand('pdftotext', [f, '/dev/null'], 1);
    return sum === null || t === null ? null : sum + t;
  }, 0);
  const mupdf = files.reduce<number | null>((sum, f) => {
    const t = timeCommand('mutool', ['draw', '-q', '-F', 'txt', '-o', '/dev/null', f], 1);
    return sum === null || t === null ? null : sum + t;
  }, 0);
  const value = pagesPerSecond(ours.pages, ours.ms);
  figures.push({
    name: `whole-pipeline ingestion (extract, hash, store, index; ${ours.pages} pages, ${os.availableParallelism()} workers)`,
    value,
    unit: 'pages/s',
    reference: poppler === null ? { tool: 'pdftotext', absent: 'install poppler-utils' } : { tool: 'pdftotext alone', value: pagesPerSecond(ours.pages, poppler) },
    goal: { op: '>=', value: 0.75, of: 'ratio' },
  });
  figures.push({
    name: 'whole-pipeline ingestion vs MuPDF',
    value,
    unit: 'pages/s',
    reference: mupdf === null ? { tool: 'mutool draw -F txt', absent: 'install mupdf-tools' } : { tool: 'mutool draw -F txt alone', value: pagesPerSecond(ours.pages, mupdf) },
  });
  const notes = [note];
  if (ours.failed.length) notes.push(`failed: ${ours.failed.join('; ')}`);
  const biggest = files.find((f) => f.endsWith('r-fullrefman.pdf'));
  if (biggest) {
    const one = runChild([biggest]);
    figures.push({ name: `peak memory ingesting r-fullrefman.pdf (${one.pages} pages)`, value: one.maxRssMb, unit: 'MB', goal: { op: '<=', value: 400, of: 'value' } });
  } else {
    figures.push({ name: `peak memory ingesting ${path.basename(files[0] ?? '')}`, value: ours.maxRssMb, unit: 'MB', goal: { op: '<=', value: 400, of: 'value' } });
  }
  return { title: 'Ingestion', figures, notes };
}

async function hashSection(): Promise<BenchSection> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'evidesk-bench-hash-'));
  const file = path.join(dir, 'random.bin');
  const size = 256 * 1024 * 1024;
  const fd = fs.openSync(file, 'w');
  const chunk = randomBytes(1 << 20);
  for (let i = 0; i < size / chunk.length; i++) fs.writeSync(fd, chunk);
  fs.closeSync(fd);
  await sha256File(file); // warm the page cache
  let best = Infinity;
  for (let i = 0; i < 3; i++) {
    const t0 = performance.now();
    await sha256File(file);
    best = Math.min(best, performance.now() - t0);
  }
  const mbps = (ms: number) => size / 1048576 / (ms / 1000);
  const openssl = timeCommand('openssl', ['dgst', '-sha256', file]);
  const coreutils = timeCommand('sha256sum', [file]);
  fs.rmSync(dir, { recursive: true, force: true });
  const figures: Figure[] = [
    {
      name: 'SHA-256 of a 256 MiB file (streamed, 1 MiB reads)',
      value: mbps(best),
      unit: 'MB/s',
      reference: openssl === null ? { tool: 'openssl dgst -sha256', absent: 'install openssl' } : { tool: 'openssl dgst -sha256', value: mbps(openssl) },
      goal: { op: '>=', value: 0.8, of: 'ratio' },
    },
    {
      name: 'SHA-256 vs coreutils',
      value: mbps(best),
      unit: 'MB/s',
      reference: coreutils === null ? { tool: 'sha256sum', absent: 'not found' } : { tool: 'sha256sum', value: mbps(coreutils) },
    },
  ];
  return { title: 'Hashing', figures };
}

/** Seeded pseudo-prose: a Zipf-like vocabulary, so some words are common and most are rare. */
function vocabulary(n: number, random: () => number): string[] {
  const syllables = ['ka', 'lo', 'mi', 'ne', 'ru', 'sa', 'te', 'vo', 'dri', 'pla', 'sto', 'gre', 'qua', 'zen', 'bor', 'fil'];
  const words = new Set<string>();
  while (words.size < n) {
    const k = 2 + Math.floor(random() * 3);
    words.add(Array.from({ length: k }, () => syllables[Math.floor(random() * syllables.length)]).join(''));
  }
  return [...words];
}

function ftsSection(): BenchSection {
  const random = rng(42);
  const vocab = vocabulary(30_000, random);
  const zipf = () => vocab[Math.min(vocab.length - 1, Math.floor(vocab.length * random() ** 3))] ?? 'ka';
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'evidesk-bench-fts-'));
  const db = openDatabase(dir);
  const store = new SourcesStore(db);
  const SEGMENTS = 100_000;
  const perSource = 1000;
  const t0 = performance.now();
  for (let s = 0; s < SEGMENTS / perSource; s++) {
    const segments = Array.from({ length: perSource }, (_, p) => ({ text: Array.from({ length: 60 }, zipf).join(' '), page: p + 1, itemStarts: [0] }));
    store.insert(
      {
        sha256: s.toString(16).padStart(64, '0'),
        fileName: `bench-${s}.pdf`,
        byteSize: 1,
        path: `/bench/${s}.pdf`,
        stat: { size: 1, mtimeMs: 0 },
        doc: { kind: 'pdf', method: 'bench', title: null, pageCount: perSource, segments, warnings: [] },
        snapshot: null,
        predecessorId: null,
      },
      new Date().toISOString(),
    );
  }
  const buildMs = performance.now() - t0;
  const search = new SearchService(new SearchStore(db));
  // Queries as analysts type them: two or three words; half drawn like the text (so frequent words
  // that match thousands of segments are common), half from the whole vocabulary.
  const word = (i: number) => (i % 2 === 0 ? zipf() : (vocab[Math.floor(random() * vocab.length)] ?? 'ka'));
  const queries = Array.from({ length: 300 }, (_, q) => Array.from({ length: 2 + Math.floor(random() * 2) }, () => word(q)).join(' '));
  const time = (snippets: boolean) => {
    for (const q of queries.slice(0, 20)) search.search(q, { limit: 20, snippets });
    const ms = queries.map((q) => {
      const t = performance.now();
      search.search(q, { limit: 20, snippets });
      return performance.now() - t;
    });
    return ms.sort((a, b) => a - b);
  };
  const plain = time(false);
  const withSnippets = time(true);
  db.close();
  fs.rmSync(dir, { recursive: true, force: true });
  return {
    title: `Full-text search at ${SEGMENTS.toLocaleString('en')} segments`,
    figures: [
      { name: 'query p50, top 20, no snippets', value: percentile(plain, 50), unit: 'ms' },
      { name: 'query p95, top 20, no snippets', value: percentile(plain, 95), unit: 'ms', goal: { op: '<=', value: 10, of: 'value' } },
      { name: 'query p50, top 20, with snippets', value: percentile(withSnippets, 50), unit: 'ms' },
      { name: 'query p95, top 20, with snippets', value: percentile(withSnippets, 95), unit: 'ms', goal: { op: '<=', value: 25, of: 'value' } },
    ],
    notes: [`index built in ${(buildMs / 1000).toFixed(1)} s; ${queries.length} queries of 2–3 words, half of them made of frequent words`],
  };
}

export async function bench(): Promise<BenchSection[]> {
  if (!which('pdftotext')) process.stderr.write('pdftotext is absent: the ingestion reference will say so.\n');
  return [await ingestSection(), await hashSection(), ftsSection()];
}
