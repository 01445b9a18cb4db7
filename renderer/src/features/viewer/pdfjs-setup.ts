import { pdfjs } from 'react-pdf';
import workerUrl from 'pdfjs-dist/build/pdf.worker.min.mjs?url';

pdfjs.GlobalWorkerOptions.workerSrc = workerUrl;

/** Same assets and text options as ingestion (electron/services/ingest/pdfjs.ts), so text matches. */
const BASE_OPTIONS = {
  cMapUrl: '/pdfjs/cmaps/',
  cMapPacked: true,
  standardFontDataUrl: '/pdfjs/standard_fonts/',
  wasmUrl: '/pdfjs/wasm/',
  enableXfa: false,
  // Lazy range loading: a 1,000-page PDF is fetched as pages are shown.
  disableAutoFetch: true,
  disableStream: true,
} as const;

let worker: InstanceType<typeof pdfjs.PDFWorker> | null = null;
let options: (typeof BASE_OPTIONS & { worker: InstanceType<typeof pdfjs.PDFWorker> }) | null = null;

/**
 * The Document options: one pdf.js worker for every PDF the reader opens (a document closed
 * leaves a worker it was given running), so opening a PDF does not first wait for a new worker to
 * load and compile its megabyte of script. The same object every time: react-pdf reloads the
 * document when its options change.
 */
export function documentOptions(): typeof BASE_OPTIONS & { worker: InstanceType<typeof pdfjs.PDFWorker> } {
  if (!worker || worker.destroyed) {
    worker = new pdfjs.PDFWorker();
    options = null;
  }
  options ??= { ...BASE_OPTIONS, worker };
  return options;
}

/** Starts the worker while the window is idle, ahead of the first PDF opened. */
export function warmPdfWorker(): void {
  const start = () => void documentOptions();
  if (typeof requestIdleCallback === 'function') requestIdleCallback(start, { timeout: 500 });
  else setTimeout(start, 500);
}

export const TEXT_CONTENT_OPTIONS = { includeMarkedContent: true, disableNormalization: true } as const;

export { pdfjs };
