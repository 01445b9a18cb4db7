import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { AppError, toErrorData } from '../../../shared/contract/errors.ts';
import type { IngestFileResult, IngestResult } from '../../../shared/contract/schemas.ts';
import type { EventBus } from '../events.ts';
import { sha256Bytes } from '../hashing/sha256.ts';
import type { BlobStore } from '../store/blobs.ts';
import type { SourcesStore } from '../store/sources-store.ts';
import type { ExtractedDocument } from './extracted.ts';
import { isHidden, kindForPath, SUPPORTED_TYPES_IN_WORDS } from './file-kinds.ts';
import { extractInPool } from './pooled-extract.ts';
import type { WorkerPool } from './worker-pool.ts';

export interface IngestSettings {
  /** Files larger than this are refused with FILE_TOO_LARGE. */
  maxFileBytes: number;
  /** Keep a content-addressed copy of every source (DESIGN.md §3). */
  snapshots: boolean;
  /** Extraction of one file is stopped after this long (EXTRACTION_TIMEOUT). */
  extractionTimeoutMs: number;
}

export interface IngestRequest {
  paths: string[];
  password?: string;
  signal?: AbortSignal;
}

type Skipped = IngestResult['skipped'][number];

function fsError(e: unknown, file: string): AppError {
  const code = (e as NodeJS.ErrnoException).code;
  if (code === 'ENOENT' || code === 'ENOTDIR') {
    return new AppError('FILE_MISSING', `${file} does not exist (it may have been moved or deleted). Check the path and try again.`);
  }
  if (code === 'EACCES' || code === 'EPERM') {
    return new AppError('FILE_UNREADABLE', `${file} cannot be read: permission denied. Give your user read access to it and try again.`);
  }
  if (code === 'EISDIR') return new AppError('FILE_UNREADABLE', `${file} is a folder, not a file.`);
  return new AppError('FILE_UNREADABLE', `${file} cannot be read (${code ?? (e as Error).message}).`);
}

/** Turns paths (files and folders) into stored sources, one file at a time, one transaction each. */
export class IngestService {
  private readonly store: SourcesStore;
  private readonly blobs: BlobStore;
  private readonly events: EventBus;
  /** Read at every batch, so a changed workspace setting applies to the next one. */
  private readonly settings: () => IngestSettings;
  private readonly pool: WorkerPool;
  private readonly running = new Map<string, AbortController>();

  constructor(store: SourcesStore, blobs: BlobStore, events: EventBus, settings: () => IngestSettings, pool: WorkerPool) {
    this.store = store;
    this.blobs = blobs;
    this.events = events;
    this.settings = settings;
    this.pool = pool;
  }

  /** Stops a running batch: files not yet stored are dropped, stored ones stay. */
  cancel(batchId: string): boolean {
    const controller = this.running.get(batchId);
    controller?.abort();
    return controller !== undefined;
  }

  /** Expands folders recursively; hidden entries and unsupported types are listed, never silently dropped. */
  expand(paths: string[]): { files: string[]; skipped: Skipped[] } {
    const files: string[] = [];
    const skipped: Skipped[] = [];
    // Folders already walked, by device and inode: a symlink loop or a second link to the same
    // folder is walked once.
    const seenDirs = new Set<string>();
    const walk = (p: string, explicit: boolean): void => {
      let st: fs.Stats;
      try {
        st = fs.statSync(p);
      } catch {
        files.push(p); // reported per file as FILE_MISSING / FILE_UNREADABLE
        return;
      }
      if (st.isDirectory()) {
        // The workspace's own database and snapshots are never sources.
        if (path.resolve(p) === this.blobs.workspaceDir) {
          skipped.push({ path: p, reason: 'workspace' });
          return;
        }
        const id = `${st.dev}:${st.ino}`;
        if (seenDirs.has(id)) return;
        seenDirs.add(id);
        let entries: string[];
        try {
          entries = fs.readdirSync(p).sort((a, b) => a.localeCompare(b));
        } catch {
          files.push(p);
          return;
        }
        for (const name of entries) {
          const child = path.join(p, name);
          if (isHidden(child)) skipped.push({ path: child, reason: 'hidden' });
          else walk(child, false);
        }
        return;
      }
      if (!st.isFile()) {
        skipped.push({ path: p, reason: 'not_a_file' });
        return;
      }
      if (!explicit && kindForPath(p) === null) {
        skipped.push({ path: p, reason: 'unsupported_type' });
        return;
      }
      files.push(p);
    };
    for (const p of paths) walk(path.resolve(p), true);
    return { files, skipped };
  }

