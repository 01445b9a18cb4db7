// Kill tests (issue 13, Done-when 4): a member's client killed (SIGKILL) in the middle of an ingest
// or of a citation leaves no partial source, snapshot or citation; PostgreSQL rolls its
// transaction back when the connection drops, and the chain stays whole.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import readline from 'node:readline';
import { describe, expect, it } from 'vitest';
import { CHUNK_SIZE } from '../../../electron/services/store/postgres/pg-snapshots.ts';
import { AUDIT_LOCK_KEY } from '../../../electron/services/store/postgres/schema-access.ts';
import { pgDocument, withPgTeam } from '../../support/pg-team.ts';

const childScript = path.resolve(import.meta.dirname, '../../support/pg-kill-child.ts');

const ctx = withPgTeam();

function startClient(args: string[]): { child: ChildProcessWithoutNullStreams; line: () => Promise<string> } {
  const child = spawn(process.execPath, [childScript, ...args], { stdio: 'pipe' });
  let err = '';
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const lines = readline.createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  return {
    child,
    line: async () => {
      const r = await lines.next();
      if (r.done) throw new Error(`the client ended early: ${err}`);
      return r.value;
    },
  };
}

async function kill(child: ChildProcessWithoutNullStreams): Promise<void> {
  const exited = once(child, 'exit');
  child.kill('SIGKILL');
  await exited;
}

/** PostgreSQL ends a dead client's backends (rolling back their transactions) on its own. */
async function backendsGone(login: string): Promise<void> {
  await expect.poll(async () => (await ctx.team.owner.query('SELECT 1 FROM pg_stat_activity WHERE usename = $1', [login])).rowCount, { timeout: 20_000 }).toBe(0);
}

async function count(sql: string, params: unknown[] = []): Promise<number> {
  return Number((await ctx.team.owner.query<{ n: number }>(`SELECT count(*) AS n FROM ${sql}`, params)).rows[0]?.n);
}

describe('a client killed mid-write', () => {
  it('leaves no partial source or snapshot when killed mid-ingest', async () => {
    const url = await ctx.team.memberUrl('ingester', 'admin', ['alpha']);
    const login = decodeURIComponent(new URL(url).username);
    const doc = pgDocument('killed-mid-ingest', CHUNK_SIZE + 4321);
    const { child, line } = startClient(['ingest', url, 'killed-mid-ingest']);
    expect(await line()).toBe('mid-write');
    const states = await ctx.team.owner.query<{ state: string }>('SELECT state FROM pg_stat_activity WHERE usename = $1', [login]);
    expect(states.rows.map((r) => r.state)).toContain('idle in transaction');
    await kill(child);
    await backendsGone(login);
    expect(await count('blobs WHERE sha256 = $1', [doc.src.sha256])).toBe(0);
    expect(await count('blob_chunks WHERE sha256 = $1', [doc.src.sha256])).toBe(0);
    expect(await count('sources WHERE sha256 = $1', [doc.src.sha256])).toBe(0);
    // Its claim on the hash died with it: the same document can be added now, whole.
    const again = await ctx.team.admin.addSource(doc.src, doc.pieces());
    expect(again.created).toBe(true);
    expect(await count('blob_chunks WHERE sha256 = $1', [doc.src.sha256])).toBe(2);
    expect((await ctx.team.auditor.verifyChain()).ok).toBe(true);
  });

  it('leaves no citation or context when killed mid-cite', async () => {
    const doc = pgDocument('cited-document');
    const { id: sourceId } = await ctx.team.admin.addSource(doc.src, doc.pieces());
    const url = await ctx.team.memberUrl('citer', 'agent', ['alpha']);
    const login = decodeURIComponent(new URL(url).username);
    const { child, line } = startClient(['cite', url, String(sourceId)]);
    const answerId = Number(/^session (\d+)$/.exec(await line())?.[1]);
    expect(answerId).toBeGreaterThan(0);
    // Holding the chain's lock stops the citation after its rows are written, before its commit.
    await ctx.team.owner.query('SELECT pg_advisory_lock($1)', [AUDIT_LOCK_KEY]);
    try {
      child.stdin.write('go\n');
      expect(await line()).toBe('citing');
      const waiting = "SELECT 1 FROM pg_stat_activity WHERE usename = $1 AND wait_event_type = 'Lock' AND wait_event = 'advisory'";
      await expect.poll(async () => (await ctx.team.owner.query(waiting, [login])).rowCount, { timeout: 20_000 }).toBe(1);
      await kill(child);
    } finally {
      await ctx.team.owner.query('SELECT pg_advisory_unlock($1)', [AUDIT_LOCK_KEY]);
    }
    await backendsGone(login);
    expect(await count('citations WHERE answer_id = $1', [answerId])).toBe(0);
    expect(await count('citation_contexts c JOIN agent_sessions s ON s.id = c.session_id WHERE s.answer_id = $1', [answerId])).toBe(0);
    // The session, committed before, is whole and in the chain; nothing else of the client is.
    expect(await count('agent_sessions WHERE answer_id = $1', [answerId])).toBe(1);
    expect((await ctx.team.auditor.verifyChain()).ok).toBe(true);
  });
});
