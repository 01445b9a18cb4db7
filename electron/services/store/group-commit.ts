/**
 * Group commit for ingestion (issue 16 item 5): documents stored close together share one
 * transaction, so a folder of small files pays the disk's flushes (the WAL commit under
 * synchronous=FULL, the audit head file) once per group instead of once per file. Each document is
 * still all-or-nothing: it runs in a savepoint of its own, and one that fails leaves nothing and
 * fails alone; after a crash a group is either committed or absent, each document whole.
 * A document's files (its snapshot) are flushed by its `prepare`, run for the whole group at once
 * before the transaction: the disk's flushes of a group overlap, and no row names an unflushed file.
 */
import { ChainStore } from './audit-chain-store.ts';
import type { Db } from './database.ts';

/**
 * Documents per transaction at most: a group's lock is held briefly (a small file's rows take well
 * under a millisecond), and what it holds in memory stays small.
 */
export const MAX_GROUP = 128;
/** How long the first document of a group waits for others when no group is being committed. */
const GROUP_WAIT_MS = 20;

interface Waiting {
  write: () => unknown;
  prepare: (() => Promise<void>) | undefined;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

export class GroupCommit {
  private readonly db: Db;
  private readonly chain: ChainStore;
  private readonly waiting: Waiting[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** When the oldest waiting document arrived. */
  private firstWaitingAt = 0;
  /** A group is being prepared and committed; the next forms from what arrives meanwhile. */
  private committing = false;
  /** The head file write under way, and the one queued after it (shared by every group that asks meanwhile). */
  private headWrite: Promise<unknown> | null = null;
  private nextHeadWrite: Promise<unknown> | null = null;

  constructor(db: Db) {
    this.db = db;
    this.chain = new ChainStore(db);
  }

  /**
   * Runs `write` in the next group's transaction (in a savepoint of its own); resolves once
   * committed and the head file names the chain with it. `prepare` runs first, beside the group's
   * others; when it fails, `write` never runs.
   */
  run<T>(write: () => T, prepare?: () => Promise<void>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      if (this.waiting.length === 0) this.firstWaitingAt = performance.now();
      this.waiting.push({ write, prepare, resolve: resolve as (value: unknown) => void, reject });
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

  private async commit(group: Waiting[]): Promise<void> {
    const prepared = await Promise.allSettled(group.map((item) => item.prepare?.()));
    const outcomes: Outcome[] = [];
    try {
      this.db
        .transaction(() => {
          group.forEach((item, i) => {
            const ready = prepared[i];
            if (ready?.status === 'rejected') {
              outcomes.push({ ok: false, error: ready.reason });
              return;
            }
            try {
              outcomes.push({ ok: true, value: this.db.transaction(item.write)() });
            } catch (error) {
              outcomes.push({ ok: false, error });
            }
          });
        })
        .immediate();
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
    group.forEach((item, i) => {
      const o = outcomes[i];
      if (o?.ok) item.resolve(o.value);
      else item.reject(o?.error);
    });
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
