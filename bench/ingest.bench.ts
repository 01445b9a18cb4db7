// Whole-pipeline ingestion speed and peak memory, beside poppler and MuPDF on the same files in
// the same run. Uses ../shared/corpus when present, generated files otherwise.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { makePdf } from '../test/support/pdf-fixtures.ts';
import { timeCommand, which, type BenchSection, type Figure } from './report.ts';

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

export async function bench(): Promise<BenchSection[]> {
  if (!which('pdftotext')) process.stderr.write('pdftotext is absent: the ingestion reference will say so.\n');
  return [await ingestSection()];
}
