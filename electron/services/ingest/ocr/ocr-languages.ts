/**
 * OCR languages: the recognition models ship as npm packages (@tesseract.js-data/<code>) and are
 * read from disk, never downloaded (tesseract.js would fetch a missing one from a CDN: it is never
 * given the chance, see ocr-engine.ts).
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { AppError } from '../../../../shared/contract/errors.ts';

const require = createRequire(import.meta.url);

/** Packaged with the app: English, German, French, Simplified Chinese. */
export const PACKAGED_LANGUAGES = ['eng', 'deu', 'fra', 'chi_sim'] as const;
export const DEFAULT_OCR_LANGUAGES: readonly string[] = ['eng'];

/** The LSTM models, integer-quantised: tesseract.js's own default for its LSTM-only engine. */
const MODEL_DIR = '4.0.0_best_int';

/** tesseract's language codes: three letters, some with a script suffix (chi_sim, deu_latf). */
const CODE = /^[a-z]{3}(?:_[a-z]{3,4})?$/;

/** The packaged models, named literally so that packaging (asarUnpack) sees them as the worker's. */
const PACKAGED: Record<string, () => string> = {
  eng: () => require.resolve('@tesseract.js-data/eng/package.json'),
  deu: () => require.resolve('@tesseract.js-data/deu/package.json'),
  fra: () => require.resolve('@tesseract.js-data/fra/package.json'),
  chi_sim: () => require.resolve('@tesseract.js-data/chi_sim/package.json'),
};

/** Where a language's gzipped model is, or null when its package is not installed. */
export function languageModelFile(code: string): string | null {
  if (!CODE.test(code)) return null;
  try {
    const manifest = PACKAGED[code]?.() ?? require.resolve(`@tesseract.js-data/${code}/package.json`);
    const dir = path.dirname(manifest);
    const file = path.join(dir, MODEL_DIR, `${code}.traineddata.gz`);
    return fs.existsSync(file) ? file : null;
  } catch {
    return null;
  }
}

/** Languages whose models are installed, in the order asked; OCR_LANGUAGE_MISSING names the others. */
export function requireLanguages(codes: readonly string[]): string[] {
  const wanted = [...new Set(codes.map((c) => c.trim()).filter((c) => c !== ''))];
  if (wanted.length === 0) return [...DEFAULT_OCR_LANGUAGES];
  const missing = wanted.filter((c) => languageModelFile(c) === null);
  if (missing.length > 0) {
    throw new AppError(
      'OCR_LANGUAGE_MISSING',
      `OCR has no model for ${missing.map((c) => `"${c}"`).join(', ')}. Installed: ${installedLanguages().join(', ')}. A language is added by installing its model package (@tesseract.js-data/<code>, e.g. @tesseract.js-data/spa for Spanish) beside the app; whoever installs Evidence Desk can add it, then try again.`,
      { missing, installed: installedLanguages() },
    );
  }
  return wanted;
}

export function installedLanguages(): string[] {
  return PACKAGED_LANGUAGES.filter((c) => languageModelFile(c) !== null);
}
