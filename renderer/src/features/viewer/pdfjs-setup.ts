import { pdfjs } from 'react-pdf';
import workerUrl from 'pdfjs-dist/build/pdf.worker.min.mjs?url';

pdfjs.GlobalWorkerOptions.workerSrc = workerUrl;

/** Same assets and text options as ingestion (electron/services/ingest/pdfjs.ts), so text matches. */
export const DOCUMENT_OPTIONS = {
  cMapUrl: '/pdfjs/cmaps/',
  cMapPacked: true,
  standardFontDataUrl: '/pdfjs/standard_fonts/',
  wasmUrl: '/pdfjs/wasm/',
  enableXfa: false,
  // Lazy range loading: a 1,000-page PDF is fetched as pages are shown.
  disableAutoFetch: true,
  disableStream: true,
} as const;

export const TEXT_CONTENT_OPTIONS = { includeMarkedContent: true, disableNormalization: true } as const;

export { pdfjs };
