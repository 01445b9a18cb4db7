// A cite's write on PostgreSQL in one call (issue 13, Done-when 6; migration 15): the same cites
// written on a local workspace and on the shared workspace moved from it leave the same rows and
// the same audit chain, entry hash for entry hash (SQLite's cite-writes.ts is what PostgreSQL's
// cite has always mirrored). That holds when the writer's copy of a session's ledger is stale (a
// correction in another session superseded one of its citations; another connection cited into
// it) and whatever the text holds; and a cite that fails part way, in the call or in the chain
// append sent with its COMMIT, leaves nothing at all.
import Database from 'better-sqlite3';
import fs from 'node:fs';
import path from 'node:path';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowHash, type ChainTable } from '../../../shared/audit/canonical.ts';
import { sha256Text } from '../../../electron/services/store/audit-head-file.ts';
import type { EvidenceStore, NewCite } from '../../../electron/services/store/evidence-store.ts';
import { pgEvidenceStore } from '../../../electron/services/store/postgres/pg-evidence-store.ts';
import { PgStore } from '../../../electron/services/store/postgres/pg-store.ts';
import { migrateWorkspace } from '../../../electron/services/store/postgres/pg-workspace-migrate.ts';
import { AUDIT_LOCK_KEY } from '../../../electron/services/store/postgres/schema-access.ts';
import { grantInProject } from '../../../electron/services/store/postgres/team.ts';
import { startTestPostgres, type TestDatabase, type TestPostgres } from '../../support/postgres.ts';
import { openTestServices, reopenTestServices, type TestServices } from '../../support/workspace.ts';

const PROJECT = 'local';
const WRITTEN: readonly ChainTable[] = ['answers', 'agent_sessions', 'unknown_sources', 'citations', 'citation_contexts', 'verification_runs', 'citation_results'];

let server: TestPostgres;
let database: TestDatabase;
let owner: pg.Client;
let local: TestServices;
let sourceId: number;
const stores: EvidenceStore[] = [];

async function agent(name: string, options: { lockTimeoutMs?: number; again?: boolean } = {}): Promise<EvidenceStore> {
  const login = `${database.loginPrefix}${name}`;
  if (!options.again) await grantInProject(owner, { login, level: 'agent', password: `pw-${name}`, project: PROJECT });
  const store = pgEvidenceStore(await PgStore.connect(database.urlFor(login, `pw-${name}`), { ...options, retry: { attempts: 1, baseDelayMs: 10, maxDelayMs: 10 } }));
  stores.push(store);
  return store;
}

beforeAll(async () => {
  server = await startTestPostgres();
  database = server;
  owner = await server.owner();
  local = openTestServices();
  const file = path.join(local.dir, 'minutes.txt');
  fs.writeFileSync(file, Array.from({ length: 40 }, (_, i) => `Line ${i}: the board approved the budget of ${1000 + i} euros.`).join('\n'));
  await local.ingest.ingest({ paths: [file], ocr: false });
  sourceId = local.sources.list()[0]?.id ?? 0;
  local.close();
  await migrateWorkspace(owner, { from: local.workspaceDir, project: { key: PROJECT, name: 'Local workspace' } });
  local = reopenTestServices(local);
}, 120_000);

afterAll(async () => {
  for (const s of stores) await s.close();
  local?.close();
  await owner?.end();
  await server?.close();
});

function newCite(login: string, session: string, k: number, over: Partial<NewCite['citation']> = {}, score = 0.91): NewCite {
  const quote = `the board approved the budget of ${1000 + k} euros.`;
  return {
    session: { sessionKey: session, agentId: login, userId: 'ana', projectId: PROJECT },
    citation: { claim: `Budget ${k} was approved.`, quote, context: 'budget', sourceId, unknownReference: null, claimedLocator: { line: k + 1 }, method: 'direct_quote', confidence: 'high', supersedesId: null, ...over },
    customSourceId: null,
    details: { k, tool: 'cite' },
    result: {
      status: k % 3 === 0 ? 'partial' : 'verified', verdict: k % 3 === 0 ? 'weak' : 'supported', score, confidence: 0.1 + k / 100, sourceId: over.sourceId === null ? null : sourceId,
      segmentId: null, startOffset: 9, endSegmentId: null, endOffset: 9 + quote.length, firstEnd: null, lastStart: null, page: null, pageLabel: null,
      matchMethod: 'exact', matchedText: quote, quote, prefix: `Line ${k}: `, suffix: null, notes: k % 2 === 0 ? ['a note', "with 'quotes' and \\ a backslash"] : [],
    },
  };
}

/** The chain's entries from `after` on, as the chain hashes them. */
function sqliteEntries(after: number): Record<string, unknown>[] {
  const db = new Database(path.join(local.workspaceDir, 'workspace.sqlite'), { readonly: true });
  try {
    return db.prepare('SELECT seq, prev_hash, action, table_name, row_id, row_hash, payload, created_at, hash FROM audit_log WHERE seq > ? ORDER BY seq').all(after) as Record<string, unknown>[];
  } finally {
    db.close();
  }
}

/** Each table's rows written by the cites, by their row hash (the covered columns). */
function sqliteRowHashes(): Record<string, string[]> {
  const db = new Database(path.join(local.workspaceDir, 'workspace.sqlite'), { readonly: true });
  try {
    return Object.fromEntries(WRITTEN.map((t) => [t, (db.prepare(`SELECT * FROM ${t} ORDER BY id`).all() as Record<string, unknown>[]).map((r) => rowHash(t, r, sha256Text))]));
  } finally {
    db.close();
  }
}

