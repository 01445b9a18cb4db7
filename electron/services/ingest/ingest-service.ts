import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { AppError, toErrorData } from '../../../shared/contract/errors.ts';
import type { IngestFileResult, IngestResult, SkippedEntry } from '../../../shared/contract/schemas.ts';
import type { EventBus } from '../events.ts';
import { sha256Bytes } from '../hashing/sha256.ts';
import type { BlobStore } from '../store/blobs.ts';
import type { IngestArea } from '../store/evidence-store.ts';
import { MAX_GROUP } from '../store/group-commit.ts';
import type { ExtractedDocument } from './extracted.ts';
import { kindForPath, SUPPORTED_TYPES_IN_WORDS } from './file-kinds.ts';
import { walkPaths, type FoundFile } from './folder-walk.ts';
import { openRegularFile, readExactly } from './regular-file.ts';
import { Permits, WorkQueue } from './work-queue.ts';
import { extractInPool, IN_PROCESS_TEXT_BYTES } from './pooled-extract.ts';
import { requireLanguages } from './ocr/ocr-languages.ts';
import type { WorkerPool } from './worker-pool.ts';

export interface IngestSettings {
  /** Files larger than this are refused with FILE_TOO_LARGE. */
  maxFileBytes: number;
  /** Keep a content-addressed copy of every source (DESIGN.md §3). */
  snapshots: boolean;
  /** Extraction of one file is stopped after this long (EXTRACTION_TIMEOUT). */
  extractionTimeoutMs: number;
  /** PDFs with more pages are refused (PDF_TOO_MANY_PAGES) before any page is read. */
  maxPdfPages: number;
}

export interface IngestRequest {
  paths: string[];
  password?: string;
  /** Follow links out of the chosen folders (never to FIFOs, sockets or devices). */
  followSymlinks?: boolean;
  /** OCR of PDF pages without a text layer: on unless false (`--no-ocr`). */
  ocr?: boolean;
  /** OCR languages (tesseract codes, installed models only); English when not given. */
  ocrLanguages?: string[];
  signal?: AbortSignal;
}

/** At most this often the walk reports how far it has got (and what it skipped). */
const WALK_EVENT_MS = 100;
/**
 * Files extracted and waiting for their group's commit, at most, before a worker waits: workers go
 * on to the next file while a group is written (room for a whole group to gather beside the one
 * committing), and what waits stays small: at most this many files, and this many of their bytes.
 */
const MAX_WAITING_STORES = 2 * MAX_GROUP;
const MAX_WAITING_BYTES = 64 * 1024 * 1024;

/**
 * Files handled at once. Small plain-text files are extracted in this process (pooled-extract.ts),
 * so many at once keep the disk busy and the group commits full; any other file holds one of the
 * pool's places (Permits) from its read to the end of its extraction, so no more large files are
 * in memory than there are extraction workers.
 */
const FILES_AT_ONCE = 16;

/** A file read and extracted: its result once its group has committed, and its size (what it holds while it waits). */
interface Extracted {
  committed: Promise<IngestFileResult>;
  bytes: number;
}

/** Kept in an object so that awaiting the extraction does not also await the commit. */
function wrap(committed: Promise<IngestFileResult>, bytes = 0): Extracted {
  return { committed, bytes };
}

/**
 * Turns paths (files and folders) into stored sources, through the store's ingest area on either
 * engine. Each document is stored all-or-nothing; on SQLite documents stored close together share
 * one transaction (GroupCommit), so small files are not paced by the disk's flushes.
 */
export class IngestService {
  private readonly store: IngestArea;
  private readonly blobs: BlobStore;
  private readonly events: EventBus;
  /** Read at every batch, so a changed workspace setting applies to the next one. */
  private readonly settings: () => IngestSettings;
  private readonly pool: WorkerPool;
  private readonly running = new Map<string, AbortController>();

  /** `blobs` names the workspace folder a folder walk leaves out; the snapshots are the store's. */
  constructor(store: IngestArea, blobs: BlobStore, events: EventBus, settings: () => IngestSettings, pool: WorkerPool) {
    this.store = store;
    this.blobs = blobs;
    this.events = events;
    this.settings = settings;
    this.pool = pool;
  }

  /** Ends the engine's ingest writer, if one is running (after the group it is writing). */
  close(): Promise<void> {
    return this.store.close();
  }

  /** Stops a running batch: files not yet stored are dropped, stored ones stay. */
  cancel(batchId: string): boolean {
    const controller = this.running.get(batchId);
    controller?.abort();
    return controller !== undefined;
  }

