/**
 * Issue 11, Done-when 2: two agents (two `evidesk mcp` processes) cite in parallel into one
 * workspace, 500 citations each: none is lost, each session keeps its own, and the audit chain
 * over the whole record verifies.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createServices } from '../../../electron/services/create-services.ts';
import { evidesk } from '../../support/cli.ts';
import { connectMcp, type McpSession } from '../../support/mcp-client.ts';
import { makePdf, writeFile } from '../../support/pdf-fixtures.ts';
import { tempDir, testPlatform } from '../../support/workspace.ts';

const PER_AGENT = 500;
/** Calls each agent keeps in flight at once. */
const IN_FLIGHT = 6;

const PAGES = [1, 2, 3, 4].map((n) => ({
  lines: [`Report page ${n}.`, `Finding ${n}: the sample of site ${n} met the standard in ${2020 + n}.`, `Remark ${n}: inspectors visited ${n * 3} plants on this page.`],
}));

/** The i-th citation of an agent: verified, at the wrong page, or fabricated, in turn. */
function citation(i: number): { args: Record<string, unknown>; expected: string } {
  const page = (i % 4) + 1;
  const quote = `Finding ${page}: the sample of site ${page} met the standard in ${2020 + page}.`;
  if (i % 3 === 0) return { args: { claim: `Site ${page} met the standard.`, quote_context: quote, verbatim_quote: quote, source: 'report.pdf', locator: { page } }, expected: 'verified' };
  if (i % 3 === 1) return { args: { claim: `Site ${page} met the standard.`, quote_context: quote, verbatim_quote: quote, source: 'report.pdf', locator: { page: (page % 4) + 1 } }, expected: 'verified_elsewhere' };
  return { args: { claim: `Claim ${i}.`, quote_context: 'none', verbatim_quote: `An invented sentence number ${i} about zebras and violins.`, source: 'report.pdf', locator: { page } }, expected: 'not_found' };
}

async function citeAll(agent: McpSession): Promise<{ ids: number[]; statuses: string[] }> {
  const ids: number[] = [];
  const statuses: string[] = [];
  let next = 0;
  const worker = async () => {
    while (next < PER_AGENT) {
      const i = next++;
      const { args, expected } = citation(i);
      const r = await agent.call('cite', args);
      if (r.isError) throw new Error(`cite ${i} failed: ${JSON.stringify(r.value)}`);
      ids.push(r.value.citation_id as number);
      statuses.push(`${expected}:${String(r.value.status)}`);
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
  return { ids, statuses };
}

describe('two agents citing into one workspace at once', () => {
  it('loses no citation, keeps the sessions apart, and the audit chain verifies', async () => {
    const dir = tempDir('evidesk-mcp-par-');
    const workspace = path.join(dir, 'workspace');
    const pdf = writeFile(dir, 'report.pdf', await makePdf(PAGES));
    const services = createServices(testPlatform(), workspace);
    const ingested = await services.dispatch('sources.ingest', { paths: [pdf] });
    services.close();
    expect(ingested.ok).toBe(true);

    const a = await connectMcp(workspace, ['--session', 'session-a', '--agent', 'agent-a', '--user', 'user-a']);
    const b = await connectMcp(workspace, ['--session', 'session-b', '--agent', 'agent-b', '--user', 'user-b']);
    try {
      const [ra, rb] = await Promise.all([citeAll(a), citeAll(b)]);
      expect(new Set([...ra.ids, ...rb.ids]).size).toBe(2 * PER_AGENT);
      for (const s of [...ra.statuses, ...rb.statuses]) {
        const [expected, got] = s.split(':');
        expect(got).toBe(expected);
      }

      for (const [agent, session, agentId, userId, ids] of [
        [a, 'session-a', 'agent-a', 'user-a', ra.ids],
        [b, 'session-b', 'agent-b', 'user-b', rb.ids],
      ] as const) {
        const listed: { citation_id: number; session_id: string; agent_id: string; user_id: string; marker: string }[] = [];
        let after = 0;
        for (;;) {
          const page = await agent.call('list_citations', { session_id: session, limit: 1000, after_id: after });
          listed.push(...(page.value.citations as typeof listed));
          if (page.value.next_after_id === null) break;
          after = page.value.next_after_id as number;
        }
        expect(listed.map((c) => c.citation_id).sort((x, y) => x - y)).toEqual([...ids].sort((x, y) => x - y));
        expect(new Set(listed.map((c) => `${c.session_id}|${c.agent_id}|${c.user_id}`))).toEqual(new Set([`${session}|${agentId}|${userId}`]));
        // Markers number the session's citations 1…500, each once, whatever the interleaving.
        expect(new Set(listed.map((c) => c.marker)).size).toBe(PER_AGENT);
        const failed = await agent.call('list_citations', { session_id: session, status: 'not_found', limit: 1000 });
        expect((failed.value.citations as unknown[]).length).toBe(ids.length - Math.ceil(PER_AGENT / 3) - Math.ceil((PER_AGENT - 1) / 3));
      }
      const byAgent = await a.call('list_citations', { agent_id: 'agent-b', limit: 1000 });
      expect((byAgent.value.citations as unknown[]).length).toBe(PER_AGENT);
    } finally {
      await a.close();
      await b.close();
    }
    const audit = await evidesk(workspace, 'audit', 'verify');
    expect(audit.out).toMatch(/intact/);
    expect(audit.code).toBe(0);
  }, 600_000);
});
