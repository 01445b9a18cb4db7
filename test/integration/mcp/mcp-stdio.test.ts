/**
 * Issue 11, Done-when 1: `evidesk mcp` driven by the MCP SDK's own client over stdio. An agent
 * registers a generated PDF and cites it correctly, at the wrong page, with a typo, with a
 * fabricated quote, as a negative finding and as a correction, and gets statuses, locators and
 * what to do next; it registers a web page served by the test and cites the archive; bad calls get
 * coded errors naming the field.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServices } from '../../../electron/services/create-services.ts';
import { evidesk } from '../../support/cli.ts';
import { connectMcp, type McpSession } from '../../support/mcp-client.ts';
import { makePdf, writeFile } from '../../support/pdf-fixtures.ts';
import { tempDir, testPlatform } from '../../support/workspace.ts';

const LEAVE = 'The third page holds the leave policy: 14 days of annual leave.';
const WEB_QUOTE = 'Remote work requires the written approval of a line manager.';

/** A local web server the agent registers pages from (issue 11, web sources archived on cite). */
let web: http.Server;
let webBase: string;

let dir: string;
let workspace: string;
let pdfPath: string;
let agent: McpSession;
let sourceId: number;

beforeAll(async () => {
  web = http.createServer((req, res) => {
    if (req.url === '/policy') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(`<!doctype html><html><head><title>Remote work policy</title></head><body><main><article><h1>Remote work policy</h1><p>${WEB_QUOTE} Approval is given for one quarter at a time and reviewed at its end by the same manager.</p><p>Staff working remotely keep their usual hours and remain reachable by phone during them.</p></article></main></body></html>`);
    } else {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('not found');
    }
  });
  await new Promise<void>((resolve) => web.listen(0, '127.0.0.1', resolve));
  webBase = `http://127.0.0.1:${(web.address() as AddressInfo).port}`;
  dir = tempDir('evidesk-mcp-');
  workspace = path.join(dir, 'workspace');
  pdfPath = writeFile(
    dir,
    'Staff_Handbook.pdf',
    await makePdf([
      { lines: ['Staff handbook, page 1 of 3.', 'Working hours run from nine to five on weekdays.', 'Overtime is paid at one and a half times the hourly rate.'] },
      { lines: ['Staff handbook, page 2 of 3.', 'Expenses are reimbursed within thirty days of a receipt.', 'Travel must be approved by a line manager in advance.'] },
      { lines: ['Staff handbook, page 3 of 3.', LEAVE, 'Unused leave of up to five days carries over to the next year.'] },
    ]),
  );
  // A restricted text document, marked before the agent arrives.
  const restrictedPath = writeFile(dir, 'board-minutes.txt', 'Board minutes.\nThe board approved the merger with Northwind on 3 March.\nNothing else was decided.\n');
  const services = createServices(testPlatform(), workspace);
  const ingested = await services.dispatch('sources.ingest', { paths: [restrictedPath] });
  if (!ingested.ok) throw new Error(ingested.error.message);
  const id = (ingested.value as { files: { sourceId: number }[] }).files[0]?.sourceId ?? 0;
  await services.dispatch('sources.setRestricted', { ids: [id], restricted: true });
  services.close();
  agent = await connectMcp(workspace, ['--session', 'conv-1', '--user', 'analyst-1', '--project', 'handbook-review'], 'claude-test');
}, 60_000);

afterAll(async () => {
  await agent?.close();
  await new Promise((resolve) => web?.close(resolve));
});

