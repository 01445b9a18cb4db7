// An extraction child process: documents are untrusted input, so parsing runs here, with a heap
// cap and a time limit enforced by the pool, never in the app's own process. It runs as a Node
// child (child_process.fork, IPC with structured clone) or as an Electron utility process
// (process.parentPort); both carry the same messages.
import { getHeapStatistics } from 'node:v8';
import { toErrorData } from '../../../shared/contract/errors.ts';
import type { SourceKind } from '../../../shared/contract/schemas.ts';
import { extract } from './extractors/index.ts';
import { countPdfPages, extractPdfPart } from './extractors/pdf.ts';
import { keepEngineBetweenDocuments } from './ocr/ocr-engine.ts';
import type { OcrOptions } from './ocr/ocr-page.ts';
import { forgetPdf, keptPdfPart } from './kept-pdf.ts';
import { viewableContent } from './viewable.ts';
import type { PdfExcerptAsk } from '../export/pdf-excerpt.ts';
import { pdfExcerptBatch } from '../export/pdf-excerpt-batch.ts';

export type WorkerRequest =
  | { id: number; op: 'extract'; kind: SourceKind; bytes: Uint8Array; fileName: string; password?: string; reader?: boolean; ocr?: OcrOptions | false }
  | { id: number; op: 'countPdfPages'; bytes: Uint8Array; fileName: string; password?: string }
  /**
   * Pages of a PDF. With `doc` (a key for one document's extraction) the child keeps the bytes for
   * its next ranges of it, and the pool sends `bytes` only to a child that does not hold them yet
   * (kept-pdf.ts); it sends `forgetPdf` when the document is done.
   */
  | { id: number; op: 'pdfPart'; bytes: Uint8Array; doc?: string; fileName: string; password?: string; firstPage: number; lastPage: number; maxPages?: number; ocr?: OcrOptions | false }
  | { id: number; op: 'view'; kind: SourceKind; bytes: Uint8Array; fileName: string; reader?: boolean }
  /** Evidence excerpts of a report (issue 9): bands of some pages of one PDF, one result per ask; `key` (its SHA-256) keeps it open for the next batch. */
  | { id: number; op: 'pdfExcerpts'; bytes: Uint8Array; fileName: string; asks: PdfExcerptAsk[]; key?: string };

/** Asks the child to stop task `id` at its next safe point (between pages, between steps) and reply. */
export interface CancelRequest {
  id: number;
  op: 'cancel';
}

/** Drops the kept bytes of document `doc` (see the pdfPart request); not a task, so no reply. */
export interface ForgetPdfRequest {
  op: 'forgetPdf';
  doc: string;
}

export type WorkerReply =
  | { id: number; type: 'progress'; page: number; pageCount: number; stage?: 'ocr' }
  | { id: number; type: 'done'; result: unknown }
  | { id: number; type: 'error'; error: ReturnType<typeof toErrorData> };

interface ParentPortLike {
  on(event: 'message', listener: (event: { data: unknown }) => void): void;
  postMessage(message: unknown): void;
}

type Transport = { receive(listener: (message: unknown) => void): void; reply(message: WorkerReply): void };

function transport(): Transport | null {
  const parentPort = (process as unknown as { parentPort?: ParentPortLike }).parentPort;
  if (parentPort) {
    return { receive: (fn) => parentPort.on('message', (e) => fn(e.data)), reply: (m) => parentPort.postMessage(m) };
  }
  const send = process.send?.bind(process);
  if (!send) return null;
  // The parent went away (it crashed or was killed): nothing is waiting for our work.
  process.on('disconnect', () => process.exit(0));
  return { receive: (fn) => process.on('message', fn), reply: (m) => void send(m) };
}

const running = new Map<number, AbortController>();

function run(req: WorkerRequest, reply: (m: WorkerReply) => void): void {
  const controller = new AbortController();
  running.set(req.id, controller);
  const ctx = {
    fileName: req.fileName,
    signal: controller.signal,
    onProgress: (page: number, pageCount: number, stage?: 'ocr') => reply({ id: req.id, type: 'progress', page, pageCount, ...(stage ? { stage } : {}) }),
    ...('password' in req && req.password !== undefined ? { password: req.password } : {}),
    ...('ocr' in req && req.ocr !== undefined ? { ocr: req.ocr } : {}),
  };
  const work = async (): Promise<unknown> => {
    switch (req.op) {
      case 'extract':
        return extract(req.kind, req.bytes, req.reader ? { ...ctx, reader: true } : ctx);
      case 'countPdfPages':
        return countPdfPages(req.bytes, ctx);
      case 'view':
        return viewableContent(req.kind, req.bytes, req.fileName, req.reader === true);
      case 'pdfExcerpts':
        return pdfExcerptBatch(req.bytes, req.asks, req.key !== undefined ? { ...ctx, key: req.key } : ctx);
      case 'pdfPart': {
        const range = { ...ctx, firstPage: req.firstPage, lastPage: req.lastPage, ...(req.maxPages !== undefined ? { maxPages: req.maxPages } : {}) };
        // A kept document's later ranges arrive without their bytes (worker-pool.ts).
        return req.doc !== undefined ? keptPdfPart(req.doc, req.bytes as Uint8Array | undefined, range) : extractPdfPart(req.bytes, range);
      }
    }
  };
  work().then(
    (result) => reply({ id: req.id, type: 'done', result }),
    (e: unknown) => reply({ id: req.id, type: 'error', error: toErrorData(e) }),
  ).finally(() => running.delete(req.id));
}

/** Below this V8 heap size a finished document leaves nothing worth a full collection (a fresh child's is ~12 MB). */
const RELEASE_FROM_HEAP_BYTES = 40 * 1024 * 1024;

/**
 * Hands back what the heap grew to while reading a document, once the document is done (issue 16
 * item 5). V8 keeps the pages its heap grew to (its memory reducer waits for seconds of idleness,
 * and did not shrink an idle child within 2 s): a child that had read 1,224 pages of the R manual
 * stayed at ~125 MB private memory between documents, and fell to ~58 after this collection
 * (which shrinks the heap to its live size, ~16 MB). It takes ~150 ms, so it runs only when the
 * heap has grown (a run of small PDFs pays it now and then, not once each), never between a
 * document's ranges (there it cost ~30% more CPU for ~10 MB). Needs --expose-gc (extractor-process.ts).
 */
function releaseMemory(): void {
  if (getHeapStatistics().total_heap_size < RELEASE_FROM_HEAP_BYTES) return;
  globalThis.gc?.({ type: 'major', execution: 'sync', flavor: 'last-resort' });
}

const channel = transport();
if (channel) {
  // One OCR engine per child, kept between documents (its model loads once).
  keepEngineBetweenDocuments();
  channel.receive((message) => {
    const req = message as WorkerRequest | CancelRequest | ForgetPdfRequest;
    if (req.op === 'cancel') running.get(req.id)?.abort();
    else if (req.op === 'forgetPdf') {
      forgetPdf(req.doc);
      releaseMemory();
    } else run(req, channel.reply);
  });
}
