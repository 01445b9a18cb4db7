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

/** Documents per transaction at most: a group's lock is held briefly, and its memory is small. */
const MAX_GROUP = 64;
/** How long the first document of a group waits for others. */
const GROUP_WAIT_MS = 20;

interface Waiting {
  write: () => unknown;
  prepare: (() => Promise<void>) | undefined;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

export class GroupCommit {
  private readonly db: Db;
  private readonly chain: ChainStore;
  private readonly waiting: Waiting[] = [];
  private scheduled = false;
  /** Groups commit one after another, in the order they formed. */
  private tail: Promise<void> = Promise.resolve();

  constructor(db: Db) {
    this.db = db;
    this.chain = new ChainStore(db);
  }

  /**
   * Runs `write` in the next group's transaction (in a savepoint of its own); resolves once
   * committed. `prepare` runs first, beside the group's others; when it fails, `write` never runs.
   */
  run<T>(write: () => T, prepare?: () => Promise<void>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.waiting.push({ write, prepare, resolve: resolve as (value: unknown) => void, reject });
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    // The writes queued in the next few milliseconds join one group: a commit costs the disk's
    // flushes (tens of milliseconds on a busy disk), so waiting a little for company pays.
    setTimeout(() => {
      this.scheduled = false;
      this.flush();
    }, GROUP_WAIT_MS);
  }

  private flush(): void {
    const group = this.waiting.splice(0, MAX_GROUP);
    if (this.waiting.length > 0) this.schedule();
    if (group.length === 0) return;
    // commit() answers every item itself, so one group's failure never stops the next.
    this.tail = this.tail.then(() => this.commit(group)).catch(() => undefined);
  }

  private async commit(group: Waiting[]): Promise<void> {
    const prepared = await Promise.allSettled(group.map((item) => item.prepare?.()));
    const outcomes: ({ ok: true; value: unknown } | { ok: false; error: unknown })[] = [];
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
      for (const item of group) item.reject(error);
      return;
    }
    try {
      // The head file follows the committed chain once for the group: a crash after the commit
      // leaves at most this group's entries unanchored.
      this.chain.publishHead();
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
}
