// Citing on a shared workspace (issue 13): `evidesk mcp --database URL`, driven by the MCP SDK's
// own client, verifies an agent's citations at once as the local server does (the same verdicts,
// places and hints for the same quotes) and writes each in one transaction as the member the URL
// names: the citation, its context, its run and result, and their chain entries, which
// `evidesk audit verify --database` then accepts. PostgreSQL refuses an auditor's cite itself, and
// the refusal names the role.
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccessLevel } from '../../../electron/services/store/postgres/schema-access.ts';
import { grantMember } from '../../../electron/services/store/postgres/team.ts';
import { AuditCheckData } from '../../../shared/contract/answer-schemas.ts';
import { evidesk } from '../../support/cli.ts';
import { connectMcp, type McpSession } from '../../support/mcp-client.ts';
import { workspaceToMigrate } from '../../support/migrate-workspace.ts';
import { startTestPostgres, type TestPostgres } from '../../support/postgres.ts';
import { tempDir } from '../../support/workspace.ts';

let server: TestPostgres;
let owner: pg.Client;
let local: string;
let agentLogin: string;
let agentUrl: string;
let auditorUrl: string;
const open: McpSession[] = [];

async function member(name: string, level: AccessLevel, projects: string[]): Promise<{ login: string; url: string }> {
  const login = `${server.loginPrefix}${name}`;
  await grantMember(owner, { login, password: `pw-${name}`, level, projects });
  return { login, url: server.urlFor(login, `pw-${name}`) };
}

async function mcp(workspace: string, flags: string[]): Promise<McpSession> {
  const session = await connectMcp(workspace, flags, 'team-agent');
  open.push(session);
  return session;
}

beforeAll(async () => {
  [server, local] = await Promise.all([startTestPostgres(), workspaceToMigrate()]);
  owner = await server.owner();
  const moved = await evidesk(local, 'workspace', 'migrate', '--from', local, '--to', server.ownerUrl, '--project', 'alpha');
  if (moved.code !== 0) throw new Error(`migrate failed: ${moved.err}${moved.out}`);
  const agent = await member('citer', 'agent', ['audit-2026']);
  agentLogin = agent.login;
  agentUrl = agent.url;
  auditorUrl = (await member('auditor', 'auditor', [])).url;
}, 240_000);

afterAll(async () => {
  await Promise.all(open.map((s) => s.close().catch(() => undefined)));
  await owner?.end();
  await server?.close();
});

/** The same cites on both servers: verified, a misquote, another page's words, a loose name, an unknown source, a custom source. */
const CITES: Record<string, unknown>[] = [
  { claim: 'Staff get 14 days of leave.', quote_context: 'leave', verbatim_quote: '14 days of annual leave', source: 'HR_Policy.pdf', locator: { page: 3 } },
  { claim: 'Staff get 20 days of leave.', quote_context: 'leave', verbatim_quote: 'Employees receive 20 days of paid holiday every year', source: 'HR_Policy.pdf', locator: { page: 3 } },
  { claim: 'Receipts are kept.', quote_context: 'expenses', verbatim_quote: 'Receipts are kept for seven years.', source: 'handbook', locator: {} },
  { claim: 'Receipts are kept long.', quote_context: 'expenses', verbatim_quote: 'Receipts are kept for seven years.', source: 'notice.html', locator: {} },
  { claim: 'The budget was approved.', quote_context: 'budget', verbatim_quote: 'The budget was approved.', source: 'Budget.xlsx', locator: {} },
  { claim: 'Payroll lists 40 staff.', quote_context: 'payroll', source: 'db:payroll', extraction_method: 'aggregation' },
];

/** What a verdict is, without the ids each workspace numbers on its own. */
function verdictOf(v: Record<string, unknown>) {
  const { citation_id: _id, session_id: _s, next_step: _n, ...rest } = v;
  return rest;
}

