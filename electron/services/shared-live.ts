/**
 * Live updates of a shared workspace in the open app (issue 13): the member's change feed
 * (LISTEN/NOTIFY, pg-changes.ts) becomes events on the desk's bus, which the host and the shell
 * push to the page. Each change is read back through the member's policies first, so a page hears
 * only of rows its member may see, with the answer they belong to; the feed's connection states
 * (lost, reconnecting, resumed, ended) are passed on for the page to say in a sentence.
 */
import type { SharedConnection } from '../../shared/contract/events.ts';
import type { EventBus } from './events.ts';
import { changeSubject, isSubjectTable } from './store/postgres/pg-change-subjects.ts';
import type { FeedStatus, PgChangeFeed } from './store/postgres/pg-changes.ts';
import type { PgStore } from './store/postgres/pg-store.ts';

function connectionEvent(status: FeedStatus): SharedConnection {
  switch (status.state) {
    case 'lost':
    case 'ended':
      return { type: 'shared.connection', state: status.state, reason: status.reason.slice(0, 2000) };
    case 'reconnecting':
      return { type: 'shared.connection', state: 'reconnecting', attempt: status.attempt, delayMs: Math.round(status.delayMs), reason: status.reason.slice(0, 2000) };
    case 'resumed':
      return { type: 'shared.connection', state: 'resumed', attempt: status.attempt, missed: status.missed };
  }
}

export class SharedLive {
  private readonly store: PgStore;
  private readonly events: EventBus;
  private readonly log: (line: string) => void;
  private feed: PgChangeFeed | null = null;
  private started = false;
  private closed = false;

  constructor(store: PgStore, events: EventBus, log: (line: string) => void = () => undefined) {
    this.store = store;
    this.events = events;
    this.log = log;
  }

  /** Starts listening (once); changes then reach the bus until close. */
  start(): void {
    if (this.started) return;
    this.started = true;
    void this.run().catch((e: unknown) => {
      const reason = e instanceof Error ? e.message : String(e);
      this.log(`Live updates from the shared workspace stopped: ${reason}`);
      if (!this.closed) this.events.emit({ type: 'shared.connection', state: 'ended', reason: reason.slice(0, 2000) });
    });
  }

  private async run(): Promise<void> {
    const feed = await this.store.changes({ onStatus: (status) => this.events.emit(connectionEvent(status)) });
    if (this.closed) {
      await feed.close();
      return;
    }
    this.feed = feed;
    this.events.emit({ type: 'shared.connection', state: 'connected' });
    const ctx = { pool: this.store.pool, who: this.store.who };
    for await (const change of feed) {
      let subject;
      try {
        subject = await changeSubject(ctx, change);
      } catch (e) {
        // The row could not be read now (the pool lost its connection too): the page still hears
        // of the table, and reloads what it shows of it.
        this.log(`A change of ${change.table} could not be read: ${(e as Error).message}`);
        subject = isSubjectTable(change.table) ? { table: change.table, id: change.id, answerId: null, ...(change.update ? { update: change.update } : {}) } : null;
      }
      if (subject) this.events.emit({ type: 'shared.changed', ...subject });
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.feed?.close();
  }
}
