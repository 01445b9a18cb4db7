// A worker thread that extracts text: documents are untrusted input, so parsing runs here, with a
// memory cap and a time limit enforced by the pool, never on the main thread.
import { parentPort } from 'node:worker_threads';
import { toErrorData } from '../../../shared/contract/errors.ts';
import type { SourceKind } from '../../../shared/contract/schemas.ts';
import { extract } from './extractors/index.ts';
import { countPdfPages, extractPdfPart } from './extractors/pdf.ts';
import { viewableContent } from './viewable.ts';

export type WorkerRequest =
  | { id: number; op: 'extract'; kind: SourceKind; bytes: Uint8Array; fileName: string; password?: string }
  | { id: number; op: 'countPdfPages'; bytes: Uint8Array; fileName: string; password?: string }
  | { id: number; op: 'pdfPart'; bytes: Uint8Array; fileName: string; password?: string; firstPage: number; lastPage: number; maxPages?: number }
  | { id: number; op: 'view'; kind: SourceKind; bytes: Uint8Array; fileName: string };

export type WorkerReply =
  | { id: number; type: 'progress'; page: number; pageCount: number }
  | { id: number; type: 'done'; result: unknown }
  | { id: number; type: 'error'; error: ReturnType<typeof toErrorData> };

const port = parentPort;
if (port) {
  port.on('message', (req: WorkerRequest) => {
    const ctx = {
      fileName: req.fileName,
      onProgress: (page: number, pageCount: number) => port.postMessage({ id: req.id, type: 'progress', page, pageCount } satisfies WorkerReply),
      ...('password' in req && req.password !== undefined ? { password: req.password } : {}),
    };
    const work =
      req.op === 'extract'
        ? extract(req.kind, req.bytes, ctx)
        : req.op === 'countPdfPages'
          ? countPdfPages(req.bytes, ctx)
          : req.op === 'view'
            ? viewableContent(req.kind, req.bytes, req.fileName)
            : extractPdfPart(req.bytes, { ...ctx, firstPage: req.firstPage, lastPage: req.lastPage, ...(req.maxPages !== undefined ? { maxPages: req.maxPages } : {}) });
    work.then(
      (result) => port.postMessage({ id: req.id, type: 'done', result } satisfies WorkerReply),
      (e: unknown) => port.postMessage({ id: req.id, type: 'error', error: toErrorData(e) } satisfies WorkerReply),
    );
  });
}