describe('evidesk mcp --database: citing on a shared workspace', () => {
  it('gives the same verdicts as the local server for the same quotes, and stores each citation with its chain entries', async () => {
    const [here, there] = await Promise.all([mcp(local, ['--session', 'compare-cite', '--project', 'audit-2026']), mcp(tempDir('evidesk-pg-cite-'), ['--database', agentUrl, '--session', 'shared-cite'])]);
    expect(there.stderr()).toContain('shared database');
    const statuses: string[] = [];
    for (const args of CITES) {
      const [a, b] = await Promise.all([here.call('cite', args), there.call('cite', args)]);
      expect(a.isError, JSON.stringify(a.value)).toBe(false);
      expect(b.isError, JSON.stringify(b.value)).toBe(false);
      expect(verdictOf(b.value), String(args.claim)).toEqual(verdictOf(a.value));
      statuses.push(String(b.value.status));
    }
    expect(statuses).toEqual(['verified', 'not_found', 'verified', 'not_found', 'source_unknown', 'unverifiable']);

    // Stored in the member's own session of its project (the --project default: its first as an agent).
    const listed = await there.call('list_citations', { session_id: 'shared-cite' });
    const records = listed.value.citations as { citation_id: number; status: string; agent_id: string; project_id: string; marker: string }[];
    expect(records.map((r) => [r.marker, r.status, r.agent_id, r.project_id])).toEqual(statuses.map((s, i) => [`[${i + 1}]`, s, agentLogin, 'audit-2026']));
    const first = records[0]?.citation_id ?? 0;
    expect((await there.call('get_citation', { citation_id: first })).value).toMatchObject({ status: 'verified', verdict: 'supported', session_id: 'shared-cite' });

    // Each row has its entry in the single chain, and the cite its own.
    const ids = records.map((r) => r.citation_id);
    const entries = await owner.query<{ table_name: string | null; action: string; n: number }>(
      `SELECT table_name, action, count(*)::int AS n FROM audit_log
       WHERE (table_name = 'citations' AND row_id = ANY ($1)) OR (table_name = 'citation_contexts' AND row_id IN (SELECT id FROM citation_contexts WHERE citation_id = ANY ($1)))
          OR (table_name = 'citation_results' AND row_id IN (SELECT id FROM citation_results WHERE citation_id = ANY ($1)))
          OR (action = 'citation.cite' AND (payload::jsonb ->> 'citationId')::bigint = ANY ($1))
       GROUP BY 1, 2 ORDER BY 1, 2`,
      [ids],
    );
    expect(entries.rows.map((r) => [r.table_name, r.action, r.n])).toEqual([
      ['citation_contexts', 'row.append', 6],
      ['citation_results', 'row.append', 6],
      ['citations', 'row.append', 6],
      [null, 'citation.cite', 6],
    ]);
    const audit = await evidesk(tempDir('evidesk-pg-cite-audit-'), '--database', auditorUrl, 'audit', 'verify', '--json');
    expect(audit.code, audit.err + audit.out).toBe(0);
    expect(AuditCheckData.parse(JSON.parse(audit.out))).toMatchObject({ ok: true });
  }, 120_000);

  it("refuses an auditor's cite in PostgreSQL itself, naming the role, and writes nothing", async () => {
    const count = async () => (await owner.query<{ n: number }>('SELECT count(*)::int AS n FROM citations')).rows[0]?.n;
    const before = await count();
    const auditor = await mcp(tempDir('evidesk-pg-cite-'), ['--database', auditorUrl, '--project', 'audit-2026']);
    const refused = await auditor.call('cite', CITES[0] ?? {});
    expect(refused.isError).toBe(true);
    expect(refused.value).toMatchObject({ error: { code: 'DATABASE_ROLE_REFUSED', details: { role: 'auditor' } } });
    expect((refused.value.error as { message: string }).message).toMatch(/^The auditor role may not cite/);
    expect(await count()).toBe(before);
  }, 60_000);

  it("keeps a source's text out of its replies once it is restricted, though this server copied it unrestricted", async () => {
    const agent = await mcp(tempDir('evidesk-pg-cite-'), ['--database', agentUrl, '--session', 'restricted-cite']);
    const before = await agent.call('cite', CITES[0] ?? {});
    expect(before.value).toMatchObject({ status: 'verified', matched: { text: '14 days of annual leave' } });
    // An admin's restriction (the owner here) reaches the server's copy at its next cite.
    await owner.query("UPDATE sources SET restricted = 1 WHERE file_name = 'HR_Policy.pdf'");
    const after = await agent.call('cite', CITES[0] ?? {});
    expect(after.value).toMatchObject({ status: 'verified', matched: { text: null } });
    const misquote = await agent.call('cite', CITES[1] ?? {});
    expect(misquote.value).toMatchObject({ status: 'not_found' });
    expect(JSON.stringify(misquote.value)).not.toContain('annual leave');
  }, 60_000);
});
