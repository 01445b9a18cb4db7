// Registering a source on a shared workspace (issue 13): `evidesk mcp --database URL`, driven by
// the MCP SDK's own client, registers a file as the member the URL names, through the shared
// ingest path: hashed, extracted, its snapshot in PostgreSQL's chunk rows, every row in the single
// audit chain. An admin adds a document, and an agent then cites it and reads it; an agent may not
// add a new document (issue 13: agents read sources, admins add them), and PostgreSQL itself
// refuses it, the error naming the role, with nothing stored; bytes already in the pool are found.
// An agent's custom source is a row of its own; every registration is audited with who made it.
import crypto from 'node:crypto';
import fs from 'node:fs';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccessLevel } from '../../../electron/services/store/postgres/schema-access.ts';
import { grantMember } from '../../../electron/services/store/postgres/team.ts';
import { AuditCheckData } from '../../../shared/contract/answer-schemas.ts';
import { evidesk } from '../../support/cli.ts';
import { connectMcp, type McpSession } from '../../support/mcp-client.ts';
import { workspaceToMigrate } from '../../support/migrate-workspace.ts';
import { makePdf, writeFile } from '../../support/pdf-fixtures.ts';
import { startTestPostgres, type TestPostgres } from '../../support/postgres.ts';
import { tempDir } from '../../support/workspace.ts';

let server: TestPostgres;
let owner: pg.Client;
let adminUrl: string;
let agentUrl: string;
let docs: string;
const open: McpSession[] = [];

async function member(name: string, level: AccessLevel, projects: string[]): Promise<string> {
  const login = `${server.loginPrefix}${name}`;
  await grantMember(owner, { login, password: `pw-${name}`, level, projects });
  return server.urlFor(login, `pw-${name}`);
}

async function mcp(url: string, flags: string[] = []): Promise<McpSession> {
  const session = await connectMcp(tempDir('evidesk-pg-register-'), ['--database', url, ...flags], 'team-agent');
  open.push(session);
  return session;
}

const sha256Of = (file: string) => crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');
const count = async (sql: string, params: unknown[] = []) => (await owner.query<{ n: number }>(sql, params)).rows[0]?.n ?? -1;

beforeAll(async () => {
  const local = await workspaceToMigrate();
  server = await startTestPostgres();
  owner = await server.owner();
  const moved = await evidesk(local, 'workspace', 'migrate', '--from', local, '--to', server.ownerUrl, '--project', 'alpha');
  if (moved.code !== 0) throw new Error(`migrate failed: ${moved.err}${moved.out}`);
  adminUrl = await member('keeper', 'admin', []);
  agentUrl = await member('citer', 'agent', ['audit-2026']);
  docs = tempDir('evidesk-pg-register-docs-');
}, 240_000);

afterAll(async () => {
  await Promise.all(open.map((s) => s.close().catch(() => undefined)));
  await owner?.end();
  await server?.close();
});

