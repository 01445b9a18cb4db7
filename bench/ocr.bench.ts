// OCR (issue 14): pages per second of the app's engine (tesseract.js in WebAssembly, one worker, as
// each extraction child has) beside the tesseract command line (Debian's tesseract-ocr, installed by
// .ci/run for the bench) on the same 300-dpi page images, and word accuracy on generated scans of
// known text. The corpus scan c02-22.pdf is added when ../shared/corpus is present.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { languageModelFile } from '../electron/services/ingest/ocr/ocr-languages.ts';
import { dropWorker, recognise, type GreyImage } from '../electron/services/ingest/ocr/ocr-engine.ts';
import { loadPdfjs } from '../electron/services/ingest/pdfjs.ts';
import { renderGrey } from '../electron/services/ingest/ocr/ocr-page.ts';
import { ocrPageText } from '../shared/ocr/ocr-text.ts';
import { makePdf, type PageSpec } from '../test/support/pdf-fixtures.ts';
import { renderPages } from '../test/support/scan-fixtures.ts';
import { which, type BenchSection, type Figure } from './report.ts';

const require = createRequire(import.meta.url);
const CORPUS_SCAN = path.resolve(import.meta.dirname, '..', '..', 'shared', 'corpus', 'docs', 'c02-22.pdf');
const DPI = 300;
const PAGES = 3;

const SENTENCES = [
  'The supplier shall deliver 1,250 units of the model 7B controller by 14 March 2025.',
  'Payment is due within thirty (30) days of the invoice date; late payments bear interest at 4.5% a year.',
  'Either party may terminate this agreement with ninety days written notice to the other party.',
  'The warranty covers defects in materials and workmanship for a period of twenty-four months.',
  'All notices must be sent to the registered office of the receiving party, marked for the attention of legal.',
  'Confidential information excludes anything that was public before it was disclosed under this agreement.',
  'The board reviewed the quarterly accounts and approved a dividend of 0.42 euros per share.',
  'Minutes of the meeting held at the Hamburg office on Tuesday, 9 July, were read and signed.',
  'Overtime must be approved in writing by the line manager before the work is done.',
  'Claims for travel expenses are reimbursed within 30 days of a complete claim with receipts.',
];

/** Known text on pages: sentences wrapped at about 76 characters, 34 lines a page. */
function knownPages(): PageSpec[] {
  const lines: string[] = [];
  for (let i = 0; lines.length < PAGES * 34; i++) {
    let line = '';
    for (const word of (SENTENCES[i % SENTENCES.length] ?? '').split(' ')) {
      if (line.length + word.length + 1 > 76) {
        lines.push(line);
        line = word;
      } else line = line ? `${line} ${word}` : word;
    }
    if (line) lines.push(line);
  }
  return Array.from({ length: PAGES }, (_, p) => ({ lines: lines.slice(p * 34, p * 34 + 34) }));
}

