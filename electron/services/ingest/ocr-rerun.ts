/**
 * OCR run again for a stored PDF (other languages, a better engine, or a first run after an ingest
 * with --no-ocr): the file's bytes (the original if unchanged, else the snapshot) are read by the
 * pool with OCR on, and the new text of its pages without a text layer replaces the old. Pages with
 * a text layer are never touched. The run is recorded in the audit chain.
 */
import fs from 'node:fs';
import { AppError } from '../../../shared/contract/errors.ts';
import { sha256Bytes } from '../hashing/sha256.ts';
import type { EventBus } from '../events.ts';
import type { SourceFiles } from '../sources/source-files.ts';
import type { SourcesStore } from '../store/sources-store.ts';
import { extractInPool } from './pooled-extract.ts';
import { requireLanguages } from './ocr/ocr-languages.ts';
import type { WorkerPool } from './worker-pool.ts';

export interface OcrRerunRequest {
  sourceId: number;
  languages?: string[];
  password?: string;
  signal?: AbortSignal;
  /** Pages done so far; with stage 'ocr', the page being recognised. */
  onProgress?: (page: number, pageCount: number, stage?: 'ocr') => void;
}

export interface OcrRerunResult {
  sourceId: number;
  /** Pages without a text layer, and those of them that now hold OCR text. */
  scannedPages: number[];
  recognisedPages: number[];
  /** Mean word confidence per recognised page. */
  confidence: { page: number; confidence: number | null }[];
  method: string | null;
}

export async function rerunOcr(deps: { sources: SourcesStore; files: SourceFiles; pool: WorkerPool; events: EventBus; timeoutMs: number }, req: OcrRerunRequest): Promise<OcrRerunResult> {
  const src = deps.sources.get(req.sourceId);
  if (!src) throw new AppError('SOURCE_NOT_FOUND', `There is no source with id ${req.sourceId} in this workspace.`);
  if (src.kind !== 'pdf') throw new AppError('UNSUPPORTED_TYPE', `${src.file_name} is not a PDF: OCR reads scanned PDF pages only.`);
  const languages = requireLanguages(req.languages ?? []);
  const scanned = deps.sources.pageSummaries(src.id).filter((p) => p.noTextLayer).map((p) => p.page);
  if (scanned.length === 0) return { sourceId: src.id, scannedPages: [], recognisedPages: [], confidence: [], method: null };

  const file = await deps.files.resolve(src.id);
  const bytes = new Uint8Array(await fs.promises.readFile(file.filePath));
  // The bytes read must be the source's: a file changed since the check is not this source.
  if (sha256Bytes(bytes) !== src.sha256) {
    throw new AppError('HASH_MISMATCH', `${src.file_name} changed while it was being read for OCR; check its health and try again.`, { sourceId: src.id });
  }
  const doc = await extractInPool(deps.pool, 'pdf', bytes, {
    fileName: src.file_name,
    deadline: Date.now() + deps.timeoutMs,
    ocr: { languages },
    ...(req.password !== undefined ? { password: req.password } : {}),
    ...(req.signal !== undefined ? { signal: req.signal } : {}),
    ...(req.onProgress !== undefined ? { onProgress: req.onProgress } : {}),
  });
  if (req.signal?.aborted) throw new AppError('CANCELLED', `OCR of ${src.file_name} was cancelled.`);
  const pages = doc.segments
    .filter((s) => s.noTextLayer && s.page !== undefined && scanned.includes(s.page))
    .map((s) => ({ page: s.page ?? 0, text: s.text, itemStarts: s.itemStarts ?? [], ocr: s.ocr ?? null }));
  deps.sources.replaceOcrText(src.id, pages, new Date().toISOString());
  deps.events.emit({ type: 'sources.changed' });
  const recognised = pages.filter((p) => p.ocr !== null);
  return {
    sourceId: src.id,
    scannedPages: scanned,
    recognisedPages: recognised.map((p) => p.page),
    confidence: recognised.map((p) => ({ page: p.page, confidence: p.ocr?.confidence ?? null })),
    method: recognised[0]?.ocr?.method ?? null,
  };
}