  async ingest(req: IngestRequest): Promise<IngestResult> {
    // A language without a model refuses the batch before any file is read, naming what to install.
    if (req.ocr !== false) req = { ...req, ocrLanguages: requireLanguages(req.ocrLanguages ?? []) };
    const batchId = randomUUID();
    const controller = new AbortController();
    req.signal?.addEventListener('abort', () => controller.abort(), { once: true });
    this.running.set(batchId, controller);
    const settings = this.settings();
    const results: IngestFileResult[] = [];
    const skipped: SkippedEntry[] = [];
    // Same bytes twice in one batch: the second waits for the first and becomes a duplicate.
    const inFlight = new Map<string, Promise<unknown>>();
    const queue = new WorkQueue<{ index: number; item: FoundFile | { type: 'failed'; path: string; error: AppError } }>(256);
    controller.signal.addEventListener('abort', () => queue.clear(), { once: true });

    // The walk runs beside the ingestion: files are ingested as they are found.
    const stats = { entries: 0 };
    let found = 0;
    let walking = true;
    let unreported: SkippedEntry[] = [];
    let lastWalkEvent = 0;
    const walkEvent = (done: boolean): void => {
      this.events.emit({ type: 'ingest.walk', batchId, entries: stats.entries, files: found, skipped: unreported, done });
      unreported = [];
      lastWalkEvent = Date.now();
    };
    walkEvent(false);
    const walk = async (): Promise<void> => {
      try {
        const options = { followSymlinks: req.followSymlinks === true, signal: controller.signal, excludeDir: this.blobs.workspaceDir };
        for await (const item of walkPaths(req.paths, options, stats)) {
          if (item.type === 'skip') {
            skipped.push(item.entry);
            unreported.push(item.entry);
          } else {
            await queue.push({ index: found++, item });
          }
          if (Date.now() - lastWalkEvent >= WALK_EVENT_MS) walkEvent(false);
        }
      } catch (e) {
        if (!(e instanceof AppError && e.code === 'CANCELLED')) throw e;
      } finally {
        walking = false;
        queue.close();
        walkEvent(true);
      }
    };
    const waiting = new Set<Promise<void>>();
    let waitingBytes = 0;
    const heavy = new Permits(this.pool.size);
    const worker = async (): Promise<void> => {
      for (let job = await queue.take(); job && !controller.signal.aborted; job = await queue.take()) {
        const { index, item } = job;
        const file = item.path;
        const progress = (phase: 'hashing' | 'extracting' | 'storing' | 'done' | 'failed', page?: number, pageCount?: number, stage?: 'ocr'): void => {
          this.events.emit({ type: 'ingest.progress', batchId, fileIndex: index, fileCount: found, path: file, phase, page, pageCount, ...(stage ? { ocr: true } : {}), ...(walking ? { walking } : {}) });
        };
        if (item.type === 'failed') {
          results[index] = { ok: false, path: file, error: item.error.toData() };
          progress('failed');
          continue;
        }
        const failed = (e: unknown): void => {
          results[index] = { ok: false, path: file, error: toErrorData(e) };
          progress('failed');
        };
        try {
          const { committed, bytes } = await this.ingestFile(item, { ...req, signal: controller.signal }, settings, progress, inFlight, heavy);
          // The worker goes on to the next file while this one waits for its group's commit.
          const stored: Promise<void> = committed
            .then((result) => {
              results[index] = result;
              progress('done');
            }, failed)
            .finally(() => {
              waiting.delete(stored);
              waitingBytes -= bytes;
            });
          waiting.add(stored);
          waitingBytes += bytes;
          while (waiting.size >= MAX_WAITING_STORES || (waiting.size > 0 && waitingBytes >= MAX_WAITING_BYTES)) await Promise.race(waiting);
        } catch (e) {
          failed(e);
        }
      }
    };
    // FILES_AT_ONCE files at once, at most as many large ones as there are workers; a long PDF
    // still spreads over all of them. All settle before the batch ends, so no file is still being stored when the result is returned.
    const settled = await Promise.allSettled([walk(), ...Array.from({ length: Math.max(this.pool.size, FILES_AT_ONCE) }, worker)]);
    await Promise.allSettled([...waiting]);
    this.running.delete(batchId);
    const failure = settled.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failure) throw failure.reason;
    const done = results.filter((r): r is IngestFileResult => r !== undefined);
    if (done.some((r) => r.ok)) this.events.emit({ type: 'sources.changed' });
    return { batchId, files: done, skipped, cancelled: controller.signal.aborted };
  }

  private async ingestFile(
    found: FoundFile,
    req: IngestRequest,
    settings: IngestSettings,
    progress: (phase: 'hashing' | 'extracting' | 'storing', page?: number, pageCount?: number, stage?: 'ocr') => void,
    inFlight: Map<string, Promise<unknown>>,
    heavy: Permits,
  ): Promise<Extracted> {
    const file = found.path;
    const name = path.basename(file);
    const kind = kindForPath(file);
    if (kind === null) {
      throw new AppError('UNSUPPORTED_TYPE', `${name}: files of type "${path.extname(file) || '(no extension)'}" are not supported. Evidence Desk reads ${SUPPORTED_TYPES_IN_WORDS}.`);
    }
    // Any file but plain text holds a place from before it is opened (a file is opened when its
    // turn comes, not long before); plain text over the in-process cap takes one once its size is known.
    let release: (() => void) | null = kind === 'text' ? null : await heavy.acquire();
    try {
      // The size caps are checked on the opened handle's fstat, before a byte is read.
      const opened = await openRegularFile(found);
      const stat = opened.stat;
      let bytes: Uint8Array;
      try {
        if (stat.size === 0) throw new AppError('FILE_EMPTY', `${name} is empty (0 bytes); there is nothing to ingest.`);
        if (stat.size > settings.maxFileBytes) {
          throw new AppError('FILE_TOO_LARGE', `${name} is ${(stat.size / 1048576).toFixed(1)} MB, over the ${(settings.maxFileBytes / 1048576).toFixed(0)} MB limit for one file. Split it or raise the limit in the workspace settings.`);
        }
        release ??= stat.size > IN_PROCESS_TEXT_BYTES ? await heavy.acquire() : null;
        progress('hashing');
        bytes = await readExactly(opened, file);
      } finally {
        await opened.handle.close().catch(() => undefined);
      }
      return await this.hashAndStore(file, name, kind, bytes, { size: stat.size, mtimeMs: stat.mtimeMs }, req, settings, progress, inFlight);
    } finally {
      release?.();
    }
  }

  private async hashAndStore(
    file: string,
    name: string,
    kind: NonNullable<ReturnType<typeof kindForPath>>,
    bytes: Uint8Array,
    fileStat: { size: number; mtimeMs: number },
    req: IngestRequest,
    settings: IngestSettings,
    progress: (phase: 'hashing' | 'extracting' | 'storing', page?: number, pageCount?: number, stage?: 'ocr') => void,
    inFlight: Map<string, Promise<unknown>>,
  ): Promise<Extracted> {
    const sha256 = sha256Bytes(bytes);
    const earlier = inFlight.get(sha256);
    if (earlier) await earlier.catch(() => undefined);
    let settle = (): void => undefined;
    inFlight.set(sha256, new Promise<void>((resolve) => (settle = resolve)));
    try {
      const extracted = await this.storeFile(file, name, kind, bytes, sha256, fileStat, req, settings, progress);
      // The same bytes later in the batch wait until this file is stored (or failed).
      void extracted.committed.then(settle, settle);
      return extracted;
    } catch (e) {
      settle();
      throw e;
    }
  }

  private async storeFile(
    file: string,
    name: string,
    kind: NonNullable<ReturnType<typeof kindForPath>>,
    bytes: Uint8Array,
    sha256: string,
    fileStat: { size: number; mtimeMs: number },
    req: IngestRequest,
    settings: IngestSettings,
    progress: (phase: 'hashing' | 'extracting' | 'storing', page?: number, pageCount?: number, stage?: 'ocr') => void,
  ): Promise<Extracted> {
    const existing = await this.store.findBySha(sha256);
    if (existing) {
      return wrap(this.store.seen(existing.id, file, fileStat).then(
        (): IngestFileResult => ({ ok: true, path: file, sourceId: existing.id, sha256, outcome: 'duplicate', segmentCount: existing.segment_count, warnings: [] }),
      ));
    }

    progress('extracting');
    const doc: ExtractedDocument = await extractInPool(this.pool, kind, bytes, {
      fileName: name,
      deadline: Date.now() + settings.extractionTimeoutMs,
      maxPages: settings.maxPdfPages,
      onProgress: (page, pageCount, stage) => progress('extracting', page, pageCount, stage),
      ocr: req.ocr === false ? false : { languages: req.ocrLanguages ?? [] },
      ...(req.password !== undefined ? { password: req.password } : {}),
      ...(req.signal !== undefined ? { signal: req.signal } : {}),
    });
    if (req.signal?.aborted) throw new AppError('CANCELLED', `Ingestion of ${name} was cancelled.`);

    progress('storing');
    const byteSize = bytes.length;
    const { committed } = await this.store.add({ sha256, fileName: name, bytes, path: file, stat: fileStat, doc, snapshot: settings.snapshots });
    return wrap(committed.then((stored): IngestFileResult => ({
      ok: true,
      path: file,
      sourceId: stored.sourceId,
      sha256,
      outcome: stored.outcome,
      segmentCount: stored.segmentCount,
      warnings: stored.outcome === 'duplicate' ? [] : doc.warnings,
    })), byteSize);
  }
}
