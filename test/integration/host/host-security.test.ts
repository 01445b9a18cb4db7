import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHost, type Host } from '../../../electron/host/server.ts';
import { makePdf, threePages, writeFile } from '../../support/pdf-fixtures.ts';
import { openTestServices, tempDir } from '../../support/workspace.ts';

interface Reply {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** Raw requests, so a test can send any Host and Origin header it likes. */
function request(port: number, options: { path: string; method?: string; headers?: Record<string, string>; body?: string }): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path: options.path, method: options.method ?? 'GET', headers: options.headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('latin1') }));
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

describe('loopback host: token, Host and Origin checks', () => {
  let host: Host;
  let services: ReturnType<typeof openTestServices>;
  let pdfBytes: Uint8Array;
  const api = (extra: Record<string, string> = {}) => ({
    path: '/api/workspace.info',
    method: 'POST',
    headers: { 'content-type': 'application/json', host: `127.0.0.1:${host.port}`, ...extra },
    body: '{}',
  });

  beforeAll(async () => {
    services = openTestServices();
    const staticDir = tempDir();
    writeFile(staticDir, 'index.html', '<!doctype html><title>t</title>');
    host = await startHost({ services, staticDir });
    pdfBytes = await makePdf(threePages());
    const file = writeFile(path.join(services.dir, 'docs'), 'doc.pdf', pdfBytes);
    await services.ingest.ingest({ paths: [file] });
  });
  afterAll(async () => {
    await host.close();
    services.close();
  });

  it('binds to 127.0.0.1 and answers a request with the token through the dispatcher', async () => {
    const reply = await request(host.port, api({ 'x-evidesk-token': host.token }));
    expect(reply.status).toBe(200);
    const envelope = JSON.parse(reply.body) as { ok: boolean; value: { sourceCount: number } };
    expect(envelope.ok).toBe(true);
    expect(envelope.value.sourceCount).toBe(1);
  });

  it('listens on 127.0.0.1 only: another loopback address of the machine is refused', async () => {
    // Linux routes all of 127.0.0.0/8 to the loopback device: a host bound to 0.0.0.0 would answer here.
    const reached = await new Promise<boolean>((resolve) => {
      const socket = net.connect({ host: '127.0.0.2', port: host.port });
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    expect(reached).toBe(false);
  });

  it('draws a fresh random token of 24 bytes for every host', async () => {
    const another = await startHost({ services, staticDir: tempDir() });
    try {
      expect(another.token).not.toBe(host.token);
      for (const token of [host.token, another.token]) expect(Buffer.from(token, 'base64url')).toHaveLength(24);
      expect(another.url).toBe(`http://127.0.0.1:${another.port}/?token=${another.token}`);
    } finally {
      await another.close();
    }
  });

  it('refuses a request without the token with 403', async () => {
    expect((await request(host.port, api())).status).toBe(403);
    expect((await request(host.port, { path: '/', headers: { host: `127.0.0.1:${host.port}` } })).status).toBe(403);
    expect((await request(host.port, { path: '/source/1', headers: { host: `127.0.0.1:${host.port}` } })).status).toBe(403);
    expect((await request(host.port, api({ 'x-evidesk-token': 'not-the-token' }))).status).toBe(403);
  });

  it('refuses a foreign Origin with 403, even with the token', async () => {
    const reply = await request(host.port, api({ 'x-evidesk-token': host.token, origin: 'http://evil.example' }));
    expect(reply.status).toBe(403);
    expect(reply.body).toContain('Origin');
    const own = await request(host.port, api({ 'x-evidesk-token': host.token, origin: `http://127.0.0.1:${host.port}` }));
    expect(own.status).toBe(200);
  });

  it('refuses a foreign Host header with 403 (DNS rebinding), even with the token', async () => {
    const reply = await request(host.port, api({ 'x-evidesk-token': host.token, host: `evil.example:${host.port}` }));
    expect(reply.status).toBe(403);
    expect(reply.body).toContain('Host');
  });

  it('trades the token in the URL for a same-site cookie and a redirect', async () => {
    const reply = await request(host.port, { path: `/?token=${encodeURIComponent(host.token)}`, headers: { host: `127.0.0.1:${host.port}` } });
    expect(reply.status).toBe(303);
    expect(reply.headers.location).toBe('/');
    const cookie = String(reply.headers['set-cookie']);
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Strict');
    const page = await request(host.port, { path: '/', headers: { host: `127.0.0.1:${host.port}`, cookie: cookie.split(';')[0] ?? '' } });
    expect(page.status).toBe(200);
    expect(page.headers['content-security-policy']).toContain("default-src 'self'");
  });

  it('returns coded envelopes for bad input and unknown handlers', async () => {
    const auth = { 'x-evidesk-token': host.token, host: `127.0.0.1:${host.port}`, 'content-type': 'application/json' };
    const unknown = JSON.parse((await request(host.port, { path: '/api/nope', method: 'POST', headers: auth, body: '{}' })).body) as { ok: boolean; error: { code: string } };
    expect(unknown).toMatchObject({ ok: false, error: { code: 'UNKNOWN_HANDLER' } });
    const invalid = JSON.parse((await request(host.port, { path: '/api/sources.get', method: 'POST', headers: auth, body: '{"id":"x"}' })).body) as { ok: boolean; error: { code: string } };
    expect(invalid).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
    const missing = JSON.parse((await request(host.port, { path: '/api/sources.get', method: 'POST', headers: auth, body: '{"id":999}' })).body) as { ok: boolean; error: { code: string } };
    expect(missing).toMatchObject({ ok: false, error: { code: 'SOURCE_NOT_FOUND' } });
  });

  it('takes an answer file larger than 16 MB over HTTP to the handler, which judges its content', async () => {
    const auth = { 'x-evidesk-token': host.token, host: `127.0.0.1:${host.port}`, 'content-type': 'application/json' };
    const content = 'Not an answer format. '.repeat(800_000); // 17.6 MB
    const reply = await request(host.port, { path: '/api/answers.import', method: 'POST', headers: auth, body: JSON.stringify({ fileName: 'big.txt', content }) });
    expect(JSON.parse(reply.body)).toMatchObject({ ok: false, error: { code: 'ANSWER_FORMAT_UNKNOWN' } });
  });

  it('serves source bytes by id with range requests, and refuses unknown ids and paths', async () => {
    const auth = { 'x-evidesk-token': host.token, host: `127.0.0.1:${host.port}` };
    const whole = await request(host.port, { path: '/source/1', headers: auth });
    expect(whole.status).toBe(200);
    expect(whole.headers['accept-ranges']).toBe('bytes');
    expect(Number(whole.headers['content-length'])).toBe(pdfBytes.length);
    const part = await request(host.port, { path: '/source/1', headers: { ...auth, range: 'bytes=0-7' } });
    expect(part.status).toBe(206);
    expect(part.body).toBe(Buffer.from(pdfBytes.subarray(0, 8)).toString('latin1'));
    expect(part.headers['content-range']).toBe(`bytes 0-7/${pdfBytes.length}`);
    expect((await request(host.port, { path: '/source/1', headers: { ...auth, range: `bytes=${pdfBytes.length + 10}-` } })).status).toBe(416);
    expect((await request(host.port, { path: '/source/42', headers: auth })).status).toBe(404);
    expect((await request(host.port, { path: '/source/..%2F..%2Fetc%2Fpasswd', headers: auth })).status).toBe(404);
    expect((await request(host.port, { path: '/..%2F..%2F..%2Fetc%2Fpasswd', headers: auth })).status).toBe(404);
  });
});
