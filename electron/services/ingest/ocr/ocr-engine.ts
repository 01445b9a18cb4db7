/**
 * The OCR engine of one extraction child: a single tesseract.js worker (WebAssembly, no system
 * install), started at the first page that needs it and kept for the child's life, so its memory
 * (about 100 MB with a model loaded) is paid once per child, not per page or per document.
 *
 * The models come from the installed data packages (ocr-languages.ts): tesseract.js is given a
 * local langPath holding them and cacheMethod 'none', so it has nothing to fetch.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { AppError } from '../../../../shared/contract/errors.ts';
import type { OcrParagraphs } from '../../../../shared/ocr/ocr-text.ts';
import { languageModelFile } from './ocr-languages.ts';

const require = createRequire(import.meta.url);

export const TESSERACT_JS_VERSION: string = (require('tesseract.js/package.json') as { version: string }).version;

/** What one recognition returns: words in reading order with boxes in image pixels. */
export interface Recognised {
  paragraphs: OcrParagraphs;
}

/** A grey image, one byte per pixel, row by row. */
export interface GreyImage {
  width: number;
  height: number;
  pixels: Uint8Array;
}

interface TessWord {
  text: string;
  confidence: number;
  bbox: { x0: number; y0: number; x1: number; y1: number };
}
interface TessBlock {
  paragraphs: { lines: { words: TessWord[] }[] }[];
}
interface TessWorker {
  recognize(image: Uint8Array, options: object, output: object): Promise<{ data: { blocks: TessBlock[] | null } }>;
  terminate(): Promise<unknown>;
}
interface TesseractModule {
  createWorker(langs: string, oem: number, options: object): Promise<TessWorker>;
}

/** tesseract's LSTM-only engine mode: the models packaged are LSTM models. */
const OEM_LSTM_ONLY = 1;

let current: { key: string; worker: Promise<TessWorker> } | null = null;
/** Set in extraction children: the engine outlives a document there. Elsewhere (tests) it is ended after each. */
let keepBetweenDocuments = false;

export function keepEngineBetweenDocuments(): void {
  keepBetweenDocuments = true;
}

/** A document is done: its engine goes unless this process keeps one for the next document. */
export async function releaseEngine(): Promise<void> {
  if (!keepBetweenDocuments) await dropWorker();
}

const TEMP_PREFIX = 'evidesk-ocr-models-';

/**
 * One folder holding every model asked for, as tesseract.js wants (`langPath/<code>.traineddata.gz`):
 * a single language's own package folder, or for several a private temporary folder of links to
 * (or copies of) the packaged files.
 */
function modelDir(languages: readonly string[]): string {
  const files = languages.map((code) => {
    const file = languageModelFile(code);
    if (!file) throw new AppError('OCR_LANGUAGE_MISSING', `OCR has no model for "${code}".`);
    return { code, file };
  });
  if (files.length === 1 && files[0]) return path.dirname(files[0].file);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), TEMP_PREFIX));
  for (const { code, file } of files) {
    const target = path.join(dir, `${code}.traineddata.gz`);
    try {
      fs.symlinkSync(file, target);
    } catch {
      fs.copyFileSync(file, target);
    }
  }
  return dir;
}

function startWorker(languages: readonly string[]): Promise<TessWorker> {
  const tesseract = require('tesseract.js') as TesseractModule;
  // A local folder, cacheMethod 'none': tesseract.js reads the files and never goes to the network.
  const langPath = modelDir(languages);
  const started = tesseract.createWorker(languages.join('+'), OEM_LSTM_ONLY, { langPath, cacheMethod: 'none', gzip: true, logger: () => undefined, errorHandler: () => undefined });
  // The models are read while the worker starts: a temporary folder of links can go then.
  if (path.basename(langPath).startsWith(TEMP_PREFIX)) void started.finally(() => fs.rmSync(langPath, { recursive: true, force: true })).catch(() => undefined);
  return started;
}

function worker(languages: readonly string[]): Promise<TessWorker> {
  const key = languages.join('+');
  if (current?.key !== key) {
    void dropWorker();
    current = { key, worker: startWorker(languages) };
  }
  return current.worker;
}

/** Ends the engine (a cancelled page, a failed one, or a change of languages). */
export async function dropWorker(): Promise<void> {
  const gone = current;
  current = null;
  if (gone) await gone.worker.then((w) => w.terminate()).catch(() => undefined);
}

/** A PGM (P5) file of the image: tesseract's image reader takes it as it is, with no encoding cost. */
function pgm(image: GreyImage): Uint8Array {
  const head = Buffer.from(`P5\n${image.width} ${image.height}\n255\n`, 'latin1');
  const out = new Uint8Array(head.length + image.pixels.length);
  out.set(head, 0);
  out.set(image.pixels, head.length);
  return out;
}

/**
 * Recognises one page image. A cancel ends the engine at once (its next page starts a fresh one):
 * a page takes seconds, and a cancelled ingestion must not wait for it.
 */
export async function recognise(image: GreyImage, languages: readonly string[], signal?: AbortSignal): Promise<Recognised> {
  const cancelled = () => new AppError('CANCELLED', 'OCR was cancelled.');
  if (signal?.aborted) throw cancelled();
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => {
      void dropWorker();
      reject(cancelled());
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
  aborted.catch(() => undefined);
  try {
    // Starting the engine takes a second or two: a cancel then is heard too.
    const w = await Promise.race([worker(languages), aborted]);
    const result = await Promise.race([w.recognize(pgm(image), {}, { blocks: true, text: false, hocr: false, tsv: false }), aborted]);
    const paragraphs: OcrParagraphs = [];
    for (const block of result.data.blocks ?? []) {
      for (const para of block.paragraphs) {
        paragraphs.push(para.lines.map((line) => line.words.map((word) => ({ text: word.text, confidence: word.confidence, bbox: word.bbox }))));
      }
    }
    return { paragraphs };
  } catch (e) {
    if (e instanceof AppError) throw e;
    // The engine may be in a bad state after an error: the next page gets a fresh one.
    await dropWorker();
    throw new AppError('OCR_FAILED', `the OCR engine failed (${e instanceof Error ? e.message : String(e)})`);
  } finally {
    if (onAbort) signal?.removeEventListener('abort', onAbort);
  }
}
