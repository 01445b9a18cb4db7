// A real HTTP server on 127.0.0.1 for web-source tests: each test sets the routes it needs; the
// server counts the requests each path received.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Route {
  status?: number;
  headers?: Record<string, string>;
  body?: string | Uint8Array;
  /** Writes the body in pieces this far apart, and never ends when `hang` is set (a slow server). */
  hang?: boolean;
}

export interface TestWebServer {
  url(path: string): string;
  routes: Map<string, Route | (() => Route)>;
  hits: Map<string, number>;
  close(): Promise<void>;
}

export async function startWebServer(): Promise<TestWebServer> {
  const routes = new Map<string, Route | (() => Route)>();
  const hits = new Map<string, number>();
  const sockets = new Set<import('node:net').Socket>();
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const found = routes.get(path);
    const route = typeof found === 'function' ? found() : found;
    if (!route) {
      res.writeHead(404, { 'content-type': 'text/html' });
      res.end('<html><body><p>No such page.</p></body></html>');
      return;
    }
    res.writeHead(route.status ?? 200, route.headers ?? {});
    if (route.hang) {
      // Headers and a first piece, then nothing: the client's deadline must end it.
      res.write('<html><body><p>Loading');
      return;
    }
    res.end(route.body ?? '');
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path) => `http://127.0.0.1:${port}${path}`,
    routes,
    hits,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** An article page long enough for Readability, with navigation and a footer around it. */
export function articlePage(title: string, paragraphs: string[], extra = ''): string {
  const body = paragraphs.map((p) => `<p>${p}</p>`).join('\n');
  return `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title></head><body>
<nav><a href="/">Home</a> | <a href="/about">About us</a> | <a href="/contact">Contact</a></nav>
<article><h1>${title}</h1>
${body}
${extra}
</article>
<footer><p>Copyright 2026 Example Analytics. All rights reserved.</p></footer>
</body></html>`;
}

export const HTML = { 'content-type': 'text/html; charset=utf-8' };
