// `evidesk workspace migrate` (issue 13, Done-when 5): a local workspace moved into a shared
// PostgreSQL one with the same ids, compared equal table by table by the test itself (row hashes,
// counts, snapshot bytes) and its chain verified there; a second run is a no-op; another workspace,
// a tampered audit row and an unreadable snapshot are refused by name, and nothing is copied.
import Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHAIN_TABLE_NAMES, rowHash } from '../../../shared/audit/canonical.ts';
import { sha256Text } from '../../../electron/services/store/audit-head-file.ts';
import { verifyPgChain } from '../../../electron/services/store/postgres/pg-audit-chain.ts';
import { readSnapshot } from '../../../electron/services/store/postgres/pg-snapshots.ts';
import { copyWorkspace, tamperer } from '../../support/audit-workspace.ts';
import { evidesk } from '../../support/cli.ts';
import { workspaceToMigrate } from '../../support/migrate-workspace.ts';
import { startTestPostgres, type TestDatabase, type TestPostgres } from '../../support/postgres.ts';
import { ingestAll } from '../../support/policy-workspace.ts';
import { writeFile } from '../../support/pdf-fixtures.ts';
import { openTestServices } from '../../support/workspace.ts';

let server: TestPostgres;
let owner: pg.Client;
let local: string;

beforeAll(async () => {
  [server, local] = await Promise.all([startTestPostgres(), workspaceToMigrate()]);
  owner = await server.owner();
}, 120_000);

afterAll(async () => {
  await owner?.end();
  await server?.close();
});

function sqlite(dir: string): Database.Database {
  return new Database(path.join(dir, 'workspace.sqlite'), { readonly: true });
}

async function migrate(from: string, to: string, ...more: string[]) {
  const run = await evidesk(from, 'workspace', 'migrate', '--from', from, '--to', to, ...more);
  return { ...run, json: run.out.startsWith('{') ? (JSON.parse(run.out) as Record<string, unknown>) : undefined };
}

async function count(c: pg.ClientBase, table: string): Promise<number> {
  // A refused move may have stopped before the schema was made: no table, no rows.
  if ((await c.query<{ t: string | null }>('SELECT to_regclass($1)::text AS t', [table])).rows[0]?.t === null) return 0;
  return Number((await c.query<{ n: number }>(`SELECT count(*) AS n FROM ${table}`)).rows[0]?.n);
}

/** A refused move leaves the target without a source (and, refused early, without a schema). */
async function expectNothingCopied(target: TestDatabase): Promise<void> {
  const c = await target.owner();
  try {
    expect(await count(c, 'sources')).toBe(0);
  } finally {
    await c.end();
  }
}

