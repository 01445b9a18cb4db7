// The MCP server on a shared workspace (issue 13): `evidesk mcp --database URL` (or
// $EVIDESK_DATABASE_URL), driven by the MCP SDK's own client, serves the citation tools' reads on a
// migrated PostgreSQL workspace as the member the URL names. Search finds what the local server
// finds; citations read back as they do locally; an agent of one project sees none of another
// project's citations (PostgreSQL's row-level security decides); registering a web page refuses
// with SHARED_DATABASE_UNSUPPORTED and never falls back to a local workspace (citing there is
// postgres-mcp-cite.test.ts, registering files and custom sources postgres-mcp-register.test.ts).
import fs from 'node:fs';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServices } from '../../../electron/services/create-services.ts';
import type { AccessLevel } from '../../../electron/services/store/postgres/schema-access.ts';
import { grantMember } from '../../../electron/services/store/postgres/team.ts';
import { evidesk } from '../../support/cli.ts';
import { connectMcp, type McpSession } from '../../support/mcp-client.ts';
import { workspaceToMigrate } from '../../support/migrate-workspace.ts';
import { startTestPostgres, type TestPostgres } from '../../support/postgres.ts';
import { callHandler, tempDir, testPlatform } from '../../support/workspace.ts';

let server: TestPostgres;
let owner: pg.Client;
let local: string;
let agentA: string;
let agentB: string;
/** The citations each project's agent made before the move. */
let alphaIds: number[];
let betaId: number;
const open: McpSession[] = [];

async function member(name: string, level: AccessLevel, projects: string[]): Promise<string> {
  const login = `${server.loginPrefix}${name}`;
  await grantMember(owner, { login, password: `pw-${name}`, level, projects });
  return server.urlFor(login, `pw-${name}`);
}

/** A folder with no workspace in it: the shared server must leave it so. */
function emptyFolder(): string {
  return tempDir('evidesk-pg-mcp-');
}

async function mcp(workspace: string, flags: string[], env: Record<string, string> = {}): Promise<McpSession> {
  const session = await connectMcp(workspace, flags, 'team-agent', env);
  open.push(session);
  return session;
}

beforeAll(async () => {
  [server, local] = await Promise.all([startTestPostgres(), workspaceToMigrate()]);
  // A second project's agent cites the same policy in a session of its own.
  const services = createServices(testPlatform(), local);
  try {
    const cited = await callHandler<{ citation_id: number }>(services, 'citations.cite', {
      claim: 'Staff get 14 days of leave.',
      quote_context: 'leave',
      verbatim_quote: '14 days of annual leave',
      source: 'HR_Policy.pdf',
      locator: { page: 3 },
      context: { session_id: 'beta-run-1', agent_id: 'beta-agent', user_id: 'bea', project_id: 'beta' },
    });
    betaId = cited.citation_id;
    const listed = await callHandler<{ citations: { citation_id: number }[] }>(services, 'citations.list', { project_id: 'audit-2026' });
    alphaIds = listed.citations.map((c) => c.citation_id);
  } finally {
    services.close();
  }
  owner = await server.owner();
  const moved = await evidesk(local, 'workspace', 'migrate', '--from', local, '--to', server.ownerUrl, '--project', 'alpha');
  if (moved.code !== 0) throw new Error(`migrate failed: ${moved.err}${moved.out}`);
  agentA = await member('agent_a', 'agent', ['audit-2026']);
  agentB = await member('agent_b', 'agent', ['beta']);
}, 240_000);

afterAll(async () => {
  await Promise.all(open.map((s) => s.close().catch(() => undefined)));
  await owner?.end();
  await server?.close();
});

interface Hit {
  source_id: number;
  file_name: string;
  restricted: boolean;
  locator: unknown;
  snippet: string | null;
}
const place = ({ snippet: _, ...rest }: Hit) => rest;
/** The words a snippet marks, in «…», lower-cased (a phrase is one mark in FTS5's snippet, a mark per word in ts_headline's). */
const marked = (h: Hit) => [...new Set([...(h.snippet ?? '').matchAll(/«([^»]*)»/g)].flatMap((m) => (m[1] ?? '').toLowerCase().split(/\s+/)))].sort();

