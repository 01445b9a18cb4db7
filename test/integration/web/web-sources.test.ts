// Web sources (issue 11, Done-when 3): every case against a real HTTP server started here.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { SourceContent } from '../../../shared/contract/content-schemas.ts';
import { AppError } from '../../../shared/contract/errors.ts';
import { makePdf } from '../../support/pdf-fixtures.ts';
import { articlePage, HTML, startWebServer, type TestWebServer } from '../../support/web-server.ts';
import { openTestServices, type TestServices } from '../../support/workspace.ts';

let server: TestWebServer;
let services: TestServices | undefined;
beforeAll(async () => {
  server = await startWebServer();
});
afterAll(() => server.close());
afterEach(() => {
  services?.close();
  services = undefined;
  server.routes.clear();
  server.hits.clear();
});

const PARAS = [
  'Revenue grew by twelve percent in the third quarter, driven by strong demand for analytics services across Europe and Asia.',
  'Operating costs fell as the company consolidated two offices and renegotiated its cloud contracts with its main suppliers.',
  'The board expects growth to continue next year, subject to market conditions, currency movements and the pace of hiring.',
];

function rowCounts(s: TestServices): { sources: number; fetches: number; blobs: number } {
  const n = (sql: string): number => (s.db.prepare(sql).get() as { n: number }).n;
  const blobDir = path.join(s.workspaceDir, 'blobs');
  const blobs = fs.existsSync(blobDir) ? fs.readdirSync(blobDir, { recursive: true }).filter((f) => String(f).length > 60).length : 0;
  return { sources: n('SELECT count(*) AS n FROM sources'), fetches: n('SELECT count(*) AS n FROM web_fetches'), blobs };
}

async function refused(url: string, options = {}): Promise<AppError> {
  const s = services ?? (services = openTestServices());
  const before = rowCounts(s);
  const error = await s.web.register(url, options).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  // A failed fetch stores nothing: no source, no fetch record, no snapshot.
  expect(rowCounts(s)).toEqual(before);
  return error as AppError;
}

