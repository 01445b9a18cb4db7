// Failure of the shared database's connection (issue 13, What-to-build 6): a member's backend
// killed by the server (pg_terminate_backend) mid-cite, mid-ingest and mid-decision is tried again
// with backoff and recorded exactly once; a COMMIT whose reply is lost is found committed, not
// written twice; refusals and timeouts are never retried; a connection that stays down is
// DATABASE_UNREACHABLE; every member connection has a statement and a lock timeout.
import { describe, expect, it } from 'vitest';
import { isAppError, type AppError } from '../../../shared/contract/errors.ts';
import { CHUNK_SIZE } from '../../../electron/services/store/postgres/pg-snapshots.ts';
import { PgStore } from '../../../electron/services/store/postgres/pg-store.ts';
import { AUDIT_LOCK_KEY } from '../../../electron/services/store/postgres/schema-access.ts';
import type { RetryPolicy } from '../../../electron/services/store/postgres/pg-resilience.ts';
import { startCutProxy, type CutProxy } from '../../support/pg-cut-proxy.ts';
import { pgDocument, withPgTeam } from '../../support/pg-team.ts';

const ctx = withPgTeam();

/** A retry policy that records each retry (short waits: the test need not be slow). */
function recording(): { policy: RetryPolicy; retries: string[] } {
  const retries: string[] = [];
  return { retries, policy: { attempts: 5, baseDelayMs: 50, maxDelayMs: 400, onRetry: (r) => void retries.push(r.reason) } };
}

async function member(name: string, level: 'agent' | 'reviewer' | 'admin' | 'auditor', policy: RetryPolicy, extra: { lockTimeoutMs?: number; url?: (u: string) => string } = {}): Promise<{ store: PgStore; login: string }> {
  const url = await ctx.team.memberUrl(name, level, level === 'admin' || level === 'auditor' ? [] : ['alpha']);
  const store = await PgStore.connect(extra.url ? extra.url(url) : url, { retry: policy, ...(extra.lockTimeoutMs ? { lockTimeoutMs: extra.lockTimeoutMs } : {}) });
  return { store, login: decodeURIComponent(new URL(url).username) };
}

async function count(sql: string, params: unknown[] = []): Promise<number> {
  return Number((await ctx.team.owner.query<{ n: number }>(`SELECT count(*) AS n FROM ${sql}`, params)).rows[0]?.n);
}

/** The pid of `login`'s backend once it is in the state `where` describes. */
async function backendOf(login: string, where: string): Promise<number> {
  let pid = 0;
  await expect
    .poll(
      async () => {
        pid = (await ctx.team.owner.query<{ pid: number }>(`SELECT pid FROM pg_stat_activity WHERE usename = $1 AND ${where}`, [login])).rows[0]?.pid ?? 0;
        return pid;
      },
      { timeout: 20_000 },
    )
    .toBeGreaterThan(0);
  return pid;
}

const WAITING_FOR_CHAIN = "wait_event_type = 'Lock' AND wait_event = 'advisory'";

/** Holds the chain's lock (so a write stops just before its commit) while `fn` runs. */
async function holdingChainLock<T>(fn: () => Promise<T>): Promise<T> {
  await ctx.team.owner.query('SELECT pg_advisory_lock($1)', [AUDIT_LOCK_KEY]);
  try {
    return await fn();
  } finally {
    await ctx.team.owner.query('SELECT pg_advisory_unlock($1)', [AUDIT_LOCK_KEY]);
  }
}

async function refusal(p: Promise<unknown>): Promise<AppError> {
  try {
    await p;
  } catch (e) {
    if (isAppError(e)) return e;
    throw e;
  }
  throw new Error('expected a refusal');
}

/** A relay to the test's server, and the rewrite of a member's URL to go through it. */
async function relay(): Promise<{ proxy: CutProxy; url: (u: string) => string }> {
  const server = new URL(ctx.server.ownerUrl);
  const proxy = await startCutProxy({ host: server.hostname, port: Number(server.port) });
  const url = (u: string) => {
    const via = new URL(u);
    via.port = String(proxy.port);
    return via.toString();
  };
  return { proxy, url };
}

let sourceId = 0;
async function aSource(): Promise<number> {
  if (sourceId === 0) sourceId = (await ctx.team.admin.addSource(pgDocument('failure-source').src, pgDocument('failure-source').pieces())).id;
  return sourceId;
}