describe('evidesk mcp over stdio', () => {
  it('lists the citation tools with descriptions and input schemas', async () => {
    const { tools } = await agent.client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['cite', 'format_citation', 'get_citation', 'get_source', 'list_citations', 'register_source', 'search_sources']);
    const cite = tools.find((t) => t.name === 'cite');
    expect(cite?.description).toMatch(/verbatim_quote/);
    expect(cite?.inputSchema.required).toEqual(expect.arrayContaining(['claim', 'quote_context', 'source']));
  });

  it('registers a PDF, then the same bytes again as a duplicate', async () => {
    const r = await agent.call('register_source', { path: pdfPath });
    expect(r.isError).toBe(false);
    expect(r.value).toMatchObject({ kind: 'file', outcome: 'added', file_name: 'Staff_Handbook.pdf', page_count: 3, restricted: false });
    sourceId = r.value.source_id as number;
    const again = await agent.call('register_source', { path: pdfPath });
    expect(again.value).toMatchObject({ outcome: 'duplicate', source_id: sourceId });
  });

  it('verifies a correct citation at once, with the matched page and offsets', async () => {
    const r = await agent.call('cite', { claim: 'The leave policy gives 14 days of annual leave.', quote_context: LEAVE, verbatim_quote: '14 days of annual leave', source: sourceId, locator: { page: 3 } });
    expect(r.isError).toBe(false);
    expect(r.value).toMatchObject({ status: 'verified', verdict: 'supported', session_id: 'conv-1', marker: '[1]' });
    const matched = r.value.matched as { locator: { page: number; start: number; end: number }; text: string };
    expect(matched.locator.page).toBe(3);
    expect(matched.text).toBe('14 days of annual leave');
    expect(matched.locator.end - matched.locator.start).toBe('14 days of annual leave'.length);
    expect(r.value.next_step).toMatch(/Verified/);
  });

  let wrongPageId = 0;
  it('says where a quote cited at the wrong page really is, and how to correct it', async () => {
    const r = await agent.call('cite', { claim: 'Overtime pays time and a half.', quote_context: 'overtime rules', verbatim_quote: 'Overtime is paid at one and a half times the hourly rate.', source: 'Staff_Handbook.pdf', locator: { page: 2 } });
    expect(r.value.status).toBe('verified_elsewhere');
    expect((r.value.matched as { locator: { page: number } }).locator.page).toBe(1);
    wrongPageId = r.value.citation_id as number;
    expect(r.value.next_step).toContain('p. 1');
    expect(r.value.next_step).toContain(`"citation_id": ${wrongPageId}, "relation": "supersedes"`);
  });

  it('records a correction as a new citation that supersedes the old one', async () => {
    const r = await agent.call('cite', {
      claim: 'Overtime pays time and a half.',
      quote_context: 'overtime rules',
      verbatim_quote: 'Overtime is paid at one and a half times the hourly rate.',
      source: sourceId,
      locator: { page: 1 },
      related: [{ citation_id: wrongPageId, relation: 'supersedes' }],
    });
    expect(r.value).toMatchObject({ status: 'verified', supersedes: wrongPageId });
    const old = await agent.call('get_citation', { citation_id: wrongPageId });
    expect(old.value).toMatchObject({ status: 'verified_elsewhere', superseded_by: r.value.citation_id, agent_id: 'claude-test', user_id: 'analyst-1', project_id: 'handbook-review' });
    const current = await agent.call('list_citations', { session_id: 'conv-1' });
    const ids = (current.value.citations as { citation_id: number }[]).map((c) => c.citation_id);
    expect(ids).toContain(r.value.citation_id);
    expect(ids).not.toContain(wrongPageId);
    const all = await agent.call('list_citations', { session_id: 'conv-1', include_superseded: true });
    expect((all.value.citations as { citation_id: number }[]).map((c) => c.citation_id)).toContain(wrongPageId);
  });

  it('places a quote with a typo and shows the difference', async () => {
    const r = await agent.call('cite', { claim: 'Expenses are repaid within thirty days.', quote_context: 'expenses', verbatim_quote: 'Expenses are reimbursed withn thirty days of a receipt.', source: sourceId, locator: { page: 2 } });
    expect(['verified', 'partial']).toContain(r.value.status);
    const matched = r.value.matched as { method: string; locator: { page: number }; text: string };
    expect(matched).toMatchObject({ method: 'fuzzy', locator: { page: 2 } });
    expect(matched.text).toContain('within thirty days');
    expect((r.value.reasons as string[]).join(' ')).toMatch(/differences/);
  });

  it('refuses a fabricated quote and says what to do', async () => {
    const r = await agent.call('cite', { claim: 'Staff get free lunch on Fridays.', quote_context: 'perks', verbatim_quote: 'All employees receive a complimentary lunch every Friday afternoon.', source: sourceId, locator: { page: 3 } });
    expect(r.value).toMatchObject({ status: 'not_found', verdict: 'not_found', matched: null });
    expect(r.value.next_step).toMatch(/not in Staff_Handbook\.pdf/);
    expect(r.value.next_step).toMatch(/drop it/);
  });

  it('catches a misquoted number as a contradiction and points at the real passage', async () => {
    const r = await agent.call('cite', { claim: 'Staff get 15 days of annual leave.', quote_context: 'leave', verbatim_quote: 'The third page holds the leave policy: 15 days of annual leave.', source: sourceId, locator: { page: 3 } });
    expect(r.value).toMatchObject({ status: 'not_found', verdict: 'contradicted' });
    const closest = r.value.closest_passage as { locator: { page: number }; text: string };
    expect(closest.locator.page).toBe(3);
    expect(closest.text).toContain('14 days of annual leave');
    expect(r.value.next_step).toMatch(/contradicted/);
  });

  it('records a negative finding', async () => {
    const r = await agent.call('cite', { claim: 'The handbook grants a remote-work allowance.', quote_context: 'Searched the handbook for remote work and allowances.', source: sourceId, extraction_method: 'negative' });
    expect(r.isError).toBe(false);
    expect(r.value.status).toBe('no_quote');
    expect(r.value.next_step).toMatch(/negative finding/);
    const stored = await agent.call('get_citation', { citation_id: r.value.citation_id });
    expect(stored.value.extraction_method).toBe('negative');
  });

  it('names candidate sources for a source it cannot resolve', async () => {
    const r = await agent.call('cite', { claim: 'Travel needs approval.', quote_context: 'travel', verbatim_quote: 'Travel must be approved by a line manager in advance.', source: 'Employee Manual 2024' });
    expect(r.value.status).toBe('source_unknown');
    const candidates = r.value.candidate_sources as { source_id: number; why: string }[];
    expect(candidates[0]).toMatchObject({ source_id: sourceId });
    expect(candidates[0]?.why).toMatch(/p\. 2/);
    expect(r.value.next_step).toMatch(/candidate_sources/);
  });

  it('records citations of a custom source as unverifiable', async () => {
    const reg = await agent.call('register_source', { custom: { identifier: 'hr-db:leave_balances', description: 'HR database, table of leave balances', kind: 'database' } });
    expect(reg.value).toMatchObject({ kind: 'custom', outcome: 'added', identifier: 'hr-db:leave_balances' });
    const r = await agent.call('cite', { claim: '42 staff have leave to carry over.', quote_context: 'SELECT count(*) … WHERE carry_over > 0 returned 42', source: 'hr-db:leave_balances', locator: { free_form: 'query of 2026-11-24' } });
    expect(r.value.status).toBe('unverifiable');
    const f = await agent.call('format_citation', { citation_id: r.value.citation_id });
    expect(f.value.text).toMatch(/hr-db:leave_balances \(custom source\), query of 2026-11-24/);
  });

  it('searches a restricted source but never returns its text', async () => {
    const hits = await agent.call('search_sources', { query: 'merger Northwind' });
    const hit = (hits.value.hits as { file_name: string; restricted: boolean; snippet: string | null; locator: { line: number } }[]).find((h) => h.file_name === 'board-minutes.txt');
    expect(hit).toMatchObject({ restricted: true, snippet: null });
    expect(hit?.locator.line).toBe(1);
    const r = await agent.call('cite', { claim: 'The merger was approved.', quote_context: 'board', verbatim_quote: 'The board approved the merger with Northwind', source: 'board-minutes.txt', locator: { line: 2 } });
    expect(r.value.status).toBe('verified');
    expect(r.value.matched).toMatchObject({ text: null, locator: { line: 2 } });
    expect(JSON.stringify(r.value)).not.toContain('3 March');
    const page = await agent.call('get_source', { source: 'board-minutes.txt', page: 1 });
    expect(page.isError).toBe(true);
    expect(page.value.error).toMatchObject({ code: 'SOURCE_RESTRICTED', details: { field: 'page' } });
  });

  it('reads a page to quote from, and formats a citation inline', async () => {
    const page = await agent.call('get_source', { source: sourceId, page: 3 });
    expect(page.value.page_text).toContain(LEAVE);
    const first = await agent.call('list_citations', { session_id: 'conv-1', status: 'verified', limit: 1 });
    const c = (first.value.citations as { citation_id: number }[])[0];
    const f = await agent.call('format_citation', { citation_id: c?.citation_id });
    expect(f.value.text).toBe('[1] Staff_Handbook.pdf, p. 3');
  });

  it('answers bad calls with coded errors naming the field', async () => {
    const missing = await agent.call('cite', { quote_context: 'x', source: sourceId });
    expect(missing.isError).toBe(true);
    expect(missing.value.error).toMatchObject({ code: 'INVALID_INPUT', details: { field: 'claim' } });
    const huge = await agent.call('cite', { claim: 'c', quote_context: 'x', source: sourceId, verbatim_quote: 'a'.repeat(10 * 1024 * 1024) });
    expect(huge.value.error).toMatchObject({ code: 'INVALID_INPUT', details: { field: 'verbatim_quote' } });
    // A page that does not exist: the fetch says why, and nothing is stored.
    const url = await agent.call('register_source', { url: `${webBase}/gone` });
    expect(url.value.error).toMatchObject({ code: 'WEB_HTTP_STATUS' });
    const gone = await agent.call('register_source', { path: path.join(dir, 'nope.pdf') });
    expect(gone.value.error).toMatchObject({ code: 'FILE_MISSING', details: { field: 'path' } });
    const unknown = await agent.call('get_citation', { citation_id: 999_999 });
    expect(unknown.value.error).toMatchObject({ code: 'CITATION_NOT_FOUND' });
    // The server is still there after all of it.
    expect((await agent.call('search_sources', { query: 'overtime' })).isError).toBe(false);
  });

  it('registers a web page served by a local server, archives it, and verifies a quote against the archive', async () => {
    const r = await agent.call('register_source', { url: `${webBase}/policy` });
    expect(r.isError).toBe(false);
    expect(r.value).toMatchObject({ kind: 'web', outcome: 'added', identifier: `${webBase}/policy`, restricted: false });
    expect((r.value.notes as string[])[0]).toMatch(/^Archived from http:\/\/127\.0\.0\.1:\d+\/policy on /);
    const cited = await agent.call('cite', { claim: 'Remote work needs a manager’s approval.', quote_context: WEB_QUOTE, verbatim_quote: WEB_QUOTE, source: r.value.source_id });
    expect(cited.value).toMatchObject({ status: 'verified', verdict: 'supported' });
    // Registering the same unchanged page again archives nothing new.
    const again = await agent.call('register_source', { url: `${webBase}/policy` });
    expect(again.value).toMatchObject({ kind: 'web', outcome: 'existing', source_id: r.value.source_id });
  });

  it('leaves an intact audit chain and a session the app lists as an answer', async () => {
    await agent.close();
    const audit = await evidesk(workspace, 'audit', 'verify');
    expect(audit.out).toMatch(/intact/);
    expect(audit.code).toBe(0);
    const services = createServices(testPlatform(), workspace);
    try {
      const list = await services.dispatch('answers.list', {});
      const answers = (list.ok ? list.value : []) as { format: string; origin: string; citationCount: number; latestRun: { summary: { total: number } } | null }[];
      expect(answers).toEqual([expect.objectContaining({ format: 'agent-session', origin: 'agent:claude-test' })]);
      // The session's latest run summarises every current citation, not only the last one cited.
      const current = await services.dispatch('citations.list', { session_id: 'conv-1', limit: 1000 });
      const n = current.ok ? (current.value as { citations: unknown[] }).citations.length : -1;
      expect(n).toBeGreaterThan(5);
      expect(answers[0]?.citationCount).toBe(n);
      expect(answers[0]?.latestRun?.summary.total).toBe(n);
    } finally {
      services.close();
    }
  });
});
