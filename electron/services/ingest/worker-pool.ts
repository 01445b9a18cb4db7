import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { AppError, type ErrorData } from '../../../shared/contract/errors.ts';
import { asarUnpackedUrl } from './asar-unpacked.ts';
import type { CancelRequest, ForgetPdfRequest, WorkerReply, WorkerRequest } from './extract-worker.ts';
import { forkNodeExtractor, type ChildExit, type ExtractorChild, type LaunchExtractor } from './extractor-process.ts';

type Request = WorkerRequest extends infer R ? (R extends WorkerRequest ? Omit<R, 'id'> : never) : never;

export interface RunOptions {
  /** Absolute deadline (Date.now() based) after which the task is stopped with EXTRACTION_TIMEOUT. */
  deadline?: number;
  signal?: AbortSignal;
  onProgress?: (page: number, pageCount: number, stage?: 'ocr') => void;
}

interface Task {
  id: number;
  request: Request;
  options: RunOptions;
  resolve(value: unknown): void;
  reject(error: AppError): void;
  /** Run again once already, after a child that had served earlier tasks died under it. */
  retried?: boolean;
}

/**
 * idle: ready for a task. busy: running one. stopping: its task was cancelled or timed out and
 * already answered; the child has been asked to stop and the slot waits for its reply (or kills
 * it after the grace period).
 */
interface Slot {
  child: ExtractorChild;
  state: 'idle' | 'busy' | 'stopping';
  task: Task | null;
  timer: NodeJS.Timeout | null;
  /** Tasks this child has started, the current one included. */
  served: number;
  /** The document (pdfPart `doc`) whose bytes this child holds: its later ranges go without them. */
  pdf: string | null;
}

/** What the pool has done, for the cancel stress test and bench. */
export interface PoolStats {
  spawned: number;
  /** Tasks stopped (cancel or deadline) while their child was running them. */
  stopRequests: number;
  /** Of those, children that stopped at a safe point and replied within the grace period. */
  stoppedCooperatively: number;
  /** Children killed because they did not stop in time. */
  killed: number;
  /** Children that died on their own (heap cap, crash). */
  died: number;
}

/** The extraction script beside this file (source, run by Node 24 directly) or beside the bundle. */
function workerScript(): string {
  const here = import.meta.url;
  return fileURLToPath(here.endsWith('.ts') ? new URL('./extract-worker.ts', here) : asarUnpackedUrl(new URL('../workers/extract-worker.mjs', here)));
}

export interface PoolOptions {
  size?: number;
  /** Heap cap per child: a hostile document kills its child, not the app. */
  maxHeapMb?: number;
  /** How long a stopped child may take to reach a safe point and reply before it is killed. */
  graceMs?: number;
  /** Starts a child; a Node fork unless the platform brings its own (Electron's utilityProcess). */
  launch?: LaunchExtractor;
}

// V8 keeps every heap page it ever grew to: with worker threads, uncapped extractors peaked at
// ~610 MB on a 2,415-page PDF, capped ones at ~390 MB at the same speed. Children get the same caps
// (old generation 256 MB, a small young generation); on a 352-page book the host and its two children
// together peaked at ~270 MB PSS, against ~290 MB RSS for the worker-thread version, in about 0.55×
// its time. A page range's live data is far below the cap, so only a hostile document reaches it.
// Smaller semi-spaces did not pay (issue 16 item 5, one child reading 1,224 pages of the R manual,
// variants run in turn): 4, 2 and 1 MB took ~12%, ~20% and ~33% more CPU than 8 MB, for a peak
// within the runs' noise (120-155 MB private at 8 MB, 112-140 at 2); --single-threaded-gc raised it
// (~180), --v8-pool-size=1 changed nothing, --optimize-for-size saved ~15 MB for ~40% more CPU.
const SEMI_SPACE_MB = 8;
const DEFAULT_GRACE_MS = 2000;

/**
 * Extraction children, as many as cores, kept alive between tasks. A task that passes its deadline
 * or is cancelled gets its coded error at once; its child is asked to stop at a safe point and is
 * killed if it has not within the grace period. A child that dies fails only its own task; the
 * next task gets a fresh child. Killing a child cannot harm this process (see extractor-process.ts).
 */