/** Word accuracy: 1 − (word edits to turn the OCR words into the known words) / known words. */
export function wordAccuracy(known: string, recognised: string): number {
  const a = known.split(/\s+/).filter(Boolean);
  const b = recognised.split(/\s+/).filter(Boolean);
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) cur[j] = Math.min((prev[j] ?? 0) + 1, (cur[j - 1] ?? 0) + 1, (prev[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = cur;
  }
  return a.length === 0 ? 1 : Math.max(0, 1 - (prev[b.length] ?? 0) / a.length);
}

async function greyOf(png: Buffer): Promise<GreyImage> {
  const napi = require('@napi-rs/canvas') as {
    loadImage(b: Buffer): Promise<{ width: number; height: number }>;
    createCanvas(w: number, h: number): { getContext(k: '2d'): { drawImage(i: unknown, x: number, y: number): void; getImageData(x: number, y: number, w: number, h: number): { data: Uint8ClampedArray } } };
  };
  const img = await napi.loadImage(png);
  const ctx = napi.createCanvas(img.width, img.height).getContext('2d');
  ctx.drawImage(img, 0, 0);
  const rgba = ctx.getImageData(0, 0, img.width, img.height).data;
  const pixels = new Uint8Array(img.width * img.height);
  for (let i = 0, j = 0; i < pixels.length; i++, j += 4) pixels[i] = ((rgba[j] ?? 0) * 77 + (rgba[j + 1] ?? 0) * 150 + (rgba[j + 2] ?? 0) * 29) >> 8;
  return { width: img.width, height: img.height, pixels };
}

/** Our engine on PNG files: decode, recognise, assemble the page text (what ingestion does after rendering). */
async function ours(files: string[]): Promise<{ ms: number; texts: string[] }> {
  await recognise(await greyOf(fs.readFileSync(files[0] ?? '')), ['eng']); // the engine starts once per child: not timed
  const texts: string[] = [];
  const t0 = performance.now();
  for (const f of files) {
    const image = await greyOf(fs.readFileSync(f));
    const { paragraphs } = await recognise(image, ['eng']);
    texts.push(ocrPageText(paragraphs, image.width, image.height).text);
  }
  return { ms: performance.now() - t0, texts };
}

/**
 * tesseract's command line on the same files; `threads` 1 for one core, as each of our children has;
 * `tessdata` a folder with the app's own model (else Debian's, tessdata_fast: a smaller network).
 */
function cli(files: string[], threads: number | null, tessdata?: string): { ms: number; texts: string[] } {
  const env = threads === null ? process.env : { ...process.env, OMP_THREAD_LIMIT: String(threads) };
  const texts: string[] = [];
  const model = tessdata ? ['--tessdata-dir', tessdata] : [];
  const t0 = performance.now();
  for (const f of files) texts.push(execFileSync('tesseract', [f, '-', ...model, '-l', 'eng'], { encoding: 'utf8', env, stdio: ['ignore', 'pipe', 'ignore'] }));
  return { ms: performance.now() - t0, texts };
}

/** The app's English model (gzipped in its package) as a tessdata folder for the command line. */
function appModelDir(dir: string): string {
  const tessdata = path.join(dir, 'tessdata');
  fs.mkdirSync(tessdata, { recursive: true });
  fs.writeFileSync(path.join(tessdata, 'eng.traineddata'), zlib.gunzipSync(fs.readFileSync(languageModelFile('eng') ?? '')));
  return tessdata;
}

async function writePngs(pdf: Uint8Array, dir: string, prefix: string): Promise<string[]> {
  const images = await renderPages(pdf, DPI, 'png');
  return images.map((img, i) => {
    const f = path.join(dir, `${prefix}-${i + 1}.png`);
    fs.writeFileSync(f, img.bytes);
    return f;
  });
}

async function ocrSection(): Promise<BenchSection> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'evidesk-bench-ocr-'));
  const pages = knownPages();
  const files = await writePngs(await makePdf(pages), dir, 'known');
  const known = pages.map((p) => p.lines.join(' '));
  const notes = [`${files.length} generated pages of known English text (Helvetica 12 pt) rendered at ${DPI} dpi as PNG; the same files for both; the engines' start-up is not timed`];
  const mine = await ours(files);
  const pps = (ms: number, n = files.length) => n / (ms / 1000);
  const accuracy = (texts: string[]) => (100 * known.reduce((sum, k, i) => sum + wordAccuracy(k, texts[i] ?? ''), 0)) / known.length;
  const hasCli = which('tesseract') !== null;
  const tessdata = appModelDir(dir);
  const same = hasCli ? cli(files, 1, tessdata) : null;
  const one = hasCli ? cli(files, 1) : null;
  const all = hasCli ? cli(files, null) : null;
  const absent = { tool: 'tesseract CLI', absent: 'apt-get install tesseract-ocr' };
  notes.push("the app's model is tessdata's best_int LSTM (the @tesseract.js-data packages have no other LSTM model); Debian's tesseract-ocr-eng is tessdata_fast, a smaller and faster network");
  const figures: Figure[] = [
    {
      name: 'OCR speed, tesseract.js (one worker, as each extraction child has) vs tesseract CLI with the same model on one core (OMP_THREAD_LIMIT=1)',
      value: pps(mine.ms),
      unit: 'pages/s',
      reference: same ? { tool: 'tesseract CLI, same model, 1 thread', value: pps(same.ms) } : absent,
      goal: { op: '>=', value: 0.5, of: 'ratio' },
    },
    {
      name: "OCR speed vs tesseract CLI with Debian's model (tessdata_fast) on one core",
      value: pps(mine.ms),
      unit: 'pages/s',
      reference: one ? { tool: 'tesseract CLI, Debian model, 1 thread', value: pps(one.ms) } : absent,
      goal: { op: '>=', value: 0.5, of: 'ratio' },
    },
    {
      name: "OCR speed vs tesseract CLI with Debian's model and its default threads",
      value: pps(mine.ms),
      unit: 'pages/s',
      reference: all ? { tool: 'tesseract CLI, Debian model, default threads', value: pps(all.ms) } : absent,
    },
    {
      name: `OCR word accuracy at ${DPI} dpi, tesseract.js`,
      value: accuracy(mine.texts),
      unit: '%',
      ...(one ? { reference: { tool: "tesseract CLI, Debian's model", value: accuracy(one.texts) } } : {}),
      goal: { op: '>=', value: 97, of: 'value' },
    },
  ];

  if (fs.existsSync(CORPUS_SCAN)) {
    // The corpus scan as ingestion renders it, written as PNG for the command line.
    const pdfjs = await loadPdfjs();
    const task = pdfjs.getDocument({ data: new Uint8Array(fs.readFileSync(CORPUS_SCAN)), verbosity: 0 });
    const doc = await task.promise;
    const grey = await renderGrey((await doc.getPage(1)) as unknown as Parameters<typeof renderGrey>[0]);
    await task.destroy();
    const scanPngs = await writePngs(new Uint8Array(fs.readFileSync(CORPUS_SCAN)), dir, 'c02-22');
    const t0 = performance.now();
    await recognise(grey, ['eng']);
    const scanMs = performance.now() - t0;
    const scanCli = hasCli ? cli(scanPngs, 1, tessdata) : null;
    figures.push({
      name: 'OCR of the corpus scan c02-22.pdf (1 page, 300 dpi), tesseract.js vs tesseract CLI with the same model on one core',
      value: pps(scanMs, 1),
      unit: 'pages/s',
      reference: scanCli ? { tool: 'tesseract CLI, same model, 1 thread', value: pps(scanCli.ms, 1) } : absent,
    });
  } else notes.push('the corpus is absent: c02-22.pdf not measured');
  await dropWorker();
  fs.rmSync(dir, { recursive: true, force: true });
  return { title: 'OCR (scanned pages)', figures, notes };
}

export async function bench(): Promise<BenchSection[]> {
  return [await ocrSection()];
}
