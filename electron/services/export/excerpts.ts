/**
 * Evidence excerpts for a report's citations (issue 9): for a quote placed on a PDF page, the
 * rendered band of that page with the quote boxed (pdf-excerpt.ts); for one placed in a block or
 * lines (DOCX, HTML, text, Markdown), that text with the quote marked (text-excerpt.ts). A quote that runs over a page
 * break gets its first page's part. A PDF excerpt that fails or runs out of time is left out with
 * a note, and the export goes on.
 *
 * PDF pages are rendered in the extraction children (worker-pool.ts), as many at once as there are
 * children, never in the app's own process: a PDF is untrusted input, and rendering is the export's
 * heaviest work. Each child gets a run of consecutive pages of one PDF, long runs first and short
 * ones last (excerpt-schedule.ts), so a page cited several times is rendered once; identical excerpts (same page and characters) are made once. Without a
 * pool (a bare service in tests) the same batches run here, one after another. Excerpts drawn
 * before for the same bytes, page and quote come from the workspace's cache (excerpt-cache.ts). Progress is
 * reported per citation, and a cancel stops the children's work (EXPORT_CANCELLED).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { CitationDetail } from '../../../shared/contract/answer-schemas.ts';
import { AppError } from '../../../shared/contract/errors.ts';
import type { SourceInput } from '../../../shared/report/build.ts';
import type { WorkerPool } from '../ingest/worker-pool.ts';
import type { SegmentRow } from '../store/evidence-store.ts';
import type { SourcesStore } from '../store/sources-store.ts';
import { ExcerptCache, excerptKey } from './excerpt-cache.ts';
import { ExcerptSchedule, type ScheduledBatch } from './excerpt-schedule.ts';
import type { PdfExcerptAsk, PdfExcerptBatchResult, PdfExcerptResult } from './pdf-excerpt.ts';
import { pdfExcerptBatch } from './pdf-excerpt-batch.ts';
import { textExcerpt } from './text-excerpt.ts';

/** Per excerpt; a batch gets this once plus a share per page it renders before it is stopped. */
export const EXCERPT_TIME_LIMIT_MS = 20_000;
const PER_EXCERPT_MS = 3_000;

/**
 * What excerpts read of the sources, from the engine in use: the stored text, a page's text-item
 * geometry where the engine keeps it (SQLite's page_text_items; elsewhere null, and the child
 * reads it from the PDF), and the bytes the workspace verified.
 */
export interface ExcerptSources {
  segments(sourceId: number): Promise<readonly SegmentRow[]>;
  pageSegment(sourceId: number, page: number): Promise<SegmentRow | undefined>;
  pageTextItems(sourceId: number, page: number, text: string): Float64Array | null;
  keepPageTextItems(sourceId: number, page: number, text: string, items: Float64Array): void;
  /** The file when its health is ok, else the snapshot; null when neither can be read. */
  bytes(src: SourceInput): Promise<Uint8Array | null>;
}

/** A local workspace's: its SQLite stores and the snapshots in its blobs folder. */
export function localExcerptSources(sources: SourcesStore, workspaceDir: string): ExcerptSources {
  return {
    segments: async (id) => sources.segments(id),
    pageSegment: async (id, page) => sources.pageSegment(id, page),
    pageTextItems: (id, page, text) => sources.pageTextItems(id, page, text),
    keepPageTextItems: (id, page, text, items) => sources.keepPageTextItems(id, page, text, items),
    bytes: async (src) => localSourceBytes(src, sources, workspaceDir),
  };
}

export interface ExcerptDeps {
  sources: ExcerptSources;
  workspaceDir: string;
  sourceInputs: readonly SourceInput[];
  /** The extraction children that render PDF pages; without it they are rendered here. */
  pool?: WorkerPool;
  /** Stops the excerpts; the promise then rejects with EXPORT_CANCELLED. */
  signal?: AbortSignal;
  /** Citations done so far, of the total. */
  onProgress?: (done: number, total: number) => void;
}