export class WorkerPool {
  readonly size: number;
  private readonly maxHeapMb: number;
  private readonly graceMs: number;
  private readonly launch: LaunchExtractor;
  private readonly script = workerScript();
  private readonly slots: Slot[] = [];
  private readonly queue: Task[] = [];
  private nextId = 1;
  private closed = false;
  /** Killed children still hold their memory: they count against the size until they are gone. */
  private retiring = 0;
  private readonly counts: PoolStats = { spawned: 0, stopRequests: 0, stoppedCooperatively: 0, killed: 0, died: 0 };

  constructor(options: PoolOptions = {}) {
    this.size = Math.max(1, options.size ?? os.availableParallelism());
    this.maxHeapMb = options.maxHeapMb ?? 256;
    this.graceMs = options.graceMs ?? DEFAULT_GRACE_MS;
    this.launch = options.launch ?? forkNodeExtractor;
  }

  get stats(): PoolStats {
    return { ...this.counts };
  }

  run<T>(request: Request, options: RunOptions = {}): Promise<T> {
    if (this.closed) return Promise.reject(new AppError('CANCELLED', 'The extraction pool is closed.'));
    return new Promise<T>((resolve, reject) => {
      const task: Task = { id: this.nextId++, request, options, resolve: resolve as (v: unknown) => void, reject };
      if (options.signal?.aborted) {
        reject(cancelled(request));
        return;
      }
      options.signal?.addEventListener('abort', () => this.abort(task), { once: true });
      this.queue.push(task);
      this.pump();
    });
  }

  /** Starts the children now, so that the first task does not wait for a process to start. */
  warm(): void {
    while (!this.closed && this.slots.length + this.retiring < this.size) this.spawn();
  }

  /** Ends every child (idle ones included) and fails what is queued or running. */
  async close(): Promise<void> {
    this.closed = true;
    for (const t of this.queue.splice(0)) t.reject(new AppError('CANCELLED', 'The extraction pool was closed.'));
    const gone = this.slots.splice(0).map((slot) => {
      if (slot.timer) clearTimeout(slot.timer);
      if (slot.state === 'busy') slot.task?.reject(new AppError('CANCELLED', 'The extraction pool was closed.'));
      slot.task = null;
      return new Promise<void>((resolve) => {
        slot.child.onExit(() => resolve());
        // An idle child does not hold the event loop; while we wait for its exit it must.
        slot.child.hold(true);
        slot.child.kill();
      });
    });
    await Promise.all(gone);
  }

  private pump(): void {
    while (this.queue.length > 0 && !this.closed) {
      let slot = this.slots.find((s) => s.state === 'idle');
      if (!slot && this.slots.length + this.retiring < this.size) slot = this.spawn();
      if (!slot) return;
      const task = this.queue.shift();
      if (task) this.start(slot, task);
    }
  }

  private spawn(): Slot {
    const child = this.launch({ script: this.script, maxHeapMb: this.maxHeapMb, semiSpaceMb: SEMI_SPACE_MB });
    this.counts.spawned++;
    const slot: Slot = { child, state: 'idle', task: null, timer: null, served: 0, pdf: null };
    child.onMessage((reply) => this.onReply(slot, reply as WorkerReply));
    child.onExit((exit) => this.onExit(slot, exit));
    child.hold(false);
    this.slots.push(slot);
    return slot;
  }

  private start(slot: Slot, task: Task): void {
    slot.state = 'busy';
    slot.task = task;
    slot.served++;
    slot.child.hold(true);
    const { deadline } = task.options;
    if (deadline !== undefined) {
      slot.timer = setTimeout(() => this.stop(slot, timedOut(task.request)), Math.max(0, deadline - Date.now()));
    }
    slot.child.send(this.message(slot, task));
  }

  /** The task as sent: a PDF range whose document this child already holds goes without its bytes. */
  private message(slot: Slot, task: Task): WorkerRequest {
    const { request } = task;
    if (request.op === 'pdfPart' && request.doc !== undefined) {
      if (slot.pdf === request.doc) {
        const { bytes: held, ...rest } = request;
        void held; // the child kept them with its first range of this document
        return { ...rest, id: task.id } as WorkerRequest;
      }
      // The child replaces what it held with this document (kept-pdf.ts).
      slot.pdf = request.doc;
    }
    return { ...request, id: task.id } as WorkerRequest;
  }

  /** Document `doc`'s ranges are all done (or failed): the children that hold its bytes drop them. */
  forgetPdf(doc: string): void {
    for (const slot of this.slots) {
      if (slot.pdf !== doc) continue;
      slot.pdf = null;
      slot.child.send({ op: 'forgetPdf', doc } satisfies ForgetPdfRequest);
    }
  }

