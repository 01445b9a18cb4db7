/**
 * Live updates of a shared workspace (issue 13): PostgreSQL migration 3 makes every insert into the
 * tables an open app shows send a notification at commit (a rolled-back write sends none); a feed
 * LISTENs on its own connection and hands them out in order. A notification carries the table and
 * the id only: NOTIFY is not filtered by row-level security, so a member reads the row itself,
 * through the policies, and sees only what its level may.
 *
 * A lost connection does not end the feed: it connects again with backoff, LISTENs again, and
 * hands out the rows committed while it was away (read through the member's policies, so only
 * those it may see), each change once.
 */
import pg from 'pg';
import { backoffMs, DEFAULT_RETRY, type RetryPolicy } from './pg-resilience.ts';

export const CHANGES_CHANNEL = 'evidesk_changes';

/** The tables whose new rows an open app shows at once. */
export const NOTIFYING_TABLES = ['sources', 'answers', 'agent_sessions', 'citations', 'review_decisions'] as const;

export const CHANGES_SCHEMA_SQL = `
      CREATE FUNCTION evidesk_notify_change() RETURNS trigger LANGUAGE plpgsql AS $fn$
      BEGIN
        PERFORM pg_notify('${CHANGES_CHANNEL}', json_build_object('table', TG_TABLE_NAME, 'id', NEW.id)::text);
        RETURN NULL;
      END
      $fn$;
${NOTIFYING_TABLES.map((t) => `      CREATE TRIGGER ${t}_notify AFTER INSERT ON ${t} FOR EACH ROW EXECUTE FUNCTION evidesk_notify_change();`).join('\n')}
`;

/**
 * PostgreSQL migration 14: a source restricted or lifted sends a notification too (the flag is the
 * one column of a source that changes), so other open desks show it at once; `update` says which
 * change it is, as a row's insert sends none.
 */
export const RESTRICT_NOTIFY_SCHEMA_SQL = `
      CREATE FUNCTION evidesk_notify_restricted() RETURNS trigger LANGUAGE plpgsql AS $fn$
      BEGIN
        PERFORM pg_notify('${CHANGES_CHANNEL}', json_build_object('table', TG_TABLE_NAME, 'id', NEW.id, 'update', 'restricted')::text);
        RETURN NULL;
      END
      $fn$;
      CREATE TRIGGER sources_notify_restricted AFTER UPDATE OF restricted ON sources FOR EACH ROW
        WHEN (OLD.restricted IS DISTINCT FROM NEW.restricted) EXECUTE FUNCTION evidesk_notify_restricted();
`;

export interface StoreChange {
  table: string;
  id: number;
  /** Set when a row already handed out changed (a source restricted or lifted); absent for a new row. */
  update?: 'restricted';
}

/** What the feed tells its owner about its connection (for a "reconnecting…" line in the app). */
export type FeedStatus =
  | { state: 'lost'; reason: string }
  | { state: 'reconnecting'; attempt: number; delayMs: number; reason: string }
  | { state: 'resumed'; attempt: number; missed: number }
  | { state: 'ended'; reason: string };

export interface ChangeFeedOptions {
  /** How long and how often to try connecting again after a loss; the feed ends once it gives up. */
  retry?: Pick<RetryPolicy, 'attempts' | 'baseDelayMs' | 'maxDelayMs'>;
  onStatus?: (status: FeedStatus) => void;
}

/** A feed's connection names itself, so an administrator can tell it apart in pg_stat_activity. */
export const FEED_APPLICATION_NAME = 'evidesk-changes';

/** Tried again for about a minute and a half by default: a database restart should not end a feed. */
const FEED_RETRY = { attempts: 40, baseDelayMs: DEFAULT_RETRY.baseDelayMs, maxDelayMs: DEFAULT_RETRY.maxDelayMs };

/**
 * Ids below a table's highest handed-out id that a gap's read still looks at: a row whose id was
 * drawn earlier may commit later than one already seen. The ids handed out in that window are kept
 * so nothing is handed out twice.
 */
const LOOKBACK = 1000;

function parseChange(payload: string | undefined): StoreChange | undefined {
  try {
    const v = JSON.parse(payload ?? '') as { table?: unknown; id?: unknown; update?: unknown };
    if (typeof v.table !== 'string' || typeof v.id !== 'number') return undefined;
    return v.update === 'restricted' ? { table: v.table, id: v.id, update: 'restricted' } : { table: v.table, id: v.id };
  } catch {
    return undefined;
  }
}

/** Per table: the highest id handed out (or visible when the feed began) and the recent ids handed out. */
interface Seen {
  high: number;
  /** The ids under which a gap's read starts (visible when the feed began: not new). */
  floor: number;
  recent: Set<number>;
}

async function connectListening(url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url, application_name: FEED_APPLICATION_NAME });
  // Until the feed attaches its own handler, an error here must not crash the process.
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query(`LISTEN ${CHANGES_CHANNEL}`);
  } catch (e) {
    await client.end().catch(() => undefined);
    throw e;
  }
  return client;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Changes committed by anyone, in commit order, from the moment `listen` resolves. */
export class PgChangeFeed implements AsyncIterable<StoreChange> {
  private client: pg.Client;
  private readonly url: string;
  private readonly retry: NonNullable<ChangeFeedOptions['retry']>;
  private readonly onStatus: ((status: FeedStatus) => void) | undefined;
  private readonly queue: StoreChange[] = [];
  private readonly waiting: ((r: IteratorResult<StoreChange>) => void)[] = [];
  private readonly seen = new Map<string, Seen>();
  /** Notifications that arrive while a gap is being read wait here, to follow the gap's rows. */
  private held: StoreChange[] | null = null;
  private reconnecting = false;
  private closed = false;
  /** How many times the feed has connected again after a loss. */
  resumed = 0;

