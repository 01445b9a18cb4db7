import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startHost, type Host } from '../../../electron/host/server.ts';
import viteConfig from '../../../vite.config.ts';
import { openTestServices, tempDir } from '../../support/workspace.ts';
import { writeFile } from '../../support/pdf-fixtures.ts';

interface Reply {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** An upload whose body the test writes piece by piece, so a request can be held open mid-body. */
function upload(port: number, path: string, headers: Record<string, string | number>) {
  let settled = false;
  const req = http.request({ host: '127.0.0.1', port, path, method: 'POST', headers: { host: `127.0.0.1:${port}`, ...headers } });
  const reply = new Promise<Reply>((resolve, reject) => {
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        settled = true;
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') });
      });
    });
    req.on('error', (e) => {
      settled = true;
      reject(e);
    });
  });
  return { req, reply, answered: () => settled };
}

function request(port: number, options: { path: string; method?: string; headers?: Record<string, string>; body?: string }): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path: options.path, method: options.method ?? 'GET', headers: { host: `127.0.0.1:${port}`, ...options.headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

const envelope = (reply: Reply) => JSON.parse(reply.body) as { ok: boolean; error?: { code: string; message: string } };

// A valid JSON body of exactly `size` bytes: `{}` and then spaces.
const jsonOfSize = (size: number) => '{}' + ' '.repeat(size - 2);

describe('loopback host limits: body budget, malformed names, cookie scope, query token, source maps', () => {
  const MAX_BODY = 400_000;
  const BUDGET = 1_000_000;
  const UPLOAD = 300_000; // three fit in the budget, a fourth does not
  let host: Host;
  let other: Host;
  let services: ReturnType<typeof openTestServices>;
  let staticDir: string;

  beforeAll(async () => {
    services = openTestServices();
    staticDir = tempDir();
    writeFile(staticDir, 'index.html', '<!doctype html><title>t</title><script src="/app.js"></script>');
    writeFile(staticDir, 'app.js', 'console.log(1);\n//# sourceMappingURL=app.js.map\n');
    writeFile(staticDir, 'app.js.map', '{"version":3,"sources":["../src/secret.ts"]}');
    writeFile(staticDir, 'APP2.JS.MAP', '{"version":3}');
    // Both hosts share one token, so only the cookie's name can tell them apart.
    host = await startHost({ services, staticDir, token: 'shared-token-for-the-test', maxBodyBytes: MAX_BODY, bodyBudgetBytes: BUDGET });
    other = await startHost({ services, staticDir, token: 'shared-token-for-the-test' });
  });
  afterAll(async () => {
    await host.close();
    await other.close();
    services.close();
  });

  it('holds at most the budget in request bodies at once, refuses the rest at once with 413 HOST_BUSY, and gives bytes back when requests end or clients leave', async () => {
    const auth = { 'x-evidesk-token': host.token, 'content-type': 'application/json' };
    const body = jsonOfSize(UPLOAD);
    // Six uploads, each declaring 300 kB and sending only its first 100 kB, then waiting.
    const uploads = Array.from({ length: 6 }, () => upload(host.port, '/api/workspace.info', { ...auth, 'content-length': UPLOAD }));
    for (const u of uploads) u.req.write(body.slice(0, 100_000));

    await vi.waitFor(() => expect(uploads.filter((u) => u.answered())).toHaveLength(3), { timeout: 20_000, interval: 20 });
    const refused = uploads.filter((u) => u.answered());
    const held = uploads.filter((u) => !u.answered());
    for (const u of refused) {
      const reply = await u.reply;
      expect(reply.status).toBe(413);
      expect(envelope(reply)).toMatchObject({ ok: false, error: { code: 'HOST_BUSY' } });
      expect(envelope(reply).error?.message).toMatch(/try again/);
    }
    expect(host.bodyBytesInFlight()).toBe(3 * UPLOAD);

    // A chunked body (no declared length) is counted as it arrives and refused when it would pass the budget.
    const chunked = upload(host.port, '/api/workspace.info', { ...auth, 'transfer-encoding': 'chunked' });
    chunked.req.end(jsonOfSize(200_000));
    const chunkedReply = await chunked.reply;
    expect(chunkedReply.status).toBe(413);
    expect(envelope(chunkedReply)).toMatchObject({ ok: false, error: { code: 'HOST_BUSY' } });
    // What the refused body had taken comes back when its response closes on the server.
    await vi.waitFor(() => expect(host.bodyBytesInFlight()).toBe(3 * UPLOAD), { timeout: 20_000, interval: 20 });

    // Two held uploads finish and are answered by their handler; the third client leaves mid-body.
    const [first, second, third] = held as [ReturnType<typeof upload>, ReturnType<typeof upload>, ReturnType<typeof upload>];
    first.req.end(body.slice(100_000));
    second.req.end(body.slice(100_000));
    expect(envelope(await first.reply)).toMatchObject({ ok: true });
    expect(envelope(await second.reply)).toMatchObject({ ok: true });
    third.reply.catch(() => undefined);
    third.req.destroy();
    await vi.waitFor(() => expect(host.bodyBytesInFlight()).toBe(0), { timeout: 20_000, interval: 20 });

    // With the budget free again, three uploads at once are all taken.
    const again = await Promise.all(
      Array.from({ length: 3 }, () => {
        const u = upload(host.port, '/api/workspace.info', { ...auth, 'content-length': UPLOAD });
        u.req.end(body);
        return u.reply;
      }),
    );
    for (const reply of again) expect(envelope(reply)).toMatchObject({ ok: true });
    await vi.waitFor(() => expect(host.bodyBytesInFlight()).toBe(0), { timeout: 20_000, interval: 20 });
  });

  it('refuses one body over its own cap with 413 REQUEST_TOO_LARGE, declared or chunked', async () => {
    const auth = { 'x-evidesk-token': host.token, 'content-type': 'application/json' };
    const declared = upload(host.port, '/api/workspace.info', { ...auth, 'content-length': MAX_BODY + 1 });
    declared.req.end(jsonOfSize(MAX_BODY + 1));
    const declaredReply = await declared.reply;
    expect(declaredReply.status).toBe(413);
    expect(envelope(declaredReply)).toMatchObject({ ok: false, error: { code: 'REQUEST_TOO_LARGE' } });

    const chunked = upload(host.port, '/api/workspace.info', { ...auth, 'transfer-encoding': 'chunked' });
    chunked.req.end(jsonOfSize(MAX_BODY + 1));
    const chunkedReply = await chunked.reply;
    expect(chunkedReply.status).toBe(413);
    expect(envelope(chunkedReply)).toMatchObject({ ok: false, error: { code: 'REQUEST_TOO_LARGE' } });
    await vi.waitFor(() => expect(host.bodyBytesInFlight()).toBe(0), { timeout: 20_000, interval: 20 });
  });

  it('answers a malformed percent-escape in an API name with INVALID_INPUT, and an unknown name with UNKNOWN_HANDLER', async () => {
    const auth = { 'x-evidesk-token': host.token, 'content-type': 'application/json' };
    for (const path of ['/api/%E0%A4%A', '/api/%', '/api/workspace.info%ZZ', '/api/%C0%AF']) {
      const reply = await request(host.port, { path, method: 'POST', headers: auth, body: '{}' });
      expect(reply.status, path).toBe(400);
      expect(envelope(reply), path).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
    }
    for (const path of ['/api/nope', '/api/%E0%A4%AD', '/api/workspace%2Einfo.x']) {
      const reply = await request(host.port, { path, method: 'POST', headers: auth, body: '{}' });
      expect(envelope(reply), path).toMatchObject({ ok: false, error: { code: 'UNKNOWN_HANDLER' } });
    }
    // A well-formed escape of a real name still reaches its handler.
    expect(envelope(await request(host.port, { path: '/api/workspace%2Einfo', method: 'POST', headers: auth, body: '{}' }))).toMatchObject({ ok: true });
  });

  it('names the token cookie for its port (HttpOnly, SameSite=Strict, Path=/) and refuses a cookie set for another port', async () => {
    const page = await request(host.port, { path: `/?token=${host.token}` });
    expect(page.status).toBe(303);
    const setCookie = String(page.headers['set-cookie']);
    const [pair, ...attributes] = setCookie.split(';').map((s) => s.trim());
    expect(pair).toBe(`evidesk_token_${host.port}=${host.token}`);
    expect(attributes).toEqual(expect.arrayContaining(['HttpOnly', 'SameSite=Strict', 'Path=/']));

    const api = (port: number, cookie: string) =>
      request(port, { path: '/api/workspace.info', method: 'POST', headers: { 'content-type': 'application/json', cookie }, body: '{}' });
    // The browser would send this host's cookie to the other port too (cookies ignore ports): the other host ignores it.
    expect((await api(other.port, pair ?? '')).status).toBe(403);
    expect((await api(other.port, `evidesk_token=${other.token}`)).status).toBe(403); // the old, port-blind name
    expect((await request(other.port, { path: '/', headers: { cookie: pair ?? '' } })).status).toBe(403);
    // Each host takes its own cookie, also among others in the same header.
    expect((await api(other.port, `${pair}; evidesk_token_${other.port}=${other.token}`)).status).toBe(200);
    expect((await api(host.port, pair ?? '')).status).toBe(200);
  });

  it('takes the token from the URL only on GET, and only to trade it for the cookie: a POST with the token only in its query is refused', async () => {
    const post = await request(host.port, { path: `/api/workspace.info?token=${host.token}`, method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(post.status).toBe(403);
    expect((await request(host.port, { path: `/?token=${host.token}`, method: 'HEAD' })).status).toBe(403);
    expect((await request(host.port, { path: `/?token=${host.token}`, method: 'PUT', body: 'x' })).status).toBe(403);
    // GET with the token in the URL serves nothing itself: it answers with the cookie and a redirect.
    const get = await request(host.port, { path: `/app.js?token=${host.token}` });
    expect(get.status).toBe(303);
    expect(get.headers.location).toBe('/app.js');
    expect(get.body).toBe('');
  });

  it('never serves source maps, and the renderer build emits none', async () => {
    const auth = { 'x-evidesk-token': host.token };
    expect((await request(host.port, { path: '/app.js', headers: auth })).status).toBe(200);
    for (const path of ['/app.js.map', '/APP.JS.MAP', '/APP2.JS.MAP', '/app%2Ejs%2Emap', '/./app.js.map', '/x/../app.js.map']) {
      const reply = await request(host.port, { path, headers: auth });
      expect(reply.status, path).toBe(404);
      expect(reply.body, path).not.toContain('secret.ts');
    }
    const config = viteConfig as { build?: { sourcemap?: unknown } };
    expect(config.build?.sourcemap).toBe(false);
  });
});
