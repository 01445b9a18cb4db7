/**
 * Group commit for ingestion (issue 16 item 5): documents stored close together share one
 * transaction, so a folder of small files pays the disk's flushes (the WAL commit under
 * synchronous=FULL, the audit head file) once per group instead of once per file. Each document is
 * still all-or-nothing: it runs in a savepoint of its own, and one that fails leaves nothing and
 * fails alone; after a crash a group is either committed or absent, each document whole.
 * A document's files (its snapshot) are flushed by its `prepare`, run for the whole group at once
 * before the transaction (or, for small files, by the group's writer: blob-group.ts): the disk's
 * flushes of a group overlap, and no row names an unflushed file. Where the transaction runs is the
 * caller's `commitGroup` (ingest-writer.ts: this process or the writer thread); the head file is
 * written here, after the commit, and a document's result is given only once a head naming it is on disk.
 */
import { ChainStore } from './audit-chain-store.ts';
import type { Db } from './database.ts';

/** One document's write in its group: its value, or the error that left nothing of it. */
export type Outcome<R> = { ok: true; value: R } | { ok: false; error: unknown };

/** A caller waiting for its write's outcome. */
export interface Settleable<R> {
  resolve: (value: R) => void;
  reject: (error: unknown) => void;
}

/** Answers each waiting caller with its write's outcome (`outcomes[i]` is `waiting[i]`'s). */
export function settle<R>(waiting: readonly Settleable<R>[], outcomes: readonly Outcome<R>[]): void {
  waiting.forEach((w, i) => {
    const o = outcomes[i];
    if (o?.ok) w.resolve(o.value);
    else w.reject(o ? o.error : new Error('the commit gave no outcome for this write'));
  });
}

/**
 * Commits a group's writes (prepared ones only: `skip[i]` is the error of one whose prepare failed):
 * in this process or in the ingest writer's thread (ingest-writer.ts). Throws when the group's
 * transaction as a whole failed (nothing of it was kept).
 */
export type CommitGroup<J, R> = (jobs: J[], skip: (unknown | undefined)[]) => Outcome<R>[] | Promise<Outcome<R>[]>;

/**
 * A group's writes in one IMMEDIATE transaction, each in a savepoint of its own: one that throws
 * leaves nothing and fails alone. Run by this process's connection or by the ingest writer's.
 */
export function commitInTransaction<J, R>(db: Db, jobs: J[], skip: (unknown | undefined)[], apply: (job: J) => R): Outcome<R>[] {
  const outcomes: Outcome<R>[] = [];
  db.transaction(() => {
    jobs.forEach((job, i) => {
      if (skip[i] !== undefined) {
        outcomes.push({ ok: false, error: skip[i] });
        return;
      }
      try {
        outcomes.push({ ok: true, value: db.transaction(apply)(job) });
      } catch (error) {
        outcomes.push({ ok: false, error });
      }
    });
  }).immediate();
  return outcomes;
}

/**
 * Documents per transaction at most: a group's lock is held briefly (a small file's rows take well
 * under a millisecond), and what it holds in memory stays small.
 */
export const MAX_GROUP = 128;
/** How long the first document of a group waits for others when no group is being committed. */
const GROUP_WAIT_MS = 20;

interface Waiting<J, R> extends Settleable<R> {
  job: J;
  prepare: (() => Promise<void>) | undefined;
}

export class GroupCommit<J, R> {
  private readonly chain: ChainStore;
  private readonly commitGroup: CommitGroup<J, R>;
  private readonly waiting: Waiting<J, R>[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** When the oldest waiting document arrived. */
  private firstWaitingAt = 0;
  /** A group is being prepared and committed; the next forms from what arrives meanwhile. */
  private committing = false;
  /** The head file write under way, and the one queued after it (shared by every group that asks meanwhile). */
  private headWrite: Promise<unknown> | null = null;
  private nextHeadWrite: Promise<unknown> | null = null;

  /** `db` is the connection whose chain head the head file follows (the one `commitGroup` writes to, or another on the same file). */
  constructor(db: Db, commitGroup: CommitGroup<J, R>) {
    this.chain = new ChainStore(db);
    this.commitGroup = commitGroup;
  }

  /**
   * Commits `job` in the next group's transaction (in a savepoint of its own); resolves once
   * committed and the head file names the chain with it. `prepare` runs first, beside the group's
   * others; when it fails, the job is never written.
   */
  run(job: J, prepare?: () => Promise<void>): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      if (this.waiting.length === 0) this.firstWaitingAt = performance.now();
      this.waiting.push({ job, prepare, resolve, reject });
      this.schedule();
    });
  }

  /**
   * Groups form by themselves: the documents that arrive while one group commits wait for it to
   * end, and a group starts once it is full or its oldest document has waited GROUP_WAIT_MS. A
   * commit that takes longer (a busy disk) so gathers a larger group, and the disk's flushes are
   * paid less often exactly when they cost most.
   */
  private schedule(): void {
    if (this.committing) return;
    const waited = performance.now() - this.firstWaitingAt;
    if (this.waiting.length >= MAX_GROUP || waited >= GROUP_WAIT_MS) {
      this.start();
      return;
    }
    this.timer ??= setTimeout(() => this.start(), GROUP_WAIT_MS - waited);
  }

  private start(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.committing || this.waiting.length === 0) return;
    this.committing = true;
    const group = this.waiting.splice(0, MAX_GROUP);
    // What is left waits from now: the documents left over from a full group go with the next.
    this.firstWaitingAt = performance.now();
    void this.commit(group);
  }

  /** The group's transaction is over (committed or not): the documents that arrived meanwhile go next. */
  private next(): void {
    this.committing = false;
    if (this.waiting.length > 0) this.schedule();
  }

  private async commit(group: Waiting<J, R>[]): Promise<void> {
    const prepared = await Promise.allSettled(group.map((item) => item.prepare?.()));
    // A failed prepare's error, so its job is not written (a rejection's reason is never undefined here: prepare throws errors).
    const skip = prepared.map((p) => (p.status === 'rejected' ? (p.reason ?? new Error('prepare failed')) : undefined));
    let outcomes: Outcome<R>[];
    try {
      outcomes = await this.commitGroup(
        group.map((item) => item.job),
        skip,
      );
    } catch (error) {
      this.next();
      for (const item of group) item.reject(error);
      return;
    }
    this.next();
    try {
      // The head file follows the committed chain once for the group (or once for several, when
      // they commit while a head is being written): a crash after the commit leaves at most these
      // groups' entries unanchored.
      await this.publishHead();
    } catch (error) {
      for (const item of group) item.reject(error);
      return;
    }
    settle(group, outcomes);
  }

  /**
   * Resolves once a head write that began after this call has ended: the one under way may have
   * read the chain before the caller's commit, so a second is queued after it, for all who ask meanwhile.
   */
  private publishHead(): Promise<unknown> {
    if (this.headWrite === null) {
      const write = this.chain.publishHeadAsync().finally(() => {
        if (this.headWrite === write) this.headWrite = null;
      });
      this.headWrite = write;
      return write;
    }
    this.nextHeadWrite ??= this.headWrite
      .catch(() => undefined)
      .then(() => {
        this.nextHeadWrite = null;
        return this.publishHead();
      });
    return this.nextHeadWrite;
  }
}