describe('evidesk mcp --database: register_source on a shared workspace', () => {
  it("stores an admin's file whole in PostgreSQL, and an agent cites it and reads it", async () => {
    const pdf = writeFile(
      docs,
      'Travel_Policy.pdf',
      await makePdf([{ lines: ['Travel policy, page 1.'] }, { lines: ['Economy class is booked for flights under six hours.', 'Receipts go to finance within 30 days.'] }]),
    );
    const sha = sha256Of(pdf);
    const admin = await mcp(adminUrl);
    expect(admin.stderr()).toContain('shared database');
    const registered = await admin.call('register_source', { path: pdf });
    expect(registered.isError, JSON.stringify(registered.value)).toBe(false);
    expect(registered.value).toMatchObject({ kind: 'file', outcome: 'added', sha256: sha, file_name: 'Travel_Policy.pdf', page_count: 2, restricted: false });
    const id = registered.value.source_id as number;

    // In the shared store: the source with its pages, its snapshot's bytes in chunk rows, and
    // the admin's own path, each row with its entry in the chain.
    const row = (await owner.query<{ sha256: string; page_count: number }>('SELECT sha256, page_count FROM sources WHERE id = $1', [id])).rows[0];
    expect(row).toEqual({ sha256: sha, page_count: 2 });
    expect(await count('SELECT count(*)::int AS n FROM segments WHERE source_id = $1', [id])).toBe(2);
    const chunks = await owner.query<{ data: Buffer }>('SELECT data FROM blob_chunks WHERE sha256 = $1 ORDER BY ordinal', [sha]);
    expect(crypto.createHash('sha256').update(Buffer.concat(chunks.rows.map((c) => c.data))).digest('hex')).toBe(sha);
    expect((await owner.query('SELECT member FROM source_paths WHERE source_id = $1', [id])).rows).toEqual([{ member: `${server.loginPrefix}keeper` }]);
    expect(await count("SELECT count(*)::int AS n FROM audit_log WHERE table_name = 'sources' AND row_id = $1 AND action = 'source.add'", [id])).toBe(1);
    // And who registered it, as on a local workspace: the admin's login as the agent.
    const registeredBy = await owner.query<{ by: string }>("SELECT payload::jsonb -> 'by' ->> 'agent_id' AS by FROM audit_log WHERE action = 'source.register' AND (payload::jsonb ->> 'sourceId')::bigint = $1", [id]);
    expect(registeredBy.rows).toEqual([{ by: `${server.loginPrefix}keeper` }]);

    // The same bytes again are the same source.
    expect((await admin.call('register_source', { path: pdf })).value).toMatchObject({ outcome: 'duplicate', source_id: id });

    // An agent finds it, reads its page and cites it: verified against the stored text.
    const agent = await mcp(agentUrl, ['--session', 'travel']);
    const page = await agent.call('get_source', { source: id, page: 2 });
    expect(page.value.page_text).toContain('Economy class is booked for flights under six hours.');
    const cited = await agent.call('cite', {
      claim: 'Economy class is booked for flights under six hours.',
      quote_context: 'travel policy',
      verbatim_quote: 'Economy class is booked for flights under six hours.',
      source: id,
      locator: { page: 2 },
    });
    expect(cited.isError, JSON.stringify(cited.value)).toBe(false);
    expect(cited.value).toMatchObject({ status: 'verified', verdict: 'supported', matched: { source_id: id, locator: { page: 2 } } });

    const audit = await evidesk(tempDir('evidesk-pg-register-audit-'), '--database', adminUrl, 'audit', 'verify', '--json');
    expect(audit.code, audit.err + audit.out).toBe(0);
    expect(AuditCheckData.parse(JSON.parse(audit.out))).toMatchObject({ ok: true });
  }, 120_000);

  it("refuses an agent's new document in PostgreSQL itself, naming the role, and stores nothing; known bytes are found", async () => {
    const note = writeFile(docs, 'Agent_Notes.md', '# Notes\n\nThe agent wrote this file itself.\n');
    const sha = sha256Of(note);
    const [sources, blobs, entries] = await Promise.all([count('SELECT count(*)::int AS n FROM sources'), count('SELECT count(*)::int AS n FROM blobs'), count('SELECT count(*)::int AS n FROM audit_log')]);
    const agent = await mcp(agentUrl);
    const refused = await agent.call('register_source', { path: note });
    expect(refused.isError).toBe(true);
    expect(refused.value).toMatchObject({ error: { code: 'DATABASE_ROLE_REFUSED', details: { role: 'agent', sqlstate: '42501', field: 'path' } } });
    expect((refused.value.error as { message: string }).message).toMatch(/^path: The agent role may not add a source: only an admin adds sources/);
    expect(await count('SELECT count(*)::int AS n FROM sources')).toBe(sources);
    expect(await count('SELECT count(*)::int AS n FROM blobs')).toBe(blobs);
    expect(await count('SELECT count(*)::int AS n FROM blob_chunks WHERE sha256 = $1', [sha])).toBe(0);
    expect(await count('SELECT count(*)::int AS n FROM audit_log')).toBe(entries);

    // A document already in the pool is found: the agent's own path is recorded, no new source.
    const known = (await owner.query<{ id: number; sha256: string }>("SELECT id, sha256 FROM sources WHERE file_name = 'Travel_Policy.pdf'")).rows[0];
    const copy = writeFile(tempDir('evidesk-pg-register-copy-'), 'travel-copy.pdf', fs.readFileSync(`${docs}/Travel_Policy.pdf`));
    const found = await agent.call('register_source', { path: copy });
    expect(found.isError, JSON.stringify(found.value)).toBe(false);
    expect(found.value).toMatchObject({ outcome: 'duplicate', source_id: known?.id, sha256: known?.sha256 });
    expect(await count('SELECT count(*)::int AS n FROM sources')).toBe(sources);

    // A web page is not fetched on a shared database yet, and says so.
    const web = await agent.call('register_source', { url: 'http://127.0.0.1:9/page.html' });
    expect(web.value).toMatchObject({ error: { code: 'SHARED_DATABASE_UNSUPPORTED', details: { field: 'url' } } });
    expect((web.value.error as { message: string }).message).toMatch(/^url: registering a web page is not available on a shared database yet/);
  }, 120_000);

  it('registers an agent\'s custom source once, in the chain with who registered it, and records its citations as given', async () => {
    const agent = await mcp(agentUrl, ['--session', 'payroll']);
    const custom = { identifier: 'db:payroll-2026', description: 'Payroll database, March 2026 extract', kind: 'database' };
    const made = await agent.call('register_source', { custom });
    expect(made.isError, JSON.stringify(made.value)).toBe(false);
    expect(made.value).toMatchObject({ kind: 'custom', outcome: 'added', identifier: 'db:payroll-2026', source_id: null });
    const again = await agent.call('register_source', { custom: { ...custom, description: 'another description' } });
    expect(again.value).toMatchObject({ kind: 'custom', outcome: 'existing' });
    expect((again.value.notes as string[]).join(' ')).toContain('already registered with another description');
    const rows = await owner.query<{ id: number }>("SELECT id FROM custom_sources WHERE identifier = 'db:payroll-2026'");
    expect(rows.rows).toHaveLength(1);
    const id = rows.rows[0]?.id;
    const entries = await owner.query<{ action: string; by: string | null }>(
      `SELECT action, payload::jsonb -> 'by' ->> 'agent_id' AS by FROM audit_log
       WHERE (table_name = 'custom_sources' AND row_id = $1) OR (action = 'source.register' AND (payload::jsonb ->> 'customSourceId')::bigint = $1) ORDER BY id`,
      [id],
    );
    expect(entries.rows).toEqual([
      { action: 'row.append', by: null },
      { action: 'source.register', by: `${server.loginPrefix}citer` },
    ]);
    const cited = await agent.call('cite', { claim: 'Payroll lists 40 staff.', quote_context: 'payroll', source: 'db:payroll-2026', extraction_method: 'aggregation' });
    expect(cited.isError, JSON.stringify(cited.value)).toBe(false);
    expect(cited.value).toMatchObject({ status: 'unverifiable' });
    const audit = await evidesk(tempDir('evidesk-pg-register-audit-'), '--database', adminUrl, 'audit', 'verify', '--json');
    expect(audit.code, audit.err + audit.out).toBe(0);
  }, 120_000);
});
