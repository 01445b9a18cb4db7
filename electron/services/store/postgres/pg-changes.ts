/**
 * Live updates of a shared workspace (issue 13): PostgreSQL migration 3 makes every insert into the
 * tables an open app shows send a notification at commit (a rolled-back write sends none); a feed
 * LISTENs on its own connection and hands them out in order. A notification carries the table and
 * the id only: NOTIFY is not filtered by row-level security, so a member reads the row itself,
 * through the policies, and sees only what its level may.
 */
import pg from 'pg';

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

export interface StoreChange {
  table: string;
  id: number;
}

function parseChange(payload: string | undefined): StoreChange | undefined {
  try {
    const v = JSON.parse(payload ?? '') as { table?: unknown; id?: unknown };
    return typeof v.table === 'string' && typeof v.id === 'number' ? { table: v.table, id: v.id } : undefined;
  } catch {
    return undefined;
  }
}

/** Changes committed by anyone, in commit order, from the moment `listen` resolves. */
export class PgChangeFeed implements AsyncIterable<StoreChange> {
  private readonly client: pg.Client;
  private readonly queue: StoreChange[] = [];
  private readonly waiting: ((r: IteratorResult<StoreChange>) => void)[] = [];
  private closed = false;

  private constructor(client: pg.Client) {
    this.client = client;
    client.on('notification', (n) => {
      const change = n.channel === CHANGES_CHANNEL ? parseChange(n.payload) : undefined;
      if (!change) return;
      const next = this.waiting.shift();
      if (next) next({ value: change, done: false });
      else this.queue.push(change);
    });
    // A lost connection ends the feed; the app reconnects and reads what it missed (a later step).
    client.on('error', () => void this.close());
  }

  static async listen(url: string): Promise<PgChangeFeed> {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query(`LISTEN ${CHANGES_CHANNEL}`);
    return new PgChangeFeed(client);
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
