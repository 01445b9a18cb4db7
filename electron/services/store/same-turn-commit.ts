/**
 * Writes asked for in the same turn of the event loop share one transaction (cites of several
 * agents at once): they wait for one fsync of the WAL (synchronous=FULL) instead of one each. Unlike
 * ingest's group commit (group-commit.ts), nothing waits for others to arrive, and the caller is
 * answered once the transaction has committed, before the head file follows. Each write is still
 * all or nothing on its own (a savepoint: commitInTransaction); one that throws fails alone.
 */
import type { Db } from './database.ts';
import { commitInTransaction, settle, type Settleable } from './group-commit.ts';

interface Pending extends Settleable<unknown> {
  write: () => unknown;
}

export class SameTurnCommit {
  private readonly db: Db;
  /** Told after each commit (the audit head file follows). */
  private readonly committed: () => void;
  private queue: Pending[] = [];

  constructor(db: Db, committed: () => void) {
    this.db = db;
    this.committed = committed;
  }

  /** Runs `write` in the transaction of this turn's writes; resolves with its result once committed. */
  run<T>(write: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      if (this.queue.length === 0) setImmediate(() => this.flush());
      this.queue.push({ write, resolve: resolve as (value: unknown) => void, reject });
    });
  }

  /** Writes are waiting for the next turn's commit. */
  get pending(): boolean {
    return this.queue.length > 0;
  }

  /** Commits what is queued (on the next turn, or at once on close). */
  flush(): void {
    const batch = this.queue;
    this.queue = [];
    if (batch.length === 0) return;
    let outcomes;
    try {
      if (!this.db.open) throw new Error('The workspace database is closed.');
      outcomes = commitInTransaction(this.db, batch, [], (p) => p.write());
    } catch (error) {
      for (const p of batch) p.reject(error);
      return;
    }
    settle(batch, outcomes);
    this.committed();
  }
}
