import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { toErrorData } from '../../shared/contract/errors.ts';
import { MAX_ANSWER_CHARS } from '../../shared/contract/answer-schemas.ts';
import { fail, ok } from '../../shared/contract/envelope.ts';
import { parseRange } from '../services/sources/byte-range.ts';
import type { DeskServices } from '../services/shared-desk.ts';
import { BodyBudget, readBodyWithin } from './request-body.ts';
import { CONTENT_SECURITY_POLICY, checkRequest, tokenCookie } from './security.ts';
import { contentTypeFor, resolveInside } from './static-files.ts';
import { receiveUpload } from './upload.ts';

export interface HostOptions {
  /** The local workspace's services, or a shared workspace's desk (issue 13). */
  services: DeskServices;
  /** The built renderer (dist/renderer). */
  staticDir: string;
  port?: number;
  token?: string;
  /** One request body's cap in bytes (default: the largest answer file the contract accepts). */
  maxBodyBytes?: number;
  /** All request bodies held at once, in bytes (default: three single-body caps). */
  bodyBudgetBytes?: number;
}

export interface Host {
  readonly port: number;
  readonly token: string;
  /** The URL to open: it carries the token once; the page then keeps it in a same-site cookie. */
  readonly url: string;
  /** Request-body bytes held now, across requests (what the budget counts). */
  bodyBytesInFlight(): number;
  close(): Promise<void>;
}

// The largest request is an answer file's content: up to 3 UTF-8 bytes per UTF-16 unit, plus room for
// the JSON around it. A smaller cap would refuse answers the contract accepts.
const MAX_BODY = MAX_ANSWER_CHARS * 3 + 1024 * 1024;
// Enough for a few of the largest answers at once; parsing multiplies what a body holds, so not more.
const BODY_BUDGET = MAX_BODY * 3;

function send(res: http.ServerResponse, status: number, body: string | Buffer, type: string, extra: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(body), 'x-content-type-options': 'nosniff', ...extra });
  res.end(body);
}

function sendJson(res: http.ServerResponse, value: unknown, status = 200): void {
  send(res, status, JSON.stringify(value), 'application/json; charset=utf-8', { 'cache-control': 'no-store' });
}

/** The handler name from `/api/<name>`, or null when its percent-escapes are malformed. */
function handlerName(pathname: string): string | null {
  try {
    return decodeURIComponent(pathname.slice('/api/'.length));
  } catch {
    return null;
  }
}

/**
 * The loopback HTTP host (DESIGN.md §2): the built renderer, `POST /api/<handler>` through the
 * same dispatcher as IPC, source bytes by id with range requests, and server-sent events.
 * Bound to 127.0.0.1 only.
 */
