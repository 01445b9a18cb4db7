// `evidesk workspace migrate` of a workspace moved before (issue 13): the analysts went on working
// locally after the first move; the second move copies only what was added since (a source with
// its snapshot, an imported answer verified and reviewed, an agent's citation, their chain
// entries), in one transaction, checked end to end, and the test finds every row equal on both
// sides. A local workspace that is not a continuation of what was moved, and a shared one that
// members wrote to since, are refused with a sentence saying so, and nothing is copied.
import Database from 'better-sqlite3';
import fs from 'node:fs';
import path from 'node:path';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readAnswerFile } from '../../../electron/cli/answer-file.ts';
import { createServices, type Services } from '../../../electron/services/create-services.ts';
import { sha256Text } from '../../../electron/services/store/audit-head-file.ts';
import { verifyPgChain } from '../../../electron/services/store/postgres/pg-audit-chain.ts';
import { readSnapshot } from '../../../electron/services/store/postgres/pg-snapshots.ts';
import { PgStore } from '../../../electron/services/store/postgres/pg-store.ts';
import { MOVED_TABLES } from '../../../electron/services/store/postgres/pg-workspace-tables.ts';
import { grantMember } from '../../../electron/services/store/postgres/team.ts';
import { CHAIN_TABLE_NAMES, rowHash } from '../../../shared/audit/canonical.ts';
import type { AnswerDetail } from '../../../shared/contract/answer-schemas.ts';
import { copyWorkspace } from '../../support/audit-workspace.ts';
import { evidesk } from '../../support/cli.ts';
import { workspaceToMigrate } from '../../support/migrate-workspace.ts';
import { writeFile } from '../../support/pdf-fixtures.ts';
import { pgDocument } from '../../support/pg-team.ts';
import { ingestAll, nativeAnswer } from '../../support/policy-workspace.ts';
import { startTestPostgres, type TestPostgres } from '../../support/postgres.ts';
import { callHandler, tempDir, testPlatform } from '../../support/workspace.ts';

let server: TestPostgres;
let owner: pg.Client;
let local: string;
/** The local workspace as the first move took it (copied before anything was added). */
let asMoved: string;

beforeAll(async () => {
  [server, local] = await Promise.all([startTestPostgres(), workspaceToMigrate()]);
  owner = await server.owner();
  const first = await migrate(local, '--project', 'hr-review');
  if (first.code !== 0) throw new Error(`the first move failed: ${first.err}${first.out}`);
  asMoved = copyWorkspace(local);
}, 180_000);

afterAll(async () => {
  await owner?.end();
  await server?.close();
});

async function migrate(from: string, ...more: string[]) {
  const run = await evidesk(from, 'workspace', 'migrate', '--from', from, '--to', server.ownerUrl, ...more);
  return { ...run, json: run.out.startsWith('{') ? (JSON.parse(run.out) as Record<string, unknown>) : undefined };
}

/** Works in the local workspace as the app would, then closes it. */
async function workLocally(dir: string, fn: (services: Services, docs: string) => Promise<void>): Promise<void> {
  const services = createServices(testPlatform(), dir);
  try {
    await fn(services, tempDir('evidesk-later-docs-'));
  } finally {
    services.close();
  }
}

async function sharedCount(table: string): Promise<number> {
  return Number((await owner.query<{ n: string }>(`SELECT count(*) AS n FROM ${table}`)).rows[0]?.n);
}

