// `evidesk ingest URL`: archives web pages beside files, a row each, failures with their reason.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { evidesk } from '../../support/cli.ts';
import { writeFile } from '../../support/pdf-fixtures.ts';
import { articlePage, HTML, startWebServer, type TestWebServer } from '../../support/web-server.ts';
import { tempDir } from '../../support/workspace.ts';

let server: TestWebServer;
beforeAll(async () => {
  server = await startWebServer();
});
afterAll(() => server.close());

const PARAS = [
  'The survey covered two thousand households in twelve regions over the spring of the year.',
  'Most households reported that energy prices had risen faster than their incomes during the period.',
  'Regional differences were large, with northern regions reporting the sharpest increases in costs.',
];

describe('evidesk ingest URL', () => {
  it('archives a page, says unchanged the second time, and names the reason a page failed', async () => {
    const dir = tempDir();
    const workspace = path.join(dir, 'ws');
    const notes = writeFile(path.join(dir, 'docs'), 'notes.txt', 'A local note.\n');
    server.routes.set('/survey.html', { headers: HTML, body: articlePage('Household survey', PARAS) });
    const first = await evidesk(workspace, 'ingest', server.url('/survey.html'), notes, server.url('/gone.html'));
    expect(first.code).toBe(1);
    expect(first.out).toContain(server.url('/survey.html'));
    expect(first.out).toMatch(/archived/);
    expect(first.out).toContain('WEB_HTTP_STATUS');
    expect(first.out).toContain('1 of 1 files ingested.');
    expect(first.out).toContain('1 of 2 web pages archived, 1 failed.');

    const again = await evidesk(workspace, '--json', 'ingest', server.url('/survey.html'));
    expect(again.code).toBe(0);
    const parsed = JSON.parse(again.out) as { urls: { ok: boolean; outcome: string; fetch: { url: string } }[] };
    expect(parsed.urls).toEqual([expect.objectContaining({ ok: true, outcome: 'unchanged', fetch: expect.objectContaining({ url: server.url('/survey.html') }) })]);
  });
});
