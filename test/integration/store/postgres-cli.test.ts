// The command line on a shared workspace (issue 13): `--database URL` or $EVIDESK_DATABASE_URL runs
// `audit verify`, `search` and `check` on a migrated PostgreSQL workspace as the member the URL
// names, with the same --json shapes as on the local workspace it came from; the single chain is
// walked and an owner's tampering is named; a command whose area is not shared yet refuses with
// its code and touches no local workspace; PostgreSQL itself refuses a level that may not read.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, type CliIo } from '../../../electron/cli/main.ts';
import { grantMember } from '../../../electron/services/store/postgres/team.ts';
import type { AccessLevel } from '../../../electron/services/store/postgres/schema-access.ts';
import { AuditCheckData } from '../../../shared/contract/answer-schemas.ts';
import { evidesk } from '../../support/cli.ts';
import { workspaceToMigrate } from '../../support/migrate-workspace.ts';
import { startTestPostgres, type TestPostgres } from '../../support/postgres.ts';
import { tempDir } from '../../support/workspace.ts';

const root = path.resolve(import.meta.dirname, '..', '..', '..');
let server: TestPostgres;
let owner: pg.Client;
let local: string;
let auditorUrl: string;
let agentUrl: string;
let reviewerUrl: string;

async function member(name: string, level: AccessLevel, projects: string[]): Promise<string> {
  const login = `${server.loginPrefix}${name}`;
  await grantMember(owner, { login, password: `pw-${name}`, level, projects });
  return server.urlFor(login, `pw-${name}`);
}

beforeAll(async () => {
  [server, local] = await Promise.all([startTestPostgres(), workspaceToMigrate()]);
  owner = await server.owner();
  const moved = await evidesk(local, 'workspace', 'migrate', '--from', local, '--to', server.ownerUrl, '--project', 'alpha');
  if (moved.code !== 0) throw new Error(`migrate failed: ${moved.err}${moved.out}`);
  auditorUrl = await member('auditor', 'auditor', []);
  agentUrl = await member('agent', 'agent', ['alpha']);
  reviewerUrl = await member('reviewer', 'reviewer', ['alpha']);
}, 180_000);

afterAll(async () => {
  await owner?.end();
  await server?.close();
});

interface Run {
  code: number;
  out: string;
  err: string;
  json: unknown;
}

/** `evidesk ARGV` in this process with the given environment only (no --workspace unless given). */
async function cli(argv: string[], env: NodeJS.ProcessEnv = {}): Promise<Run> {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIo = { out: (t) => out.push(t), err: (t) => err.push(t) };
  const code = await runCli(argv, io, env);
  const text = out.join('\n');
  return { code, out: text, err: err.join('\n'), json: text.startsWith('{') || text.startsWith('[') ? JSON.parse(text) : undefined };
}

/** A folder with no workspace in it: a shared command must leave it so. */
function emptyFolder(): string {
  return tempDir('evidesk-pg-cli-');
}

async function toggleTrigger(table: string, trigger: string, on: boolean): Promise<void> {
  await owner.query(`ALTER TABLE ${table} ${on ? 'ENABLE' : 'DISABLE'} TRIGGER ${trigger}`);
}