  private onReply(slot: Slot, reply: WorkerReply): void {
    const task = slot.task;
    if (!task || reply.id !== task.id) return;
    if (reply.type === 'progress') {
      if (slot.state === 'busy') task.options.onProgress?.(reply.page, reply.pageCount, reply.stage);
      return;
    }
    if (slot.state === 'stopping') {
      // The child reached a safe point (or finished anyway): its answer is moot, the child is reusable.
      this.counts.stoppedCooperatively++;
      this.release(slot);
      return;
    }
    this.release(slot);
    if (reply.type === 'done') task.resolve(reply.result);
    else task.reject(fromData(reply.error));
  }

  /** A cancelled or timed-out task is answered now; its child stops cooperatively or is killed. */
  private stop(slot: Slot, error: AppError): void {
    const task = slot.task;
    if (slot.state !== 'busy' || !task) return;
    if (slot.timer) clearTimeout(slot.timer);
    slot.state = 'stopping';
    this.counts.stopRequests++;
    if (this.graceMs <= 0) this.kill(slot);
    else {
      slot.child.send({ op: 'cancel', id: task.id } satisfies CancelRequest);
      slot.timer = setTimeout(() => this.kill(slot), this.graceMs);
    }
    task.reject(error);
  }

  private abort(task: Task): void {
    const queued = this.queue.indexOf(task);
    if (queued >= 0) {
      this.queue.splice(queued, 1);
      task.reject(cancelled(task.request));
      return;
    }
    const slot = this.slots.find((s) => s.task === task);
    if (slot) this.stop(slot, cancelled(task.request));
  }

  private release(slot: Slot): void {
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = null;
    slot.task = null;
    slot.state = 'idle';
    slot.child.hold(false);
    this.pump();
  }

  private kill(slot: Slot): void {
    const index = this.slots.indexOf(slot);
    if (index < 0) return;
    this.slots.splice(index, 1);
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = null;
    slot.task = null;
    this.counts.killed++;
    this.retiring++;
    slot.child.onExit(() => {
      this.retiring--;
      this.pump();
    });
    slot.child.hold(true);
    slot.child.kill();
  }

  private onExit(slot: Slot, exit: ChildExit): void {
    const index = this.slots.indexOf(slot);
    if (index < 0) return; // killed by us or by close(): already accounted for
    this.slots.splice(index, 1);
    if (slot.timer) clearTimeout(slot.timer);
    this.counts.died++;
    const task = slot.task;
    if (task && slot.state === 'busy' && slot.served > 1 && !exit.outOfMemory && !task.retried) {
      // A child that served earlier documents may die of what one of them left behind (a stray
      // rejection of damaged-PDF work surfacing later): this task gets one fresh child. A document
      // that itself crashes its child crashes the fresh one too, and is reported below.
      task.retried = true;
      this.queue.unshift(task);
    } else if (task && slot.state === 'busy') {
      const name = task.request.fileName;
      const { doing, outcome } = wordsFor(task.request);
      task.reject(
        exit.outOfMemory
          ? new AppError('EXTRACTION_FAILED', `${name} needs more memory than one document may use (${this.maxHeapMb} MB). It may be malformed or hostile; ${outcome}`)
          : new AppError('EXTRACTION_FAILED', `${doing} ${name} crashed its extraction process (${exit.signal ?? `exit code ${exit.code}`}). ${capitalise(outcome)}`),
      );
    }
    slot.task = null;
    this.pump();
  }
}

function cancelled(request: Request): AppError {
  return request.op === 'view'
    ? new AppError('CANCELLED', `Converting ${request.fileName} for the viewer was cancelled.`)
    : new AppError('CANCELLED', `Ingestion of ${request.fileName} was cancelled.`);
}

function timedOut(request: Request): AppError {
  return new AppError(
    'EXTRACTION_TIMEOUT',
    `${request.fileName} took longer than the extraction time limit and was stopped; ${wordsFor(request).outcome} It may be malformed; if it is just very large, raise the limit in the workspace settings.`,
  );
}

/** Children serve ingestion and the viewer alike: a failure says which of the two it stopped. */
function wordsFor(request: Request): { doing: string; outcome: string } {
  return request.op === 'view'
    ? { doing: 'Converting', outcome: 'it cannot be shown in the viewer.' }
    : { doing: 'Extracting', outcome: 'it was not ingested.' };
}

function capitalise(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

function fromData(data: ErrorData): AppError {
  return new AppError(data.code, data.message, data.details);
}
