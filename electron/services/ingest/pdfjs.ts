import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

// One pdfjs-dist version serves ingestion and the viewer (DESIGN.md §4): the one react-pdf pins.
const require = createRequire(import.meta.url);
const pdfjsRoot = path.dirname(require.resolve('pdfjs-dist/package.json'));

export const PDFJS_VERSION: string = (require('pdfjs-dist/package.json') as { version: string }).version;

type PdfjsModule = typeof import('pdfjs-dist');
let loaded: Promise<PdfjsModule> | undefined;

/** The legacy build runs in plain Node; text extraction is the same as the browser build's. */
export function loadPdfjs(): Promise<PdfjsModule> {
  loaded ??= import(pathToFileURL(path.join(pdfjsRoot, 'legacy/build/pdf.mjs')).href) as Promise<PdfjsModule>;
  return loaded;
}

/** Character maps, standard font data and image decoders, so CJK and non-embedded fonts extract as the viewer shows them. */
export const PDFJS_ASSETS = {
  cMapUrl: path.join(pdfjsRoot, 'cmaps') + path.sep,
  standardFontDataUrl: path.join(pdfjsRoot, 'standard_fonts') + path.sep,
  /** WebAssembly image decoders (JBIG2, JPEG 2000): scans are often JBIG2, and OCR must see them drawn. */
  wasmUrl: path.join(pdfjsRoot, 'wasm') + path.sep,
};

/** The getTextContent options of pdf.js's own text layer: no normalisation, so offsets match spans. */
export const TEXT_CONTENT_OPTIONS = { includeMarkedContent: true, disableNormalization: true } as const;