describe('evidesk --database on a shared workspace', () => {
  it('verifies the single audit chain of the migrated workspace as an auditor, in the same shape as the local check', async () => {
    const folder = emptyFolder();
    const shared = await cli(['--workspace', folder, '--database', auditorUrl, 'audit', 'verify', '--json']);
    expect(shared.code, shared.err + shared.out).toBe(0);
    const check = AuditCheckData.parse(shared.json);
    expect(check).toMatchObject({ ok: true });
    expect(check.rows).toBeGreaterThan(10);
    const before = await cli(['--workspace', local, 'audit', 'verify', '--json']);
    expect(before.code).toBe(0);
    expect(Object.keys(shared.json as object).sort()).toEqual(Object.keys(before.json as object).sort());
    // The chain's head as the database holds it: the last entry's hash.
    const head = (await owner.query<{ hash: string }>('SELECT hash FROM audit_log ORDER BY id DESC LIMIT 1')).rows[0]?.hash;
    expect(check.head).toBe(head);

    const text = await cli(['--workspace', folder, 'audit', 'verify'], { EVIDESK_DATABASE_URL: auditorUrl });
    expect(text.code, text.err).toBe(0);
    expect(text.out).toContain(`✓ The shared audit chain is intact: ${check.rows} entries`);
    // No local workspace was opened: the folder holds only this member's head file of the shared chain.
    expect(fs.readdirSync(folder)).toEqual(['shared-audit-heads']);
  });

  it('runs through the real entry with $EVIDESK_DATABASE_URL', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, [path.join(root, 'electron', 'cli', 'main.ts'), 'audit', 'verify', '--json'], {
      cwd: root,
      env: { ...process.env, EVIDESK_DATABASE_URL: auditorUrl, EVIDESK_WORKSPACE: emptyFolder() },
    });
    expect(AuditCheckData.parse(JSON.parse(stdout))).toMatchObject({ ok: true });
  });

  it("names the first broken entry after the table owner's edit of a citation, and exits non-zero", async () => {
    const citation = (await owner.query<{ id: number; claim: string }>('SELECT id, claim FROM citations ORDER BY id LIMIT 1')).rows[0];
    if (!citation) throw new Error('no citation was migrated');
    const entry = (await owner.query<{ id: number; seq: number }>("SELECT id, seq FROM audit_log WHERE table_name = 'citations' AND row_id = $1", [citation.id])).rows[0];
    if (!entry) throw new Error('no audit entry records the citation');
    await toggleTrigger('citations', 'citations_append_only', false);
    try {
      await owner.query("UPDATE citations SET claim = 'Leave is 40 days.' WHERE id = $1", [citation.id]);
      const json = await cli(['--database', auditorUrl, '--workspace', emptyFolder(), 'audit', 'verify', '--json']);
      expect(json.code).toBe(3);
      expect(AuditCheckData.parse(json.json)).toMatchObject({ ok: false, brokenAt: { kind: 'edited', table: 'citations', rowId: citation.id, seq: entry.seq, id: entry.id } });
      const text = await cli(['--database', auditorUrl, '--workspace', emptyFolder(), 'audit', 'verify']);
      expect(text.code).toBe(3);
      expect(text.out).toContain('✖ The shared audit chain is broken (edited)');
      expect(text.out).toContain(`at entry ${entry.seq}, audit_log id ${entry.id}, citations id ${citation.id}`);
    } finally {
      await owner.query('UPDATE citations SET claim = $2 WHERE id = $1', [citation.id, citation.claim]);
      await toggleTrigger('citations', 'citations_append_only', true);
    }
    expect((await cli(['--database', auditorUrl, '--workspace', emptyFolder(), 'audit', 'verify'])).code).toBe(0);
  });

  it('finds the same hits as the local workspace it was moved from', async () => {
    const shared = await cli(['--database', reviewerUrl, '--workspace', emptyFolder(), 'search', 'annual', 'leave', '--json']);
    expect(shared.code, shared.err + shared.out).toBe(0);
    const before = await cli(['--workspace', local, 'search', 'annual', 'leave', '--json']);
    type Hit = { sourceId: number; segmentId: number; fileName: string; locator: unknown };
    const key = (h: Hit) => `${h.sourceId}/${h.segmentId}/${h.fileName}/${JSON.stringify(h.locator)}`;
    const hits = shared.json as Hit[];
    expect(hits.length).toBeGreaterThan(0);
    // Ranks are each engine's own; the hits themselves (migrated with their ids) are the same.
    expect(hits.map(key).sort()).toEqual((before.json as Hit[]).map(key).sort());
    expect(Object.keys(hits[0] ?? {}).sort()).toEqual(Object.keys((before.json as Hit[])[0] ?? {}).sort());

    const text = await cli(['--database', reviewerUrl, '--workspace', emptyFolder(), 'search', 'annual', 'leave']);
    expect(text.code).toBe(0);
    expect(text.out).toContain('HR_Policy.pdf');
    // The evidence lines: the reviewer recorded no path of its own; the links open the same places
    // as the local ones (their words come from each engine's own snippet).
    expect(text.out).toContain('Evidence:\n1. [✗ no path] HR_Policy.pdf, p. ');
    const links = (out: string) => out.split('\n').filter((l) => /^\s+\S+:\/\//.test(l)).map((l) => l.trim().replace(/&text=.*$/, ''));
    const localText = await cli(['--workspace', local, 'search', 'annual', 'leave']);
    expect(links(text.out).length).toBeGreaterThan(0);
    expect(links(text.out).sort()).toEqual(links(localText.out).sort());
    const none = await cli(['--database', reviewerUrl, '--workspace', emptyFolder(), 'search', 'zyxwvut']);
    expect(none.out).toBe('No matches for "zyxwvut".');
  });

  it("checks the sources' health against this member's own paths, counting the citations its level may read", async () => {
    type Report = { sources: { id: number; fileName: string; health: string; citations: number }[]; counts: Record<string, number> };
    const before = (await cli(['--workspace', local, 'check', '--json'])).json as Report;
    const auditor = await cli(['--database', auditorUrl, '--workspace', emptyFolder(), 'check', '--json']);
    const all = auditor.json as Report;
    expect(all.sources.map((s) => [s.id, s.fileName, s.citations])).toEqual(before.sources.map((s) => [s.id, s.fileName, s.citations]));
    // The auditor recorded no path of its own: every file is missing for it (an archived web page aside).
    const missing = all.sources.filter((s) => s.health === 'missing').length;
    expect(missing).toBeGreaterThan(0);
    expect(all.counts.missing).toBe(missing);
    expect(auditor.code).toBe(1);
    // An agent of project alpha does not see the citation made in the agent session of audit-2026.
    const agent = (await cli(['--database', agentUrl, '--workspace', emptyFolder(), 'check', '--json'])).json as Report;
    const cited = (r: Report) => r.sources.reduce((n, s) => n + s.citations, 0);
    expect(agent.sources.map((s) => s.id)).toEqual(before.sources.map((s) => s.id));
    expect(cited(agent)).toBe(cited(before) - 1);
    const text = await cli(['--database', agentUrl, '--workspace', emptyFolder(), 'check']);
    expect(text.out).toContain('a source none of your paths holds is missing for you');
  });

  it('refuses a command whose area is not shared yet, with its code, and opens no local workspace', async () => {
    const folder = emptyFolder();
    const refused = await cli(['--workspace', folder, '--database', reviewerUrl, 'sources', '--json']);
    expect(refused.code).toBe(3);
    expect(refused.json).toMatchObject({ ok: false, error: { code: 'SHARED_DATABASE_UNSUPPORTED', details: { command: 'sources', from: '--database' } } });
    // (ingest runs on a shared database now: postgres-cli-ingest.test.ts)
    const fromEnv = await cli(['--workspace', folder, 'ocr', path.join(local, 'workspace.sqlite')], { EVIDESK_DATABASE_URL: reviewerUrl });
    expect(fromEnv.code).toBe(3);
    expect(fromEnv.err).toBe('evidesk ocr: evidesk ocr is not available on a shared database yet; it works on a local workspace (run it with EVIDESK_DATABASE_URL unset). [SHARED_DATABASE_UNSUPPORTED]');
    expect(fs.readdirSync(folder)).toEqual([]);
  });

  it('connects as the URL names: a wrong password and a level that may not read the chain are refused by PostgreSQL', async () => {
    const wrong = await cli(['--database', server.urlFor(`${server.loginPrefix}auditor`, 'not-the-password'), '--workspace', emptyFolder(), 'audit', 'verify', '--json']);
    expect(wrong.code).toBe(3);
    expect(wrong.json).toMatchObject({ ok: false, error: { code: 'DATABASE_ROLE_REFUSED', details: { login: `${server.loginPrefix}auditor` } } });
    const agent = await cli(['--database', agentUrl, '--workspace', emptyFolder(), 'audit', 'verify', '--json']);
    expect(agent.code).toBe(3);
    expect(agent.json).toMatchObject({ ok: false, error: { code: 'DATABASE_ROLE_REFUSED', details: { role: 'agent' } } });
    const notPg = await cli(['--database', 'mysql://someone@host/db', '--workspace', emptyFolder(), 'search', 'leave', '--json']);
    expect(notPg.json).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT', details: { field: 'database' } } });
    const empty = await cli(['--workspace', emptyFolder(), 'search', 'leave', '--database=', '--json']);
    expect(empty.json).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT', details: { field: 'database' } } });
    // A database no workspace was moved into is named as such, not as a missing table.
    const bare = await server.anotherDatabase();
    const none = await cli(['--database', bare.ownerUrl, '--workspace', emptyFolder(), 'audit', 'verify', '--json']);
    expect(none.code).toBe(3);
    expect(none.json).toMatchObject({ ok: false, error: { code: 'SHARED_WORKSPACE_MISSING' } });
  });
});
