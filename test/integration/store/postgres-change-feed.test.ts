// The change feed after a lost connection (issue 13, items 4 and 6): its backend is killed with
// pg_terminate_backend, it connects again and LISTENs again, hands out the rows committed while it
// was away and then the ones committed after, each once; it gives up, and ends, only after its
// attempts are spent. The feed's login is refused while it is away, so the gap is certain.
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { FEED_APPLICATION_NAME, type FeedStatus, type PgChangeFeed, type StoreChange } from '../../../electron/services/store/postgres/pg-changes.ts';
import type { PgStore } from '../../../electron/services/store/postgres/pg-store.ts';
import { pgDocument, withPgTeam } from '../../support/pg-team.ts';

const ctx = withPgTeam();
let citationId: number;
let reader: PgStore;
let login: string;
const feeds: PgChangeFeed[] = [];

beforeAll(async () => {
  const doc = pgDocument('feed-minutes');
  const sourceId = (await ctx.team.admin.addSource(doc.src, doc.pieces())).id;
  const session = await ctx.team.agentA.openSession({ sessionKey: 'feed-1', projectKey: 'alpha', userId: 'ana' });
  citationId = (await ctx.team.agentA.addCitation({ answerId: session.answerId, marker: '[1]', claim: 'Revenue grew.', quote: 'revenue grew', sourceId, locator: { kind: 'text', paragraph: 2 } })).id;
  reader = await ctx.team.member('feed_reader', 'reviewer', ['alpha']);
  login = reader.who.login;
});

afterEach(async () => {
  await ctx.team.owner.query(`ALTER ROLE ${ctx.team.owner.escapeIdentifier(login)} LOGIN`);
  for (const f of feeds.splice(0)) await f.close();
});

/** Waits for the first status of a kind. */
function statusOf(statuses: FeedStatus[], waiters: (() => void)[], state: FeedStatus['state']): Promise<FeedStatus> {
  return new Promise((resolve) => {
    const look = () => {
      const found = statuses.find((s) => s.state === state);
      if (found) resolve(found);
      else waiters.push(look);
    };
    look();
  });
}

async function openFeed(retry: { attempts: number; baseDelayMs: number; maxDelayMs: number }) {
  const statuses: FeedStatus[] = [];
  const waiters: (() => void)[] = [];
  const feed = await reader.changes({
    retry,
    onStatus: (s) => {
      statuses.push(s);
      for (const w of waiters.splice(0)) w();
    },
  });
  feeds.push(feed);
  return { feed, statuses, when: (state: FeedStatus['state']) => statusOf(statuses, waiters, state) };
}

/** Kills the feed's connection (only its: by its application name and login) and refuses the login meanwhile. */
async function cutOff(): Promise<number> {
  await ctx.team.owner.query(`ALTER ROLE ${ctx.team.owner.escapeIdentifier(login)} NOLOGIN`);
  const r = await ctx.team.owner.query<{ killed: boolean }>('SELECT pg_terminate_backend(pid) AS killed FROM pg_stat_activity WHERE application_name = $1 AND usename = $2', [FEED_APPLICATION_NAME, login]);
  return r.rows.filter((x) => x.killed).length;
}

async function decide(decision: 'accepted' | 'flagged' | 'rejected' | 'cleared'): Promise<StoreChange> {
  return { table: 'review_decisions', id: (await ctx.team.reviewerA.addDecision({ citationId, decision })).id };
}

describe('the change feed after a lost connection', () => {
  it('connects again, hands out what was committed while it was away, then what comes after, each once', async () => {
    const { feed, statuses, when } = await openFeed({ attempts: 200, baseDelayMs: 20, maxDelayMs: 100 });
    const before = await decide('flagged');
    expect((await feed.next()).value).toEqual(before);

    expect(await cutOff()).toBe(1);
    await when('lost');
    // Committed while the feed cannot connect: no notification can reach it.
    const during = await decide('accepted');
    // The feed keeps trying; it gets in once its login is allowed again.
    await ctx.team.owner.query(`ALTER ROLE ${ctx.team.owner.escapeIdentifier(login)} LOGIN`);
    expect(await when('resumed')).toMatchObject({ state: 'resumed', missed: 1 });
    expect(statuses.filter((s) => s.state === 'reconnecting').length).toBeGreaterThan(0);
    expect((await feed.next()).value).toEqual(during);

    // LISTEN again: later commits arrive as notifications, and nothing is handed out twice.
    const after = await decide('rejected');
    expect((await feed.next()).value).toEqual(after);
    const last = await decide('cleared');
    expect((await feed.next()).value).toEqual(last);
    expect(feed.resumed).toBe(1);
    expect(statuses.some((s) => s.state === 'ended')).toBe(false);
  });

  it('ends, saying why, once its attempts are spent', async () => {
    const { feed, when } = await openFeed({ attempts: 2, baseDelayMs: 10, maxDelayMs: 20 });
    expect(await cutOff()).toBe(1);
    const ended = await when('ended');
    expect(ended).toMatchObject({ state: 'ended' });
    expect(ended.state === 'ended' ? ended.reason : '').toContain('gave up connecting again after 2 attempts');
    expect((await feed.next()).done).toBe(true);
  });
});
