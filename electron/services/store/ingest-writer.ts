/**
 * Where ingestion's group commits run (issue 16 item 5). A folder of small files costs the main
 * thread about as much to write (rows, audit entries, the WAL's flush) as to read, hash and
 * extract; on two cores the writes so go to a thread of their own with its own connection
 * (ingest-writer-worker.ts) once groups are large, while a file or two still commit here, without
 * the thread's start. Only one group is written at a time either way (GroupCommit), so the two
 * connections never wait on each other's lock.
 */
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { AppError, type ErrorData } from '../../../shared/contract/errors.ts';
import { asarUnpackedUrl } from '../ingest/asar-unpacked.ts';
import type { Db } from './database.ts';
import { commitInTransaction, type Outcome } from './group-commit.ts';
import { putGroup } from './blob-group.ts';
import type { BlobStore } from './blobs.ts';
import { applyIngestWrite, groupSnapshots, type IngestWrite, type IngestWritten } from './ingest-writes.ts';
import type { SourcesStore } from './sources-store.ts';

export type WriterRequest = { type: 'commit'; id: number; jobs: IngestWrite[] } | { type: 'close' };
export type WriterReply =
  | { id: number; ready: true }
  | { id: number; outcomes: ({ ok: true; value: IngestWritten } | { ok: false; error: ErrorData })[] }
  | { id: number; failed: ErrorData };

/** A group this large means a stream of files: the writer thread is started (its first groups commit here meanwhile). */
const THREAD_FROM_GROUP = 16;
/** The thread ends after this long without a group (a new stream starts it again). */
const IDLE_MS = 2000;

function errorOf(data: ErrorData): AppError {
  return new AppError(data.code, data.message, data.details);
}

/** The thread's script beside this file (source, run by Node 24 directly) or beside the bundle. */
function workerScript(): string {
  const here = import.meta.url;
  return fileURLToPath(here.endsWith('.ts') ? new URL('./ingest-writer-worker.ts', here) : asarUnpackedUrl(new URL('../workers/ingest-writer.mjs', here)));
}

/** The writer thread: one group at a time. */
class WriterThread {
  private readonly worker: Worker;
  private pending: { id: number; resolve: (reply: WriterReply) => void; reject: (e: unknown) => void } | null = null;
  /** Settles when the group being written is answered (or the thread is gone). */
  private answered: Promise<unknown> = Promise.resolve();
  private nextId = 1;
  /** 'ready' once the thread's connection is open; 'gone' when it could not start or has ended. */
  state: 'starting' | 'ready' | 'gone' = 'starting';

  constructor(file: string) {
    this.worker = new Worker(workerScript(), { workerData: { file } });
    // Idle, it never keeps the process alive (commit holds it while a group is written).
    this.worker.unref();
    this.worker.on('message', (reply: WriterReply) => {
      if ('ready' in reply) {
        if (this.state === 'starting') this.state = 'ready';
        return;
      }
      if (reply.id === 0) {
        this.state = 'gone';
        return;
      }
      const pending = this.pending;
      if (pending?.id !== reply.id) return;
      this.pending = null;
      this.worker.unref();
      pending.resolve(reply);
    });
    const end = (e: unknown): void => {
      this.state = 'gone';
      const pending = this.pending;
      this.pending = null;
      pending?.reject(e);
    };
    this.worker.on('error', end);
    this.worker.on('exit', (code) => end(new AppError('INTERNAL', `The ingest writer thread stopped (exit code ${code}) before it answered.`)));
  }

  commit(jobs: IngestWrite[]): Promise<WriterReply> {
    const reply = new Promise<WriterReply>((resolve, reject) => {
      const id = this.nextId++;
      this.pending = { id, resolve, reject };
      // Held while a group is being written: the process must not end with a commit unanswered.
      this.worker.ref();
      this.worker.postMessage({ type: 'commit', id, jobs } satisfies WriterRequest);
    });
    this.answered = reply.catch(() => undefined);
    return reply;
  }

