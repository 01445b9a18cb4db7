/**
 * The PDF an extraction child keeps open while it reads several page ranges of it (issue 16 item 5).
 *
 * A long PDF is read in ranges spread over the children (pooled-extract.ts). The pool sends a
 * document's bytes to a child with the first range it gives that child, and only the document's
 * key with the later ones (worker-pool.ts); the child opens the PDF once and reads each range from
 * it. On the 2,415-page R manual (13 ranges over 2 children) that is 2 copies of its 6.5 MB sent
 * instead of 13, and the document's structure parsed twice instead of 13 times.
 *
 * A child keeps one document at a time (the pool gives it one task at a time): bytes for another
 * key replace it, and `forgetPdf` (sent when the document is done, failed or cancelled) closes it.
 * Between ranges pdf.js's caches (fonts, image and page dictionaries) are emptied, so what the
 * child holds stays what a range needs, as when each range opened the document on its own.
 */
import { AppError } from '../../../shared/contract/errors.ts';
import { openPdf, readPdfPart, type OpenedPdf, type PdfExtractOptions, type PdfPart } from './extractors/pdf.ts';
import { releaseEngine } from './ocr/ocr-engine.ts';

interface Kept {
  key: string;
  /** Until the document is opened: the bytes from the pool (pdf.js gets a copy of its own). */
  bytes: Uint8Array | null;
  opened: Promise<OpenedPdf> | null;
  /** Ranges reading it now (a cancelled one may still be stopping when the next arrives). */
  users: number;
}

let kept: Kept | null = null;

function close(k: Kept): void {
  k.bytes = null;
  void k.opened?.then(
    (o) => o.task.destroy(),
    () => undefined,
  );
}

/** Closes the document `key` once no range reads it (at once if none does). */
export function forgetPdf(key: string): void {
  if (kept?.key !== key) return;
  const k = kept;
  kept = null;
  if (k.users === 0) close(k);
}

/**
 * Pages [firstPage, lastPage] of document `key`. `bytes` come with the first range this child gets
 * of the document and are then kept; later ranges come without them.
 */
export async function keptPdfPart(key: string, bytes: Uint8Array | undefined, ctx: PdfExtractOptions): Promise<PdfPart> {
  if (bytes) {
    if (kept && kept.key !== key) forgetPdf(kept.key);
    if (kept?.key !== key) kept = { key, bytes, opened: null, users: 0 };
  } else if (kept?.key !== key) {
    // The pool sends the bytes whenever this child may not hold them: this is a bug, not the file's fault.
    throw new AppError('EXTRACTION_FAILED', `${ctx.fileName} could not be read: its extraction process no longer holds the file. Please report this.`);
  }
  const k = kept!;
  if (!k.opened) {
    k.opened = openPdf(k.bytes!, ctx);
    // pdf.js has its own copy; a failed opening fails every range of the document alike.
    void k.opened.finally(() => (k.bytes = null)).catch(() => undefined);
  }
  k.users++;
  try {
    const opened = await k.opened;
    try {
      return await readPdfPart(opened, ctx);
    } finally {
      // Fonts and dictionaries of this range's pages go; the parsed structure (xref, page tree) stays.
      if (kept === k && k.users === 1) await opened.doc.cleanup().catch(() => undefined);
    }
  } finally {
    k.users--;
    if (k.users === 0 && kept !== k) close(k);
    await releaseEngine();
  }
}
