// Whole-pipeline ingestion speed and peak memory, beside poppler and MuPDF on the same files in
// the same run. Uses ../shared/corpus (or EVIDESK_CORPUS) when present, generated files otherwise.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { INGESTING_PROCESS_FLAGS } from '../electron/services/ingest/ingesting-process-flags.ts';
import { makePdf } from '../test/support/pdf-fixtures.ts';
import { timeCommand, which, type BenchSection, type Figure } from './report.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
// EVIDESK_CORPUS: the corpus folder when the checkout is not beside ../shared (a worktree), as in team.bench.ts.
const CORPUS = process.env.EVIDESK_CORPUS ?? path.resolve(ROOT, '..', 'shared', 'corpus', 'docs');
const LARGE = ['r-fullrefman.pdf', 'octave.pdf', 'freeculture.pdf', 'gnuplot.pdf'];

interface ChildResult {
  pages: number;
  files: number;
  ms: number;
  maxRssMb: number;
  failed: string[];
  /** The peak's split between this process (main thread, writer thread) and the extraction children. */
  split?: { atPeak: { ownMb: number; childrenMb: number; children: number }; ownPeakMb: number; childrenPeakMb: number };
}

/** Where a run's peak memory was, in words, for the section's notes. */
function peakSplitNote(what: string, run: ChildResult): string | null {
  const s = run.split;
  if (!s || s.atPeak.children === 0) return null;
  const mb = (v: number) => `${Math.round(v)} MB`;
  return (
    `${what}: peak ${mb(run.maxRssMb)} PSS = ingesting process (main thread, SQLite; the writer thread only for groups of 16+ files) ${mb(s.atPeak.ownMb)} + ${s.atPeak.children} extraction children (pdf.js) ${mb(s.atPeak.childrenMb)}; each part's own peak: process ${mb(s.ownPeakMb)}, children ${mb(s.childrenPeakMb)}. ` +
    // Measured 2026-11-25 (issue 16 item 5), child by child: see extract-worker.ts and extractor-process.ts.
    'The peak falls while pages are read: a child then holds Node and its modules (~24 MB PSS idle), the file twice (kept, and pdf.js\'s own copy: 13 MB) and pdf.js\'s heap as V8 grows it (~50 MB, of which ~15 live); the process holds Node and the CLI\'s modules (~53 MB PSS before any file, 75 while the MCP SDK, pdf-lib and citation-js were loaded at startup) and a young generation capped at 8 MB semi-spaces (ingesting-process-flags.ts) and the document\'s pages until it is stored (text-item geometry ~26 MB). Once a document is done each child gives its heap back (~125 to ~58 MB private), so the children no longer add to the store\'s own peak.'
  );
}

/** The child starts as `evidesk` does (bin/evidesk.js): the same V8 flags, no others. */
function runChild(files: string[]): ChildResult {
  const out = execFileSync(process.execPath, [...INGESTING_PROCESS_FLAGS, path.join(ROOT, 'bench', 'ingest-child.ts'), ...files], { encoding: 'utf8', maxBuffer: 1 << 24 });
  return JSON.parse(out.trim().split('\n').pop() ?? '{}') as ChildResult;
}

/** Small text files (issue 16: a matter's notes and mails), EVIDESK_BENCH_SMALL_FILES of them. */
const SMALL_FILES = Number(process.env.EVIDESK_BENCH_SMALL_FILES ?? 5000);

function smallFilesSection(): BenchSection {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'evidesk-bench-small-'));
  try {
    const words = 'evidence policy leave annual report quarter audit retention records claim source page'.split(' ');
    for (let i = 0; i < SMALL_FILES; i++) {
      const lines = Array.from({ length: 3 + (i % 30) }, (_, l) => Array.from({ length: 10 }, (_, w) => words[(i * 7 + l * 5 + w * 3) % words.length]).join(' '));
      fs.writeFileSync(path.join(dir, `note-${String(i).padStart(6, '0')}.txt`), `Note ${i}\n${lines.join('\n')}\n`);
    }
    const run = runChild([dir]);
    const figures: Figure[] = [
      { name: `small text files ingested (${run.files.toLocaleString('en-US')} files: hash, extract, snapshot, store, index)`, value: run.files / (run.ms / 1000), unit: 'files/s', goal: { op: '>=', value: 1000, of: 'value' } },
      { name: 'peak memory ingesting the small files (process and extraction children)', value: run.maxRssMb, unit: 'MB', goal: { op: '<=', value: 300, of: 'value' } },
    ];
    const notes = [
      'Plain text up to 64 KiB is extracted in process (other kinds in the extraction children); stores close together share one transaction (group commit, a group gathering while the previous one commits). Once groups are large, a writer thread with its own connection writes each group (small files\' snapshots, written and flushed several at once, then the rows and audit entries) while the main thread reads, hashes and extracts the next files; one audit head file write per set of committed groups, flushed off the event loop.',
    ];
    if (run.failed.length) notes.push(`failed: ${run.failed.slice(0, 5).join('; ')}`);
    return { title: 'Ingestion of small files', figures, notes };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
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
    const popplerOne = timeCommand('pdftotext', [biggest, '/dev/null'], 1);
    figures.push({
      name: `r-fullrefman.pdf alone (${one.pages} pages) beside pdftotext`,
      value: pagesPerSecond(one.pages, one.ms),
      unit: 'pages/s',
      reference: popplerOne === null ? { tool: 'pdftotext', absent: 'install poppler-utils' } : { tool: 'pdftotext alone', value: pagesPerSecond(one.pages, popplerOne) },
      goal: { op: '>=', value: 1.0, of: 'ratio' },
    });
    figures.push({ name: `peak memory ingesting r-fullrefman.pdf (${one.pages} pages)`, value: one.maxRssMb, unit: 'MB', goal: { op: '<=', value: 300, of: 'value' } });
    const split = peakSplitNote('r-fullrefman.pdf', one);
    if (split) notes.push(split);
  } else {
    figures.push({ name: `peak memory ingesting ${path.basename(files[0] ?? '')}`, value: ours.maxRssMb, unit: 'MB', goal: { op: '<=', value: 400, of: 'value' } });
    const split = peakSplitNote(path.basename(files[0] ?? ''), ours);
    if (split) notes.push(split);
  }
  return { title: 'Ingestion', figures, notes };
}

export async function bench(): Promise<BenchSection[]> {
  if (!which('pdftotext')) process.stderr.write('pdftotext is absent: the ingestion reference will say so.\n');
  // The figures are for the built app (bundles and the worker bundle), as users run it.
  execFileSync(process.execPath, [path.join(ROOT, 'scripts', 'build.ts'), '--quiet'], { stdio: 'inherit' });
  // EVIDESK_BENCH_INGEST=small: the small files only (the large PDFs take minutes on a busy machine).
  const sections = process.env.EVIDESK_BENCH_INGEST === 'small' ? [] : [await ingestSection()];
  if (SMALL_FILES > 0) sections.push(smallFilesSection());
  return sections;
}
