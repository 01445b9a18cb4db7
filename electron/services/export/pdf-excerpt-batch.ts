/**
 * The excerpts of one PDF that an extraction child makes for the export (extract-worker.ts), a
 * batch of its pages at a time.
 *
 * Opening a PDF parses its fonts again, about a tenth of drawing a batch's pages on the export
 * bench; an export hands each child several batches of the same PDFs. So a batch named by its
 * PDF's SHA-256 (the bytes the workspace verified) keeps that PDF open for the next batch of the
 * same PDF in this process; it is closed when a batch of another PDF comes or when none has come
 * for a few seconds, so that an idle child does not hold it after the export.
 */
import { AppError } from '../../../shared/contract/errors.ts';
import { openPdfExcerpts, type PdfExcerptAsk, type PdfExcerptBatchResult, type PdfExcerptResult, type PdfExcerpts } from './pdf-excerpt.ts';

/** An open PDF is closed when no batch has used it for this long. */
const IDLE_CLOSE_MS = 3_000;

interface Kept {
  key: string;
  pdf: Promise<PdfExcerpts>;
  users: number;
  timer: ReturnType<typeof setTimeout> | null;
}

/** The one PDF this process keeps open between batches. */
let kept: Kept | null = null;

function closeKept(k: Kept): void {
  if (k.timer) clearTimeout(k.timer);
  if (kept === k) kept = null;
  void k.pdf.then((pdf) => pdf.close(), () => undefined);
}

/** The PDF of `key` (opened now or kept from an earlier batch) for one batch; `done` when the batch is over. */
async function acquire(bytes: Uint8Array, key: string | undefined): Promise<{ pdf: PdfExcerpts; done: () => Promise<void> }> {
  if (key === undefined || (kept && kept.key !== key && kept.users > 0)) {
    // Not to be kept (no name), or another PDF is in use here now: this batch's own.
    const pdf = await openPdfExcerpts(bytes);
    return { pdf, done: () => pdf.close() };
  }
  if (kept && kept.key !== key) closeKept(kept);
  const k: Kept = kept ?? { key, pdf: openPdfExcerpts(bytes), users: 0, timer: null };
  kept = k;
  if (k.timer) clearTimeout(k.timer);
  k.timer = null;
  k.users++;
  let pdf: PdfExcerpts;
  try {
    pdf = await k.pdf;
  } catch (e) {
    k.users--;
    if (kept === k) kept = null;
    throw e;
  }
  return {
    pdf,
    done: async () => {
      k.users--;
      if (k.users === 0 && kept === k) {
        k.timer = setTimeout(() => closeKept(k), IDLE_CLOSE_MS);
        // A kept PDF does not keep the process alive (the in-process path of tests and the command line).
        k.timer.unref?.();
      }
    },
  };
}

/**
 * Each page read and rendered once for all its excerpts, a progress report per page's excerpts;
 * stops between pages when cancelled. A failed page gives notes; the others go on. With `key` (the
 * PDF's SHA-256) the PDF stays open for the next batch of it.
 */
export async function pdfExcerptBatch(
  bytes: Uint8Array,
  asks: readonly PdfExcerptAsk[],
  ctx: { signal?: AbortSignal; onProgress?: (done: number, total: number) => void; key?: string },
): Promise<PdfExcerptBatchResult> {
  const { pdf, done: release } = await acquire(bytes, ctx.key);
  try {
    const out: PdfExcerptResult[] = new Array<PdfExcerptResult>(asks.length);
    const textItems: PdfExcerptBatchResult['textItems'] = [];
    const byPage = new Map<number, number[]>();
    asks.forEach((ask, i) => byPage.set(ask.page, [...(byPage.get(ask.page) ?? []), i]));
    let done = 0;
    for (const [page, at] of byPage) {
      if (ctx.signal?.aborted) throw new AppError('CANCELLED', 'The excerpts were cancelled.');
      const reqs = at.map((i) => asks[i]!);
      const made = await pdf.pageExcerpts(page, reqs).catch((e: unknown) => ({
        results: reqs.map((ask) => ({ note: `The excerpt is left out: page ${ask.pageLabel ?? ask.page} could not be rendered (${e instanceof Error ? e.message : String(e)}).` })),
      }));
      at.forEach((i, k) => (out[i] = made.results[k]!));
      if ('textItems' in made && made.textItems) textItems.push({ page, items: made.textItems });
      done += at.length;
      ctx.onProgress?.(done, asks.length);
    }
    return { results: out, textItems };
  } finally {
    await release();
  }
}