  async ingest(req: IngestRequest): Promise<IngestResult> {
    const batchId = randomUUID();
    const controller = new AbortController();
    req.signal?.addEventListener('abort', () => controller.abort(), { once: true });
    this.running.set(batchId, controller);
    const { files, skipped } = this.expand(req.paths);
    const settings = this.settings();
    const results: IngestFileResult[] = new Array(files.length);
    // Same bytes twice in one batch: the second waits for the first and becomes a duplicate.
    const inFlight = new Map<string, Promise<unknown>>();
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < files.length && !controller.signal.aborted) {
        const index = next++;
        const file = files[index] ?? '';
        const progress = (phase: 'hashing' | 'extracting' | 'storing' | 'done' | 'failed', page?: number, pageCount?: number): void => {
          this.events.emit({ type: 'ingest.progress', batchId, fileIndex: index, fileCount: files.length, path: file, phase, page, pageCount });
        };
        try {
          results[index] = await this.ingestFile(file, { ...req, signal: controller.signal }, settings, progress, inFlight);
          progress('done');
        } catch (e) {
          results[index] = { ok: false, path: file, error: toErrorData(e) };
          progress('failed');
        }
      }
    };
    try {
      // As many files at once as there are workers; a long PDF still spreads over all of them.
      await Promise.all(Array.from({ length: Math.min(this.pool.size, files.length) }, worker));
    } finally {
      this.running.delete(batchId);
    }
    const done = results.filter((r): r is IngestFileResult => r !== undefined);
    if (done.some((r) => r.ok)) this.events.emit({ type: 'sources.changed' });
    return { batchId, files: done, skipped, cancelled: controller.signal.aborted };
  }

  private async ingestFile(
    file: string,
    req: IngestRequest,
    settings: IngestSettings,
    progress: (phase: 'hashing' | 'extracting' | 'storing', page?: number, pageCount?: number) => void,
    inFlight: Map<string, Promise<unknown>>,
  ): Promise<IngestFileResult> {
    const name = path.basename(file);
    const kind = kindForPath(file);
    if (kind === null) {
      throw new AppError('UNSUPPORTED_TYPE', `${name}: files of type "${path.extname(file) || '(no extension)'}" are not supported. Evidence Desk reads ${SUPPORTED_TYPES_IN_WORDS}.`);
    }
    let stat: fs.Stats;
    try {
      stat = await fs.promises.stat(file);
    } catch (e) {
      throw fsError(e, file);
    }
    if (!stat.isFile()) throw new AppError('FILE_UNREADABLE', `${file} is not a regular file.`);
    if (stat.size === 0) throw new AppError('FILE_EMPTY', `${name} is empty (0 bytes); there is nothing to ingest.`);
    if (stat.size > settings.maxFileBytes) {
      throw new AppError('FILE_TOO_LARGE', `${name} is ${(stat.size / 1048576).toFixed(1)} MB, over the ${(settings.maxFileBytes / 1048576).toFixed(0)} MB limit for one file. Split it or raise the limit in the workspace settings.`);
    }
    progress('hashing');
    let bytes: Uint8Array;
    try {
      bytes = await fs.promises.readFile(file);
    } catch (e) {
      throw fsError(e, file);
    }
    const sha256 = sha256Bytes(bytes);
    const fileStat = { size: stat.size, mtimeMs: stat.mtimeMs };
    const earlier = inFlight.get(sha256);
    if (earlier) await earlier.catch(() => undefined);
    let settle = (): void => undefined;
    inFlight.set(sha256, new Promise<void>((resolve) => (settle = resolve)));
    try {
      return await this.storeFile(file, name, kind, bytes, sha256, fileStat, req, settings, progress);
    } finally {
      settle();
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
    progress: (phase: 'hashing' | 'extracting' | 'storing', page?: number, pageCount?: number) => void,
  ): Promise<IngestFileResult> {
    const existing = this.store.findBySha(sha256);
    if (existing) {
      this.store.touchPath(existing.id, file, fileStat, new Date().toISOString());
      return { ok: true, path: file, sourceId: existing.id, sha256, outcome: 'duplicate', segmentCount: existing.segment_count, warnings: [] };
    }

    progress('extracting');
    const doc: ExtractedDocument = await extractInPool(this.pool, kind, bytes, {
      fileName: name,
      deadline: Date.now() + settings.extractionTimeoutMs,
      onProgress: (page, pageCount) => progress('extracting', page, pageCount),
      ...(req.password !== undefined ? { password: req.password } : {}),
      ...(req.signal !== undefined ? { signal: req.signal } : {}),
    });
    if (req.signal?.aborted) throw new AppError('CANCELLED', `Ingestion of ${name} was cancelled.`);

    progress('storing');
    const now = new Date().toISOString();
    const predecessor = this.store.findByCurrentPath(file);
    const snapshot = settings.snapshots ? this.blobs.put(sha256, bytes) : null;
    const sourceId = this.store.insert(
      { sha256, fileName: name, byteSize: bytes.length, path: file, stat: fileStat, doc, snapshot, predecessorId: predecessor?.id ?? null },
      now,
    );
    return {
      ok: true,
      path: file,
      sourceId,
      sha256,
      outcome: predecessor ? 'new_version' : 'added',
      segmentCount: doc.segments.length,
      warnings: doc.warnings,
    };
  }
}
