/**
 * The PDF an extraction child keeps while it reads several page ranges of it (issue 16 item 5).
 *
 * A long PDF is read in ranges spread over the children (pooled-extract.ts). The pool sends a
 * document's bytes to a child with the first range it gives that child, and only the document's
 * key with the later ones (worker-pool.ts). On the 2,415-page R manual (13 ranges over 2 children)
 * that is 2 copies of its 6.5 MB serialised instead of 13: the ingesting process's share of the
 * bench's peak went from 168 MB PSS to 138 and 149 MB (two runs on a loaded machine).
 *
 * Each range still opens the PDF in pdf.js and closes it: kept open, pdf.js's own page and object
 * caches (which its cleanup() does not empty) grew a child's heap by ~2.7 MB every 200 pages (14 to
 * 38 MB over 1,200 pages of the R manual, against 14 to 16 MB reopened), for no measurable speed
 * (19.3 s against 19.9 s for those 1,200 pages, one run each): parsing the structure again is cheap.
 *
 * A child keeps one document at a time (the pool gives it one task at a time): bytes for another
 * key replace it, and `forgetPdf` (sent when the document is done, failed or cancelled) drops it.
 */
import { AppError } from '../../../shared/contract/errors.ts';
import { extractPdfPart, type PdfExtractOptions, type PdfPart } from './extractors/pdf.ts';

interface Kept {
  key: string;
  bytes: Uint8Array;
}

let kept: Kept | null = null;

/** Drops the bytes of document `key`; a range reading them now keeps its own reference. */
export function forgetPdf(key: string): void {
  if (kept?.key === key) kept = null;
}

/**
 * Pages [firstPage, lastPage] of document `key`. `bytes` come with the first range this child gets
 * of the document and are then kept; later ranges come without them.
 */
export async function keptPdfPart(key: string, bytes: Uint8Array | undefined, ctx: PdfExtractOptions): Promise<PdfPart> {
  if (bytes) kept = { key, bytes };
  const held = kept?.key === key ? kept.bytes : null;
  // The pool sends the bytes whenever this child may not hold them: this is a bug, not the file's fault.
  if (!held) throw new AppError('EXTRACTION_FAILED', `${ctx.fileName} could not be read: its extraction process no longer holds the file. Please report this.`);
  return extractPdfPart(held, ctx);
}
