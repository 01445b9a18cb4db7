import os from 'node:os';
import { Worker } from 'node:worker_threads';
import { AppError, type ErrorData } from '../../../shared/contract/errors.ts';
import { asarUnpackedUrl } from './asar-unpacked.ts';
import type { WorkerReply, WorkerRequest } from './extract-worker.ts';

type Request = WorkerRequest extends infer R ? (R extends WorkerRequest ? Omit<R, 'id'> : never) : never;

export interface RunOptions {
  /** Absolute deadline (Date.now() based) after which the task's worker is killed. */
  deadline?: number;
  signal?: AbortSignal;
  onProgress?: (page: number, pageCount: number) => void;
}

interface Task {
  id: number;
  request: Request;
  options: RunOptions;
  resolve(value: unknown): void;
  reject(error: AppError): void;
}

interface Slot {
  worker: Worker;
  task: Task | null;
  timer: NodeJS.Timeout | null;
}

const YOUNG_GENERATION_MB = 16;

/** The worker script beside this file (source, run by Node 24 directly) or beside the bundle. */
function workerUrl(): URL {
  const here = import.meta.url;
  return here.endsWith('.ts') ? new URL('./extract-worker.ts', here) : asarUnpackedUrl(new URL('../workers/extract-worker.mjs', here));
}

export interface PoolOptions {
  size?: number;
  /** Heap cap per worker: a hostile document kills its worker, not the app. */
  maxHeapMb?: number;
}

/**
 * Extraction workers, as many as cores. A task that passes its deadline, is cancelled, or crashes
 * its worker gets a coded error, and its worker is replaced; the other tasks go on.
 */
export class WorkerPool {
  readonly size: number;
  private readonly maxHeapMb: number;
  private readonly slots: Slot[] = [];
  private readonly queue: Task[] = [];
  private nextId = 1;
  private closed = false;
  /** Workers being terminated still hold their memory: they count against the size until gone. */
  private retiring = 0;

  constructor(options: PoolOptions = {}) {
    this.size = Math.max(1, options.size ?? os.availableParallelism());
    this.maxHeapMb = options.maxHeapMb ?? 256;
  }

  run<T>(request: Request, options: RunOptions = {}): Promise<T> {
    if (this.closed) return Promise.reject(new AppError('CANCELLED', 'The extraction pool is closed.'));
    return new Promise<T>((resolve, reject) => {
      const task: Task = { id: this.nextId++, request, options, resolve: resolve as (v: unknown) => void, reject };
      if (options.signal?.aborted) {
        reject(cancelled(request.fileName));
        return;
      }
      options.signal?.addEventListener('abort', () => this.abort(task), { once: true });
      this.queue.push(task);
      this.pump();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const t of this.queue.splice(0)) t.reject(new AppError('CANCELLED', 'The extraction pool was closed.'));
    await Promise.all(this.slots.splice(0).map((s) => s.worker.terminate()));
  }

  private pump(): void {
    while (this.queue.length > 0) {
      let slot = this.slots.find((s) => s.task === null);
      if (!slot && this.slots.length + this.retiring < this.size) slot = this.spawn();
      if (!slot) return;
      const task = this.queue.shift();
      if (task) this.start(slot, task);
    }
  }

  private spawn(): Slot {
    // Measured on a 2,415-page PDF with two workers (npm run bench -- ingest): V8 keeps every heap
    // page it ever grew to, so uncapped workers peaked at ~610 MB; a 16 MB young generation and a
    // 256 MB old generation give ~390 MB at the same speed (0.85× pdftotext). A page range's live
    // data is far below the cap, so only a hostile or runaway document reaches it.
    const worker = new Worker(workerUrl(), { resourceLimits: { maxOldGenerationSizeMb: this.maxHeapMb, maxYoungGenerationSizeMb: YOUNG_GENERATION_MB } });
    const slot: Slot = { worker, task: null, timer: null };
    worker.on('message', (reply: WorkerReply) => this.onReply(slot, reply));
    worker.on('error', (e: Error & { code?: string }) => {
      const name = slot.task?.request.fileName ?? 'a file';
      const { doing, outcome } = wordsFor(slot.task?.request);
      const error =
        e.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? new AppError('EXTRACTION_FAILED', `${name} needs more memory than one document may use (${this.maxHeapMb} MB). It may be malformed or hostile; ${outcome}`)
          : new AppError('EXTRACTION_FAILED', `${doing} ${name} crashed its worker (${e.message}). ${capitalise(outcome)}`);
      this.finish(slot, error, true);
    });
    worker.on('exit', () => {
      if (slot.task) this.finish(slot, new AppError('EXTRACTION_FAILED', `The worker ${wordsFor(slot.task.request).doing.toLowerCase()} ${slot.task.request.fileName} stopped unexpectedly. ${capitalise(wordsFor(slot.task.request).outcome)}`), true);
    });
    // Idle workers must not keep the process alive.
    worker.unref();
    this.slots.push(slot);
    return slot;
  }

  private start(slot: Slot, task: Task): void {
    slot.task = task;
    slot.worker.ref();
    const { deadline } = task.options;
    if (deadline !== undefined) {
      const ms = Math.max(0, deadline - Date.now());
      slot.timer = setTimeout(() => {
        this.finish(slot, new AppError('EXTRACTION_TIMEOUT', `${task.request.fileName} took longer than the extraction time limit and was stopped; ${wordsFor(task.request).outcome} It may be malformed; if it is just very large, raise the limit in the workspace settings.`), true);
      }, ms);
    }
    const message = { ...task.request, id: task.id } as WorkerRequest;
    slot.worker.postMessage(message);
  }

  private onReply(slot: Slot, reply: WorkerReply): void {
    const task = slot.task;
    if (!task || reply.id !== task.id) return;
    if (reply.type === 'progress') task.options.onProgress?.(reply.page, reply.pageCount);
    else if (reply.type === 'done') this.finish(slot, null, false, reply.result);
    else this.finish(slot, fromData(reply.error), false);
  }

  private abort(task: Task): void {
    const queued = this.queue.indexOf(task);
    if (queued >= 0) {
      this.queue.splice(queued, 1);
      task.reject(cancelled(task.request.fileName));
      return;
    }
    const slot = this.slots.find((s) => s.task === task);
    if (slot) this.finish(slot, cancelled(task.request.fileName), true);
  }

  private finish(slot: Slot, error: AppError | null, replaceWorker: boolean, result?: unknown): void {
    const task = slot.task;
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = null;
    slot.task = null;
    if (replaceWorker) {
      this.slots.splice(this.slots.indexOf(slot), 1);
      slot.worker.removeAllListeners();
      this.retiring++;
      void slot.worker.terminate().finally(() => {
        this.retiring--;
        if (!this.closed) this.pump();
      });
    } else {
      slot.worker.unref();
    }
    if (task) {
      if (error) task.reject(error);
      else task.resolve(result);
    }
    if (!this.closed) this.pump();
  }
}

function cancelled(fileName: string): AppError {
  return new AppError('CANCELLED', `Ingestion of ${fileName} was cancelled.`);
}

/** Workers serve ingestion and the viewer alike: a failure says which of the two it stopped. */
function wordsFor(request: Request | undefined): { doing: string; outcome: string } {
  return request?.op === 'view'
    ? { doing: 'Converting', outcome: 'it cannot be shown in the viewer.' }
    : { doing: 'Extracting', outcome: 'it was not ingested.' };
}

function capitalise(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

function fromData(data: ErrorData): AppError {
  return new AppError(data.code, data.message, data.details);
}