describe('a lost connection', () => {
  it('starts every member connection with a statement timeout and a lock timeout', async () => {
    const r = await ctx.team.agentA.pool.query<{ statement_timeout: string; lock_timeout: string }>(
      "SELECT current_setting('statement_timeout') AS statement_timeout, current_setting('lock_timeout') AS lock_timeout",
    );
    expect(r.rows[0]).toEqual({ statement_timeout: '1min', lock_timeout: '15s' });
  });

  it('retries a citation whose backend was terminated mid-write, and records it once', async () => {
    const source = await aSource();
    const { policy, retries } = recording();
    const { store, login } = await member('citer_killed', 'agent', policy);
    try {
      const session = await store.openSession({ sessionKey: 'terminated-cite', projectKey: 'alpha', userId: 'ana' });
      const cited = await holdingChainLock(async () => {
        const pending = store.addCitation({ answerId: session.answerId, marker: '[1]', claim: 'Survives a terminated backend.', quote: 'revenue', sourceId: source, locator: { kind: 'text', paragraph: 1 } });
        const pid = await backendOf(login, WAITING_FOR_CHAIN);
        expect((await ctx.team.owner.query<{ ok: boolean }>('SELECT pg_terminate_backend($1) AS ok', [pid])).rows[0]?.ok).toBe(true);
        // The retry waits for the lock again, on a new connection, until it is released.
        await backendOf(login, `${WAITING_FOR_CHAIN} AND pid <> ${pid}`);
        // Wrapped: awaiting the write itself here would wait for the lock this holds.
        return { pending };
      }).then((r) => r.pending);
      expect(retries).toHaveLength(1);
      expect(retries[0]).toMatch(/terminat/i);
      const rows = await ctx.team.owner.query<{ id: number }>('SELECT id FROM citations WHERE answer_id = $1', [session.answerId]);
      expect(rows.rows.map((r) => r.id)).toEqual([cited.id]);
      expect(await count('citation_contexts WHERE citation_id = $1', [cited.id])).toBe(1);
      expect((await ctx.team.auditor.verifyChain()).ok).toBe(true);
    } finally {
      await store.close();
    }
  });

  it('retries an ingest whose backend was terminated mid-stream, opening the file again', async () => {
    const { policy, retries } = recording();
    const { store, login } = await member('ingester_killed', 'admin', policy);
    const doc = pgDocument('terminated-ingest', CHUNK_SIZE + 999);
    let opened = 0;
    let midStream!: () => void;
    let resume!: () => void;
    const isMid = new Promise<void>((r) => (midStream = r));
    const gate = new Promise<void>((r) => (resume = r));
    const open = () => {
      opened++;
      if (opened > 1) return doc.pieces();
      return (async function* () {
        yield doc.bytes.subarray(0, CHUNK_SIZE);
        midStream();
        await gate;
        yield doc.bytes.subarray(CHUNK_SIZE);
      })();
    };
    try {
      const pending = store.addSource(doc.src, open);
      await isMid;
      const pid = await backendOf(login, "state = 'idle in transaction'");
      await ctx.team.owner.query('SELECT pg_terminate_backend($1)', [pid]);
      resume();
      const added = await pending;
      expect(added.created).toBe(true);
      expect(opened).toBe(2);
      expect(retries).toHaveLength(1);
      expect(await count('sources WHERE sha256 = $1', [doc.src.sha256])).toBe(1);
      expect(await count('blob_chunks WHERE sha256 = $1', [doc.src.sha256])).toBe(2);
      expect(await count('segments WHERE source_id = $1', [added.id])).toBe(doc.src.segments.length);
      expect((await ctx.team.auditor.verifyChain()).ok).toBe(true);
    } finally {
      resume();
      await store.close();
    }
  });

  it('retries a decision whose backend was terminated before its commit, and records it once', async () => {
    const source = await aSource();
    const session = await ctx.team.agentA.openSession({ sessionKey: 'decided-after-kill', projectKey: 'alpha', userId: 'ana' });
    const cited = await ctx.team.agentA.addCitation({ answerId: session.answerId, marker: '[1]', claim: 'To be decided.', quote: 'revenue', sourceId: source, locator: { kind: 'text', paragraph: 1 } });
    const { policy, retries } = recording();
    const { store, login } = await member('reviewer_killed', 'reviewer', policy);
    try {
      const decided = await holdingChainLock(async () => {
        const pending = store.addDecision({ citationId: cited.id, decision: 'accepted', note: 'after a kill' });
        await ctx.team.owner.query('SELECT pg_terminate_backend($1)', [await backendOf(login, WAITING_FOR_CHAIN)]);
        return { pending };
      }).then((r) => r.pending);
      expect(retries).toHaveLength(1);
      const rows = await ctx.team.owner.query<{ id: number }>('SELECT id FROM review_decisions WHERE citation_id = $1', [cited.id]);
      expect(rows.rows.map((r) => r.id)).toEqual([decided.id]);
    } finally {
      await store.close();
    }
  });

  it('finds a citation committed before its reply was lost, and does not write it again', async () => {
    const source = await aSource();
    const { proxy, url } = await relay();
    const { policy, retries } = recording();
    const { store } = await member('citer_cut', 'agent', policy, { url });
    try {
      const session = await store.openSession({ sessionKey: 'lost-commit-reply', projectKey: 'alpha', userId: 'ana' });
      proxy.armCommitCut();
      const cited = await store.addCitation({ answerId: session.answerId, marker: '[1]', claim: 'Committed, reply lost.', quote: 'revenue', sourceId: source, locator: { kind: 'text', paragraph: 1 } });
      expect(proxy.cuts).toBe(1);
      // Not tried again: PostgreSQL said the transaction had committed.
      expect(retries).toHaveLength(0);
      const rows = await ctx.team.owner.query<{ id: number }>('SELECT id FROM citations WHERE answer_id = $1', [session.answerId]);
      expect(rows.rows.map((r) => r.id)).toEqual([cited.id]);
      expect((await ctx.team.auditor.verifyChain()).ok).toBe(true);
    } finally {
      await store.close();
      await proxy.close();
    }
  });

  it('reports DATABASE_UNREACHABLE once the attempts are spent', async () => {
    const source = await aSource();
    const { proxy, url } = await relay();
    const { policy, retries } = recording();
    const { store } = await member('citer_stranded', 'agent', { ...policy, attempts: 3 }, { url });
    try {
      const session = await store.openSession({ sessionKey: 'stranded', projectKey: 'alpha', userId: 'ana' });
      await proxy.close();
      const e = await refusal(store.addCitation({ answerId: session.answerId, marker: '[1]', claim: 'Never reaches the server.', quote: 'revenue', sourceId: source, locator: { kind: 'text', paragraph: 1 } }));
      expect(e.code).toBe('DATABASE_UNREACHABLE');
      expect(e.details).toMatchObject({ operation: 'add a citation', attempts: 3 });
      expect(retries).toHaveLength(2);
      expect(await count('citations WHERE answer_id = $1', [session.answerId])).toBe(0);
    } finally {
      await store.close();
    }
  });
});