describe('registering a web page', () => {
  it('archives an HTML page: its article as blocks, the bytes as snapshot, a fetch record with time, final URL and SHA-256', async () => {
    services = openTestServices();
    const page = articlePage('Quarterly results', PARAS);
    server.routes.set('/q3.html', { headers: HTML, body: page });
    const r = await services.web.register(server.url('/q3.html'));
    expect(r.outcome).toBe('added');
    expect(r.fetch).toMatchObject({ url: server.url('/q3.html'), finalUrl: server.url('/q3.html'), httpStatus: 200, contentType: 'text/html', redirects: [] });
    expect(r.fetch.sha256).toBe(r.source.sha256);
    expect(Date.parse(r.fetch.fetchedAt)).toBeGreaterThan(Date.now() - 60_000);
    expect(r.source).toMatchObject({ kind: 'html', title: 'Quarterly results', path: null, hasSnapshot: true, archivedFrom: { url: server.url('/q3.html'), fetchedAt: r.fetch.fetchedAt } });
    // Readability: the article's paragraphs, not the navigation or the footer.
    const texts = services.sources.segments(r.source.id).map((g) => g.text);
    expect(texts).toEqual(expect.arrayContaining(PARAS));
    expect(texts.join('\n')).not.toContain('About us');
    expect(texts.join('\n')).not.toContain('All rights reserved');
    expect(services.sources.get(r.source.id)?.extraction_method).toMatch(/^readability@[\d.]+\+linkedom@/);
    // The snapshot is the exact bytes served.
    const file = await services.sourceFiles.resolve(r.source.id);
    expect(file.origin).toBe('snapshot');
    expect(fs.readFileSync(file.filePath, 'utf8')).toBe(page);
    // Having no file of its own is no fault: the health check counts the archive as the copy.
    expect((await services.health.checkAll([r.source.id])).sources[0]).toMatchObject({ health: 'ok', path: null });
    // The fetch record is an audited evidence row.
    expect(services.audit.check()).toMatchObject({ ok: true });
    expect(services.db.prepare("SELECT count(*) AS n FROM audit_log WHERE table_name = 'web_fetches'").get()).toEqual({ n: 1 });
    // The viewer gets the same blocks, with the archive's origin.
    const content = await services.dispatch('sources.content', { id: r.source.id });
    expect(content).toMatchObject({ ok: true, value: { view: 'blocks', archivedFrom: { url: server.url('/q3.html') } } });
    const view = (content.ok ? content.value : null) as SourceContent | null;
    expect(view?.view === 'blocks' ? view.blocks.map((b) => b.text) : null).toEqual(texts);
  });

  it('follows a redirect chain and records each hop; the source is named by where it ended', async () => {
    services = openTestServices();
    server.routes.set('/old', { status: 301, headers: { location: '/older' } });
    server.routes.set('/older', { status: 302, headers: { location: server.url('/final.html') } });
    server.routes.set('/final.html', { headers: HTML, body: articlePage('Moved page', PARAS) });
    const r = await services.web.register(server.url('/old'));
    expect(r.fetch.finalUrl).toBe(server.url('/final.html'));
    expect(r.fetch.redirects).toEqual([
      { url: server.url('/old'), status: 301, location: server.url('/older') },
      { url: server.url('/older'), status: 302, location: server.url('/final.html') },
    ]);
    expect(r.source.fileName).toBe(`${new URL(server.url('/')).host}/final.html`);
  });

  it('refuses redirects to other schemes and endless redirects, storing nothing', async () => {
    server.routes.set('/to-file', { status: 302, headers: { location: 'file:///etc/passwd' } });
    expect(await refused(server.url('/to-file'))).toMatchObject({ code: 'WEB_REDIRECT_REFUSED', message: expect.stringContaining('file:') });
    server.routes.set('/to-data', { status: 307, headers: { location: 'data:text/html,<p>hi</p>' } });
    expect((await refused(server.url('/to-data'))).code).toBe('WEB_REDIRECT_REFUSED');
    server.routes.set('/loop', { status: 302, headers: { location: '/loop' } });
    expect(await refused(server.url('/loop'), { maxRedirects: 3 })).toMatchObject({ code: 'WEB_TOO_MANY_REDIRECTS' });
    expect(server.hits.get('/loop')).toBe(4);
  });

  it('says why a page could not be archived: 404, too large, time-out, not a page, bad address, nothing listening', async () => {
    expect(await refused(server.url('/missing.html'))).toMatchObject({ code: 'WEB_HTTP_STATUS', details: { status: 404 }, message: expect.stringContaining('404') });
    server.routes.set('/broken', { status: 500, headers: HTML, body: 'oops' });
    expect((await refused(server.url('/broken'))).details).toMatchObject({ status: 500 });

    // Declared too large (Content-Length), and too large as it streams in (no length given).
    server.routes.set('/big.html', { headers: HTML, body: `<html><body><p>${'x'.repeat(300_000)}</p></body></html>` });
    expect(await refused(server.url('/big.html'), { maxBytes: 100_000 })).toMatchObject({ code: 'WEB_TOO_LARGE', details: { maxBytes: 100_000 } });
    server.routes.set('/big-chunked.html', () => ({ headers: { ...HTML, 'transfer-encoding': 'chunked' }, body: `<p>${'y'.repeat(300_000)}</p>` }));
    expect((await refused(server.url('/big-chunked.html'), { maxBytes: 100_000 })).code).toBe('WEB_TOO_LARGE');

    server.routes.set('/slow.html', { headers: HTML, hang: true });
    expect(await refused(server.url('/slow.html'), { timeoutMs: 500 })).toMatchObject({ code: 'WEB_TIMEOUT' });

    server.routes.set('/image.png', { headers: { 'content-type': 'image/png' }, body: new Uint8Array([0x89, 0x50, 0x4e, 0x47]) });
    expect(await refused(server.url('/image.png'))).toMatchObject({ code: 'WEB_UNSUPPORTED_TYPE', details: { contentType: 'image/png' } });
    server.routes.set('/data.json', { headers: { 'content-type': 'application/json' }, body: '{"a":1}' });
    expect((await refused(server.url('/data.json'))).code).toBe('WEB_UNSUPPORTED_TYPE');

    expect((await refused('file:///etc/passwd')).code).toBe('WEB_URL_INVALID');
    expect((await refused('ftp://example.com/x')).code).toBe('WEB_URL_INVALID');
    expect((await refused('not a url')).code).toBe('WEB_URL_INVALID');
    expect((await refused('http://user:secret@127.0.0.1/')).code).toBe('WEB_URL_INVALID');
    expect((await refused('http://no-such-host.invalid/page')).code).toBe('WEB_DNS_FAILED');
    // A port where nothing listens (the server's own port, once closed, is the surest choice).
    const gone = await startWebServer();
    const url = gone.url('/x');
    await gone.close();
    expect((await refused(url)).code).toBe('WEB_CONNECTION_FAILED');
  });

  it('ingests a PDF URL as a PDF, page by page', async () => {
    services = openTestServices();
    const pdf = await makePdf([{ lines: ['First page of the annual report.'] }, { lines: ['Net revenue was 12.4 million euros.'] }]);
    server.routes.set('/report', { headers: { 'content-type': 'application/pdf' }, body: pdf });
    const r = await services.web.register(server.url('/report'));
    expect(r.source).toMatchObject({ kind: 'pdf', pageCount: 2, archivedFrom: { url: server.url('/report') } });
    expect(r.fetch).toMatchObject({ contentType: 'application/pdf', byteSize: pdf.length });
    expect(services.sources.pageSegment(r.source.id, 2)?.text).toContain('Net revenue was 12.4 million euros.');
  });

  it('a changed page makes a new version on the same line; an unchanged one says so and stores no new source', async () => {
    services = openTestServices();
    let version = 1;
    server.routes.set('/live.html', () => ({ headers: HTML, body: articlePage('Live page', version === 1 ? PARAS : [...PARAS, 'A correction was published on the following Monday, revising the growth figure.']) }));
    const first = await services.web.register(server.url('/live.html'));
    expect(first.outcome).toBe('added');

    const again = await services.web.register(server.url('/live.html'));
    expect(again).toMatchObject({ outcome: 'unchanged', source: { id: first.source.id }, previousSourceId: null });
    expect(rowCounts(services)).toMatchObject({ sources: 1, fetches: 2 });

    version = 2;
    const changed = await services.web.register(server.url('/live.html'));
    expect(changed.outcome).toBe('new_version');
    expect(changed.source.id).not.toBe(first.source.id);
    expect(changed.source.predecessorId).toBe(first.source.id);
    expect(changed.previousSourceId).toBe(first.source.id);
    // The old archive stays as it was: earlier citations keep verifying against what they quoted.
    expect(services.sources.segments(first.source.id).map((g) => g.text).join(' ')).not.toContain('correction');
    expect(services.sources.segments(changed.source.id).map((g) => g.text).join(' ')).toContain('correction');
    expect(services.web.fetchesOf(first.source.id).map((f) => f.outcome)).toEqual(['unchanged', 'added']);
    expect(services.audit.check()).toMatchObject({ ok: true });

    // The fetch records are append-only.
    expect(() => services?.db.prepare("UPDATE web_fetches SET outcome = 'added'").run()).toThrow(/append-only/);
    expect(() => services?.db.prepare('DELETE FROM web_fetches').run()).toThrow(/append-only/);
  });

  it('citations verify against the archive, not the live page', async () => {
    services = openTestServices();
    let live = PARAS;
    server.routes.set('/cited.html', () => ({ headers: HTML, body: articlePage('Cited page', live) }));
    const r = await services.web.register(server.url('/cited.html'));
    // The live page changes after the registration; nothing refetches it.
    live = ['Everything on this page was rewritten after it was cited, and none of the original sentences remain here.', ...PARAS.slice(1).map((p) => p.toUpperCase())];
    const content = JSON.stringify({
      format: 'evidence-desk/answer@1',
      question: 'How did revenue do?',
      answer: 'Revenue grew [1].',
      citations: [{ marker: '1', claim: 'Revenue grew twelve percent.', quote: 'Revenue grew by twelve percent in the third quarter', source: { sha256: r.source.sha256 } }],
    });
    const imported = await services.dispatch('answers.import', { fileName: 'answer.json', content });
    expect(imported).toMatchObject({ ok: true, value: { citations: [{ result: { status: 'verified', sourceId: r.source.id } }] } });
    expect(server.hits.get('/cited.html')).toBe(1);
  });
});