  /** Ends the thread once its group (if any) is answered: the worker closes its connection first. */
  async close(): Promise<void> {
    await this.answered;
    if (this.state === 'gone') return;
    this.state = 'gone';
    const exited = new Promise<void>((resolve) => this.worker.once('exit', () => resolve()));
    this.worker.postMessage({ type: 'close' } satisfies WriterRequest);
    await exited;
  }
}

/**
 * Commits ingestion's groups: here for small groups and until the thread is ready, in the writer
 * thread after. A thread that fails is not used again and the next groups commit here; the group
 * it held is reported failed as a whole (should the thread have died after its commit, those
 * documents are stored whole all the same, and ingesting them again finds them as duplicates).
 */
export class IngestWriter {
  private readonly store: SourcesStore;
  private readonly blobs: BlobStore;
  private thread: WriterThread | null = null;
  /** The thread could not start or died: groups commit here from now on. */
  private threadFailed = false;
  private idle: ReturnType<typeof setTimeout> | undefined;

  constructor(store: SourcesStore, blobs: BlobStore) {
    this.store = store;
    this.blobs = blobs;
  }

  private get db(): Db {
    return this.store.db;
  }

  /** GroupCommit's commitGroup. */
  readonly commitGroup = async (jobs: IngestWrite[], skip: (unknown | undefined)[]): Promise<Outcome<IngestWritten>[]> => {
    if (this.idle !== undefined) clearTimeout(this.idle);
    try {
      const thread = this.threadFor(jobs.length);
      return thread ? await this.inThread(thread, jobs, skip) : commitInTransaction(this.db, jobs, await putGroup(this.blobs, groupSnapshots(jobs), skip), (job) => applyIngestWrite(this.store, job));
    } finally {
      this.idle = setTimeout(() => void this.close(), IDLE_MS);
      this.idle.unref();
    }
  };

  /** The ready thread, or null (commit here): it is started by a large group and used once ready. */
  private threadFor(groupSize: number): WriterThread | null {
    if (this.threadFailed || this.db.memory || this.db.name === '' || this.db.readonly) return null;
    if (this.thread === null && groupSize >= THREAD_FROM_GROUP) this.thread = new WriterThread(this.db.name);
    const thread = this.thread;
    // Not waited for: a group that finds the thread still starting commits here.
    if (thread === null || thread.state === 'starting') return null;
    if (thread.state === 'gone') {
      this.threadFailed = true;
      this.thread = null;
      return null;
    }
    return thread;
  }

  private async inThread(thread: WriterThread, jobs: IngestWrite[], skip: (unknown | undefined)[]): Promise<Outcome<IngestWritten>[]> {
    const written = jobs.filter((_, i) => skip[i] === undefined);
    let reply: WriterReply;
    try {
      reply = await thread.commit(written);
    } catch (e) {
      this.threadFailed = true;
      this.thread = null;
      throw e;
    }
    if ('failed' in reply) throw errorOf(reply.failed);
    if (!('outcomes' in reply)) throw new AppError('INTERNAL', 'The ingest writer thread answered a group without its outcomes.');
    const outcomes = reply.outcomes.values();
    return skip.map((error): Outcome<IngestWritten> => {
      if (error !== undefined) return { ok: false, error };
      const o = outcomes.next().value;
      if (!o) return { ok: false, error: new AppError('INTERNAL', 'The ingest writer thread gave no outcome for this document.') };
      return o.ok ? o : { ok: false, error: errorOf(o.error) };
    });
  }

  /** Ends the writer thread (after the group it is writing); the next large group starts another. */
  async close(): Promise<void> {
    if (this.idle !== undefined) clearTimeout(this.idle);
    this.idle = undefined;
    const thread = this.thread;
    this.thread = null;
    await thread?.close();
  }
}