  private constructor(url: string, client: pg.Client, options: ChangeFeedOptions) {
    this.url = url;
    this.client = client;
    this.retry = options.retry ?? FEED_RETRY;
    this.onStatus = options.onStatus;
    this.attach(client);
  }

  static async listen(url: string, options: ChangeFeedOptions = {}): Promise<PgChangeFeed> {
    const client = await connectListening(url);
    const feed = new PgChangeFeed(url, client, options);
    try {
      // What is visible now is not new; read after LISTEN, so nothing falls between the two.
      for (const table of NOTIFYING_TABLES) {
        const high = await feed.highestId(client, table);
        feed.seen.set(table, { high, floor: high, recent: new Set() });
      }
    } catch (e) {
      await feed.close();
      throw e;
    }
    return feed;
  }

  private attach(client: pg.Client): void {
    client.on('notification', (n) => {
      const change = n.channel === CHANGES_CHANNEL ? parseChange(n.payload) : undefined;
      if (!change || client !== this.client) return;
      if (this.held) this.held.push(change);
      else this.deliver(change);
    });
    client.on('error', (e: Error) => this.lost(client, e.message));
    client.on('end', () => this.lost(client, 'the connection ended'));
  }

  /** The highest id of a table the member can see (0 when none, or when it may read none). */
  private async highestId(client: pg.Client, table: string): Promise<number> {
    try {
      const r = await client.query<{ id: string | null }>(`SELECT max(id)::text AS id FROM ${table}`);
      return Number(r.rows[0]?.id ?? 0);
    } catch (e) {
      if ((e as { code?: string }).code === '42501') return 0;
      throw e;
    }
  }

  private deliver(change: StoreChange): void {
    // A new row is handed out once; a change of a row each time it happens.
    const seen = change.update === undefined ? this.seen.get(change.table) : undefined;
    if (seen) {
      if (seen.recent.has(change.id)) return;
      seen.recent.add(change.id);
      if (change.id > seen.high) {
        seen.high = change.id;
        for (const id of seen.recent) if (id <= seen.high - LOOKBACK) seen.recent.delete(id);
      }
    }
    const next = this.waiting.shift();
    if (next) next({ value: change, done: false });
    else this.queue.push(change);
  }

  private lost(client: pg.Client, reason: string): void {
    if (this.closed || client !== this.client || this.reconnecting) return;
    this.reconnecting = true;
    this.onStatus?.({ state: 'lost', reason });
    void client.end().catch(() => undefined);
    void this.reconnect(reason).finally(() => {
      this.reconnecting = false;
    });
  }

  private async reconnect(firstReason: string): Promise<void> {
    let reason = firstReason;
    for (let attempt = 1; attempt <= this.retry.attempts; attempt++) {
      const delayMs = backoffMs({ ...this.retry }, attempt);
      this.onStatus?.({ state: 'reconnecting', attempt, delayMs, reason });
      await sleep(delayMs);
      if (this.closed) return;
      let client: pg.Client;
      try {
        client = await connectListening(this.url);
      } catch (e) {
        reason = (e as Error).message;
        continue;
      }
      if (this.closed) {
        await client.end().catch(() => undefined);
        return;
      }
      this.held = [];
      this.client = client;
      this.attach(client);
      let missed: number;
      try {
        missed = await this.readGap(client);
      } catch (e) {
        // Lost again while reading the gap: the next attempt reads it again (nothing of it was lost).
        this.held = null;
        reason = (e as Error).message;
        await client.end().catch(() => undefined);
        continue;
      }
      const held = this.held;
      this.held = null;
      for (const change of held) this.deliver(change);
      this.resumed++;
      this.onStatus?.({ state: 'resumed', attempt, missed });
      return;
    }
    this.onStatus?.({ state: 'ended', reason: `gave up connecting again after ${this.retry.attempts} attempts: ${reason}` });
    await this.close();
  }

  /** Hands out the rows committed while the feed was away, in id order per table; returns how many. */
  private async readGap(client: pg.Client): Promise<number> {
    let missed = 0;
    for (const table of NOTIFYING_TABLES) {
      const seen = this.seen.get(table);
      if (!seen) continue;
      const from = Math.max(seen.floor, seen.high - LOOKBACK);
      let ids: number[];
      try {
        ids = (await client.query<{ id: string }>(`SELECT id::text AS id FROM ${table} WHERE id > $1 ORDER BY id`, [from])).rows.map((r) => Number(r.id));
      } catch (e) {
        if ((e as { code?: string }).code === '42501') continue;
        throw e;
      }
      for (const id of ids) {
        if (seen.recent.has(id)) continue;
        this.deliver({ table, id });
        missed++;
      }
    }
    return missed;
  }

  /** The next change (waits for one); done once the feed is closed. */
  next(): Promise<IteratorResult<StoreChange>> {
    const queued = this.queue.shift();
    if (queued) return Promise.resolve({ value: queued, done: false });
    if (this.closed) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  [Symbol.asyncIterator](): AsyncIterator<StoreChange> {
    return { next: () => this.next(), return: async () => (await this.close(), { value: undefined, done: true }) };
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const w of this.waiting.splice(0)) w({ value: undefined, done: true });
    await this.client.end().catch(() => undefined);
  }
}
