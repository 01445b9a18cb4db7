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

/** Largest decoded image pdf.js may allocate (pixels): a hostile page cannot exhaust memory. */
export const MAX_IMAGE_PIXELS = 40_000_000;

/**
 * The getDocument options every PDF is opened with, for reading text and for drawing excerpts
 * alike: no XFA, no system fonts, capped images, and the bundled assets (cMaps, fonts, decoders).
 * pdfjs-dist 6 has no eval-based font path any more (the isEvalSupported option is gone and the
 * build contains no eval or new Function), so DESIGN.md §8's rule holds by construction.
 */
export const DOCUMENT_OPTIONS = {
  enableXfa: false,
  maxImageSize: MAX_IMAGE_PIXELS,
  useSystemFonts: false,
  cMapUrl: PDFJS_ASSETS.cMapUrl,
  cMapPacked: true,
  standardFontDataUrl: PDFJS_ASSETS.standardFontDataUrl,
  wasmUrl: PDFJS_ASSETS.wasmUrl,
} as const;

/** The getTextContent options of pdf.js's own text layer: no normalisation, so offsets match spans. */
export const TEXT_CONTENT_OPTIONS = { includeMarkedContent: true, disableNormalization: true } as const;