export async function startHost(options: HostOptions): Promise<Host> {
  const { services, staticDir } = options;
  // Citations agents make in other processes (evidesk mcp), or a teammate's rows on a shared
  // workspace, reach the page as events.
  services.citations.feed.start();
  const token = options.token ?? randomBytes(24).toString('base64url');
  const maxBody = options.maxBodyBytes ?? MAX_BODY;
  const budget = new BodyBudget(options.bodyBudgetBytes ?? BODY_BUDGET);
  let port = 0;

  const server = http.createServer((req, res) => {
    void handle(req, res).catch((e: unknown) => {
      if (!res.headersSent) sendJson(res, fail(toErrorData(e)));
      else res.destroy();
    });
  });

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    let url: URL;
    try {
      url = new URL(req.url ?? '/', `http://127.0.0.1:${port}`);
    } catch {
      send(res, 400, 'Bad request.\n', 'text/plain; charset=utf-8');
      return;
    }
    const verdict = checkRequest(req, url, port, token);
    if (!verdict.ok) {
      send(res, 403, `Forbidden: ${verdict.reason}.\n`, 'text/plain; charset=utf-8');
      return;
    }
    const baseHeaders = { 'content-security-policy': CONTENT_SECURITY_POLICY, 'referrer-policy': 'no-referrer', 'x-frame-options': 'DENY' };
    if (verdict.tokenFromQuery && req.method === 'GET') {
      // Trade the token in the URL for a cookie, then drop it from the address bar and history.
      url.searchParams.delete('token');
      res.writeHead(303, {
        ...baseHeaders,
        location: url.pathname + (url.search || ''),
        'set-cookie': tokenCookie(port, token),
      });
      res.end();
      return;
    }

    if (url.pathname.startsWith('/api/')) {
      if (req.method !== 'POST') {
        send(res, 405, 'Use POST.\n', 'text/plain; charset=utf-8', { allow: 'POST' });
        return;
      }
      const name = handlerName(url.pathname);
      if (name === null) {
        sendJson(res, fail({ code: 'INVALID_INPUT', message: 'The API name in the URL has a malformed percent-escape.', details: { path: url.pathname.slice(0, 200) } }), 400);
        return;
      }
      const body = await readBodyWithin(req, res, budget, maxBody);
      if (!body.ok) {
        if (body.error.code === 'CANCELLED') res.destroy();
        else sendJson(res, fail(body.error), body.status);
        return;
      }
      let input: unknown;
      try {
        input = body.text.trim() === '' ? {} : (JSON.parse(body.text) as unknown);
      } catch {
        sendJson(res, fail({ code: 'INVALID_INPUT', message: 'The request body is not valid JSON.' }));
        return;
      }
      // The handler's own time, for the browser's timing tools and the scale bench (issue 16).
      const started = performance.now();
      const json = JSON.stringify(await services.dispatch(name, input));
      const handled = performance.now() - started;
      send(res, 200, json, 'application/json; charset=utf-8', { 'cache-control': 'no-store', 'server-timing': `handler;dur=${handled.toFixed(1)}` });
      return;
    }

    if (url.pathname === '/upload') {
      if (req.method !== 'POST') {
        send(res, 405, 'Use POST.\n', 'text/plain; charset=utf-8', { allow: 'POST' });
        return;
      }
      try {
        sendJson(res, ok(await receiveUpload(req, url, services)));
      } catch (e) {
        const data = toErrorData(e);
        sendJson(res, fail(data), data.code === 'FILE_TOO_LARGE' ? 413 : 200);
      }
      return;
    }

    if (url.pathname === '/events') {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store', connection: 'keep-alive' });
      res.write(': connected\n\n');
      const unsubscribe = services.events.subscribe((event) => res.write(`data: ${JSON.stringify(event)}\n\n`));
      const keepAlive = setInterval(() => res.write(': keep-alive\n\n'), 15_000);
      req.on('close', () => {
        clearInterval(keepAlive);
        unsubscribe();
      });
      return;
    }

    const sourceMatch = /^\/source\/(\d+)$/.exec(url.pathname);
    if (sourceMatch) {
      await serveSource(req, res, Number(sourceMatch[1]));
      return;
    }

    if (req.method !== 'GET' && req.method !== 'HEAD') {
      send(res, 405, 'Method not allowed.\n', 'text/plain; charset=utf-8');
      return;
    }
    const file = resolveInside(staticDir, url.pathname === '/' ? '/index.html' : url.pathname);
    if (!file) {
      send(res, 404, 'Not found.\n', 'text/plain; charset=utf-8');
      return;
    }
    const body = await fs.promises.readFile(file);
    send(res, 200, body, contentTypeFor(file), { ...baseHeaders, 'cache-control': file.endsWith('index.html') ? 'no-store' : 'max-age=3600' });
  }

  async function serveSource(req: http.IncomingMessage, res: http.ServerResponse, id: number): Promise<void> {
    let servable;
    try {
      servable = await services.sourceFiles.resolve(id);
    } catch (e) {
      const data = toErrorData(e);
      // no-store: browsers cache a bare 410 indefinitely, and a relinked file must open at once.
      send(res, data.code === 'SOURCE_NOT_FOUND' ? 404 : 410, JSON.stringify(fail(data)), 'application/json; charset=utf-8', { 'cache-control': 'no-store' });
      return;
    }
    const size = servable.size;
    const range = parseRange(req.headers.range, size);
    const headers = {
      'content-type': servable.contentType,
      'accept-ranges': 'bytes',
      'x-source-origin': servable.origin,
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
      'content-security-policy': "default-src 'none'; sandbox",
    };
    if (range === 'unsatisfiable') {
      res.writeHead(416, { ...headers, 'content-range': `bytes */${size}` });
      res.end();
      return;
    }
    const start = range?.start ?? 0;
    const end = range?.end ?? size - 1;
    res.writeHead(range ? 206 : 200, {
      ...headers,
      'content-length': String(end - start + 1),
      ...(range ? { 'content-range': `bytes ${start}-${end}/${size}` } : {}),
    });
    if (req.method === 'HEAD' || size === 0) {
      res.end();
      return;
    }
    fs.createReadStream(servable.filePath, { start, end }).on('error', () => res.destroy()).pipe(res);
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  port = (server.address() as AddressInfo).port;
  return {
    port,
    token,
    url: `http://127.0.0.1:${port}/?token=${encodeURIComponent(token)}`,
    bodyBytesInFlight: () => budget.inUse,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
