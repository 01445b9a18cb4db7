/**
 * Issue 11, the HTTP door: the citation tools answer on the host's API through the same
 * dispatcher as MCP, and each citation reaches the page as a `citations.added` server-sent event.
 */
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHost, type Host } from '../../../electron/host/server.ts';
import { makePdf, threePages, writeFile } from '../../support/pdf-fixtures.ts';
import { openTestServices, tempDir } from '../../support/workspace.ts';

describe('the citation tools on the host API', () => {
  let host: Host;
  let services: ReturnType<typeof openTestServices>;
  let pdf: string;

  const post = async (name: string, body: unknown): Promise<{ ok: boolean; value?: Record<string, unknown>; error?: { code: string; details?: Record<string, unknown> } }> => {
    const r = await fetch(`http://127.0.0.1:${host.port}/api/${name}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-evidesk-token': host.token }, body: JSON.stringify(body) });
    return (await r.json()) as { ok: boolean; value?: Record<string, unknown>; error?: { code: string } };
  };

  beforeAll(async () => {
    services = openTestServices();
    const staticDir = tempDir();
    writeFile(staticDir, 'index.html', '<!doctype html><title>t</title>');
    host = await startHost({ services, staticDir });
    pdf = writeFile(path.join(services.dir, 'docs'), 'fixture.pdf', await makePdf(threePages()));
  });
  afterAll(async () => {
    await host.close();
    services.close();
  });

  it('registers, cites with a context, lists by session, and streams the citation as an event', async () => {
    const events: string[] = [];
    const stream = http.get({ host: '127.0.0.1', port: host.port, path: '/events', headers: { 'x-evidesk-token': host.token, host: `127.0.0.1:${host.port}` } }, (res) => {
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => events.push(chunk));
    });
    try {
      const reg = await post('citations.registerSource', { path: pdf });
      expect(reg.value).toMatchObject({ outcome: 'added', page_count: 3 });
      const cite = await post('citations.cite', {
        claim: 'The policy grants 14 days of annual leave.',
        quote_context: 'leave',
        verbatim_quote: '14 days of annual leave',
        source: 'fixture.pdf',
        locator: { page: 3 },
        context: { session_id: 'script-1', agent_id: 'nightly-script', user_id: 'ops', project_id: 'audit-2026' },
      });
      expect(cite.value).toMatchObject({ status: 'verified', session_id: 'script-1' });
      const listed = await post('citations.list', { project_id: 'audit-2026' });
      expect(listed.value?.citations).toEqual([expect.objectContaining({ citation_id: cite.value?.citation_id, agent_id: 'nightly-script', user_id: 'ops', session_id: 'script-1' })]);
      const bad = await post('citations.cite', { claim: 'x', quote_context: 'y', source: 'fixture.pdf', confidence: 'certain' });
      expect(bad).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT', details: { field: 'confidence' } } });
      await expect.poll(() => events.join('').includes(`"type":"citations.added","answerId":${String(listed.value && (listed.value.citations as { answer_id: number }[])[0]?.answer_id)},"sessionId":"script-1"`), { timeout: 10_000 }).toBe(true);
    } finally {
      stream.destroy();
    }
  });
});