describe('evidesk workspace migrate', () => {
  it('moves every row with its id and every snapshot, and the test finds both sides equal', async () => {
    const run = await migrate(local, server.ownerUrl, '--project', 'hr-review', '--json');
    expect(run.code, run.out + run.err).toBe(0);
    expect(run.json).toMatchObject({ ok: true, outcome: 'migrated', project: 'hr-review', chain: { anchored: true } });

    const db = sqlite(local);
    try {
      // Every kind of evidence the workspace was built with is there to compare.
      const kinds = (db.prepare('SELECT DISTINCT kind FROM sources ORDER BY kind').all() as { kind: string }[]).map((r) => r.kind);
      expect(kinds).toEqual(['html', 'markdown', 'pdf', 'text']);
      const decisions = (db.prepare('SELECT DISTINCT decision FROM review_decisions ORDER BY decision').all() as { decision: string }[]).map((r) => r.decision);
      expect(decisions).toEqual(['accepted', 'cleared', 'flagged', 'rejected']);
      expect((db.prepare('SELECT count(*) AS n FROM review_decisions WHERE undoes_id IS NOT NULL').get() as { n: number }).n).toBe(1);

      // Row hashes of every chain table, id for id, computed here on both sides.
      for (const table of CHAIN_TABLE_NAMES) {
        const mine = new Map((db.prepare(`SELECT * FROM ${table} ORDER BY id`).all() as Record<string, unknown>[]).map((r) => [r.id, rowHash(table, r, sha256Text)]));
        const theirs = new Map((await owner.query<Record<string, unknown>>(`SELECT * FROM ${table} ORDER BY id`)).rows.map((r) => [r.id, rowHash(table, r, sha256Text)]));
        expect(theirs, table).toEqual(mine);
      }
      for (const table of ['sources', 'citations', 'citation_results', 'verification_runs', 'review_decisions', 'library_changes', 'agent_sessions', 'custom_sources', 'citation_contexts', 'source_properties']) {
        expect(await count(owner, table), table).toBeGreaterThan(0);
      }
      // Tables outside the chain: segments and the audit log, column for column.
      const segs = db.prepare('SELECT id, source_id, ordinal, locator, page, text FROM segments ORDER BY id').all();
      expect((await owner.query('SELECT id, source_id, ordinal, locator, page, text FROM segments ORDER BY id')).rows).toEqual(segs);
      const log = db.prepare('SELECT id, seq, action, payload, created_at, prev_hash, hash, table_name, row_id, row_hash FROM audit_log ORDER BY id').all();
      expect((await owner.query('SELECT id, seq, action, payload, created_at, prev_hash, hash, table_name, row_id, row_hash FROM audit_log ORDER BY id')).rows).toEqual(log);

      // Snapshots: the chunks read back are the workspace's files, byte for byte.
      const snaps = db.prepare('SELECT sha256, snapshot FROM sources WHERE snapshot IS NOT NULL').all() as { sha256: string; snapshot: string }[];
      expect(snaps.length).toBeGreaterThanOrEqual(4);
      for (const s of snaps) {
        const parts: Buffer[] = [];
        for await (const chunk of readSnapshot(owner, s.sha256)) parts.push(chunk);
        const bytes = Buffer.concat(parts);
        expect(bytes.equals(fs.readFileSync(path.join(local, s.snapshot)))).toBe(true);
        expect(createHash('sha256').update(bytes).digest('hex')).toBe(s.sha256);
      }
      // Answers outside a session went to the project given, the agent's to its own.
      const projects = (await owner.query<{ project_key: string }>('SELECT DISTINCT project_key FROM answers ORDER BY 1')).rows.map((r) => r.project_key);
      expect(projects).toEqual(['audit-2026', 'hr-review']);
    } finally {
      db.close();
    }
    const report = await verifyPgChain(owner);
    expect(report.ok).toBe(true);
    // A member's next row gets a fresh id after the copied ones.
    const copiedMax = Number((await owner.query<{ n: number }>('SELECT max(id) AS n FROM unknown_sources')).rows[0]?.n);
    await owner.query('BEGIN');
    const next = await owner.query<{ id: number }>("INSERT INTO unknown_sources (reference) VALUES ('after the move') RETURNING id");
    await owner.query('ROLLBACK');
    expect(next.rows[0]?.id).toBeGreaterThan(copiedMax);
  }, 120_000);

  it('run again into the same database, copies nothing and says so', async () => {
    const before = await count(owner, 'audit_log');
    const run = await migrate(local, server.ownerUrl);
    expect(run.code, run.err).toBe(0);
    expect(run.out).toContain('already holds this workspace');
    expect(run.out).toContain('audit chain verified on PostgreSQL');
    expect(await count(owner, 'audit_log')).toBe(before);
  }, 60_000);

  it('refuses to move another workspace into a database that holds one', async () => {
    const services = openTestServices();
    try {
      await ingestAll(services, [writeFile(path.join(services.dir, 'docs'), 'other.txt', 'Another workspace entirely.\n')]);
    } finally {
      services.close();
    }
    const run = await migrate(services.workspaceDir, server.ownerUrl, '--json');
    expect(run.code).toBe(3);
    expect(run.json).toMatchObject({ ok: false, error: { code: 'SHARED_WORKSPACE_NOT_EMPTY' } });
  }, 60_000);

  it('refuses a workspace whose audit chain was tampered with, naming the row, and copies nothing', async () => {
    const copy = copyWorkspace(local);
    const raw = tamperer(copy);
    const cited = raw.prepare('SELECT id FROM citations ORDER BY id LIMIT 1 OFFSET 1').get() as { id: number };
    raw.prepare("UPDATE citations SET claim = 'Leave is 30 days.' WHERE id = ?").run(cited.id);
    raw.close();
    const target = await server.anotherDatabase();
    const run = await migrate(copy, target.ownerUrl, '--json');
    expect(run.code).toBe(3);
    expect(run.json).toMatchObject({ ok: false, error: { code: 'MIGRATION_SOURCE_INVALID', details: { break: { table: 'citations', rowId: cited.id } } } });
    expect((run.json?.error as { message: string }).message).toContain(`citations row ${cited.id}`);
    await expectNothingCopied(target);
  }, 60_000);

  it('names the source whose snapshot file cannot be read, and copies nothing', async () => {
    const copy = copyWorkspace(local);
    const db = sqlite(copy);
    const src = db.prepare("SELECT id, snapshot FROM sources WHERE file_name = 'handbook.md'").get() as { id: number; snapshot: string };
    db.close();
    fs.rmSync(path.join(copy, src.snapshot));
    const target = await server.anotherDatabase();
    const run = await migrate(copy, target.ownerUrl, '--json');
    expect(run.code).toBe(3);
    expect(run.json).toMatchObject({ ok: false, error: { code: 'MIGRATION_SOURCE_INVALID', details: { table: 'sources', id: src.id } } });
    expect((run.json?.error as { message: string }).message).toMatch(/source \d+ \(handbook\.md\).*cannot be read/);
    await expectNothingCopied(target);
  }, 60_000);

  it('names a local row PostgreSQL refuses, with its reason, and copies nothing', async () => {
    const copy = copyWorkspace(local);
    const raw = new Database(path.join(copy, 'workspace.sqlite'));
    // A setting is a value, not evidence (no chain entry covers it): only the copy can find it wrong.
    raw.prepare("INSERT INTO meta (key, value) VALUES ('ui.hand-edited', 'not json')").run();
    raw.close();
    const target = await server.anotherDatabase();
    const run = await migrate(copy, target.ownerUrl, '--json');
    expect(run.code).toBe(3);
    expect(run.json).toMatchObject({ ok: false, error: { code: 'MIGRATION_SOURCE_INVALID', details: { table: 'meta', key: 'ui.hand-edited' } } });
    expect((run.json?.error as { message: string }).message).toMatch(/meta row ui\.hand-edited cannot be copied: .*json/i);
    await expectNothingCopied(target);
  }, 60_000);

  it("keeps a segment whose text holds a NUL (as some PDFs' text layers do), as U+FFFD at the same offset", async () => {
    const copy = copyWorkspace(local);
    const raw = new Database(path.join(copy, 'workspace.sqlite'));
    const seg = raw.prepare('SELECT id, text FROM segments ORDER BY id LIMIT 1').get() as { id: number; text: string };
    const withNul = `${seg.text.slice(0, 3)}\u0000${seg.text.slice(4)}`;
    raw.prepare('UPDATE segments SET text = ? WHERE id = ?').run(withNul, seg.id);
    raw.close();
    const target = await server.anotherDatabase();
    const run = await migrate(copy, target.ownerUrl, '--json');
    expect(run.code, run.out).toBe(0);
    const c = await target.owner();
    try {
      const stored = (await c.query<{ text: string }>('SELECT text FROM segments WHERE id = $1', [seg.id])).rows[0]?.text;
      expect(stored).toBe(withNul.replace('\u0000', '\uFFFD'));
      expect(stored?.length).toBe(withNul.length);
    } finally {
      await c.end();
    }
  }, 60_000);
});