describe('a snapshot read', () => {
  it('cut between chunks is DATABASE_UNREACHABLE at the next chunk, and nothing crashes', async () => {
    const doc = pgDocument('read-when-cut', 2 * CHUNK_SIZE + 5);
    await ctx.team.admin.addSource(doc.src, doc.pieces());
    const { policy } = recording();
    const { store, login } = await member('reader_cut', 'agent', policy);
    try {
      const chunks = store.snapshot(doc.src.sha256)[Symbol.asyncIterator]();
      expect((await chunks.next()).value?.byteLength).toBe(CHUNK_SIZE);
      // The reader holds its connection between chunks; the server ends it there.
      const pid = await backendOf(login, "state = 'idle'");
      await ctx.team.owner.query('SELECT pg_terminate_backend($1)', [pid]);
      await expect.poll(async () => (await ctx.team.owner.query('SELECT 1 FROM pg_stat_activity WHERE pid = $1', [pid])).rowCount, { timeout: 20_000 }).toBe(0);
      const e = await refusal(chunks.next());
      expect(e.code).toBe('DATABASE_UNREACHABLE');
      expect(e.details).toMatchObject({ operation: 'read a snapshot' });
      // The member's store still works: the broken connection left the pool.
      let bytes = 0;
      for await (const chunk of store.snapshot(doc.src.sha256)) bytes += chunk.byteLength;
      expect(bytes).toBe(doc.bytes.byteLength);
    } finally {
      await store.close();
    }
  });
});

describe('what is never retried', () => {
  it('a write refused to the role: the coded error names it, and no retry is made', async () => {
    const source = await aSource();
    const session = await ctx.team.agentA.openSession({ sessionKey: 'audited', projectKey: 'alpha', userId: 'ana' });
    const cited = await ctx.team.agentA.addCitation({ answerId: session.answerId, marker: '[1]', claim: 'Audited only.', quote: 'revenue', sourceId: source, locator: { kind: 'text', paragraph: 1 } });
    const { policy, retries } = recording();
    const { store } = await member('auditor_retry', 'auditor', policy);
    try {
      const e = await refusal(store.addDecision({ citationId: cited.id, decision: 'rejected' }));
      expect(e.code).toBe('DATABASE_ROLE_REFUSED');
      expect(e.message).toMatch(/^The auditor role may not record a review decision/);
      expect(e.details).toMatchObject({ role: 'auditor', sqlstate: '42501' });
      expect(retries).toHaveLength(0);
    } finally {
      await store.close();
    }
  });

  it('a lock waited for past lock_timeout: DATABASE_TIMEOUT, nothing recorded, no retry', async () => {
    const source = await aSource();
    const { policy, retries } = recording();
    const { store } = await member('citer_timeout', 'agent', policy, { lockTimeoutMs: 300 });
    try {
      const session = await store.openSession({ sessionKey: 'timed-out', projectKey: 'alpha', userId: 'ana' });
      const e = await holdingChainLock(() => refusal(store.addCitation({ answerId: session.answerId, marker: '[1]', claim: 'Waits too long.', quote: 'revenue', sourceId: source, locator: { kind: 'text', paragraph: 1 } })));
      expect(e.code).toBe('DATABASE_TIMEOUT');
      expect(e.details).toMatchObject({ sqlstate: '55P03', operation: 'add a citation' });
      expect(retries).toHaveLength(0);
      expect(await count('citations WHERE answer_id = $1', [session.answerId])).toBe(0);
    } finally {
      await store.close();
    }
  });
});
