/**
 * A bounded queue between one producer (the folder walk) and several consumers (the ingest
 * workers): the walk pauses when it is far ahead, consumers wait while it is behind, and closing
 * it releases everyone.
 */
export class WorkQueue<T> {
  private readonly items: T[] = [];
  private readonly capacity: number;
  private closed = false;
  private takers: ((item: T | undefined) => void)[] = [];
  private pushers: (() => void)[] = [];

  constructor(capacity: number) {
    this.capacity = Math.max(1, capacity);
  }

  /** Resolves once the item is queued (at once while there is room); dropped when closed. */
  async push(item: T): Promise<void> {
    if (this.closed) return;
    const taker = this.takers.shift();
    if (taker) {
      taker(item);
      return;
    }
    this.items.push(item);
    if (this.items.length >= this.capacity) await new Promise<void>((resolve) => this.pushers.push(resolve));
  }

  /** The next item, or undefined once the queue is closed and empty. */
  take(): Promise<T | undefined> {
    const item = this.items.shift();
    if (item !== undefined) {
      this.pushers.shift()?.();
      return Promise.resolve(item);
    }
    if (this.closed) return Promise.resolve(undefined);
    return new Promise((resolve) => this.takers.push(resolve));
  }

  /** No more items: waiting consumers get undefined once the queued ones are taken. */
  close(): void {
    this.closed = true;
    for (const t of this.takers.splice(0)) t(undefined);
    for (const p of this.pushers.splice(0)) p();
  }

  /** Drops what is queued and closes (a cancelled batch). */
  clear(): void {
    this.items.length = 0;
    this.close();
  }
}

/** At most `count` holders at once; the others wait in turn (acquire resolves to the release). */
export class Permits {
  private free: number;
  private readonly waiting: (() => void)[] = [];

  constructor(count: number) {
    this.free = Math.max(1, count);
  }

  async acquire(): Promise<() => void> {
    if (this.free > 0) this.free--;
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiting.shift();
      if (next) next();
      else this.free++;
    };
  }
}