/** The bytes the workspace verified: the file when its health is ok, else the snapshot. */
function localSourceBytes(src: SourceInput, sources: SourcesStore, workspaceDir: string): Uint8Array | null {
  if (src.health === 'ok' && src.path && fs.existsSync(src.path)) return fs.readFileSync(src.path);
  const row = sources.get(src.id);
  if (!row?.snapshot) return null;
  const root = path.resolve(workspaceDir);
  const blob = path.resolve(root, row.snapshot);
  if (!blob.startsWith(root + path.sep) || !fs.existsSync(blob)) return null;
  return fs.readFileSync(blob);
}

/** EXPORT_CANCELLED when the signal has fired. */
export function throwIfCancelled(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new AppError('EXPORT_CANCELLED', 'The export was cancelled; nothing was written.');
}

/** A PDF whose excerpts are drawn: the source and the bytes the workspace verified. */
interface DrawnPdf {
  src: SourceInput;
  bytes: Uint8Array;
}

interface PdfJob {
  ask: PdfExcerptAsk;
  /** The citations that show this excerpt. */
  citationIds: number[];
  /** Its name in the excerpt cache. */
  key?: string;
}

/** Excerpts (or notes saying why there is none) by citation id; citations without a place get nothing. */
export async function excerptsFor(citations: readonly CitationDetail[], deps: ExcerptDeps): Promise<Map<number, PdfExcerptResult>> {
  const out = new Map<number, PdfExcerptResult>();
  const byId = new Map(deps.sourceInputs.map((s) => [s.id, s]));
  const total = citations.length;
  let done = 0;
  const tick = (n: number) => {
    done += n;
    deps.onProgress?.(done, total);
  };

  // Text excerpts at once (each source's stored text read once); PDF ones planned per source, one job per distinct excerpt.
  const segmentsBySource = new Map<number, readonly SegmentRow[]>();
  const segmentsOf = async (id: number) => {
    let segs = segmentsBySource.get(id);
    if (!segs) segmentsBySource.set(id, (segs = await deps.sources.segments(id)));
    return segs;
  };
  const jobsBySource = new Map<number, Map<string, PdfJob>>();
  for (const c of citations) {
    const r = c.result;
    const place = r?.place;
    const src = r && r.sourceId !== null ? byId.get(r.sourceId) : undefined;
    if (!r || !place || !src || (place.unit === 'page' && src.kind !== 'pdf')) {
      tick(1);
      continue;
    }
    if (place.unit !== 'page') {
      const excerpt = textExcerpt(place, await segmentsOf(src.id));
      if (excerpt) out.set(c.id, { excerpt });
      tick(1);
      continue;
    }
    const seg = await deps.sources.pageSegment(src.id, place.at);
    if (!seg) {
      tick(1);
      continue;
    }
    // A quote over a page break: its first page's part.
    const end = place.endAt === place.at ? place.end : (place.firstEnd ?? seg.text.length);
    const key = `${place.at}:${place.start}:${end}`;
    const jobs = jobsBySource.get(src.id) ?? new Map<string, PdfJob>();
    jobsBySource.set(src.id, jobs);
    const job = jobs.get(key);
    if (job) job.citationIds.push(c.id);
    else {
      // A scan read by OCR is boxed from its word boxes (pdf.js reads no text there).
      const ocr = seg.ocr_boxes && seg.item_starts ? { ocr: { itemStarts: JSON.parse(seg.item_starts) as number[], boxes: JSON.parse(seg.ocr_boxes) as [number, number, number, number][] } } : {};
      jobs.set(key, { ask: { page: place.at, pageLabel: seg.page_label, pageText: seg.text, start: place.start, end, ...ocr }, citationIds: [c.id] });
    }
  }

  // The stored text-item geometry of each page still to draw (one copy per page, shared by its excerpts).
  const withGeometry = (sourceId: number, jobs: readonly PdfJob[]): void => {
    const byPage = new Map<number, Float64Array | null>();
    for (const job of jobs) {
      if (job.ask.ocr) continue;
      if (!byPage.has(job.ask.page)) byPage.set(job.ask.page, deps.sources.pageTextItems(sourceId, job.ask.page, job.ask.pageText));
      const items = byPage.get(job.ask.page);
      if (items) job.ask.textItems = items;
    }
  };

  const settle = (job: PdfJob, result: PdfExcerptResult) => {
    for (const id of job.citationIds) out.set(id, result);
  };
  // Excerpts drawn before (another format, an earlier export) are taken from the cache.
  const cache = new ExcerptCache(deps.workspaceDir);
  const toDraw: (DrawnPdf & { jobs: PdfJob[] })[] = [];
  for (const [sourceId, jobs] of jobsBySource) {
    const src = byId.get(sourceId)!;
    const all: PdfJob[] = [];
    for (const job of jobs.values()) {
      job.key = excerptKey(src.sha256, job.ask);
      const kept = cache.get(job.key);
      if (kept) {
        settle(job, { excerpt: kept });
        tick(job.citationIds.length);
      } else all.push(job);
    }
    if (all.length === 0) continue;
    const bytes = await deps.sources.bytes(src);
    if (!bytes) {
      for (const job of all) settle(job, { note: `The excerpt is left out: neither ${src.fileName} nor a snapshot of it could be opened to render.` });
      tick(all.reduce((n, j) => n + j.citationIds.length, 0));
      continue;
    }
    withGeometry(sourceId, all);
    toDraw.push({ src, bytes, jobs: all });
  }
  const keepGeometry = (sourceId: number, page: number, text: string, items: Float64Array): void => {
    try {
      deps.sources.keepPageTextItems(sourceId, page, text, items);
    } catch {
      // Kept only to be faster next time: a workspace that cannot be written still exports.
    }
  };

  const runBatch = async ({ pdf: { src, bytes }, jobs }: ScheduledBatch<DrawnPdf, PdfJob>): Promise<void> => {
    let reported = 0;
    const onProgress = (n: number) => {
      for (; reported < n; reported++) tick(jobs[reported]!.citationIds.length);
    };
    const asks = jobs.map((j) => j.ask);
    const limit = EXCERPT_TIME_LIMIT_MS + PER_EXCERPT_MS * asks.length;
    try {
      const { results, textItems } = deps.pool
        ? await deps.pool.run<PdfExcerptBatchResult>(
            { op: 'pdfExcerpts', bytes, fileName: src.fileName, asks, key: src.sha256 },
            { deadline: Date.now() + limit, onProgress, ...(deps.signal ? { signal: deps.signal } : {}) },
          )
        : await pdfExcerptBatch(bytes, asks, { onProgress, ...(deps.signal ? { signal: deps.signal } : {}) });
      jobs.forEach((job, i) => {
        const result = results[i] ?? { note: 'The excerpt is left out: it was not rendered.' };
        if ('excerpt' in result && 'image' in result.excerpt && job.key) cache.put(job.key, result.excerpt);
        settle(job, result);
      });
      // Pages ingested before their geometry was stored keep what was read now, for the next export.
      for (const { page, items } of textItems) {
        const text = jobs.find((j) => j.ask.page === page)?.ask.pageText;
        if (text !== undefined) keepGeometry(src.id, page, text, items);
      }
    } catch (e) {
      throwIfCancelled(deps.signal);
      const first = asks[0]!;
      const last = asks[asks.length - 1]!;
      const pages = first.page === last.page ? `page ${first.page}` : `pages ${first.page}–${last.page}`;
      const why =
        e instanceof AppError && e.code === 'EXTRACTION_TIMEOUT'
          ? `rendering ${pages} of ${src.fileName} took longer than ${Math.round(limit / 1000)} s`
          : `${pages} of ${src.fileName} could not be rendered (${e instanceof Error ? e.message : String(e)})`;
      for (const job of jobs) settle(job, { note: `The excerpt is left out: ${why}.` });
    }
    onProgress(jobs.length);
  };

  // As many batches at once as the pool has children (a batch's time limit starts when it is
  // handed over, so none waits in the pool's queue); without a pool, one at a time.
  const lanes = deps.pool?.size ?? 1;
  const schedule = new ExcerptSchedule(toDraw.map(({ src, bytes, jobs }) => ({ pdf: { src, bytes }, jobs })), lanes);
  const lane = async (): Promise<void> => {
    for (let batch = schedule.next(); batch; batch = schedule.next()) {
      throwIfCancelled(deps.signal);
      await runBatch(batch);
    }
  };
  await Promise.all(Array.from({ length: lanes }, lane));
  throwIfCancelled(deps.signal);
  return out;
}