async function pgRowHashes(): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const t of WRITTEN) out[t] = (await owner.query<Record<string, unknown>>(`SELECT * FROM ${t} ORDER BY id`)).rows.map((r) => rowHash(t, r, sha256Text));
  return out;
}

async function pgCounts(): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const t of [...WRITTEN, 'audit_log']) out[t] = (await owner.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${t}`)).rows[0]?.n ?? -1;
  return out;
}

describe("a cite's write on PostgreSQL, one call", () => {
  it('leaves the rows and the chain, hash for hash, that the same cites leave on SQLite', async () => {
    const head = (await owner.query<{ n: number }>('SELECT count(*)::int AS n FROM audit_log')).rows[0]?.n ?? 0;
    expect(sqliteEntries(0)).toHaveLength(head);
    const a = await agent('citer');
    const login = a.member.login;
    // The same agent's second connection, as another of its processes would have.
    const other = await agent('citer', { again: true });
    const steps: { store: EvidenceStore; cite: (ids: number[]) => NewCite }[] = [
      // A new session, then more in it; an unknown source; a correction in the same session.
      { store: a, cite: () => newCite(login, 's1', 1) },
      { store: a, cite: () => newCite(login, 's1', 2, {}, 1e-7) },
      { store: a, cite: () => newCite(login, 's1', 3, { sourceId: null, unknownReference: '{"title":"Board minutes 2019"}' }) },
      { store: a, cite: (ids) => newCite(login, 's1', 4, { supersedesId: ids[0] ?? null }) },
      // A correction in another session supersedes one of s1's: the writer's copy of s1's ledger is stale.
      { store: a, cite: (ids) => newCite(login, 's2', 5, { supersedesId: ids[2] ?? null }, 0.000015) },
      { store: a, cite: () => newCite(login, 's1', 6) },
      // Another connection (another process) cites into s1, then the first cites again.
      { store: other, cite: () => newCite(login, 's1', 7) },
      { store: a, cite: () => newCite(login, 's1', 8, { sourceId: null, unknownReference: '{"title":"Board minutes 2019"}' }) },
      // Text the call and the append carry written into their SQL: quotes, backslashes, control characters, non-ASCII.
      { store: a, cite: () => newCite(login, `s3 'quoted' "twice" \\ 😀`, 9, { claim: "It's \"said\" \\ here\n\ttab \u0001 Zoë — naïve 😀 \u2028 end", context: "O'Brien's \\x00" }) },
    ];
    const ids: number[] = [];
    for (const [i, step] of steps.entries()) {
      const cite = step.cite(ids);
      // SQLite's session names the same agent as PostgreSQL's, which writes the member's login.
      const now = `2026-11-25T10:00:0${i}.000Z`;
      const there = await step.store.citations.cite(cite, now);
      const here = await local.evidence.citations.cite({ ...cite, session: { ...cite.session, agentId: step.store.member.login } }, now);
      expect(there).toEqual(here);
      ids.push(there.citationId);
    }
    expect(await pgRowHashes()).toEqual(sqliteRowHashes());
    const written = sqliteEntries(head);
    const pgWritten = (await owner.query('SELECT seq, prev_hash, action, table_name, row_id, row_hash, payload, created_at, hash FROM audit_log WHERE seq > $1 ORDER BY seq', [head])).rows;
    expect(pgWritten).toEqual(written);
    // Each cite's entries: its rows in the order SQLite writes them, then the cite's own.
    expect(written.slice(0, 7).map((e) => e.table_name ?? e.action)).toEqual(['answers', 'agent_sessions', 'citations', 'citation_contexts', 'verification_runs', 'citation_results', 'citation.cite']);
    // The run after the correction in s2 summarises s1's three citations in force, not four.
    const run = (await owner.query<{ summary: string }>('SELECT v.summary FROM verification_runs v JOIN citation_results r ON r.run_id = v.id WHERE r.citation_id = $1', [ids[5]])).rows[0];
    expect(JSON.parse(run?.summary ?? '{}')).toMatchObject({ total: 3 });
    const auditor = await PgStore.connect(database.ownerUrl);
    try {
      expect((await auditor.verifyChain()).ok).toBe(true);
    } finally {
      await auditor.close();
    }
  }, 120_000);

  it('writes nothing when the call fails part way (a new session made, then its citation refused)', async () => {
    const a = await agent('failing');
    const before = await pgCounts();
    // A correction of a citation that does not exist: the answer and session are inserted, then the citation is refused.
    await expect(a.citations.cite(newCite(a.member.login, 'never-made', 1, { supersedesId: 999_999 }), new Date().toISOString())).rejects.toThrow();
    expect(await pgCounts()).toEqual(before);
  }, 60_000);

  it('writes nothing when the chain append sent with the COMMIT fails (the rows were written before it)', async () => {
    const a = await agent('timed_out', { lockTimeoutMs: 300 });
    await a.citations.cite(newCite(a.member.login, 'held', 1), new Date().toISOString());
    const before = await pgCounts();
    // The chain's lock held elsewhere: the append waits past the member's lock timeout and fails.
    await owner.query('SELECT pg_advisory_lock($1)', [AUDIT_LOCK_KEY]);
    try {
      await expect(a.citations.cite(newCite(a.member.login, 'held', 2), new Date().toISOString())).rejects.toMatchObject({ code: 'DATABASE_TIMEOUT' });
    } finally {
      await owner.query('SELECT pg_advisory_unlock($1)', [AUDIT_LOCK_KEY]);
    }
    expect(await pgCounts()).toEqual(before);
    // The session's next cite takes the next ordinal, its chain whole.
    const next = await a.citations.cite(newCite(a.member.login, 'held', 3), new Date().toISOString());
    expect(next.marker).toBe('2');
  }, 60_000);
});