describe('evidesk workspace migrate, again', () => {
  it('copies only what was added locally since the first move, and both sides compare equal', async () => {
    const before = { sources: await sharedCount('sources'), log: await sharedCount('audit_log') };
    await workLocally(local, async (services, docs) => {
      await ingestAll(services, [writeFile(docs, 'later-memo.txt', 'Later memo.\n\nThe canteen opens at eight from March.\n')]);
      const detail = await callHandler<AnswerDetail>(
        services,
        'answers.import',
        readAnswerFile(writeFile(docs, 'later.json', nativeAnswer([{ marker: '1', claim: 'The canteen opens at eight.', quote: 'The canteen opens at eight from March.', source: { file: 'later-memo.txt' } }]))),
      );
      await callHandler(services, 'answers.review', { citationId: detail.citations[0]?.id, decision: 'accepted', reviewer: 'Ana' });
      const context = { session_id: 'agent-run-2', agent_id: 'nightly-agent', user_id: 'ops', project_id: 'audit-2026' };
      await callHandler(services, 'citations.cite', { claim: 'The canteen opens at eight.', quote_context: 'canteen', verbatim_quote: 'The canteen opens at eight from March.', source: 'later-memo.txt', locator: { paragraph: 2 }, context });
    });

    const run = await migrate(local, '--project', 'hr-review', '--json');
    expect(run.code, run.out + run.err).toBe(0);
    expect(run.json).toMatchObject({ ok: true, outcome: 'updated', chain: { anchored: true } });
    const copied = (run.json?.copied as { rows: Record<string, number>; snapshots: number }) ?? { rows: {}, snapshots: 0 };
    expect(copied.rows).toMatchObject({ sources: 1, review_decisions: 1, agent_sessions: 1 });
    expect(copied.rows.answers).toBeGreaterThanOrEqual(1);
    expect(copied.snapshots).toBe(1);
    expect(await sharedCount('sources')).toBe(before.sources + 1);

    const db = new Database(path.join(local, 'workspace.sqlite'), { readonly: true });
    try {
      // Every moved table, row for row (chain tables by row hash too), counted on both sides.
      for (const t of MOVED_TABLES) {
        if (t.local === 'meta') continue;
        const mine = db.prepare(`SELECT * FROM ${t.local} ORDER BY id`).all() as Record<string, unknown>[];
        const theirs = (await owner.query<Record<string, unknown>>(`SELECT * FROM ${t.shared} ORDER BY id`)).rows;
        expect(theirs.length, t.local).toBe(mine.length);
        if ((CHAIN_TABLE_NAMES as readonly string[]).includes(t.local)) {
          const table = t.local as (typeof CHAIN_TABLE_NAMES)[number];
          expect(theirs.map((r) => rowHash(table, r, sha256Text)), t.local).toEqual(mine.map((r) => rowHash(table, r, sha256Text)));
        }
      }
      const cols = 'id, seq, action, payload, created_at, prev_hash, hash, table_name, row_id, row_hash';
      const log = db.prepare(`SELECT ${cols} FROM audit_log ORDER BY id`).all();
      expect(log.length).toBeGreaterThan(before.log);
      expect((await owner.query(`SELECT ${cols} FROM audit_log ORDER BY id`)).rows).toEqual(log);
      const segs = db.prepare('SELECT id, source_id, ordinal, locator, page, text FROM segments ORDER BY id').all();
      expect((await owner.query('SELECT id, source_id, ordinal, locator, page, text FROM segments ORDER BY id')).rows).toEqual(segs);
      // The new source's snapshot reads back byte for byte.
      const added = db.prepare("SELECT sha256, snapshot FROM sources WHERE file_name = 'later-memo.txt'").get() as { sha256: string; snapshot: string };
      const parts: Buffer[] = [];
      for await (const chunk of readSnapshot(owner, added.sha256)) parts.push(chunk);
      expect(Buffer.concat(parts).equals(fs.readFileSync(path.join(local, added.snapshot)))).toBe(true);
      // The chain verifies on PostgreSQL and its recorded head is the local head.
      const report = await verifyPgChain(owner);
      expect(report).toMatchObject({ ok: true, entries: log.length });
      expect(report.recordedHead).toMatchObject({ count: log.length, hash: (log[log.length - 1] as { hash: string }).hash });
    } finally {
      db.close();
    }

    const text = await migrate(local);
    expect(text.code, text.err).toBe(0);
    expect(text.out).toContain('already holds this workspace');
  }, 240_000);

  it('refuses a local workspace that is not a continuation of what was moved', async () => {
    const log = await sharedCount('audit_log');
    // The copy taken at the first move, worked on separately: its chain forks from the moved one.
    await workLocally(asMoved, async (services, docs) => {
      await ingestAll(services, [writeFile(docs, 'fork-a.txt', 'A fork.\n'), writeFile(docs, 'fork-b.txt', 'Another fork.\n')]);
      await callHandler(services, 'answers.import', readAnswerFile(writeFile(docs, 'fork.json', nativeAnswer([{ marker: '1', claim: 'A fork.', quote: 'A fork.', source: { file: 'fork-a.txt' } }]))));
    });
    const run = await migrate(asMoved, '--json');
    expect(run.code).toBe(3);
    expect(run.json).toMatchObject({ ok: false, error: { code: 'SHARED_WORKSPACE_DIVERGED' } });
    const message = (run.json?.error as { message: string }).message;
    expect(message).toMatch(/^The local workspace's audit chain (is not a continuation of what was moved|has \d+ entries, fewer than the \d+ moved)/);
    expect(message).toContain('Nothing was copied.');
    expect(await sharedCount('audit_log')).toBe(log);
  }, 120_000);

  it('refuses to move later local work into a shared workspace members wrote to since', async () => {
    await grantMember(owner, { login: `${server.loginPrefix}admin`, password: 'pw-admin', level: 'admin', projects: ['hr-review'] });
    const admin = await PgStore.connect(server.urlFor(`${server.loginPrefix}admin`, 'pw-admin'));
    try {
      const doc = pgDocument('team-notes');
      await admin.addSource(doc.src, doc.pieces());
    } finally {
      await admin.close();
    }
    await workLocally(local, async (services, docs) => {
      await ingestAll(services, [writeFile(docs, 'local-only.txt', 'Written locally after the second move.\n')]);
    });
    const log = await sharedCount('audit_log');
    const run = await migrate(local);
    expect(run.code).toBe(3);
    expect(run.err + run.out).toMatch(/The shared workspace went its own way: members have appended \d+ audit entr(y|ies) to it since the move/);
    expect(await sharedCount('audit_log')).toBe(log);
    expect((await verifyPgChain(owner)).ok).toBe(true);
  }, 120_000);
});