describe('evidesk mcp --database on a shared workspace', () => {
  it('finds the same passages through search_sources as the local server, and reads a page the same', async () => {
    expect(alphaIds.length).toBe(2);
    const [localAgent, sharedAgent] = await Promise.all([mcp(local, ['--session', 'compare']), mcp(emptyFolder(), ['--database', agentA])]);
    for (const query of ['annual leave', '"seven years"', 'office*']) {
      const [here, there] = (await Promise.all([localAgent.call('search_sources', { query, limit: 10 }), sharedAgent.call('search_sources', { query, limit: 10 })])) as { isError: boolean; value: { hits: Hit[] } }[] as [{ isError: boolean; value: { hits: Hit[] } }, { isError: boolean; value: { hits: Hit[] } }];
      expect(there.isError, JSON.stringify(there.value)).toBe(false);
      expect(here.value.hits.length, query).toBeGreaterThan(0);
      // The same passages in the same order; the snippet's window is each engine's own (FTS5's
      // snippet(), PostgreSQL's ts_headline), the words it marks the same.
      expect(there.value.hits.map(place), query).toEqual(here.value.hits.map(place));
      expect(there.value.hits.map(marked), query).toEqual(here.value.hits.map(marked));
    }
    const [pageHere, pageThere] = await Promise.all([
      localAgent.call('get_source', { source: 'HR_Policy.pdf', page: 3 }),
      sharedAgent.call('get_source', { source: 'HR_Policy.pdf', page: 3 }),
    ]);
    expect(pageThere.isError, JSON.stringify(pageThere.value)).toBe(false);
    expect(pageThere.value).toEqual(pageHere.value);
    expect(pageThere.value.page_text).toContain('14 days of annual leave');
  }, 60_000);

  it("reads its project's citations as the local server does, and none of another project's", async () => {
    const [localAgent, a] = await Promise.all([mcp(local, ['--session', 'compare-2']), mcp(emptyFolder(), ['--database', agentA])]);
    for (const id of alphaIds) {
      const [here, there] = await Promise.all([localAgent.call('get_citation', { citation_id: id }), a.call('get_citation', { citation_id: id })]);
      expect(there.isError, JSON.stringify(there.value)).toBe(false);
      expect(there.value).toEqual(here.value);
      const [fHere, fThere] = await Promise.all([localAgent.call('format_citation', { citation_id: id }), a.call('format_citation', { citation_id: id })]);
      expect(fThere.value).toEqual(fHere.value);
    }
    expect((await a.call('get_citation', { citation_id: alphaIds[0] })).value).toMatchObject({ status: 'verified', verdict: 'supported', project_id: 'audit-2026', session_id: 'agent-run-1' });

    // Project beta's citation: there locally, absent for project audit-2026's agent.
    expect((await localAgent.call('get_citation', { citation_id: betaId })).isError).toBe(false);
    const hidden = await a.call('get_citation', { citation_id: betaId });
    expect(hidden.isError).toBe(true);
    expect(hidden.value).toMatchObject({ error: { code: 'CITATION_NOT_FOUND' } });
    const all = await a.call('list_citations', {});
    expect((all.value.citations as { citation_id: number; project_id: string }[]).map((c) => c.citation_id).sort((x, y) => x - y)).toEqual([...alphaIds].sort((x, y) => x - y));
    expect((await a.call('list_citations', { project_id: 'beta' })).value.citations).toEqual([]);
    expect((await a.call('format_citation', { citation_id: betaId })).value).toMatchObject({ error: { code: 'CITATION_NOT_FOUND' } });

    // And the other way round, with the URL from $EVIDESK_DATABASE_URL.
    const b = await mcp(emptyFolder(), [], { EVIDESK_DATABASE_URL: agentB });
    const own = await b.call('list_citations', {});
    expect((own.value.citations as { citation_id: number; project_id: string; claim: string }[]).map((c) => [c.citation_id, c.project_id, c.claim])).toEqual([[betaId, 'beta', 'Staff get 14 days of leave.']]);
    for (const id of alphaIds) expect((await b.call('get_citation', { citation_id: id })).value).toMatchObject({ error: { code: 'CITATION_NOT_FOUND' } });
    // The shared pool of sources stays visible to both.
    expect(((await b.call('search_sources', { query: 'annual leave' })).value.hits as unknown[]).length).toBeGreaterThan(0);
  }, 60_000);

  it('refuses registering a web page with SHARED_DATABASE_UNSUPPORTED and opens no local workspace', async () => {
    const citations = async () => (await owner.query<{ n: number }>('SELECT count(*)::int AS n FROM citations')).rows[0]?.n;
    const before = await citations();
    const folder = emptyFolder();
    const a = await mcp(folder, ['--database', agentA, '--project', 'audit-2026']);
    const text = (await a.client.callTool({ name: 'register_source', arguments: { url: 'http://127.0.0.1:9/page.html' } })).content as { text: string }[];
    expect(text[0]?.text).toMatch(/^SHARED_DATABASE_UNSUPPORTED \(field: url\): url: registering a web page is not available on a shared database yet; it works on a local workspace/);
    // Nothing was written to the shared workspace, and no local workspace was made in its place.
    expect(before).toBeGreaterThan(0);
    expect(await citations()).toBe(before);
    expect(fs.readdirSync(folder)).toEqual([]);
    expect(a.stderr()).toContain('shared database');
  }, 60_000);
});
